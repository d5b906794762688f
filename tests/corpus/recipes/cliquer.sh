# Cliquer, maximum (weighted) cliques by Ostergard's branch and bound: a
# graph algorithm over bitsets.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=cliquer
PROGRAMS=cliquer
SET=eval
build() {
    $CC $CFLAGS -DENABLE_LONG_OPTIONS $LDFLAGS -o "$OUT/cliquer" cl.c cliquer.c graph.c reorder.c
}
