# cmark, the CommonMark reference parser and HTML renderer.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=cmark
PROGRAMS=cmark
SET=eval
build() {
    cmake -S . -B b -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=riscv64 \
        -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_EXE_LINKER_FLAGS="$LDFLAGS" \
        -DCMARK_TESTS=OFF -DCMARK_SHARED=OFF -DCMARK_STATIC=ON
    make -j2 -C b cmark_exe
    cp b/src/cmark "$OUT/cmark"
}
