# SQLite: the amalgamation (sqlite3.c) and the command-line shell, generated
# on the build machine (tclsh) and cross-compiled.
SRCPKG=sqlite3
PROGRAMS=sqlite3
build() {
    mkdir gen && cd gen
    CC=gcc CFLAGS=-O1 LDFLAGS= ../configure --disable-tcl --disable-readline --disable-threadsafe
    make sqlite3.c shell.c
    $CC $CFLAGS -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_DEFAULT_MEMSTATUS=0 \
        -I. $LDFLAGS -o "$OUT/sqlite3" shell.c sqlite3.c -lm
}
