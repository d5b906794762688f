# Jim Tcl, a small Tcl interpreter: everything a string with a cached
# internal form (lists, dicts, integers, compiled expressions), procs and
# command lookup by name.
# Evaluation set only (tests/corpus/SPLIT.md).
SRCPKG=jimtcl
PROGRAMS=jimsh
SET=eval
build() {
    ./configure --host=$TRIPLE --disable-lineedit --disable-docs
    make -j2 jimsh
    cp jimsh "$OUT/jimsh"
}
