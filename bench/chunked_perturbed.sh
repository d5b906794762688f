#!/bin/bash
# How much of a chunked run's difference from the serial one is the run's
# own sensitivity (issue 38): corpus programs run serially and chunked
# (sim --full against sim --full --chunk-insts C --chunk-warmup W) under
# several guest environments that do not change what they compute (the
# corpus tests' environment, then one more variable of 1, 200 or 2 x 6
# characters: the stack moves, so do the addresses the program sees). Per
# program: each environment's serial and chunked CPI and their difference,
# the serial CPI's spread across the environments, and the mean and mean
# |difference|. A chunked difference inside the serial run's spread is no
# larger than what moving the program's stack does to the serial run.
#
# Usage: bench/chunked_perturbed.sh [-o DIR]
#   -o DIR   work directory (default: a temporary one)
# ONLY="NAME..." the corpus programs (default: gdbm_tool, the one run of
# bench/results/chunked_corpus.md beyond 0.1%); CONFIG=C:W the chunking
# (default 4M:500k, sim's default warm-up); JOBS chunk threads (default 2).
# Writes bench/results/chunked_perturbed.md.
source "$(dirname "$0")/paths.sh"

CORPUS_ALL=
args=()
while [ $# -gt 0 ]; do
    case $1 in
    -o) args+=(-o "$2"); shift 2 ;;
    -h | --help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
source "$(dirname "$0")/corpus_runs.sh" "${args[@]}" --corpus all
SIM=$BIN/sim
JOBS=${JOBS:-2}
ONLY=${ONLY:-gdbm_tool}
CONFIG=${CONFIG:-4M:500k}
C=${CONFIG%:*} W=${CONFIG#*:}
# name|extra --env options, one environment each (the first: none extra)
PERTURBATIONS=("as given|" "X=1|--env X=1" "200 more|--env PAD=$(printf 'a%.0s' {1..200})"
    "TERM, LANG|--env TERM=xterm --env LANG=C" "USER|--env USER=nobody")

# run OUTBASE SIM-OPTIONS... -- PROGRAM...: one sim --full of $name in a
# fresh copy of its inputs (with its stdin): "instructions cycles".
run() {
    local base=$1 work=$OUT/work
    shift
    rm -rf "$work" && cp -a "${BENCH_DIR[$name]}" "$work" || return 1
    mkdir -p "$OUT/tmp"
    (cd "$work" && TMPDIR=$OUT/tmp STDIN=${BENCH_STDIN[$name]:-} wall_seconds "$base.out" "$SIM" --full -q --profile-top 0 \
        -o "$base.json" "${ENV_OPTS[@]}" "$@") >/dev/null
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["results"][0]; print(r["instructions"], r["cycles"])' \
        "$base.json"
}

ROWS=$OUT/perturbed.tsv
: >"$ROWS"
for entry in "${BENCH_RUNS[@]}"; do
    IFS='|' read -r name command <<<"$entry"
    [[ " $ONLY " == *" $name "* ]] || continue
    cmd=()
    eval "cmd=($command)" # the corpus lists quote some arguments
    for p in "${PERTURBATIONS[@]}"; do
        IFS='|' read -r label extra <<<"$p"
        guest_env_for "$command"
        # shellcheck disable=SC2206 # the extra options split into words
        ENV_OPTS+=($extra)
        d=$OUT/$name/${label//[^A-Za-z0-9]/_}
        mkdir -p "$d"
        serial=$(OMP_NUM_THREADS=1 run "$d/serial" -- "${cmd[@]}") || die "$name ($label): serial run failed"
        chunked=$(OMP_NUM_THREADS=$JOBS run "$d/chunked" --chunk-insts "$C" --chunk-warmup "$W" -- "${cmd[@]}") ||
            die "$name ($label): chunked run failed"
        [ "${serial% *}" = "${chunked% *}" ] || die "$name ($label): the runs retired different instruction counts"
        printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$label" "${serial% *}" "${serial#* }" "${chunked#* }" >>"$ROWS"
        echo "$name ($label): serial ${serial#* } cycles, chunked ${chunked#* }" >&2
    done
done
[ -s "$ROWS" ] || die "no corpus program named in ONLY='$ONLY'"

RESULT=$TOP/bench/results/chunked_perturbed.md
python3 - "$ROWS" "$C" "$W" "$(git -C "$TOP" rev-parse --short HEAD)" >"$RESULT" <<'EOF'
import sys
from collections import defaultdict
rows_path, C, W, commit = sys.argv[1:5]
runs = defaultdict(list)
for line in open(rows_path):
    name, label, insts, serial, chunked = line.rstrip("\n").split("\t")
    runs[name].append((label, int(insts), int(serial), int(chunked)))
print("# Chunked against serial under environments that change nothing the program computes\n")
print(f"`bench/chunked_perturbed.sh` at {commit}: `sim --full` against `sim --full --chunk-insts {C} "
      f"--chunk-warmup {W}`, each in a fresh copy of its inputs with the corpus tests' environment "
      "(tests/corpus/guest_env.sh) plus the variable named in the first column. CPI difference = "
      "chunked CPI / serial CPI - 1; the serial spread = (largest - smallest serial CPI) / the mean.\n")
for name, rs in runs.items():
    print(f"## {name}\n")
    print("| environment | instructions | serial CPI | chunked CPI | difference |")
    print("|---|--:|--:|--:|--:|")
    diffs, cpis = [], []
    for label, insts, serial, chunked in rs:
        s, c = serial / insts, chunked / insts
        diffs.append(100 * (c / s - 1))
        cpis.append(s)
        print(f"| {label} | {insts:,} | {s:.6f} | {c:.6f} | {diffs[-1]:+.3f}% |")
    spread = 100 * (max(cpis) - min(cpis)) / (sum(cpis) / len(cpis))
    print(f"\nSerial CPI spread {spread:.3f}%; difference mean {sum(diffs) / len(diffs):+.3f}%, "
          f"mean |difference| {sum(map(abs, diffs)) / len(diffs):.3f}%, "
          f"largest |difference| {max(map(abs, diffs)):.3f}%.\n")
EOF
echo "wrote $RESULT" >&2
