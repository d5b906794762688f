# gdbmtool from GNU dbm, a hashed key-value database on a regular file.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=gdbm
PROGRAMS=gdbmtool
SET=eval
build() {
    ./configure --host=$TRIPLE --disable-dependency-tracking --disable-shared --disable-nls \
        --without-readline --disable-memory-mapped-io
    make -j2 -C src && make -j2 -C tools gdbmtool LDFLAGS=-all-static
    cp tools/gdbmtool "$OUT/gdbmtool"
}
