#!/usr/bin/env bash
# Bad input gets a clear one-line error, a non-zero exit and no output files;
# guest misbehaviour (faults, unsupported calls, writes outside the allowed
# directories) is reported precisely.
source "$(dirname "$0")/lib.sh"
RVCC=${RVCC:-riscv64-linux-gnu-gcc}
cd "$T"

# expect_error STATUS PATTERN cmd...: exit status, one-line message matching PATTERN, no outputs.
expect_error() {
    local want=$1 pattern=$2; shift 2
    rm -rf outdir; mkdir outdir
    set +e; "$@" > stdout.txt 2> stderr.txt; local got=$?; set -e
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want (stderr: $(cat stderr.txt))"
    grep -q -- "$pattern" stderr.txt || fail "'$*': stderr '$(cat stderr.txt)' lacks '$pattern'"
    [ "$(wc -l < stderr.txt)" -eq 1 ] || fail "'$*': expected one line of error, got: $(cat stderr.txt)"
    [ -z "$(ls outdir)" ] || fail "'$*' left files: $(ls outdir)"
}

# expect_death STATUS PATTERN cmd...: the guest was stopped; bbv says why (then its count).
expect_death() {
    local want=$1 pattern=$2; shift 2
    set +e; "$@" > stdout.txt 2> stderr.txt; local got=$?; set -e
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want (stderr: $(cat stderr.txt))"
    head -n 1 stderr.txt | grep -q -- "$pattern" || fail "'$*': stderr '$(cat stderr.txt)' lacks '$pattern'"
}

head -c 3000 "$RV/workloads/sort" > truncated.elf
echo 'not an elf' > text.elf
printf '\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\2\0\363\0' > header_only.elf
cat > hello.c <<'C'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
C
"$RVCC" -O1 -o dynamic.elf hello.c

expect_error 125 'not an ELF file' "$BIN/bbv" -o outdir/x -- ./text.elf
expect_error 125 'truncated.elf' "$BIN/bbv" -o outdir/x -- ./truncated.elf
expect_error 125 'header_only.elf: truncated or malformed ELF' "$BIN/bbv" -o outdir/x -- ./header_only.elf
expect_error 125 'dynamically linked: rebuild with -static' "$BIN/bbv" -o outdir/x -- ./dynamic.elf
expect_error 125 'not a RISC-V executable' "$BIN/bbv" -o outdir/x -- /bin/true
expect_error 125 'No such file' "$BIN/bbv" -o outdir/x -- ./missing.elf
expect_error 125 "unknown option '--frobnicate'" "$BIN/bbv" --frobnicate -o outdir/x -- "$RV/asm/loop_simple"
expect_error 125 'interval' "$BIN/bbv" --interval 10X -o outdir/x -- "$RV/asm/loop_simple"
expect_error 125 'interval' "$BIN/bbv" --interval 0 -o outdir/x -- "$RV/asm/loop_simple"
expect_error 125 'no program given' "$BIN/bbv" -o outdir/x
expect_error 125 'cannot write outdir/nodir/x' "$BIN/bbv" -o outdir/nodir/x -- "$RV/asm/loop_simple"

# Guest faults: status as a shell shows it, the pc and the instruction named.
expect_death 139 'segmentation fault.*address 0x10 at pc 0x[0-9a-f]* (sw ' "$BIN/bbv" -o outdir/x --count-only -- "$RV/progs/segfault"

cat > illegal.S <<'S'
.globl _start
_start:
    li a0, 1
    .word 0x0000007f
S
"$RVCC" -static -nostdlib -o illegal.elf illegal.S
expect_death 132 'illegal instruction.*at pc 0x[0-9a-f]* (illegal 0x0000007f)' "$BIN/bbv" --count-only -o outdir/x -- ./illegal.elf

cat > syscall.c <<'C'
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
int main(void) { long r = syscall(0 /* io_setup */, 1, 0); printf("%ld %d\n", r, errno); return 0; }
C
"$RVCC" -static -O1 -o syscall.elf syscall.c
expect_death 159 'unsupported system call 0 (io_setup)' "$BIN/bbv" --count-only -o outdir/x -- ./syscall.elf
"$BIN/bbv" --count-only --syscall-enosys -- ./syscall.elf > enosys.out 2>/dev/null
expect_eq "--syscall-enosys result" "-1 38" "$(cat enosys.out)"

# Writes are confined to the cwd and --allow-write directories.
mkdir -p inside allowed
cat > writer.c <<'C'
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        printf("%s: %s\n", argv[i], fd >= 0 ? "ok" : strerror(errno));
        if (fd >= 0) close(fd);
    }
    printf("read /etc/hostname: %s\n", open("/etc/hostname", O_RDONLY) >= 0 ? "ok" : strerror(errno));
    printf("unlink outside: %s\n", unlink("../outside.txt") == 0 ? "ok" : strerror(errno));
    return 0;
}
C
"$RVCC" -static -O1 -o writer.elf writer.c
touch outside.txt
ln -s ../escape.txt inside/link
(cd inside && "$BIN/bbv" --count-only --allow-write ../allowed -- ../writer.elf \
    mine.txt sub/none.txt ../allowed/ok.txt ../escape.txt /tmp/rvsample_escape.txt link > ../writer.out 2>/dev/null)
cat > writer.expected <<'X'
mine.txt: ok
sub/none.txt: No such file or directory
../allowed/ok.txt: ok
../escape.txt: Permission denied
/tmp/rvsample_escape.txt: Permission denied
link: Permission denied
read /etc/hostname: ok
unlink outside: Permission denied
X
diff writer.expected writer.out || fail "write confinement"
[ -e outside.txt ] && [ ! -e escape.txt ] && [ ! -e /tmp/rvsample_escape.txt ] || fail "a file outside was touched"

# An interrupted run leaves no output behind.
"$BIN/bbv" -o outdir/long --interval 1M -- "$RV/workloads/int_compute" 100 > /dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
ls outdir | grep -q . && { ls -la outdir; fail "interrupted run left files"; }
echo ok
