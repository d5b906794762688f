#!/usr/bin/env bash
# bench_proxy_pass.sh: what bbv --proxy (the functional warming model beside
# the BBVs) costs over plain bbv, on the bundled workloads and the seven
# corpus runs of bench/proxy_methods.sh. Per program, interleaved, fastest of
# REPS wall times ($EPOCHREALTIME around the command: start-up and output
# included):
#   bbv -i 1M                            -- PROG ARGS
#   bbv -i 1M --proxy configs/boom-tip.ini -- PROG ARGS
#   BEFORE -i 1M --proxy ...             -- PROG ARGS   (with --before BEFORE)
# BEFORE is another bbv to compare with (e.g. one built from an older
# commit); its .proxy, .bb files and block map must be the same as this one's
# (a .proxy of format 1, before the long operations' columns: the columns it
# has), and those of both bbv runs the same .bb files and block map, or the
# script says so and exits non-zero. Writes bench/results/proxy_pass.txt
# (proxy_pass_quick.txt with --quick).
#
# Usage: bench/bench_proxy_pass.sh [--quick] [--reps N] [--size N] [--before BBV [--before-name TEXT]]
set -u -o pipefail
export LC_ALL=C

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BBV=$TOP/build/bin/bbv CB=$TOP/build/corpus/bin RVW=$TOP/build/rv/workloads
CFG=$TOP/configs/boom-tip.ini
REPS=3 SIZE=4 BEFORE= BEFORE_NAME= QUICK=
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1 REPS=1 SIZE=1; shift ;;
    --reps) REPS=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --before) BEFORE=$(realpath "$2"); shift 2 ;;
    --before-name) BEFORE_NAME=$2; shift 2 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench_proxy_pass: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$BBV" ] || { echo "bench_proxy_pass: $BBV is missing (make build)" >&2; exit 2; }
[ -x "$CB/lua" ] || { echo "bench_proxy_pass: $CB is missing (make corpus)" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
python3 "$TOP/tests/corpus/make_inputs.py" "$W/in" > /dev/null

# label|program and arguments (run in $W/in)
RUNS=()
for w in fp_flags int_compute interp phases ptr_chase rounding sort stencil stream_prefetch strings; do
    RUNS+=("$w-$SIZE|$RVW/$w $SIZE")
done
RUNS+=("lua|$CB/lua work.lua text.txt" "gzip|$CB/gzip -n -c -9 text.txt" "bzip2|$CB/bzip2 -dc text.txt.bz2"
       "xz|$CB/xz -c -3 text.txt" "zstd|$CB/zstd -c -q -6 text.txt" "mawk|$CB/mawk -F, -f stats.awk log.csv"
       "lp_solve|$CB/lp_solve -S4 model.lp")

# time_run OUT BBV ARGS...: wall seconds of one run writing OUT.*
time_run() {
    local out=$1 bbv=$2 t0
    shift 2
    t0=$EPOCHREALTIME
    (cd "$W/in" && "$bbv" -o "$out" -i 1M "$@" > /dev/null 2>&1)
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'; }
same() { cmp -s <(zcat -f "$1") <(zcat -f "$2"); }
# The .proxy files: format 1 ($1 before issue 37's columns) is the first 16 columns of format 2.
same_proxy() {
    if grep -q '^# rvsample proxy 1$' "$1"; then
        cmp -s <(grep -v '^#' "$1") <(grep -v '^#' "$2" | cut -f 1-16)
    else
        same "$1" "$2"
    fi
}

R=$TOP/bench/results/proxy_pass${QUICK:+_quick}.txt
bad=0 load0=$(cut -d' ' -f1 /proc/loadavg)
{
    printf '%-18s %12s %8s %9s %6s' program instructions "bbv s" "proxy s" ratio
    [ -z "$BEFORE" ] || printf ' %9s %8s' "before s" speedup
    echo
} > "$W/table"
for run in "${RUNS[@]}"; do
    label=${run%%|*}
    read -r -a cmd <<< "${run#*|}"
    plain= proxy= before=
    for ((r = 0; r < REPS; r++)); do
        plain=$(min "$plain" "$(time_run "$W/f" "$BBV" -- "${cmd[@]}")")
        proxy=$(min "$proxy" "$(time_run "$W/p" "$BBV" --proxy "$CFG" -- "${cmd[@]}")")
        [ -z "$BEFORE" ] || before=$(min "$before" "$(time_run "$W/b" "$BEFORE" --proxy "$CFG" -- "${cmd[@]}")")
    done
    for f in 1000000.bb.gz bbmap; do
        same "$W/f.$f" "$W/p.$f" || { echo "bench_proxy_pass: $label: --proxy changed $f" >&2; bad=1; }
        [ -z "$BEFORE" ] || same "$W/b.$f" "$W/p.$f" || { echo "bench_proxy_pass: $label: $f differs from --before's" >&2; bad=1; }
    done
    [ -z "$BEFORE" ] || same_proxy "$W/b.1000000.proxy" "$W/p.1000000.proxy" ||
        { echo "bench_proxy_pass: $label: the .proxy file differs from --before's" >&2; bad=1; }
    insts=$(sed -n 's/.*"instructions": *\([0-9]*\).*/\1/p' "$W/p.summary.json" | head -n 1)
    {
        printf '%-18s %12s %8.2f %9.2f %5.1fx' "$label" "$insts" "$plain" "$proxy" "$(awk -v a="$plain" -v b="$proxy" 'BEGIN { print b / a }')"
        [ -z "$BEFORE" ] || printf ' %9.2f %7.2fx' "$before" "$(awk -v a="$before" -v b="$proxy" 'BEGIN { print a / b }')"
        echo
    } >> "$W/table"
    tail -n 1 "$W/table"
done
{
    echo "bench_proxy_pass ($(date -u '+%FT%TZ'), $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null), $(nproc) cores," \
         "load $load0 -> $(cut -d' ' -f1 /proc/loadavg), fastest of $REPS, interleaved)"
    echo "bbv -i 1M [--proxy configs/boom-tip.ini] -- PROG; workloads at size $SIZE, corpus runs as in bench/proxy_methods.sh"
    [ -z "$BEFORE" ] || echo "before: ${BEFORE_NAME:-$BEFORE} --proxy (speedup = before s / proxy s)"
    cat "$W/table"
    awk 'NR > 1 { r += log($5 + 0); n++ } END { printf "geometric mean of proxy/bbv: %.2fx\n", exp(r / n) }' "$W/table"
    [ -z "$BEFORE" ] || awk 'NR > 1 { r += log($7 + 0); n++ } END { printf "geometric mean speedup over before: %.2fx\n", exp(r / n) }' "$W/table"
    if [ "$bad" != 0 ]; then
        echo "outputs: DIFFERENT (see stderr)"
    elif [ -n "$BEFORE" ]; then
        echo "outputs: .bb files and block maps identical with and without --proxy, and .proxy files as before"
    else
        echo "outputs: .bb files and block maps identical with and without --proxy"
    fi
} > "$R"
cat "$R"
exit "$bad"
