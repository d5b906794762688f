# potrace, a bitmap tracer: decomposes a bitmap into paths and fits Bezier
# curves (floating point), writing SVG.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=potrace
PROGRAMS=potrace
SET=eval
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-zlib --disable-shared
    make -j2 -C src potrace LDFLAGS=-all-static   # libtool: -static alone links dynamically
    cp src/potrace "$OUT/potrace"
}
