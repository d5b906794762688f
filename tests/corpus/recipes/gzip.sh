# GNU gzip (compressor).
SRCPKG=gzip
PROGRAMS=gzip
build() {
    # Debian's patch to configure.ac only drops -Werror from the maintainer
    # warnings; the shipped configure is used as it is, without autoreconf.
    touch -r aclocal.m4 configure.ac
    ./configure --host=$TRIPLE --disable-dependency-tracking
    make -j2 -C lib
    make -j2 version.h gzip
    cp gzip "$OUT/gzip"
}
