#!/usr/bin/env bash
# Progress on a terminal: sim --full with the program's length known shows
# percent done and an ETA, and clears its status line before the guest
# writes to the terminal, so that no guest line starts inside it. Off a
# terminal, nothing unless --progress.
source "$(dirname "$0")/lib.sh"
RVCC=${RVCC:-riscv64-linux-gnu-gcc}
cd "$T"
command -v script > /dev/null || fail "script (util-linux) is needed to give the run a terminal"
cat > ticks.c <<'C'
#include <stdio.h>
int main(void) {
    volatile unsigned long x = 1;
    for (int t = 0; t < 6; t++) {
        for (long i = 0; i < 1500000; i++) x = x * 6364136223846793005UL + 1;
        printf("tick %d\n", t);
        fflush(stdout);
    }
    return (int)(x & 0);
}
C
"$RVCC" -static -O1 -o ticks.elf ticks.c
total=$("$BIN/bbv" --count-only -- ./ticks.elf 2>&1 > /dev/null | tail -n 1)
script -qec "$BIN/sim --full --total-insts $total -o full.json -- ./ticks.elf" typescript > /dev/null 2>&1 || true
python3 - typescript <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read().decode(errors="replace")
assert re.search(r"sim --full: [0-9.]+ G insts, [0-9]+ MIPS, [0-9.]+ s, [0-9]+%, ETA [0-9]+ s", data), \
    "no progress line with percent and ETA: " + repr(data[:300])
for m in re.finditer(r"tick \d", data):
    before = data[max(0, m.start() - 4):m.start()]
    assert before.endswith("\x1b[K") or before.endswith("\n"), f"a guest line starts inside the status line: {data[max(0, m.start() - 80):m.end()]!r}"
print("ok   progress shows percent and ETA, and every guest line starts on a clean line")
PY
"$BIN/sim" --full -o full2.json -- ./ticks.elf > out.txt 2> err.txt || true
! grep -q "G insts" err.txt || fail "progress lines off a terminal without --progress"
"$BIN/sim" --full --progress --total-insts "$total" -o full3.json -- ./ticks.elf > out.txt 2> err.txt || true
grep -q "sim --full: .*G insts" err.txt || fail "--progress printed nothing off a terminal"
echo "ok   off a terminal: quiet, and --progress prints lines"
