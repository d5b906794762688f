# sparse, a C front end (the Linux kernel's semantic checker): its
# test-linearize parses and type-checks C, linearizes it into SSA, simplifies
# it (CSE, dead code, memory-to-register) and prints the intermediate code.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=sparse
PROGRAMS=sparse-linearize
SET=eval
build() {
    # without the optional libraries (libxml2, SQLite, GTK, LLVM) that pkg-config would find on the host
    make -j2 CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" PKG_CONFIG=false LLVM_CONFIG=false test-linearize
    cp test-linearize "$OUT/sparse-linearize"
}
