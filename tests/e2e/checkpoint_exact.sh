#!/usr/bin/env bash
# Checkpoints are exact: restoring at any point and running to the end gives
# the same output tail, exit status and total instruction count as the
# uninterrupted run; one interval from a checkpoint at an interval boundary
# reproduces bbv's line for it; open files and stdin resume where they were.
source "$(dirname "$0")/lib.sh"
RVCC=${RVCC:-riscv64-linux-gnu-gcc}
cd "$T"

# Restoring at several points of every workload and running to the end.
for prog in "$RV"/workloads/*; do
    name=$(basename "$prog")
    "$BIN/bbv" --count-only -- "$prog" 1 > full.out 2> full.err
    total=$(tail -n 1 full.err)
    points="1,$((total / 3)),$((total / 2 + 17)),$((total - 5))"
    "$BIN/checkpoint" -o "ck_$name" --at "$points" -- "$prog" 1 > take.out
    cmp -s full.out take.out || fail "$name: output while taking checkpoints differs"
    for c in "ck_$name"/*.ckpt; do
        set +e
        "$BIN/checkpoint" --run "$c" --guest-output run.out --summary run.json
        status=$?
        set -e
        expect_eq "$name $(basename "$c") exit status" 0 "$status"
        grep -q "\"end\": $total," run.json || fail "$name $(basename "$c"): run ended at $(grep -o '"end": [0-9]*' run.json), not $total"
        n=$(stat -c %s run.out)
        tail -c "$n" full.out | cmp -s - run.out || fail "$name $(basename "$c"): output is not the tail of the full run's"
    done
done

# One interval from a checkpoint at an interval boundary = bbv's line for it.
# Block ids differ between runs, so lines are compared as (block pc, count).
as_pcs() { # as_pcs BBFILE BBMAP LINE
    grep '^T' "$1" | sed -n "$3p" | tr ' ' '\n' | grep : |
        awk -F: 'NR == FNR { pc[$1] = $2; next } { print pc[$2], $3 }' \
            <(grep -v '^#' "$2" | awk '{ print $1 ":" $2 }') - | sort
}
for prog in "$RV/workloads/phases" "$RV/workloads/interp"; do
    name=$(basename "$prog")
    "$BIN/bbv" -o "full_$name" --interval 1M --no-gzip -- "$prog" 1 > /dev/null
    "$BIN/checkpoint" -o "iv_$name" --at 3000000,7000000,16000000 -- "$prog" 1 > /dev/null
    for k in 3 7 16; do
        "$BIN/checkpoint" --run "iv_$name"/*-at-${k}000000.ckpt --insts 1M --bbv "r_${name}_$k"
        as_pcs "full_$name.1000000.bb" "full_$name.bbmap" $((k + 1)) > a.txt
        as_pcs "r_${name}_$k.1000000.bb" "r_${name}_$k.bbmap" 1 > b.txt
        [ -s a.txt ] || fail "no line $((k + 1)) in the full profile of $name"
        cmp -s a.txt b.txt || fail "$name interval $k: the restored run's blocks differ from bbv's line"
    done
done

# Open files and stdin resume at their offsets.
cat > reader.c <<'C'
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    char line[256];
    unsigned long sum = 0, n = 0;
    while (fgets(line, sizeof line, in)) {           /* a file, through stdio */
        for (char *c = line; *c; c++) sum = sum * 31 + (unsigned char)*c;
        if (++n % 500 == 0) { printf("file line %lu sum %lu\n", n, sum); fflush(stdout); }
    }
    char buf[100];
    ssize_t r;
    while ((r = read(0, buf, sizeof buf)) > 0) {      /* stdin, with raw reads */
        for (ssize_t i = 0; i < r; i++) sum = sum * 31 + (unsigned char)buf[i];
        printf("stdin chunk %zd sum %lu\n", r, sum); fflush(stdout);
    }
    FILE *out = fopen("written.txt", "a");           /* a file being written */
    fprintf(out, "final %lu\n", sum);
    fclose(out);
    return (int)(sum % 200);
}
C
"$RVCC" -static -O1 -o reader.elf reader.c
seq 1 5000 | sed 's/$/ some text on the line/' > input.txt
seq 1 3000 > stdin.txt
rm -f written.txt
set +e; "$BIN/bbv" --count-only -- ./reader.elf input.txt < stdin.txt > full.out 2> full.err; full_status=$?; set -e
total=$(tail -n 1 full.err)
cp written.txt full_written.txt
for at in $((total / 4)) $((total * 3 / 4)); do
    rm -f written.txt
    "$BIN/checkpoint" -o "rd_$at" --at $at -- ./reader.elf input.txt < stdin.txt > /dev/null
    set +e; "$BIN/checkpoint" --run "rd_$at"/*.ckpt --guest-output run.out < stdin.txt; status=$?; set -e
    expect_eq "reader exit status from $at" "$full_status" "$status"
    n=$(stat -c %s run.out)
    [ "$n" -gt 100 ] || fail "restored reader printed almost nothing"
    tail -c "$n" full.out | cmp -s - run.out || fail "reader restored at $at: output differs from the full run's tail"
    cmp -s written.txt full_written.txt || fail "reader restored at $at wrote a different file"
done
echo ok
