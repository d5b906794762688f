# mawk, an AWK interpreter.
SRCPKG=mawk
PROGRAMS=mawk
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking
    make -j2 mawk
    cp mawk "$OUT/mawk"
}
