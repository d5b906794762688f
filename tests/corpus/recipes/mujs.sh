# MuJS, an embeddable JavaScript interpreter (bytecode compiler and VM).
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=mujs
PROGRAMS=mujs
SET=eval
build() {
    make -j2 build=release HAVE_READLINE=no CC="$CC" LDFLAGS="$LDFLAGS" build/release/mujs
    cp build/release/mujs "$OUT/mujs"
}
