# bzip2 (block-sorting compressor), the command-line program and its library.
SRCPKG=bzip2
PROGRAMS=bzip2
build() {
    $CC $CFLAGS -D_FILE_OFFSET_BITS=64 $LDFLAGS -o "$OUT/bzip2" bzip2.c blocksort.c huffman.c \
        crctable.c randtable.c compress.c decompress.c bzlib.c
}
