#!/usr/bin/env bash
# bench_proxy_exposed.sh: what the exposure model (bbv --proxy's exposed_cpi,
# issue 37) costs the functional pass. Per program, interleaved, the fastest
# of REPS wall times of
#   BEFORE -i 1M --proxy configs/boom-tip.ini -- PROG ARGS   (a bbv without it)
#   build/bin/bbv -i 1M --proxy ...                          -- PROG ARGS
# on bundled workloads and corpus runs, the FP-heavy evaluation programs
# (potrace, lame, where the model steps nearly every instruction) among them.
# The two must write the same .bb files and the same .proxy columns but
# exposed_cpi, or the script says so and exits non-zero. Writes
# bench/results/proxy_exposed.txt.
#
# Usage: bench/bench_proxy_exposed.sh --before BBV [--before-name TEXT] [--reps N]
set -u -o pipefail
export LC_ALL=C

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BBV=$TOP/build/bin/bbv CB=$TOP/build/corpus/bin RVW=$TOP/build/rv/workloads
CFG=$TOP/configs/boom-tip.ini
REPS=3 BEFORE= BEFORE_NAME=
while [ $# -gt 0 ]; do
    case $1 in
    --reps) REPS=$2; shift 2 ;;
    --before) BEFORE=$(realpath "$2"); shift 2 ;;
    --before-name) BEFORE_NAME=$2; shift 2 ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_proxy_exposed: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$BEFORE" ] || { echo "bench_proxy_exposed: --before BBV is required" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
python3 "$TOP/tests/corpus/make_inputs.py" "$W/in" > /dev/null
python3 "$TOP/tests/corpus/make_inputs.py" --eval "$W/ev" > /dev/null

# name|directory|program and arguments
RUNS=(
    "stencil-4|$W/in|$RVW/stencil 4"
    "fp_flags-4|$W/in|$RVW/fp_flags 4"
    "sort-4|$W/in|$RVW/sort 4"
    "lua|$W/in|$CB/lua work.lua text.txt"
    "lp_solve|$W/in|$CB/lp_solve -S4 model.lp"
    "potrace_svg|$W/ev|$CB/potrace -s -o - shapes.pbm"
    "lame_mp3|$W/ev|$CB/lame --quiet -h tone.wav -"
    "bc_consts|$W/ev|$CB/bc -l -q consts.bc"
)

# wall seconds of one run of "$@" in directory $1, its outputs at $W/o.$2
timed() {
    local dir=$1 tag=$2; shift 2
    local t0=$EPOCHREALTIME
    (cd "$dir" && "$@" > /dev/null 2>&1 < /dev/null)
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'
}

{
    echo "bench_proxy_exposed ($(date -u +%FT%TZ), $(git -C "$TOP" rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), fastest of $REPS, interleaved)"
    echo "bbv -i 1M --proxy configs/boom-tip.ini -- PROG; before: ${BEFORE_NAME:-$BEFORE} (no exposure model)"
    printf '%-14s %12s %9s %9s %7s\n' program instructions "before s" "after s" ratio
} > "$W/report"
status=0
for run in "${RUNS[@]}"; do
    IFS='|' read -r name dir cmd <<< "$run"
    read -r -a argv <<< "$cmd"
    [ -x "${argv[0]}" ] || { echo "bench_proxy_exposed: ${argv[0]} is missing" >&2; exit 2; }
    best_b= best_a=
    for ((r = 0; r < REPS; r++)); do
        b=$(timed "$dir" b "$BEFORE" -o "$W/o.b" -i 1M --proxy "$CFG" -- "${argv[@]}")
        a=$(timed "$dir" a "$BBV" -o "$W/o.a" -i 1M --proxy "$CFG" -- "${argv[@]}")
        best_b=$(awk -v x="$b" -v y="${best_b:-1e9}" 'BEGIN { print (x < y ? x : y) }')
        best_a=$(awk -v x="$a" -v y="${best_a:-1e9}" 'BEGIN { print (x < y ? x : y) }')
    done
    if ! cmp -s <(zcat "$W/o.b.1000000.bb.gz") <(zcat "$W/o.a.1000000.bb.gz") ||
       ! cmp -s <(grep -v '^#' "$W/o.b.1000000.proxy") <(grep -v '^#' "$W/o.a.1000000.proxy" | cut -f 1-21); then
        echo "bench_proxy_exposed: $name: the two bbvs disagree on the .bb files or the .proxy columns" >&2
        status=1
    fi
    insts=$(awk -F'\t' '/^[0-9]/ { s += $2 } END { print s }' "$W/o.a.1000000.proxy")
    printf '%-14s %12s %9.2f %9.2f %6.3fx\n' "$name" "$insts" "$best_b" "$best_a" \
        "$(awk -v a="$best_a" -v b="$best_b" 'BEGIN { print a / b }')" >> "$W/report"
done
awk 'NR > 3 { s += log($5 + 0); n++ } END { printf "after / before: geometric mean %.3fx over %d programs\n", exp(s / n), n }' \
    "$W/report" >> "$W/report"
echo "load at the end $(cut -d' ' -f1 /proc/loadavg)" >> "$W/report"
cp "$W/report" "$TOP/bench/results/proxy_exposed.txt"
cat "$W/report"
exit $status
