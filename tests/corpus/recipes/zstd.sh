# Zstandard: the zstd command-line program (no threads, no legacy formats,
# no zlib/lzma/lz4 back ends).
SRCPKG=libzstd
PROGRAMS=zstd
build() {
    make -j2 -C programs zstd CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
        HAVE_THREAD=0 HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 ZSTD_LEGACY_SUPPORT=0
    cp programs/zstd "$OUT/zstd"
}
