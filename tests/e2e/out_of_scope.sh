#!/usr/bin/env bash
# What is out of scope fails at once, at the call, naming it and the pc:
# threads, fork, running another program, network sockets.
source "$(dirname "$0")/lib.sh"
RVCC=${RVCC:-riscv64-linux-gnu-gcc}
cd "$T"
cat > calls.c <<'C'
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
static void *thread(void *arg) { return arg; }
int main(int argc, char **argv) {
    printf("before\n");
    fflush(stdout);
    if (!strcmp(argv[1], "fork")) fork();
    if (!strcmp(argv[1], "thread")) { pthread_t t; pthread_create(&t, NULL, thread, NULL); }
    if (!strcmp(argv[1], "exec")) execl("/bin/true", "true", (char *)NULL);
    if (!strcmp(argv[1], "inet")) socket(AF_INET, SOCK_STREAM, 0);
    printf("after\n");
    return 0;
}
C
"$RVCC" -static -O1 -pthread -o calls.elf calls.c
check() { # check ARG PATTERN
    set +e; "$BIN/bbv" --count-only -- ./calls.elf "$1" > out.txt 2> err.txt; local status=$?; set -e
    [ "$status" -ne 0 ] || fail "$1: the run went on"
    expect_eq "$1: output up to the call" before "$(cat out.txt)"
    grep -q "$2 at pc 0x[0-9a-f]*" err.txt || fail "$1: no message naming the call and the pc: $(cat err.txt)"
    echo "ok   $1: $(grep -m1 'at pc' err.txt)"
}
check fork 'clone (fork)'
check thread 'clone3\? (a thread)'
check exec 'execve (/bin/true)'
check inet 'socket (address family 2)'
