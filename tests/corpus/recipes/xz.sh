# XZ Utils: the xz compressor (LZMA2) and liblzma.
SRCPKG=xz-utils
PROGRAMS=xz
build() {
    ./configure --host=$TRIPLE --disable-nls --disable-shared --disable-dependency-tracking \
        --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-lzma-links \
        --disable-scripts --disable-doc
    make -j2 -C src/liblzma
    make -j2 -C src/xz LDFLAGS="$LDFLAGS -all-static"
    cp src/xz/xz "$OUT/xz"
}
