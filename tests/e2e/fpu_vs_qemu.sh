#!/usr/bin/env bash
# Differential test of lib/fpu.c against qemu-riscv64 (softfloat, exact): every F/D operation
# of lib/fpu.h in all five rounding modes (a fifth of the cases through frm and the dynamic
# mode), on special values, near-midpoint and near-integer-boundary values, and random bits.
# Knobs: FPU_DIFF_CASES (default 100000), FPU_DIFF_SEED (default 1).
source "$(dirname "$0")/lib.sh"

make -s -C "$TOP" fpu-oracles
HOST=$TOP/build/difftest/fpu_oracle_host
RVO=$TOP/build/difftest/fpu_oracle_rv
N=${FPU_DIFF_CASES:-100000}
SEED=${FPU_DIFF_SEED:-1}

"$HOST" --gen "$SEED" "$N" > "$T/cases"
"$HOST" < "$T/cases" > "$T/host"
qemu-riscv64 "$RVO" < "$T/cases" > "$T/rv"

expect_eq "host answers" "$N" "$(wc -l < "$T/host")"
expect_eq "qemu answers" "$N" "$(wc -l < "$T/rv")"
! grep -q '?' "$T/host" "$T/rv" || fail "an oracle did not understand a case"

# Every operation must have been exercised, in every rounding mode.
ops=$(cut -d' ' -f1 "$T/cases" | sort -u | wc -l)
expect_eq "distinct operations generated" 48 "$ops"
modes=$(awk '{print $2 % 5}' "$T/cases" | sort -u | wc -l)
expect_eq "rounding modes covered" 5 "$modes"

paste -d' ' "$T/cases" "$T/host" "$T/rv" |
    awk '$6 != $8 || $7 != $9 { print "  " $1, "rm=" $2, $3, $4, $5, " host:", $6, $7, " qemu:", $8, $9 }' \
    > "$T/mismatches"
bad=$(wc -l < "$T/mismatches")
if [ "$bad" -ne 0 ]; then
    echo "op rm a b c  host: result flags  qemu: result flags" >&2
    head -20 "$T/mismatches" >&2
    fail "$bad of $N FPU cases differ from qemu (seed $SEED)"
fi
echo "fpu_vs_qemu: $N cases ($ops operations, seed $SEED) agree with qemu"
