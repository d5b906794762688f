#!/usr/bin/env bash
# Signals and locks survive checkpoints: the signal and lock test programs
# (tests/progs, compared with qemu-riscv64 elsewhere) restored at many
# points, handlers installed, signals blocked or pending, timers armed and
# record locks held, run to the same end as the uninterrupted run: the same
# output tail, exit status and instruction count.
source "$(dirname "$0")/lib.sh"
cd "$T"
for name in sig_handlers sig_timers sig_faults file_locks; do
    prog=$RV/progs/$name
    rm -rf run && mkdir run && cd run
    set +e; "$BIN/bbv" --count-only -- "$prog" > ../full.out 2> ../full.err; full_status=$?; set -e
    total=$(tail -n 1 ../full.err)
    points=$(python3 -c "t=$total; print(','.join(str(max(1, t * k // 17 + 3)) for k in range(1, 17)))")
    rm -rf ./* && "$BIN/checkpoint" -o ../ck_$name --at "$points" -- "$prog" > /dev/null
    for c in ../ck_$name/*.ckpt; do
        set +e
        "$BIN/checkpoint" --run "$c" --guest-output ../run.out --summary ../run.json
        status=$?
        set -e
        expect_eq "$name $(basename "$c") exit status" "$full_status" "$status"
        grep -q "\"end\": $total," ../run.json || fail "$name $(basename "$c"): ended at $(grep -o '"end": [0-9]*' ../run.json), not $total"
        n=$(stat -c %s ../run.out)
        tail -c "$n" ../full.out | cmp -s - ../run.out || fail "$name $(basename "$c"): output is not the tail of the full run's"
    done
    cd ..
    echo "ok   $name: $(ls ck_$name/*.ckpt | wc -l) restores run to instruction $total, status $full_status"
done
