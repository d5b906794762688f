# The Tiny C Compiler, as a riscv64 compiler running on riscv64. Only the
# compiler proper is built (it compiles with -c; linking would need its
# runtime library, which only a tcc running on the build machine could make).
# Its own headers (stdarg.h, stddef.h...) go to tcc-include/.
SRCPKG=tcc
PROGRAMS=tcc
build() {
    ./configure --cpu=riscv64 --cc="$CC" --extra-cflags="$CFLAGS" --extra-ldflags="$LDFLAGS" \
        --prefix=/usr --tccdir=/usr/lib/tcc
    make -j2 tcc
    cp tcc "$OUT/tcc"
    cp -r include "$OUT/tcc-include"
}
