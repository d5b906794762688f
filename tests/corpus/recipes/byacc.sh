# Berkeley yacc, a parser generator: LR(0) states, LALR(1) lookaheads
# (relations over bit sets), conflict resolution and table packing: a
# compiler of grammars into C.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=byacc
PROGRAMS=byacc
SET=eval
build() {
    ./configure --host=$TRIPLE
    make -j2 yacc
    cp yacc "$OUT/byacc"
}
