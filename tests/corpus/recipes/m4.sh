# GNU m4, the macro processor (recursive expansion, text rewriting).
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=m4
PROGRAMS=m4
SET=eval
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-nls
    make -j2 -C lib && make -j2 -C src m4
    cp src/m4 "$OUT/m4"
}
