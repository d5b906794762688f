#!/usr/bin/env bash
# simpoint speed and memory: wall time and peak RSS (getrusage, from the JSON
# summary) on generated BBVs (1,000 / 10,000 / 100,000 intervals x 20,000
# distinct blocks), on real BBVs from bbv + the phases workload, and on the
# large case (20,000 intervals x 170,000 blocks, about 1 GB of .bb text), at
# dim 15/100, maxK 30/50, 1 and 2 threads.
#
#   bench/bench_simpoint.sh            the default set (a few minutes on 2 cores)
#   bench/bench_simpoint.sh --quick    1,000 and 10,000 intervals only (under a minute)
#   bench/bench_simpoint.sh --full     also every combination for 100,000 intervals
#   (SIMPOINT_BENCH_FULL=1 / SIMPOINT_BENCH_BIG=0 do the same as --full / skipping the 1 GB case)
# Targets (issue 3): 10,000 intervals at maxK 30 in < 2 s on 2 cores; the 1 GB
# case at least 10x faster than SimPoint 3.2 (about a minute on this machine).
set -euo pipefail
SIZES="1000 10000 100000"
for arg in "$@"; do
    case $arg in
    --quick) SIZES="1000 10000"; SIMPOINT_BENCH_BIG=0 ;;
    --full) SIMPOINT_BENCH_FULL=1 ;;
    *) echo "bench_simpoint: unknown argument $arg" >&2; exit 2 ;;
    esac
done
TOP=$(cd "$(dirname "$0")/.." && pwd)
SP=$TOP/build/bin/simpoint
GEN=$TOP/build/bench/gen_bb
[ -x "$SP" ] && [ -x "$GEN" ] || make -C "$TOP" --no-print-directory -s build/bin/simpoint build/bench/gen_bb
W=$(mktemp -d "${TMPDIR:-/tmp}/bench_simpoint.XXXXXX")
trap 'rm -rf "$W"' EXIT

json_field() { sed -n "s/.*\"$1\": \([0-9.eE+-]*\).*/\1/p" "$2" | head -1; }

printf '%-22s %8s %7s %7s %4s %4s %3s %4s %7s %8s %7s %8s\n' input intervals blocks MB dim maxK thr k load_s cluster_s wall_s peak_MiB
# run NAME FILE DIM MAXK THREADS
run() {
    local start end
    start=$(date +%s.%N)
    OMP_NUM_THREADS=$5 "$SP" -loadFVFile "$2" -dim "$3" -maxK "$4" -saveSimpoints "$W/out.sp" \
        -saveSimpointWeights "$W/out.w" -json "$W/s.json"
    end=$(date +%s.%N)
    awk -v name="$1" -v dim="$3" -v maxk="$4" -v thr="$5" -v wall="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
        -v n="$(json_field intervals "$W/s.json")" -v blocks="$(json_field blocks "$W/s.json")" \
        -v bytes="$(json_field bytes "$W/s.json")" -v k="$(json_field chosen_k "$W/s.json")" \
        -v load="$(json_field load_seconds "$W/s.json")" -v clu="$(json_field cluster_seconds "$W/s.json")" \
        -v rss="$(json_field peak_rss_kib "$W/s.json")" \
        'BEGIN { printf "%-22s %8s %7s %7.0f %4s %4s %3s %4s %7.2f %8.2f %7.2f %8.0f\n",
                 name, n, blocks, bytes / 1048576, dim, maxk, thr, k, load, clu, wall, rss / 1024 }'
}

for n in $SIZES; do
    "$GEN" -n $n -b 20000 -p 12 -m 200 -s 1 -o "$W/gen$n.bb"
    for dim in 15 100; do
        for maxk in 30 50; do
            if [ $n -eq 100000 ] && [ "${SIMPOINT_BENCH_FULL:-0}" != 1 ] &&
               ! { [ $dim -eq 15 ] && [ $maxk -eq 30 ]; } && ! { [ $dim -eq 100 ] && [ $maxk -eq 50 ]; }; then
                continue
            fi
            for thr in 1 2; do run "generated" "$W/gen$n.bb" $dim $maxk $thr; done
        done
    done
    rm -f "$W/gen$n.bb"
done

# Real BBVs: the phases workload profiled by bbv (about 25 M instructions per unit of size).
BBV=$TOP/build/bin/bbv PROG=$TOP/build/rv/workloads/phases
if [ -x "$BBV" ] && [ -x "$PROG" ]; then
    for cfg in "1 25000" "4 10000"; do
        set -- $cfg
        (cd "$W" && "$BBV" -o real --interval "$2" -- "$PROG" "$1" > /dev/null)
        for dim in 15 100; do
            for thr in 1 2; do run "phases size $1 N=$2" "$W/real.$2.bb.gz" $dim 30 $thr; done
        done
    done
else
    echo "(real-workload rows skipped: build/bin/bbv or build/rv/workloads/phases not built)"
fi

if [ "${SIMPOINT_BENCH_BIG:-1}" != 0 ]; then
    # 20,000 intervals x 170,000 distinct blocks, about 4,000 blocks per interval: ~1 GB of text.
    "$GEN" -n 20000 -b 170000 -p 12 -m 4000 -s 2 -o "$W/big.bb"
    for thr in 1 2; do run "generated 1GB" "$W/big.bb" 15 30 $thr; done
    run "generated 1GB" "$W/big.bb" 100 50 2
fi
