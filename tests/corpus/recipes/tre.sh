# TRE's agrep: approximate regular-expression matching (a tagged NFA
# simulated with an error count per state) over the lines of a file.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=tre
PROGRAMS=tre-agrep
SET=eval
build() {
    # Its config.sub (2009) predates riscv64 and refuses the triple: the
    # triple's canonical name is answered here, any other name by the original.
    mv utils/config.sub utils/config.sub.orig
    printf '#!/bin/sh\ncase $1 in riscv64-*) echo riscv64-unknown-linux-gnu ;; *) exec /bin/sh "$0.orig" "$@" ;; esac\n' \
        > utils/config.sub
    chmod +x utils/config.sub
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-shared --disable-nls
    make -j2 -C lib && make -j2 -C src agrep LDFLAGS=-all-static   # libtool: -static alone links dynamically
    cp src/agrep "$OUT/tre-agrep"
}
