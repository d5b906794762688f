# Opus, the audio codec (its floating-point build: SILK's and CELT's
# analysis, MDCT, pitch search); opus_demo encodes raw PCM to packets.
# Tuning set's later additions only (tests/corpus/SPLIT.md).
SRCPKG=opus
PROGRAMS=opus_demo
SET=tuning-extra
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-shared --disable-doc \
        --enable-extra-programs
    make -j2 opus_demo LDFLAGS=-all-static   # libtool: -static alone links dynamically
    cp opus_demo "$OUT/opus_demo"
}
