#!/usr/bin/env bash
# bench_memory_bound.sh: fast-forward and functional warming against the
# host's own speed on a memory-bound program, workloads/ptr_chase.c (a
# dependent load to a random line every five instructions), whole and with
# each working set alone (4 KB, 64 KB, 1 MB, 16 MB: built with
# -DCHASE_ONLY=N, bench/memory_bound.mk). The same C compiled for the host
# (cc -O2) gives the speed the host itself reaches on this code, in the
# guest's instructions per second ("native"): where a phase waits on the
# host's memory, no translation of it, warmed or not, can go faster.
# Measured in the same run, each the fastest of --reps, in rounds:
#   native   build/bench/chase/host_V SIZE          guest instructions / wall s
#   qemu     qemu-riscv64 build/bench/chase/rv_V SIZE   the same
#   ff       checkpoint --at N (95% of the run): the fast_forward MIPS it reports
#   warm     checkpoint --warm configs/boom-tip.ini --at W: its fast_forward MIPS,
#            with the warming thread (two threads), and on one CPU (taskset -c
#            to the first CPU this script may use: no thread)
# and with --ref-bin DIR, warm on both for the checkpoint in DIR too, in turns
# with this build's. Prints a table (with the warming goal, issue 38: 150 MIPS
# where native exceeds 300, else half of native; and the warming model's L1D,
# L2, LLC and D-TLB misses per 1000 instructions) and writes
# bench/results/memory_bound.txt (memory_bound_quick.txt with --quick).
#
# Usage: bench/bench_memory_bound.sh [--quick] [--reps N] [--warm-insts N] [--ref-bin DIR]
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
QEMU=${QEMU:-qemu-riscv64}
REPS=3 QUICK= WARM_INSTS=100000000 REF_BIN=
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1; shift ;;
    --reps) REPS=$2; shift 2 ;;
    --warm-insts) WARM_INSTS=$2; shift 2 ;;
    --ref-bin) REF_BIN=$2; shift 2 ;;
    -h|--help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
command -v "$QEMU" >/dev/null || die "$QEMU not found"
[ -x "$BIN/checkpoint" ] || die "build first (make build)"
[ -z "$REF_BIN" ] || [ -x "$REF_BIN/checkpoint" ] || die "no checkpoint in $REF_BIN (--ref-bin)"
# one CPU: the first this script may run on
CPU=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
make -s -C "$TOP" bench-chase-programs >&2 || die "the programs could not be built (make bench-chase-programs)"
CHASE=$TOP/build/bench/chase
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

size=$([ -n "$QUICK" ] && echo 2 || echo 11)
[ -n "$QUICK" ] && WARM_INSTS=20000000
VARIANTS="all 0 1 2 3"
label() { case $1 in all) echo "all four" ;; 0) echo "4 KB" ;; 1) echo "64 KB" ;; 2) echo "1 MB" ;; 3) echo "16 MB" ;; esac; }

declare -A N NAT Q FF W W1 RW RW1
# warm_mips BIN V AT [taskset -c CPU]: the fast_forward MIPS of one warming run
warm_mips() {
    local bin=$1 v=$2 at=$3
    shift 3
    rm -rf "$T/ck"
    "$@" "$bin/checkpoint" -o "$T/ck" --warm "$(config_for "$bin" "$TOP/configs/boom-tip.ini")" --at "$at" --guest-output none -- \
        "$CHASE/rv_$v" "$size" >/dev/null 2>&1 || die "checkpoint --warm ($bin) failed on rv_$v"
    json_mips "$T/ck/checkpoints.json" fast_forward
}
for v in $VARIANTS; do
    "$BIN/bbv" --count-only --summary "$T/n.json" -- "$CHASE/rv_$v" "$size" >/dev/null 2>&1 ||
        die "bbv --count-only failed on rv_$v"
    N[$v]=$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$T/n.json" | head -n 1)
done
for r in $(seq 1 "$REPS"); do
    echo "bench_memory_bound: round $r of $REPS" >&2
    for v in $VARIANTS; do
        NAT[$v]+=" $(wall_seconds "$T/native_$v.out" "$CHASE/host_$v" "$size")"
        Q[$v]+=" $(wall_seconds "$T/qemu_$v.out" "$QEMU" "$CHASE/rv_$v" "$size")"
        at=$((N[$v] * 95 / 100))
        wat=$((WARM_INSTS < at ? WARM_INSTS : at))
        rm -rf "$T/ck"
        "$BIN/checkpoint" -o "$T/ck" --at "$at" --guest-output none -- "$CHASE/rv_$v" "$size" >/dev/null 2>&1 ||
            die "checkpoint failed on rv_$v"
        FF[$v]+=" $(json_mips "$T/ck/checkpoints.json" fast_forward)"
        [ -z "$REF_BIN" ] || RW[$v]+=" $(warm_mips "$REF_BIN" "$v" "$wat")"
        W[$v]+=" $(warm_mips "$BIN" "$v" "$wat")"
        cp "$T/ck/checkpoints.json" "$T/warming_$v.json"
        [ -z "$REF_BIN" ] || RW1[$v]+=" $(warm_mips "$REF_BIN" "$v" "$wat" taskset -c "$CPU")"
        W1[$v]+=" $(warm_mips "$BIN" "$v" "$wat" taskset -c "$CPU")"
    done
done

suffix=$([ -n "$QUICK" ] && echo _quick)
txt=$TOP/bench/results/memory_bound$suffix.txt
mkdir -p "$TOP/bench/results"
status=0
{
    echo "bench_memory_bound ($(date -u +%FT%TZ), $(git -C "$TOP" rev-parse --short HEAD), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ptr_chase $size, fastest of $REPS; MIPS in guest instructions)"
    printf '%-9s %12s %11s %9s %8s %9s %11s %9s %11s %5s %-5s %s\n' "set" instructions "native MIPS" "qemu MIPS" "ff MIPS" "warm MIPS" \
        "warm/native" "1-CPU" "1-CPU/nat." goal met "per 1000 instructions: L1D, L2, LLC, D-TLB misses"
    for v in $VARIANTS; do
        # the guest's output must be the host build's
        cmp -s "$T/native_$v.out" "$T/qemu_$v.out" || { echo "rv_$v: qemu's output differs from the host build's" >&2; status=1; }
        # shellcheck disable=SC2086 # the lists split into their values
        nat=$(fastest ${NAT[$v]}) q=$(fastest ${Q[$v]}) ff=$(largest ${FF[$v]}) w=$(largest ${W[$v]}) w1=$(largest ${W1[$v]})
        misses=$(python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["warming"]
k = 1000 / w["instructions"]
print("%.1f %.1f %.1f %.1f" % tuple(w[x] * k for x in ("l1d_misses", "l2_misses", "llc_misses", "dtlb_misses")))' "$T/warming_$v.json")
        awk -v l="$(label "$v")" -v n="${N[$v]}" -v nat="$nat" -v q="$q" -v ff="$ff" -v w="$w" -v w1="$w1" -v m="$misses" 'BEGIN {
            nm = n / nat / 1e6
            goal = nm > 300 ? 150 : nm / 2
            met = (w >= goal ? "2T" : "") (w1 >= goal ? (w >= goal ? ",1C" : "1C") : "")
            printf "%-9s %12d %11.1f %9.1f %8.1f %9.1f %11.2f %9.1f %11.2f %5.1f %-5s %s\n", l, n, nm, n / q / 1e6, ff, w, w / nm,
                w1, w1 / nm, goal, met == "" ? "-" : met, m
        }'
    done
    echo "native: the same C built for the host (cc -O2), the program's guest instructions over its wall time;"
    echo "ff: checkpoint's fast-forward; warm: checkpoint --warm configs/boom-tip.ini over the first $WARM_INSTS instructions,"
    echo "with the warming thread; 1-CPU: the same under taskset -c $CPU (no thread); goal (issue 38): 150 MIPS where"
    echo "native exceeds 300, else half of native; met by (2T) two threads, (1C) one CPU"
    if [ -n "$REF_BIN" ]; then
        echo
        echo "warm MIPS against the reference $REF_BIN, run in turns with this build's (fastest of $REPS each)"
        printf '%-9s %10s %10s %8s %10s %10s %8s\n' set "ref 2T" "this 2T" speedup "ref 1-CPU" "this 1-CPU" speedup
        for v in $VARIANTS; do
            # shellcheck disable=SC2086
            awk -v l="$(label "$v")" -v a="$(largest ${RW[$v]})" -v b="$(largest ${W[$v]})" -v c="$(largest ${RW1[$v]})" \
                -v d="$(largest ${W1[$v]})" 'BEGIN { printf "%-9s %10.1f %10.1f %7.2fx %10.1f %10.1f %7.2fx\n", l, a, b, b / a, c, d, d / c }'
        done
    fi
} | tee "$txt"
exit $status
