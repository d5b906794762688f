#!/bin/bash
# A long program end to end (issue 38): a corpus program on a larger
# generated input, bzip2 -c -9 on LINES lines of English-like text
# (tests/corpus/make_inputs.py --text; 420,000 lines, 24 MB: about 10^10
# instructions), through the whole pipeline (pipeline.sh: bbv --proxy,
# simpoint, warm checkpoints, the regions, the full detailed run in chunks,
# validate) on a local Slurm cluster started here as the tests start it
# (tests/tools/slurm_cluster.sh: this machine as its one node), the full run as
# a job array (--full-chunks). Then the serial full run's speed, measured on a
# prefix of the program (sim --full --max-insts; --prefix 0 runs it whole),
# gives its estimated wall time and the chunked run's CPI over that prefix;
# and from the measured rates, the projected wall time of a 10^12-instruction
# program on 100 nodes (bench/long_program.py says how).
#
# Usage: bench/long_program.sh [-o DIR] [--lines N] [-i N] [-k K] [--chunks N]
#                              [--prefix N] [--result FILE] [--use-cluster]
#   -o DIR       work directory, kept (default: a new temporary one)
#   --lines N    lines of text (default 420000)
#   -i N         the pipeline's interval size (default 10M)
#   -k K         its MaxK (default 30)
#   --chunks N   chunks of the full run (default 20)
#   --prefix N   instructions of the serial run's prefix (default 1G; 0: the whole program)
#   --result F   the report (default bench/results/long_program.md)
#   --use-cluster  the Slurm cluster the environment names (SLURM_CONF), already
#                up, instead of starting one (tests/e2e/slurm_long_program.sh)
# Needs root, Slurm and munge (make deps), as tests/e2e/slurm_sweep.sh. Run it
# with nice: the cluster's daemons, and so its jobs, inherit the niceness.
source "$(dirname "$0")/paths.sh"

OUT= LINES=420000 INTERVAL=10M MAXK=30 CHUNKS=20 PREFIX=1G RESULT=$TOP/bench/results/long_program.md CLUSTER=
while [ $# -gt 0 ]; do
    case $1 in
    -o) OUT=$2; shift 2 ;;
    --lines) LINES=$2; shift 2 ;;
    -i) INTERVAL=$2; shift 2 ;;
    -k) MAXK=$2; shift 2 ;;
    --chunks) CHUNKS=$2; shift 2 ;;
    --prefix) PREFIX=$2; shift 2 ;;
    --result) RESULT=$2; shift 2 ;;
    --use-cluster) CLUSTER=1; shift ;;
    -h | --help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
[[ $LINES =~ ^[1-9][0-9]*$ ]] || die "--lines wants a positive number, not '$LINES'"
[ -x "$CORPUS_BIN/bzip2" ] || die "$CORPUS_BIN/bzip2 is missing (make corpus)"
[ -n "$OUT" ] || OUT=$(mktemp -d "/tmp/$SCRIPT.XXXXXX")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RESULT=$(realpath -m -- "$RESULT")
# A copy of the tools, the scripts (the jobs source them as they start) and
# the core configurations: another build or edit in the tree while this runs
# changes nothing.
rm -rf "$OUT/bin" "$OUT/tree" && cp -a "$BIN" "$OUT/bin" && mkdir "$OUT/tree" && cp -a "$TOP/scripts" "$TOP/configs" "$OUT/tree/"
export BIN=$OUT/bin

if [ -n "$CLUSTER" ]; then
    timeout 10 sinfo > /dev/null || die "--use-cluster: no Slurm cluster answers (SLURM_CONF=${SLURM_CONF:-})"
else
    . "$TOP/tests/tools/slurm_cluster.sh"
    trap slurm_cluster_stop EXIT
    trap 'exit 1' INT TERM
    rm -rf "$OUT/cluster"
    SLURM_CLUSTER_MAXTIME=1440 slurm_cluster_start "$OUT/cluster" >&2 || die "no Slurm cluster (above: why)"
fi

W=$OUT/work
mkdir -p "$W"
python3 "$TOP/tests/corpus/make_inputs.py" --text "$LINES" "$W/big.txt"
cd "$W" || die "no $W"
PROG=("$CORPUS_BIN/bzip2" -c -9 big.txt)
echo "$SCRIPT: ${PROG[*]} ($(wc -c < big.txt) bytes of input) through pipeline.sh on Slurm, the full run in $CHUNKS chunks" >&2
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$EPOCHREALTIME
"$OUT/tree/scripts/pipeline.sh" -o "$W/run" -n bzip2 -i "$INTERVAL" -k "$MAXK" --full-chunks "$CHUNKS" --engine slurm --wait \
    -- "${PROG[@]}" > "$W/pipeline.txt" 2>&1 || { tail -n 30 "$W/pipeline.txt" >&2; die "the pipeline failed"; }
t1=$EPOCHREALTIME
WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
echo "$SCRIPT: the pipeline took $WALL s" >&2

# The serial full run, as the pipeline would run it but for the chunks: its
# options from the full stage's command (full_in_chunks N G SIM OPTIONS...).
mapfile -d '' -t FULL < <(python3 - "$W/run/.stamps/full" << 'PY'
import shlex, sys
words = shlex.split(open(sys.argv[1]).read())
opts = words[3:words.index("--")]  # sim and its options
drop = {"-o", "--interval-log"}
keep = [w for i, w in enumerate(opts) if w not in drop and (i == 0 or opts[i - 1] not in drop)]
sys.stdout.write("\0".join(keep) + "\0")
PY
)
PREFIX_N=$(python3 -c 'import sys; v = sys.argv[1]; m = {"k": 10**3, "M": 10**6, "G": 10**9}; print(int(v[:-1]) * m[v[-1]] if v[-1] in m else int(v))' "$PREFIX")
LIMIT=()
[ "$PREFIX_N" -eq 0 ] || LIMIT=(--max-insts "$PREFIX_N")
echo "$SCRIPT: the serial full run${LIMIT:+ on the first $PREFIX_N instructions}" >&2
SERIAL_WALL=$(wall_seconds "$W/serial.out" "${FULL[@]}" "${LIMIT[@]}" --interval-log "$W/serial.csv" -o "$W/serial.json" \
    -- "${PROG[@]}") ||
    die "the serial full run failed: $(tail -n 3 "$W/serial.out.err")"

echo "$WALL $SERIAL_WALL" > "$W/walls.txt" # the report again: bench/long_program.py with these
mkdir -p "$(dirname "$RESULT")"
{
    echo "<!-- produced by: bench/long_program.sh --lines $LINES -i $INTERVAL -k $MAXK --chunks $CHUNKS --prefix $PREFIX, at $(git -C "$TOP" rev-parse --short HEAD); load averages at the start $LOAD0, at the end $(cut -d' ' -f1-3 /proc/loadavg) -->"
    python3 "$TOP/bench/long_program.py" "$W/run" "$W/serial.json" "$W/serial.csv" "$WALL" "$SERIAL_WALL" \
        "$(sinfo -h -o '%n %c' | sort -u | awk '{ n += $2 } END { print n }')" "$(nice)" "${PROG[*]}" "$LINES"
} > "$RESULT.tmp" && mv "$RESULT.tmp" "$RESULT"
echo "wrote $RESULT" >&2
