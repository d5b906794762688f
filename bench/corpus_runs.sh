# Sourced by bench scripts that run the bundled workloads and seven corpus
# runs (after paths.sh), with the script's arguments: -o DIR (OUT, a new
# temporary directory by default), -h, and --quick (QUICK=1) for a script that
# sets QUICK= before. Then a copy of the tools in OUT/bin, now BIN (another
# build in the tree while the bench runs changes nothing), the runs' inputs in
# INPUTS (made once), and BENCH_RUNS, one "name|program and arguments" each,
# to run in INPUTS, and guest_env_for, the environment a run's guest gets.
#
# --corpus all (for a script that sets CORPUS_ALL= before): the whole
# corpus of tests/corpus/SPLIT.md instead of the workloads and the seven
# runs: the tuning set (programs.txt's pipeline runs, tuning-extra.txt) and
# the evaluation set (eval.txt). Their arguments may be quoted (split them
# with eval); each runs in BENCH_DIR[name], its set's inputs, with stdin
# from BENCH_STDIN[name] (/dev/null when unset).
OUT=
while [ $# -gt 0 ]; do
    case $1 in
    -o) OUT=$2; shift 2 ;;
    --quick) [ -n "${QUICK+set}" ] || die "unknown option $1"; QUICK=1; shift ;;
    --corpus)
        [ -n "${CORPUS_ALL+set}" ] || die "unknown option $1"
        [ "${2:-}" = all ] || die "--corpus takes 'all'"
        CORPUS_ALL=1
        shift 2 ;;
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
declare -A BENCH_DIR=() BENCH_STDIN=()
# The corpus programs run with the corpus tests' environment and PWD (bash
# would otherwise list /tmp to find its directory, whose entries change
# between runs).
source "$TOP/tests/corpus/guest_env.sh"
corpus_pwd "$INPUTS"

# guest_env_for COMMAND: ENV_OPTS, the --env options for COMMAND's guest:
# the corpus tests' environment for a corpus program, none for a bundled
# workload.
guest_env_for() {
    ENV_OPTS=()
    [[ $1 != "$CORPUS_BIN"/* ]] || ENV_OPTS=("${GUEST_ENV_OPTS[@]}")
}

# corpus_list FILE INPUTS-OPTION [pipeline]: FILE's runs (programs.txt's
# format), those marked for the pipeline only with a third argument.
corpus_list() {
    local dir=$OUT/inputs${2#-} label prog stdin args pipeline
    [ -d "$dir" ] || python3 "$TOP/tests/corpus/make_inputs.py" $2 "$dir" >/dev/null || die "make_inputs.py $2 failed"
    while IFS='|' read -r label prog stdin args pipeline; do
        label=${label// /} prog=${prog// /} stdin=${stdin// /}
        [[ -n $label && $label != \#* ]] || continue
        [ -z "${3:-}" ] || [[ ${pipeline## } == yes* ]] || continue
        [ -x "$CORPUS_BIN/$prog" ] || die "$CORPUS_BIN/$prog is missing (tests/corpus/build.sh${2:+ $2})"
        args=$(sed 's/^ *//; s/ *$//' <<<"$args")
        BENCH_RUNS+=("$label|$CORPUS_BIN/$prog $args")
        BENCH_DIR[$label]=$dir
        [ "$stdin" = - ] || BENCH_STDIN[$label]=$dir/${stdin#pipe:}
    done <"$1"
}

if [ "${CORPUS_ALL:-}" = 1 ]; then
    corpus_list "$TOP/tests/corpus/programs.txt" "" pipeline
    corpus_list "$TOP/tests/corpus/tuning-extra.txt" --tuning-extra
    corpus_list "$TOP/tests/corpus/eval.txt" --eval
    return 0
fi
for w in "$RVW"/*; do BENCH_RUNS+=("$(basename "$w")|$w"); done
for run in "lua work.lua text.txt" "gzip -n -c -9 text.txt" "bzip2 -c -9 text.txt" "xz -c -3 text.txt" \
    "zstd -c -q -6 text.txt" "mawk -F, -f stats.awk log.csv" "lp_solve -S4 model.lp"; do
    BENCH_RUNS+=("${run%% *}|$CORPUS_BIN/$run")
done
