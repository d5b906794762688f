#!/bin/bash
# Sampled profiles of chunked full runs against serial ones (issue 38): sim
# --full --chunk-insts 4M --chunk-warmup 100k against sim --full on every
# bundled workload and seven corpus runs, the same samplers in both (tip, nci,
# lci and dispatch at 400 kHz periodic, and the sweep's 40 kHz and 4 MHz,
# periodic and random): samples taken and each profile's instruction-level
# error against its own run's golden profile (TIP's metric). A second serial
# run with another --sample-seed gives the random samplers' own spread, the
# scale the chunked-serial differences are to be read against.
#
# Usage: bench/chunked_sampled.sh [-o DIR] [--quick]
#   -o DIR    work directory (default: a temporary one)
#   --quick   the bundled workloads only
# Writes bench/results/chunked_sampled.md (DIR/chunked_sampled.md with --quick).
source "$(dirname "$0")/paths.sh"

QUICK=
source "$(dirname "$0")/corpus_runs.sh" "$@"
SIM=$BIN/sim
JOBS=${JOBS:-2}
SAMPLE=(--sample tip,nci,lci,dispatch --sample-hz 400000 --sample-sweep-hz 40000,4000000)

# run OUTBASE SIM-OPTIONS... -- PROGRAM...: one sim --full, its wall seconds
run() {
    local base=$1
    shift
    (cd "$INPUTS" && wall_seconds "$base.out" "$SIM" --full -q -G 1M --profile-top 0 "${SAMPLE[@]}" -o "$base.json" "$@")
}

RUNS=()
for entry in "${BENCH_RUNS[@]}"; do
    IFS='|' read -r name command <<<"$entry"
    [ -z "$QUICK" ] || [[ $command == "$RVW"/* ]] || continue
    read -r -a cmd <<<"$command"
    d=$OUT/$name
    mkdir -p "$d"
    ws=$(OMP_NUM_THREADS=1 run "$d/serial" -- "${cmd[@]}") || die "$name: serial run failed"
    run "$d/seed2" --sample-seed 2 -- "${cmd[@]}" >/dev/null || die "$name: serial run (seed 2) failed"
    wc=$(OMP_NUM_THREADS=$JOBS run "$d/chunked" --chunk-insts 4M -- "${cmd[@]}") || die "$name: chunked run failed"
    RUNS+=("$name" "$d" "$ws" "$wc")
    echo "$name: serial $ws s, chunked $wc s" >&2
done

RESULT=$TOP/bench/results/chunked_sampled.md
[ -z "$QUICK" ] || RESULT=$OUT/chunked_sampled.md
{
    echo "<!-- produced by: bench/chunked_sampled.sh${QUICK:+ --quick}, at $(git -C "$TOP" rev-parse --short HEAD) -->"
    python3 "$TOP/bench/chunked_sampled.py" "$JOBS" "${RUNS[@]}"
} >"$RESULT"
echo "wrote $RESULT" >&2
