# Sourced by bench scripts that run the bundled workloads and seven corpus
# runs (after paths.sh), with the script's arguments: -o DIR (OUT, a new
# temporary directory by default), -h, and --quick (QUICK=1) for a script that
# sets QUICK= before. Then a copy of the tools in OUT/bin, now BIN (another
# build in the tree while the bench runs changes nothing), the runs' inputs in
# INPUTS (made once), and BENCH_RUNS, one "name|program and arguments" each,
# to run in INPUTS.
OUT=
while [ $# -gt 0 ]; do
    case $1 in
    -o) OUT=$2; shift 2 ;;
    --quick) [ -n "${QUICK+set}" ] || die "unknown option $1"; QUICK=1; shift ;;
    -h | --help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
[ -n "$OUT" ] || OUT=$(mktemp -d "/tmp/$SCRIPT.XXXXXX")
mkdir -p "$OUT"
rm -rf "$OUT/bin" && cp -a "$BIN" "$OUT/bin"
BIN=$OUT/bin
[ -x "$CORPUS_BIN/lua" ] || die "$CORPUS_BIN is missing (make corpus)"
INPUTS=$OUT/inputs
[ -d "$INPUTS" ] || python3 "$TOP/tests/corpus/make_inputs.py" "$INPUTS" >/dev/null
BENCH_RUNS=()
for w in "$RVW"/*; do BENCH_RUNS+=("$(basename "$w")|$w"); done
for run in "lua work.lua text.txt" "gzip -n -c -9 text.txt" "bzip2 -c -9 text.txt" "xz -c -3 text.txt" \
    "zstd -c -q -6 text.txt" "mawk -F, -f stats.awk log.csv" "lp_solve -S4 model.lp"; do
    BENCH_RUNS+=("${run%% *}|$CORPUS_BIN/$run")
done
