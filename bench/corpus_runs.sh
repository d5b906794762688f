# Sourced by bench scripts that run the bundled workloads and seven corpus
# runs (after paths.sh and their options): OUT (a new temporary directory
# unless set), their inputs in INPUTS (made once), and BENCH_RUNS, one
# "name|program and arguments" each, to run in INPUTS.
[ -n "${OUT:-}" ] || OUT=$(mktemp -d "/tmp/$SCRIPT.XXXXXX")
mkdir -p "$OUT"
[ -x "$CORPUS_BIN/lua" ] || die "$CORPUS_BIN is missing (make corpus)"
INPUTS=$OUT/inputs
[ -d "$INPUTS" ] || python3 "$TOP/tests/corpus/make_inputs.py" "$INPUTS" >/dev/null
BENCH_RUNS=()
for w in "$RVW"/*; do BENCH_RUNS+=("$(basename "$w")|$w"); done
for run in "lua work.lua text.txt" "gzip -n -c -9 text.txt" "bzip2 -c -9 text.txt" "xz -c -3 text.txt" \
    "zstd -c -q -6 text.txt" "mawk -F, -f stats.awk log.csv" "lp_solve -S4 model.lp"; do
    BENCH_RUNS+=("${run%% *}|$CORPUS_BIN/$run")
done
