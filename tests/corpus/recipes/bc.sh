# GNU bc, an arbitrary-precision calculator (bytecode interpreter over
# decimal bignums). Its build runs a bootstrap bc to compile the math
# library: here under qemu-riscv64.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=bc
PROGRAMS=bc
SET=eval
build() {
    # The unpacked files' times would have make rerun automake (absent).
    touch aclocal.m4 && touch configure && find . -name Makefile.in -exec touch {} + && touch config.h.in
    ./configure --host=$TRIPLE --disable-dependency-tracking
    sed -i 's|\./fbc -c|qemu-riscv64 ./fbc -c|' bc/Makefile
    make -j2 -C lib && make -j2 -C bc bc
    cp bc/bc "$OUT/bc"
}
