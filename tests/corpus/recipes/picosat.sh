# PicoSAT, a CDCL SAT solver (clause learning, watched literals, restarts).
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=picosat
PROGRAMS=picosat
SET=eval
build() {
    CC="$CC" ./configure.sh -O
    make -j2 picosat CC="$CC" LDFLAGS="$LDFLAGS"
    cp picosat "$OUT/picosat"
}
