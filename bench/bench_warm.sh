#!/usr/bin/env bash
# bench_warm.sh: functional warming's speed, this build against a reference
# build, on bundled workloads and real programs, measured in the same run
# and interleaved (reference, this build, reference...). For each program:
#   checkpoint --warm configs/boom-tip.ini --at W --guest-output none -- PROG ARGS
# W = the first --warm-insts instructions (95% of the run when shorter).
# MIPS = W / the fastest of --reps runs' wall time, the whole command
# included (start-up, and writing the one checkpoint). Warming trains the
# branch predictor, TLBs, L2 and LLC on a second thread, so beside it is the CPU time (user +
# system, both threads) of the same fastest run; and the MIPS of both builds
# on one CPU (taskset -c to the first CPU this script may use: no thread),
# as a Slurm task given one CPU, or a host busy with other work, sees them.
# Beside them, the same command without --warm (the fast-forward alone).
# Prints a table and writes bench/results/warm.txt (warm_quick.txt with --quick).
#
# Usage: bench/bench_warm.sh [--ref-bin DIR] [--reps N] [--warm-insts N] [--quick] [--perf]
#   --ref-bin DIR   the reference checkpoint binary's directory (default: a
#                   build of commit 4ebd8ae, before warming was made faster,
#                   made by bench/warm_ref.sh the first time)
#   --perf          also where this build's warming time goes on sort and lua
#                   (perf record; the top symbols, [JIT] lines summed)
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
REF_BIN= REPS=3 WARM_INSTS=100000000 QUICK= PERF=
while [ $# -gt 0 ]; do
    case $1 in
    --ref-bin) REF_BIN=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --warm-insts) WARM_INSTS=$2; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --perf) PERF=1; shift ;;
    -h|--help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
[ -x "$BIN/checkpoint" ] || die "build first (make build)"
[ -n "$REF_BIN" ] || REF_BIN=$("$TOP/bench/warm_ref.sh") || exit 2
[ -x "$REF_BIN/checkpoint" ] || die "no reference checkpoint in $REF_BIN"
[ -x "$CORPUS_BIN/lua" ] || make -s -C "$TOP" corpus >&2 || die "the corpus could not be built (make corpus)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 "$TOP/tests/corpus/make_inputs.py" "$T/in" >/dev/null
# The real programs' input, as bench_jit.sh makes it (the same text repeated).
for i in $(seq 1 6); do cat "$T/in/text.txt"; done >"$T/in/big.txt"

# label | program | arguments (run in $T/in) | instructions in the whole run
RUNS="sort|$RVW/sort|30|622349480
stencil|$RVW/stencil|30|874716386
ptr_chase|$RVW/ptr_chase|11|185522962
int_compute|$RVW/int_compute|30|652256891
interp|$RVW/interp|30|554383671
lua|$CORPUS_BIN/lua|work.lua big.txt|183843406
gzip|$CORPUS_BIN/gzip|-n -c -9 big.txt|159734286
bzip2|$CORPUS_BIN/bzip2|-c -9 big.txt|1294149727
xz|$CORPUS_BIN/xz|-c -3 big.txt|63901192"
if [ -n "$QUICK" ]; then
    WARM_INSTS=20000000 REPS=1
    RUNS=$(echo "$RUNS" | grep -E '^(sort|lua)\|')
fi

# one CPU: the first this script may run on
CPU=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
# times BIN WARM AT PROG ARGS...: "wall cpu" seconds of one checkpoint run
# (ONE_CPU=1 in the environment: on one CPU)
times() {
    local bin=$1 warm=$2 at=$3; shift 3
    local opt=() on=()
    [ "$warm" = 1 ] && opt=(--warm "$TOP/configs/boom-tip.ini")
    [ -n "${ONE_CPU:-}" ] && on=(taskset -c "$CPU")
    rm -rf "$T/ck"
    (cd "$T/in" && "${on[@]}" /usr/bin/time -f '%e %U %S' -o "$T/time" "$bin/checkpoint" -o "$T/ck" "${opt[@]}" \
        --at "$at" --guest-output none -- "$@" >/dev/null 2>"$T/err") || { cat "$T/err" >&2; echo "0 0"; return; }
    awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$T/time"
}
# fastest "WALL CPU"... (paths.sh) gives the pair with the least wall time

suffix=$([ -n "$QUICK" ] && echo _quick)
txt=$TOP/bench/results/warm$suffix.txt
mkdir -p "$TOP/bench/results"
{
    echo "bench_warm ($(date -u +%FT%TZ), $(git -C "$TOP" rev-parse --short HEAD) against the reference in $REF_BIN, $(nproc) cores, fastest of $REPS, wall time)"
    echo "command: checkpoint [--warm configs/boom-tip.ini] --at W --guest-output none -- PROG ARGS (W below)"
    printf '%-12s %11s %6s %9s %9s %8s %7s %7s %8s %8s %8s %8s\n' program W "ff s" "before s" "after s" speedup before after "CPU s" \
        "before" "after" "1-CPU"
    printf '%-12s %11s %6s %9s %9s %8s %7s %7s %8s %8s %8s %8s\n' "" "" "" "" "" "" MIPS MIPS "after" "1-CPU" "1-CPU" speedup
} | tee "$txt"
while IFS='|' read -r label prog args total <&3; do
    read -r -a argv <<<"$args"
    at=$((WARM_INSTS < total ? WARM_INSTS : total * 95 / 100))
    ff=() before=() after=() before1=() after1=()
    for r in $(seq 1 "$REPS"); do
        ff+=("$(times "$BIN" 0 "$at" "$prog" "${argv[@]}")")
        before+=("$(times "$REF_BIN" 1 "$at" "$prog" "${argv[@]}")")
        after+=("$(times "$BIN" 1 "$at" "$prog" "${argv[@]}")")
        before1+=("$(ONE_CPU=1 times "$REF_BIN" 1 "$at" "$prog" "${argv[@]}")")
        after1+=("$(ONE_CPU=1 times "$BIN" 1 "$at" "$prog" "${argv[@]}")")
    done
    read -r f _ <<<"$(fastest "${ff[@]}")"
    read -r b _ <<<"$(fastest "${before[@]}")"
    read -r a ac <<<"$(fastest "${after[@]}")"
    read -r b1 _ <<<"$(fastest "${before1[@]}")"
    read -r a1 _ <<<"$(fastest "${after1[@]}")"
    awk -v l="$label" -v n="$at" -v f="$f" -v b="$b" -v a="$a" -v ac="$ac" -v b1="$b1" -v a1="$a1" 'BEGIN {
        printf "%-12s %11d %6.2f %9.2f %9.2f %7.2fx %7.1f %7.1f %8.2f %8.1f %8.1f %7.2fx\n", l, n, f, b, a, b / a, n / b / 1e6,
            n / a / 1e6, ac, n / b1 / 1e6, n / a1 / 1e6, b1 / a1
    }' | tee -a "$txt"
done 3<<<"$RUNS"
echo "ff s: the same command without --warm (fast-forward only), this build; CPU s: user + system time of the" | tee -a "$txt"
echo "fastest run, with the model's thread (after); 1-CPU: both builds under taskset -c $CPU (no thread)" | tee -a "$txt"

# profile LABEL: top symbols of this build warming LABEL's program
profile() {
    local label=$1 prog args argv at total
    IFS='|' read -r _ prog args total <<<"$(echo "$RUNS" | grep "^$label|")"
    [ -n "$prog" ] || return 0
    read -r -a argv <<<"$args"
    at=$((WARM_INSTS < total ? WARM_INSTS : total * 95 / 100))
    rm -rf "$T/ck"
    (cd "$T/in" && perf record -q -o "$T/perf.data" "$BIN/checkpoint" -o "$T/ck" --warm "$TOP/configs/boom-tip.ini" \
        --at "$at" --guest-output none -- "$prog" "${argv[@]}" >/dev/null 2>&1) || return 0
    echo "== where warming's time goes: $label (perf, this build)"
    perf report -i "$T/perf.data" --no-children --stdio 2>/dev/null | awk '
        /^ *[0-9.]+%/ { if ($0 ~ /\[JIT\]/) jit += $1; else if (n++ < 12) print }
        END { printf "  %6.2f%%  translated code ([JIT] lines summed)\n", jit }'
}
if [ -n "$PERF" ] && command -v perf >/dev/null; then
    for label in sort lua; do profile "$label"; done | tee -a "$txt"
fi
