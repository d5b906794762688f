# GNU awk, a second AWK interpreter (a different engine from mawk's).
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=gawk
PROGRAMS=gawk
SET=eval
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-nls --disable-mpfr \
        --without-readline --disable-extensions
    make -j2 -C support && make -j2 gawk
    cp gawk "$OUT/gawk"
}
