# GNU sed, the stream editor.
SRCPKG=sed
PROGRAMS=sed
build() {
    ./configure --host=$TRIPLE --disable-nls --disable-acl --without-selinux --disable-dependency-tracking
    make -j2 sed/sed
    cp sed/sed "$OUT/sed"
}
