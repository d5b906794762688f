#!/usr/bin/env bash
# Differential test: random RV64GC instruction sequences run under our emulator
# (build/bin/bbv) and under qemu-riscv64 must end in the same architectural
# state (x1..x31, f0..f31, fcsr, the 4 KiB scratch memory, and a log of the
# result of every generated instruction).
# The programs come from build/difftest/randinsn_gen (tests/difftest/).
#
# Knobs (environment):
#   RANDINSN_SEEDS=K   number of seeds (default 200, about 15 s of CPU)
#   RANDINSN_FIRST=S   first seed (default 1)
#   RANDINSN_N=N       random units per program (default 2000)
#   RANDINSN_SHRINK=0  do not bisect a failing case
#   RANDINSN_EMU=cmd   run "cmd PROG" instead of bbv (e.g. qemu-riscv64, to test this script)
#
# A failing seed is bisected automatically: the program for (SEED, M) is a
# prefix of the one for (SEED, N), so the script finds M where the state first
# differs and prints that last unit.  To do it by hand:
#   build/difftest/randinsn_gen SEED M > p.S
#   riscv64-linux-gnu-gcc -static -nostdlib -march=rv64gc -mabi=lp64d -o p p.S
#   qemu-riscv64 p > q.bin; build/bin/bbv -o /tmp/bb --interval 1M -- p > o.bin
#   build/difftest/randinsn_gen --diff q.bin o.bin
# and vary M (smaller M = shorter program).  Failing cases are also kept in
# build/difftest/fail-SEED/.
source "$(dirname "$0")/lib.sh"

GEN=$TOP/build/difftest/randinsn_gen
SRC=$TOP/tests/difftest/randinsn_gen.c
RVCC=${RVCC:-riscv64-linux-gnu-gcc}
SEEDS=${RANDINSN_SEEDS:-200}
FIRST=${RANDINSN_FIRST:-1}
N=${RANDINSN_N:-2000}
SHRINK=${RANDINSN_SHRINK:-1}
EMU=${RANDINSN_EMU:-}
DUMP_BYTES=8704

command -v qemu-riscv64 >/dev/null || fail "qemu-riscv64 is not installed"
command -v "$RVCC" >/dev/null || fail "$RVCC is not installed"
if [ ! -x "$GEN" ] || [ "$SRC" -nt "$GEN" ]; then
    make -C "$TOP" --no-print-directory build/difftest/randinsn_gen >/dev/null
fi
[ -n "$EMU" ] || [ -x "$BIN/bbv" ] || fail "$BIN/bbv is not built"

run_ours() { # PROG: guest stdout on stdout
    if [ -n "$EMU" ]; then $EMU "$1"; else "$BIN/bbv" -o "$T/bb" --interval 1M -- "$1"; fi
}

# run_case SEED N DIR: build and run one program; 0 = same state, 1 = differs
# (DIR/why says how), 2 = the test itself is broken (assembler, qemu)
run_case() {
    local seed=$1 n=$2 d=$3 qs os
    mkdir -p "$d"; rm -f "$d/why"
    "$GEN" "$seed" "$n" > "$d/p.S" || { echo "generator failed" > "$d/why"; return 2; }
    "$RVCC" -static -nostdlib -march=rv64gc -mabi=lp64d -o "$d/p" "$d/p.S" 2> "$d/as.err" ||
        { echo "assembler failed: $(head -5 "$d/as.err")" > "$d/why"; return 2; }
    qs=0; qemu-riscv64 "$d/p" > "$d/q.bin" 2> "$d/q.err" || qs=$?
    os=0; run_ours "$d/p" > "$d/o.bin" 2> "$d/o.err" || os=$?
    if [ "$qs" -ne 0 ] || [ "$(stat -c %s "$d/q.bin")" -ne "$DUMP_BYTES" ]; then
        echo "qemu: exit $qs, $(stat -c %s "$d/q.bin") bytes: $(head -3 "$d/q.err")" > "$d/why"
        return 2
    fi
    if [ "$os" -ne 0 ]; then
        { echo "ours: exit status $os (qemu: 0)"; tail -5 "$d/o.err"; } > "$d/why"
        return 1
    fi
    if ! cmp -s "$d/q.bin" "$d/o.bin"; then
        { echo "state differs (A = qemu, B = ours):"; "$GEN" --diff "$d/q.bin" "$d/o.bin" || true; } > "$d/why"
        return 1
    fi
    return 0
}

status_of() { local s=0; "$@" || s=$?; echo "$s"; }

# shrink SEED N: smallest prefix length that still fails (bisection)
shrink() {
    local seed=$1 lo=0 hi=$2 mid
    [ "$(status_of run_case "$seed" "$hi" "$T/shrink")" -eq 1 ] ||
        { echo "  does not fail again: not shrinking (flaky?)"; return; }
    [ "$(status_of run_case "$seed" 0 "$T/shrink")" -eq 1 ] &&
        { echo "  fails with 0 random units: prologue/epilogue problem"; return; }
    while [ $((hi - lo)) -gt 1 ]; do
        mid=$(((lo + hi) / 2))
        if [ "$(status_of run_case "$seed" "$mid" "$T/shrink")" -eq 1 ]; then hi=$mid; else lo=$mid; fi
    done
    run_case "$seed" "$hi" "$T/shrink" || true
    [ -f "$T/shrink/why" ] || return 0
    echo "  first failing prefix: randinsn_gen $seed $hi; its last unit (diff against $seed $lo):"
    diff <("$GEN" "$seed" "$lo") <("$GEN" "$seed" "$hi") | grep '^>' | grep -v -e '^> \.L' -e '^> #' | head -20 || true
    sed 's/^/  /' "$T/shrink/why" | head -20
}

failed=0
for seed in $(seq "$FIRST" $((FIRST + SEEDS - 1))); do
    rc=$(status_of run_case "$seed" "$N" "$T/case")
    [ "$rc" -eq 0 ] && continue
    [ "$rc" -eq 2 ] && fail "seed $seed: $(cat "$T/case/why")"
    echo "FAIL seed $seed (N=$N):"
    sed 's/^/  /' "$T/case/why"
    keep=$TOP/build/difftest/fail-$seed
    rm -rf "$keep"; mkdir -p "$keep"; cp "$T/case/p.S" "$T/case/q.bin" "$T/case/o.bin" "$keep/"
    echo "  kept in $keep"
    [ "$SHRINK" = 0 ] || shrink "$seed" "$N"
    failed=$((failed + 1))
    [ "$failed" -lt 3 ] || break
done
[ "$failed" -eq 0 ] || fail "$failed seed(s) differ between our emulator and qemu"
echo "random_insns_vs_qemu: $SEEDS seeds x $N units agree with qemu"
