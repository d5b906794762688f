# PROBCONS, multiple alignment of protein sequences by probabilistic
# consistency: pair-HMM forward-backward posteriors in floating point, then
# the consistency transformation (sparse matrix products) and a guide tree.
# Tuning set's later additions only (tests/corpus/SPLIT.md).
SRCPKG=probcons
PROGRAMS=probcons
SET=tuning-extra
build() {
    $CXX $CXXFLAGS -DNDEBUG -DNumInsertStates=2 '-DVERSION="1.12"' $LDFLAGS -o "$OUT/probcons" Main.cc -lm
}
