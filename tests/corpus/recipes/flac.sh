# FLAC, the lossless audio codec (linear prediction, Rice coding).
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=flac
PROGRAMS=flac
SET=eval
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-shared --disable-ogg \
        --disable-cpplibs --disable-doxygen-docs --disable-xmms-plugin --disable-examples
    make -j2 -C src/share && make -j2 -C src/libFLAC
    make -j2 -C src/flac flac LDFLAGS=-all-static   # libtool: -static alone links dynamically
    cp src/flac/flac "$OUT/flac"
}
