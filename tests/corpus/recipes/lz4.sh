# lz4, the LZ4 fast compressor (a byte codec: hash-table match finding).
# Built from its sources in one step (Debian's patch links the program
# against the system's liblz4).
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=lz4
PROGRAMS=lz4
SET=eval
build() {
    $CC $CFLAGS -Ilib $LDFLAGS -o "$OUT/lz4" programs/*.c lib/lz4.c lib/lz4hc.c lib/lz4frame.c lib/xxhash.c
}
