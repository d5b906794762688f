#!/usr/bin/env bash
# proxy_methods.sh: issue 17's measurement. Ways of choosing simulation
# points (SimPoint 3.2's, and simpoint's --select-by proxy, --stratify and
# --proxy-dims over bbv --proxy's metrics) compared on the same full-run logs
# (sampling error: each representative's CPI as the full detailed run measured
# it), over the bundled workloads at SIZE 12 and seven runs of real programs
# from the corpus, at every interval size x MaxK 30; at 1M, SimPoint's and the
# pipeline's method (REAL) also simulated for real from warm checkpoints:
#
#   scripts/sweep.sh -o OUT/bundled -S 12 -i 10k,100k,1M -k 30..30 -P 1 -M METHODS \
#       -r 1M:30@simpoint,1M:30@REAL
#   scripts/sweep.sh -o OUT/corpus  ... -- build/corpus/bin/lua work.lua text.txt -- ...
#   validate --sweep (both manifests together) -o OUT/all/report
#
# and writes bench/results/proxy_methods.md: per method and interval size the
# mean and largest |CPI error|, the instructions simulated and the selection's
# wall time, beside Paper C's figures; and bbv's time with and without --proxy.
# The two sweeps run side by side (one program at a time each).
# Usage: bench/proxy_methods.sh [-o OUT] [-M METHODS] [-R METHOD] [-S SIZE]
set -euo pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$TOP/out/proxy_methods SIZE=12
METHODS=simpoint,select,select:10,stratify:0.2,select+stratify:0.2,dims:0.5,dims:1,dims:1+select:10 REAL=dims:1
while [ $# -gt 0 ]; do
    case $1 in
    -o) OUT=$2; shift 2 ;;
    -M) METHODS=$2; shift 2 ;;
    -R) REAL=$2; shift 2 ;;
    -S) SIZE=$2; shift 2 ;;
    *) echo "usage: $0 [-o OUT] [-M METHODS] [-R METHOD] [-S SIZE]" >&2; exit 2 ;;
    esac
done
B=$TOP/build/bin CB=$TOP/build/corpus/bin
for t in bbv simpoint sim validate; do [ -x "$B/$t" ] || { echo "proxy_methods: $B/$t is missing (make build)" >&2; exit 2; }; done
[ -x "$CB/lua" ] || { echo "proxy_methods: $CB is missing (make corpus)" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# The tools as they are now: rebuilding during the run changes nothing here.
rm -rf "$OUT/bin"
cp -a "$B" "$OUT/bin"
export BIN=$OUT/bin
B=$BIN
COMMON=(-i 10k,100k,1M -k 30..30 -r "1M:30@simpoint,1M:30@$REAL" -P 1 -M "$METHODS")

# The corpus runs read their inputs from the current directory.
INPUTS=$OUT/inputs
[ -d "$INPUTS" ] || python3 "$TOP/tests/corpus/make_inputs.py" "$INPUTS"
start=$EPOCHREALTIME
"$TOP/scripts/sweep.sh" -o "$OUT/bundled" -S "$SIZE" "${COMMON[@]}" > "$OUT/bundled.log" 2>&1 &
bundled=$!
(cd "$INPUTS" && "$TOP/scripts/sweep.sh" -o "$OUT/corpus" "${COMMON[@]}" \
    -- "$CB/lua" work.lua text.txt -- "$CB/gzip" -n -c -9 text.txt -- "$CB/bzip2" -dc text.txt.bz2 \
    -- "$CB/xz" -c -3 text.txt -- "$CB/zstd" -c -q -6 text.txt -- "$CB/mawk" -F, -f stats.awk log.csv \
    -- "$CB/lp_solve" -S4 model.lp) > "$OUT/corpus.log" 2>&1 || { tail -n 20 "$OUT/corpus.log"; exit 1; }
wait "$bundled" || { tail -n 20 "$OUT/bundled.log"; exit 1; }
seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')

{ cat "$OUT/bundled/manifest.tsv"; tail -n +2 "$OUT/corpus/manifest.tsv"; } > "$OUT/all.tsv"
rm -rf "$OUT/all"
"$B/validate" -q --sweep "$OUT/all.tsv" --target 1% --baseline 30,0.9 --warmup-intervals 1 -o "$OUT/all"

# The methods table of a sweep report.
methods_table() { sed -n '/^## Methods/,/^## Pareto/p' "$1" | sed '1d;$d'; }
# bbv's wall time per program, without and with --proxy (summary.json).
bbv_times() {
    local d name plain px
    printf '| program | instructions | bbv (s) | bbv --proxy (s) | ratio |\n|---|--:|--:|--:|--:|\n'
    for d in "$OUT"/bundled/programs/* "$OUT"/corpus/programs/*; do
        name=$(basename "$d")
        python3 - "$d/$name.summary.json" "$d/$name.px.summary.json" "$name" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print(f"| {sys.argv[3]} | {a['instructions']:,} | {a['wall_seconds']:.2f} | {b['wall_seconds']:.2f} | "
      f"{b['wall_seconds'] / a['wall_seconds']:.1f}x |")
PY
    done
}

# Do bbv and bbv --proxy write the same BBVs for every program and size?
bbv_same() {
    local d name f n=0 bad=""
    for d in "$OUT"/bundled/programs/* "$OUT"/corpus/programs/*; do
        name=$(basename "$d")
        for f in "$d/$name".[0-9]*.bb.gz "$d/$name.bbmap"; do
            n=$((n + 1))
            cmp -s <(zcat -f "$f") <(zcat -f "${f/$name./$name.px.}") || bad+=" ${f##*/}"
        done
    done
    if [ -z "$bad" ]; then echo "identical, all $n files"; else echo "DIFFERENT:$bad"; fi
}

R=$TOP/bench/results/proxy_methods.md
{
    echo "<!-- produced by: bench/proxy_methods.sh (methods $METHODS; bundled workloads at size $SIZE; intervals 10k, 100k, 1M; MaxK 30, BIC 0.9; simulated for real at 1M: simpoint and $REAL), $seconds s on this 2-core machine (stages reused from an earlier run not counted), $(date +%F) -->"
    echo
    echo "# Choosing simulation points with proxy metrics (issue 17)"
    echo
    echo "Sampling error of CPI (each representative's CPI as the full detailed run measured it, weighted,"
    echo "against the full run's CPI) for every way of choosing the points, on the same full-run logs."
    echo "Methods (scripts/pipeline.sh method_options): \`simpoint\` = SimPoint 3.2's choice (the default"
    echo "of simpoint and of --compat); \`select[:N]\` = --select-by proxy among the N [5] intervals nearest"
    echo "the centre; \`stratify:F\` = --stratify F; \`dims:S\` = --proxy-dims S; \`+\` combines. \"simulated\""
    echo "is without warm-up; \"choosing\" is the wall time of the profiling pass (bbv, or bbv --proxy, all"
    echo "interval sizes at once) plus SimPoint for that interval size, summed over the programs."
    echo
    echo "Paper C (SPEC CPU2017, SimPoint): default configuration 1.3% mean |CPI error|; the best"
    echo "configurations 0.3-0.9% with up to 48 simulation points."
    echo
    echo "## All $(($(ls "$OUT"/bundled/programs | wc -l) + $(ls "$OUT"/corpus/programs | wc -l))) programs (bundled workloads and corpus runs)"
    echo
    methods_table "$OUT/all/sweep.md"
    echo
    echo "## Bundled workloads (size $SIZE)"
    echo
    methods_table "$OUT/bundled/report/sweep.md"
    echo
    echo "## Corpus runs"
    echo
    methods_table "$OUT/corpus/report/sweep.md"
    echo
    echo "## Per program at 1M intervals, MaxK 30: sampling error by method"
    echo
    python3 - "$OUT/all/sweep.rows.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["interval"] == "1000000" and r["max_k"] == "30"]
methods = list(dict.fromkeys(r["method"] for r in rows))
progs = list(dict.fromkeys(r["program"] for r in rows))
cell = {(r["program"], r["method"]): r for r in rows}
print("| program | " + " | ".join(methods) + " |")
print("|---|" + "--:|" * len(methods))
for p in progs:
    print(f"| {p} | " + " | ".join(f"{float(cell[p, m]['sampling_error_pct']):+.2f}% (k {cell[p, m]['k']})"
                                   for m in methods) + " |")
PY
    echo
    echo "## At 1M, MaxK 30, simulated for real (warm checkpoints, one interval of warm-up)"
    echo
    sed -n '/^## Configurations simulated/,/^## /p' "$OUT/all/sweep.md" | sed '1d;$d'
    echo
    echo "## The cost: bbv with and without --proxy (the warming model beside the fast path's counting)"
    echo
    echo "The .bb files and block maps of the two passes: $(bbv_same)."
    echo
    bbv_times
} > "$R"
echo "proxy_methods: $R ($seconds s)"
