#!/usr/bin/env bash
# A run does not depend on how the program's path is spelled or where it
# lies: the guest sees its argv[0] as the name alone and its own path as
# /guest/bin/NAME (AT_EXECFN, /proc/self/exe, /proc/self/maps), so bbv and
# sim count the same instructions for `sort`, `./sort` and /abs/path/sort,
# run from two working directories, and a copy elsewhere; and the guest
# still opens itself through those paths.
source "$(dirname "$0")/lib.sh"
RVCC=${RVCC:-riscv64-linux-gnu-gcc}
cd "$T"
mkdir -p a/deeper/still b
cp "$RV/workloads/sort" a/deeper/still/sort
cp "$RV/workloads/sort" b/sort
count() { "$BIN/bbv" --count-only -- "$@" 2>&1 > /dev/null | tail -n 1; }
ref=$(cd a/deeper/still && count sort 1)
expect_eq "./sort" "$ref" "$(cd a/deeper/still && count ./sort 1)"
expect_eq "absolute path" "$ref" "$(count "$T/a/deeper/still/sort" 1)"
expect_eq "from another directory" "$ref" "$(cd b && count ../a/deeper/still/sort 1)"
expect_eq "a copy elsewhere" "$ref" "$(count b/sort 1)"
"$BIN/sim" --full -o full.json -- ./a/deeper/still/sort 1 > /dev/null 2>&1
grep -q "\"instructions\": $ref," full.json || fail "sim --full counts $(grep -o '"instructions": [0-9]*' full.json | head -1), bbv $ref"
echo "ok   sort: $ref instructions whatever the path and the working directory"

cat > self.c <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
int main(int argc, char **argv) {
    char link[256] = {0};
    readlink("/proc/self/exe", link, sizeof link - 1);
    printf("argv[0] %s\nexecfn %s\nexe %s\n", argv[0], (char *)getauxval(AT_EXECFN), link);
    char head[4] = {0};
    int fd = open(link, O_RDONLY);               /* the guest path opens the program */
    printf("open %s: %s\n", link, fd >= 0 && read(fd, head, 4) == 4 && !memcmp(head, "\177ELF", 4) ? "ELF" : "no");
    return argc - 1;
}
C
"$RVCC" -static -O1 -o self.elf self.c
"$BIN/bbv" --count-only -- ./self.elf > self.txt 2> /dev/null || fail "self.elf failed: $(cat self.txt)"
expect_eq "what the guest sees of itself" "argv[0] self.elf
execfn /guest/bin/self.elf
exe /guest/bin/self.elf
open /guest/bin/self.elf: ELF" "$(cat self.txt)"
echo "ok   the guest knows itself as /guest/bin/self.elf and opens itself through it"
