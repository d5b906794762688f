#!/bin/bash
# Chunked full runs against serial ones (issue 38): sim --full --chunk-insts C
# --chunk-warmup W against sim --full on every bundled workload (chunks of 1M
# with warm-ups of 0 and 100k, chunks of 4M with 0, 10k, 100k and 500k) and
# seven corpus runs (4M with 0 and 100k): CPI, every cycle-stack component, the
# per-interval log (-G 1M) and the golden profile (bench/chunked_compare.py),
# and the wall times (chunks on $JOBS threads, 2 by default).
#
# Usage: bench/chunked_full.sh [-o DIR] [--quick] [--corpus all]
#   -o DIR        work directory (default: a temporary one)
#   --quick       the default chunking only (4M, 500k)
#   --corpus all  the whole corpus of tests/corpus/SPLIT.md (35 programs, the
#                 evaluation set built by tests/corpus/build.sh --eval and
#                 --tuning-extra) at the default chunking, instead of the above
# Writes bench/results/chunked_full.md (DIR/chunked_full.md with --quick,
# bench/results/chunked_corpus.md with --corpus all). RESUME=1 with -o DIR
# keeps the programs DIR's rows.tsv has (an interrupted run goes on).
# CONFIGS=C:W,... (e.g. 4M:100k,4M:500k) runs those chunkings instead.
# Corpus programs run with the corpus tests' environment (guest_env_for).
# SERIAL_FROM=DIR takes the serial runs (and their wall seconds) from an
# earlier run's directory instead of running them again (the serial run does
# not depend on warming: to compare warming variants).
# SETS="SEC.KEY=V ..." gives every run those configuration overrides (sim --set).
# ONLY="NAME..." runs those programs alone (e.g. ONLY="gdbm_tool byacc_lalr"
# --corpus all) and writes the report into DIR instead, for merging by hand.
source "$(dirname "$0")/paths.sh"

QUICK= CORPUS_ALL=
source "$(dirname "$0")/corpus_runs.sh" "$@"
SIM=$BIN/sim
JOBS=${JOBS:-2}
WORKLOAD_CONFIGS="1M:0,1M:100k,4M:0,4M:10k,4M:100k,4M:500k" CORPUS_CONFIGS="4M:0,4M:100k"
[ -z "$QUICK$CORPUS_ALL" ] || WORKLOAD_CONFIGS="4M:500k" CORPUS_CONFIGS="4M:500k" # the default
[ -z "${CONFIGS:-}" ] || WORKLOAD_CONFIGS=$CONFIGS CORPUS_CONFIGS=$CONFIGS
SET_OPTS=()
for kv in ${SETS:-}; do SET_OPTS+=(--set "$kv"); done

# run OUTBASE SIM-OPTIONS... -- PROGRAM...: one sim --full of the run $name
# (in a fresh copy of its inputs, so that what a run writes is not the next
# one's input; with its stdin), its wall seconds. The chunked run's
# functional pass keeps its checkpoints in $TMPDIR, which a guest that lists
# it sees (bash's getcwd lists the directories above its own, /tmp among
# them): here TMPDIR is a directory the serial runs have too.
mkdir -p "$OUT/tmp"
run() {
    local base=$1 work=$OUT/work
    shift
    rm -rf "$work" && cp -a "${BENCH_DIR[$name]:-$INPUTS}" "$work" || return 1
    rm -f "$base.json"
    guest_env_for "$command"
    (cd "$work" && TMPDIR=$OUT/tmp STDIN=${BENCH_STDIN[$name]:-} wall_seconds "$base.out" "$SIM" --full -q \
        -G 1M --profile-top 0 --interval-log "$base.csv" -o "$base.json" "${ENV_OPTS[@]}" "${SET_OPTS[@]}" "$@")
    [ -s "$base.json" ] # sim exits with the guest's status: a result is what tells it ran
}

ROWS=$OUT/rows.tsv
[ -n "${RESUME:-}" ] || : >"$ROWS" # RESUME=1: keep the runs already in DIR/rows.tsv
for entry in "${BENCH_RUNS[@]}"; do
    IFS='|' read -r name command <<<"$entry"
    [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $name "* ]] || continue
    ! grep -q "^$name	" "$ROWS" || continue
    eval "cmd=($command)" # the corpus lists quote some arguments
    configs=$CORPUS_CONFIGS
    [[ $command != "$RVW"/* ]] || configs=$WORKLOAD_CONFIGS
    IFS=, read -r -a cfgs <<<"$configs"
    d=$OUT/$name
    mkdir -p "$d"
    if [ -n "${SERIAL_FROM:-}" ]; then
        # the serial run of an earlier run of this script (its wall seconds from its rows)
        cp "$SERIAL_FROM/$name/serial.json" "$SERIAL_FROM/$name/serial.csv" "$d/" || die "$name: no serial run in $SERIAL_FROM"
        serial=$(awk -F'\t' -v n="$name" '$1 == n { print $(NF - 1); exit }' "$SERIAL_FROM/rows.tsv")
    else
        serial=$(OMP_NUM_THREADS=1 run "$d/serial" -- "${cmd[@]}") || die "$name: serial run failed"
    fi
    for cfg in "${cfgs[@]}"; do
        C=${cfg%:*} W=${cfg#*:}
        base=$d/c$C-w$W
        wall=$(OMP_NUM_THREADS=$JOBS run "$base" --chunk-insts "$C" --chunk-warmup "$W" -- "${cmd[@]}") ||
            die "$name: chunked run ($C, $W) failed"
        cmp=$(python3 "$TOP/bench/chunked_compare.py" "$d/serial.json" "$d/serial.csv" "$base.json" "$base.csv") ||
            die "$name ($C, $W): an exact quantity differs: $cmp"
        chunks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["chunked"]["chunks"])' "$base.json")
        insts=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["instructions"])' "$d/serial.json")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$insts" "$C" "$W" "$chunks" "$cmp" "$serial" "$wall" >>"$ROWS"
        echo "$name $C $W: $cmp" >&2
    done
done

RESULT=$TOP/bench/results/chunked_full.md
[ -z "$QUICK" ] || RESULT=$OUT/chunked_full.md
[ -z "$CORPUS_ALL" ] || RESULT=$TOP/bench/results/chunked_corpus.md
[ -z "${ONLY:-}" ] || RESULT=$OUT/$(basename "$RESULT") # a subset: merged by hand
python3 "$TOP/bench/chunked_report.py" "$ROWS" "$JOBS" "$(git -C "$TOP" rev-parse --short HEAD)" >"$RESULT"
echo "wrote $RESULT" >&2
