#!/usr/bin/env bash
# Checkpoints restore every descriptor a program can hold: a directory at its
# getdents position, /dev/null, /dev/zero and /dev/urandom, a pipe the
# program made with bytes still in it, dup'ed descriptors sharing an offset,
# a named FIFO holding bytes, a deleted file, and a standard input that is a pipe (what the program has
# not read yet travels in the checkpoint). Restoring at many points gives
# the tail of the uninterrupted run's output and its exit status. What
# cannot be restored (a socket) is refused when the checkpoint is taken,
# and nothing is left in the output directory.
source "$(dirname "$0")/lib.sh"
RVCC=${RVCC:-riscv64-linux-gnu-gcc}
cd "$T"

cat > holder.c <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static unsigned long sum;
static void mix(const void *p, size_t n) {
    for (size_t i = 0; i < n; i++) sum = sum * 131 + ((const unsigned char *)p)[i];
}
static void work(int rounds) {             /* time for checkpoints to land in */
    volatile unsigned long x = sum;
    for (int i = 0; i < rounds * 20000; i++) x = x * 6364136223846793005UL + 1;
    sum ^= x & 0xff;
}
int main(void) {
    int dir = open("tree", O_RDONLY | O_DIRECTORY), nul = open("/dev/null", O_WRONLY);
    int zero = open("/dev/zero", O_RDONLY), rnd = open("/dev/urandom", O_RDONLY);
    int p[2];
    pipe(p);
    int gone = open("scratch.txt", O_RDWR | O_CREAT | O_TRUNC, 0600);
    write(gone, "held after unlink\n", 18);
    unlink("scratch.txt");
    lseek(gone, 0, SEEK_SET);
    int same = dup(gone);
    int ff = open("fifo", O_RDWR);             /* a named FIFO, filling up */
    char buf[512];
    for (int round = 0; round < 40; round++) {
        char line[64];
        int n = snprintf(line, sizeof line, "round %d\n", round);
        write(p[1], line, (size_t)n);            /* the pipe fills faster than it drains */
        write(p[1], line, (size_t)n);
        n = (int)read(p[0], buf, 9);
        mix(buf, (size_t)n);
        struct { uint64_t ino; int64_t off; unsigned short reclen; unsigned char type; char name[]; } *d = (void *)buf;
        long got = syscall(61 /* getdents64 */, dir, buf, 64); /* one entry or so per round */
        if (got > 0) { printf("round %d dir entry %s\n", round, d->name); }
        read(zero, buf, 16); mix(buf, 16);
        write(nul, buf, 16);
        if (round % 10 == 0) { read(rnd, buf, 4); }  /* the stream is deterministic here */
        n = (int)read(round % 2 ? same : gone, buf, 3);
        mix(buf, (size_t)n);
        write(ff, "abcde", 5);
        n = (int)read(ff, buf, 3);
        mix(buf, (size_t)n);
        n = (int)read(0, buf, 7);                /* stdin, a pipe */
        if (n > 0) mix(buf, (size_t)n);
        printf("round %d sum %lu stdin %d\n", round, sum, n);
        fflush(stdout);
        work(round % 5 + 1);
    }
    return (int)(sum % 97);
}
C
"$RVCC" -static -O1 -o holder.elf holder.c
mkdir tree
mkfifo fifo
for i in $(seq 1 60); do touch "tree/file_$i"; done
seq 1 400 > stdin.txt

# The reference: the whole run, stdin through a pipe.
set +e; cat stdin.txt | "$BIN/bbv" --count-only -- ./holder.elf > full.out 2> full.err; full_status=$?; set -e
total=$(tail -n 1 full.err)
[ "$(grep -c '^round .* sum' full.out)" = 40 ] || fail "the reference run did not finish its rounds"
expect_eq "qemu agrees on the output" "$(cat stdin.txt | qemu-riscv64 ./holder.elf | md5sum)" "$(md5sum < full.out)"

points=$(python3 -c "t=$total; print(','.join(str(t * k // 13 + 11) for k in range(1, 13)))")
cat stdin.txt | "$BIN/checkpoint" -o ck --at "$points" -- ./holder.elf > take.out
head -c "$(stat -c %s take.out)" full.out | cmp -s - take.out || fail "output while taking checkpoints differs"
n_ckpt=$(ls ck/*.ckpt | wc -l)
expect_eq "checkpoints written" 12 "$n_ckpt"
for c in ck/*.ckpt; do
    "$BIN/checkpoint" --info "$c" > info.txt || fail "$c: --info refuses it"
    set +e
    "$BIN/checkpoint" --run "$c" --guest-output run.out --summary run.json < /dev/null
    status=$?
    set -e
    expect_eq "$(basename "$c") exit status" "$full_status" "$status"
    grep -q "\"end\": $total," run.json || fail "$(basename "$c"): ended at $(grep -o '"end": [0-9]*' run.json), not $total"
    n=$(stat -c %s run.out)
    [ "$n" -gt 0 ] || fail "$(basename "$c"): no output after restoring"
    tail -c "$n" full.out | cmp -s - run.out || fail "$(basename "$c"): output is not the tail of the full run's"
done
echo "ok   $n_ckpt checkpoints with a directory, devices, a pipe, a FIFO, a deleted file and a piped stdin restore exactly"

# The same point taken again: the descriptors are described the same way (a
# pipe is known by its lowest descriptor, not by a host inode number).
cat stdin.txt | "$BIN/checkpoint" -o ck_again --at "${points%%,*}" -- ./holder.elf > /dev/null
descriptors() {
    python3 "$TOP/tests/tools/ckpt_edit.py" "$1" /dev/null --json "OS  " 'import json; print(json.dumps(j["files"]))'
}
first=$(ls ck/*.ckpt | head -n 1)
expect_eq "descriptors of the same checkpoint taken twice" "$(descriptors "$first")" "$(descriptors ck_again/*.ckpt)"
descriptors "$first" | grep -q '"fd": 7, [^}]*"kind": "pipe", "pipe": 7,' || fail "the pipe is not known by its lowest descriptor: $(descriptors "$first")"

# A socket cannot be reopened: refused when taken, and nothing is left.
cat > sock.c <<'C'
#include <sys/socket.h>
#include <unistd.h>
int main(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    volatile unsigned long x = 0;
    for (int i = 0; i < 200000; i++) x += i;
    return fd < 0;
}
C
"$RVCC" -static -O1 -o sock.elf sock.c
set +e; "$BIN/checkpoint" -o ck_sock --at 150000 -- ./sock.elf 2> sock.err; status=$?; set -e
[ "$status" -ne 0 ] || fail "a checkpoint with a named FIFO open was taken"
grep -q "cannot be checkpointed: sockets are not supported" sock.err || fail "no reason given: $(cat sock.err)"
[ "$(wc -l < sock.err)" = 1 ] || fail "more than one line of error: $(cat sock.err)"
[ ! -e ck_sock ] || fail "the refused run left its output directory"
[ -z "$(ls -A . | grep '^\.ck_sock')" ] || fail "the refused run left its staging directory"
echo "ok   a socket is refused when the checkpoint is taken: $(cat sock.err)"

# The program ends before the last --at point: no checkpoints at all, no manifest.
set +e; "$BIN/checkpoint" -o ck_short --at 1000,999999999 -- ./sock.elf 2> short.err; status=$?; set -e
[ "$status" -ne 0 ] || fail "checkpoint past the end succeeded"
[ ! -e ck_short ] || fail "a failed run left $(ls ck_short)"
echo "ok   a run that ends before its last point leaves nothing"

# A writable MAP_SHARED mapping: the file changes as the program goes on, so
# its pages and size travel in the checkpoint and are put back on restore.
cat > shared.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
int main(void) {
    int fd = open("shared.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    ftruncate(fd, 3 * 4096);
    unsigned char *m = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    unsigned long sum = 0;
    for (int round = 0; round < 30; round++) {
        for (int i = 0; i < 3 * 4096; i += 61) m[i] = (unsigned char)(m[i] * 7 + round + i);
        unsigned char buf[512];
        pread(fd, buf, sizeof buf, (round * 397) % (3 * 4096 - 512));   /* the file itself, not the mapping */
        for (int i = 0; i < 512; i++) sum = sum * 31 + buf[i];
        if (round == 15) ftruncate(fd, 2 * 4096 + 100);                 /* the file shrinks under the mapping */
        printf("round %d sum %lu\n", round, sum);
        fflush(stdout);
        volatile unsigned long x = sum;
        for (int i = 0; i < 40000; i++) x = x * 6364136223846793005UL + 1;
        if (round >= 15) for (int i = 0; i < 2 * 4096; i += 61) m[i] ^= 0x5a; /* pages still inside the file */
    }
    return (int)(sum % 100);
}
C
"$RVCC" -static -O1 -o shared.elf shared.c
set +e; "$BIN/bbv" --count-only -- ./shared.elf > sfull.out 2> sfull.err; sstatus=$?; set -e
stotal=$(tail -n 1 sfull.err)
expect_eq "qemu agrees on the shared mapping program" "$(qemu-riscv64 ./shared.elf | md5sum)" "$(md5sum < sfull.out)"
spoints=$(python3 -c "t=$stotal; print(','.join(str(t * k // 9 + 5) for k in range(1, 9)))")
"$BIN/checkpoint" -o sck --at "$spoints" -- ./shared.elf > /dev/null
for c in sck/*.ckpt; do
    set +e; "$BIN/checkpoint" --run "$c" --guest-output srun.out --summary srun.json; st=$?; set -e
    expect_eq "$(basename "$c") exit status" "$sstatus" "$st"
    grep -q "\"end\": $stotal," srun.json || fail "$(basename "$c"): shared mapping run ended elsewhere"
    tail -c "$(stat -c %s srun.out)" sfull.out | cmp -s - srun.out || fail "$(basename "$c"): the shared file was not restored"
done
echo "ok   a writable shared mapping's file is restored to its contents and size at each of 8 checkpoints"

# A file the program reads and writes is reopened as it is at restore time:
# when it changed after the checkpoint, restoring says so (it does not when
# the file is as it was).
cat > rw.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int fd = open("rw.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    unsigned long sum = 0;
    for (int round = 0; round < 20; round++) {
        char c = (char)('a' + round);
        pwrite(fd, &c, 1, round);
        char buf[32] = {0};
        pread(fd, buf, sizeof buf, 0);
        for (int i = 0; i < 32; i++) sum = sum * 31 + (unsigned char)buf[i];
        volatile unsigned long x = sum;
        for (int i = 0; i < 30000; i++) x = x * 6364136223846793005UL + 1;
    }
    printf("%lu\n", sum);
    return 0;
}
C
"$RVCC" -static -O1 -o rw.elf rw.c
rwtotal=$("$BIN/bbv" --count-only -- ./rw.elf 2>&1 > /dev/null | tail -n 1)
# (--self-contained: no file history, so the file is the host's.)
"$BIN/checkpoint" -o rwck --self-contained --at $((rwtotal / 2)) -- ./rw.elf > /dev/null # stops there: rw.dat as it was
"$BIN/checkpoint" --run rwck/*.ckpt 2> quiet.err > /dev/null
! grep -q "has changed since the checkpoint" quiet.err || fail "a warning for an unchanged file: $(cat quiet.err)"
"$BIN/bbv" --count-only -- ./rw.elf > /dev/null 2>&1                        # the whole run rewrites rw.dat
"$BIN/checkpoint" --run rwck/*.ckpt 2> changed.err > /dev/null || true
grep -q "guest file .*rw.dat has changed since the checkpoint was taken" changed.err ||
    fail "no warning for a file changed since the checkpoint: $(cat changed.err)"
echo "ok   restoring says when a file the program reads back changed since the checkpoint"
# With the file history (the default), the checkpoint carries the file and
# its pass puts rw.dat back as it found it: the whole run rewriting it since
# changes nothing, checkpoint --run ends as the whole run does.
qemu-riscv64 ./rw.elf > rw.want
rm -f rw.dat
"$BIN/checkpoint" -o rwh --at $((rwtotal / 2)) -- ./rw.elf > /dev/null
[ ! -e rw.dat ] || fail "checkpoint's pass left rw.dat, which the program made"
"$BIN/bbv" --count-only -- ./rw.elf > /dev/null 2>&1
"$BIN/checkpoint" --run rwh/*.ckpt --guest-output rw.got 2> exact.err || fail "rw.elf from its checkpoint: $(cat exact.err)"
cmp -s rw.got rw.want && ! grep -q "has changed" exact.err ||
    fail "rw.elf from its checkpoint with the file history: $(cat rw.got exact.err)"
echo "ok   with the file history, the same checkpoint restores the file as it was there, whatever ran since"
