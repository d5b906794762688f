#!/bin/bash
# Chunked full runs against serial ones (issue 38): sim --full --chunk-insts C
# --chunk-warmup W against sim --full on every bundled workload (chunks of 1M
# with warm-ups of 0 and 100k, chunks of 4M with 0, 10k, 100k and 500k) and
# seven corpus runs (4M with 0 and 100k): CPI, every cycle-stack component, the
# per-interval log (-G 1M) and the golden profile (bench/chunked_compare.py),
# and the wall times (chunks on $JOBS threads, 2 by default).
#
# Usage: bench/chunked_full.sh [-o DIR] [--quick]
#   -o DIR    work directory (default: a temporary one)
#   --quick   the default chunking only (4M, 100k)
# Writes bench/results/chunked_full.md (DIR/chunked_full.md with --quick).
source "$(dirname "$0")/paths.sh"

OUT= QUICK=
while [ $# -gt 0 ]; do
    case $1 in
    -o) OUT=$2; shift 2 ;;
    --quick) QUICK=1; shift ;;
    -h | --help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
[ -n "$OUT" ] || OUT=$(mktemp -d /tmp/chunked_full.XXXXXX)
mkdir -p "$OUT"
[ -x "$CORPUS_BIN/lua" ] || die "$CORPUS_BIN is missing (make corpus)"
# A copy of the tools: another build in the tree while this runs changes nothing.
rm -rf "$OUT/bin" && cp -a "$BIN" "$OUT/bin"
SIM=$OUT/bin/sim
JOBS=${JOBS:-2}
INPUTS=$OUT/inputs
[ -d "$INPUTS" ] || python3 "$TOP/tests/corpus/make_inputs.py" "$INPUTS" >/dev/null
WORKLOAD_CONFIGS="1M:0,1M:100k,4M:0,4M:10k,4M:100k,4M:500k" CORPUS_CONFIGS="4M:0,4M:100k"
[ -z "$QUICK" ] || WORKLOAD_CONFIGS="4M:100k" CORPUS_CONFIGS="4M:100k"

# name|chunk sizes and warm-ups|program and arguments (run in $INPUTS)
PROGRAMS=()
for w in "$RVW"/*; do PROGRAMS+=("$(basename "$w")|$WORKLOAD_CONFIGS|$w"); done
for run in "lua work.lua text.txt" "gzip -n -c -9 text.txt" "bzip2 -c -9 text.txt" "xz -c -3 text.txt" \
    "zstd -c -q -6 text.txt" "mawk -F, -f stats.awk log.csv" "lp_solve -S4 model.lp"; do
    PROGRAMS+=("${run%% *}|$CORPUS_CONFIGS|$CORPUS_BIN/$run")
done

# run NAME OUTBASE SIM-OPTIONS... -- PROGRAM...: one sim --full, its wall seconds
run() {
    local base=$1
    shift
    (cd "$INPUTS" && wall_seconds "$base.out" "$SIM" --full -q -G 1M --profile-top 0 \
        --interval-log "$base.csv" -o "$base.json" "$@")
}

ROWS=$OUT/rows.tsv
: >"$ROWS"
for entry in "${PROGRAMS[@]}"; do
    IFS='|' read -r name configs command <<<"$entry"
    IFS=, read -r -a cfgs <<<"$configs"
    read -r -a cmd <<<"$command"
    d=$OUT/$name
    mkdir -p "$d"
    serial=$(OMP_NUM_THREADS=1 run "$d/serial" -- "${cmd[@]}") || die "$name: serial run failed"
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
python3 - "$ROWS" "$JOBS" >"$RESULT" <<'EOF'
import collections, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
jobs = sys.argv[2]
print("# Chunked full runs against serial ones\n")
print("`bench/chunked_full.sh`: `sim --full --chunk-insts C --chunk-warmup W` against `sim --full` (-G 1M),")
print(f"the chunks on {jobs} threads. Instructions and the interval log's rows (count and lengths) are equal in")
print("every run (the script stops otherwise). CPI: (chunked - serial) / serial; stack: the largest")
print("difference of one cycle-stack component, in % of the serial cycles; interval CPI: the largest and")
print("mean |difference| of one log row's CPI; profile: the golden profile's instruction-level error")
print("(TIP's metric) against the serial one. Wall times in seconds on a shared 2-core machine.\n")
by_cfg = collections.OrderedDict()
for r in rows:
    by_cfg.setdefault((r[2], r[3]), []).append(r)
print("## Summary per chunk size and warm-up\n")
print("| C | W | runs | mean \\|CPI\\| % | max \\|CPI\\| % | max stack % | max interval CPI % | mean interval CPI % | max profile % |")
print("|---|---|--:|--:|--:|--:|--:|--:|--:|")
for (C, W), rs in by_cfg.items():
    cpi = [abs(float(r[7])) for r in rs]
    print(f"| {C} | {W} | {len(rs)} | {sum(cpi)/len(cpi):.4f} | {max(cpi):.4f} | {max(float(r[8]) for r in rs):.4f} | "
          f"{max(float(r[10]) for r in rs):.3f} | {sum(float(r[11]) for r in rs)/len(rs):.4f} | {max(float(r[12]) for r in rs):.4f} |")
print("\n## Every run\n")
print("| program | instructions | C | W | chunks | CPI % | stack % (component) | interval CPI % max / mean | profile % | wall serial | wall chunked |")
print("|---|--:|---|---|--:|--:|--:|--:|--:|--:|--:|")
for r in rows:
    print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[7]} | {r[8]} ({r[9]}) | {r[10]} / {r[11]} | {r[12]} | {r[13]} | {r[14]} |")
EOF
echo "wrote $RESULT" >&2
