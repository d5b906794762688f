# GNU bash (traps, kill, read -t: signal handlers and interval timers).
SRCPKG=bash
PROGRAMS=bash
build() {
    ./configure --host=$TRIPLE --build="$(gcc -dumpmachine)" CC_FOR_BUILD=gcc \
        --without-bash-malloc --disable-nls --enable-static-link --without-curses \
        --disable-readline --disable-history --disable-progcomp
    make -j2 bash
    cp bash "$OUT/bash"
}
