#!/usr/bin/env bash
# Checkpointing speed and size: fast-forward MIPS of `checkpoint` against
# bbv's on the same program in the same run, the time to write 30
# checkpoints, and their size against the guest's resident memory.
# Usage: bench/bench_checkpoint.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=build/bin
RV=build/rv/workloads
size=50 # sort: ~1.04 G instructions
[ "${1:-}" = --quick ] && size=5
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p bench/results
csv=bench/results/checkpoint.csv
echo "workload,size,instructions,bbv_mips,ff_mips,ff_vs_bbv,checkpoints,write_seconds,total_mib,mean_mib,resident_mib,mean_over_resident" > "$csv"

printf '%-10s %5s %12s %9s %9s %8s %6s %9s %10s %9s %11s %8s\n' workload size instructions "bbv MIPS" "ff MIPS" "ff/bbv" ckpts "write s" "total MiB" "mean MiB" "resident MiB" "mean/res"
for w in sort ptr_chase stencil; do
    prog=$RV/$w
    "$BIN/bbv" -o "$T/$w" --interval 100M --summary "$T/$w.bbv.json" -- "$prog" "$size" > /dev/null
    insts=$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$T/$w.bbv.json" | head -n 1)
    bbv_mips=$(sed -n 's/.*"mips": \([0-9.]*\).*/\1/p' "$T/$w.bbv.json")
    # 30 simulation points spread over the run (interval = 1/40 of it).
    interval=$(( insts / 40 ))
    : > "$T/p.simpoints"; : > "$T/p.weights"
    for i in $(seq 0 29); do
        echo "$(( i * 39 / 29 )) $i" >> "$T/p.simpoints"
        echo "0.0333333 $i" >> "$T/p.weights"
    done
    "$BIN/checkpoint" -o "$T/ck_$w" --simpoints "$T/p.simpoints" --weights "$T/p.weights" \
        --interval "$interval" --guest-output none -- "$prog" "$size"
    m=$T/ck_$w/checkpoints.json
    ff_mips=$(sed -n '/"fast_forward"/,/}/s/.*"mips": \([0-9.]*\).*/\1/p' "$m")
    write_s=$(sed -n '/"writing"/,/}/s/.*"seconds": \([0-9.]*\).*/\1/p' "$m")
    n=$(ls "$T/ck_$w"/*.ckpt | wc -l)
    total=$(du -cb "$T/ck_$w"/*.ckpt | tail -n 1 | cut -f1)
    # Resident memory: the largest number of non-zero pages any checkpoint holds.
    pages=0
    for c in "$T/ck_$w"/*.ckpt; do
        p=$("$BIN/checkpoint" --info "$c" --json | sed -n 's/.*"nonzero_pages": \([0-9]*\).*/\1/p')
        [ "$p" -gt "$pages" ] && pages=$p
    done
    awk -v w=$w -v s=$size -v i=$insts -v b=$bbv_mips -v f=$ff_mips -v n=$n -v ws=$write_s -v t=$total -v p=$pages -v csv="$csv" 'BEGIN {
        mib = 1048576; res = p * 4096 / mib; mean = t / n / mib
        printf "%-10s %5d %12d %9.0f %9.0f %8.2f %6d %9.2f %10.1f %9.2f %11.1f %8.2f\n", w, s, i, b, f, f / b, n, ws, t / mib, mean, res, mean / res
        printf "%s,%d,%d,%.1f,%.1f,%.3f,%d,%.3f,%.2f,%.3f,%.2f,%.3f\n", w, s, i, b, f, f / b, n, ws, t / mib, mean, res, mean / res >> csv }'
done

# A program that reserves far more than it touches: xz -9 allocates some
# 670 MB of match finder it has not used 20M instructions in. A checkpoint
# there holds only the pages touched, and should cost about what running
# the prefix costs (bbv over the same instructions, the reference), not a
# pass over the reservation; its peak resident memory shows whether the
# untouched pages were read.
CORPUS_BIN=build/corpus/bin
if [ -x "$CORPUS_BIN/xz" ]; then
    python3 tests/corpus/make_inputs.py "$T/in" > /dev/null
    at=20000000
    run_s() { local s=$EPOCHREALTIME; "$@" > /dev/null; awk -v s=$s -v e=$EPOCHREALTIME 'BEGIN { printf "%.2f", e - s }'; }
    bbv_s=$(run_s "$BIN/bbv" -o "$T/xz9" --interval 10M --max-insts $at -- "$CORPUS_BIN/xz" -9 -c "$T/in/text.txt")
    ck_s=$(run_s /usr/bin/time -f %M -o "$T/rss" "$BIN/checkpoint" -o "$T/ck_xz9" --at $at --guest-output none -- \
        "$CORPUS_BIN/xz" -9 -c "$T/in/text.txt")
    pages=$("$BIN/checkpoint" --info "$T/ck_xz9"/*.ckpt --json | sed -n 's/.*"nonzero_pages": \([0-9]*\).*/\1/p')
    awk -v b=$bbv_s -v c=$ck_s -v r=$(cat "$T/rss") -v p=$pages -v at=$at 'BEGIN {
        printf "xz -9, one checkpoint at %d: %.2f s (bbv over the same prefix %.2f s), peak resident %.0f MiB, guest non-zero pages %.1f MiB\n",
               at, c, b, r / 1024, p * 4096 / 1048576 }'
else
    echo "(xz -9: no corpus build; make corpus)"
fi
echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg); CSV in $csv)"
