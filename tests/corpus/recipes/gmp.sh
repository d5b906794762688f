# GMP's expression evaluator (demos/pexpr): bignum powers, factorials,
# Fibonacci numbers and primality tests, mostly the mpn layer's multiply
# and divide loops (integer multiply/divide-heavy).
# Tuning set's later additions only (tests/corpus/SPLIT.md).
SRCPKG=gmp
PROGRAMS=pexpr
SET=tuning-extra
build() {
    # Debian's +dfsg source drops doc/ (the manual); configure still makes its
    # Makefile: a stub with nothing to do. Generic C limbs (still mul and
    # mulhu): the riscv64 assembly needs a host m4.
    [ -f doc/Makefile.in ] || { mkdir -p doc; printf 'all install clean distclean:\n\t@:\n' > doc/Makefile.in; }
    ./configure --host=$TRIPLE --disable-shared --disable-cxx --disable-assembly
    make -j2
    make -C demos pexpr LDFLAGS=-all-static
    cp demos/pexpr "$OUT/pexpr"
}
