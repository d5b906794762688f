# Qhull, convex hulls and Delaunay triangulations (floating point geometry);
# rbox generates its point sets.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=qhull
PROGRAMS="qhull rbox"
SET=eval
build() {
    cmake -S . -B b -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=riscv64 \
        -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_EXE_LINKER_FLAGS="$LDFLAGS" \
        -DBUILD_SHARED_LIBS=OFF -DLINK_APPS_SHARED=OFF
    make -j2 -C b qhull rbox
    cp b/qhull b/rbox "$OUT"/
}
