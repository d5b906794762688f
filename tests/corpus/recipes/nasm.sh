# NASM, the Netwide Assembler (an x86 assembler, run here as a riscv64 program).
SRCPKG=nasm
PROGRAMS=nasm
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking
    make -j2 nasm
    cp nasm "$OUT/nasm"
}
