# LAME, an MP3 encoder (psychoacoustic model, MDCT, quantisation: floating point).
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=lame
PROGRAMS=lame
SET=eval
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-shared --disable-gtktest
    make -j2 -C mpglib && make -j2 -C libmp3lame && make -j2 -C frontend lame LDFLAGS=-all-static
    cp frontend/lame "$OUT/lame"
}
