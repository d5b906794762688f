# FastTree, approximately-maximum-likelihood phylogenetic trees from a
# sequence alignment (floating point: profile distances, likelihoods, NNIs).
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=fasttree
PROGRAMS=fasttree
SET=eval
build() {
    $CC $CFLAGS -DUSE_DOUBLE $LDFLAGS -o "$OUT/fasttree" fasttree.c -lm
}
