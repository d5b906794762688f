# The Lua 5.4 interpreter, compiled straight from src/ (Debian's libtool
# build makes shared libraries; only the static interpreter is needed).
SRCPKG=lua5.4
PROGRAMS=lua
build() {
    cd src
    # written by debian/rules in a package build
    printf '#define DEB_HOST_MULTIARCH "%s"\n' "$TRIPLE" > lua5.4-deb-multiarch.h
    $CC $CFLAGS -std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX $LDFLAGS -o "$OUT/lua" \
        $(ls *.c | grep -v '^luac\.c$') -lm
}
