#!/usr/bin/env bash
# bench_profiling.sh: what sampled profiling costs the detailed core.
#
# On rounding, sort and stream_prefetch (SIZE 1: 24, 18 and 25 M
# instructions), sim's own timing of the simulation (results[0].seconds in
# the JSON: the measured part, without start-up and reports) of
#   sim --full -q --guest-output none -o R.json -- PROG           (reference)
#   ... --sample tip,tip-ilp,nci,nci-ilp,lci,dispatch,fetch,software   (TIP's set, 4 kHz)
#   ... --sample all                                              (with TEA's six schemes and the golden PICS)
#   ... --sample all --commit-trace T.gz                          (and the per-cycle trace)
# The four variants run interleaved, --reps times each (default 3); the
# fastest of each is compared with the reference's fastest measured in the
# same run. Targets (issues 10 and 13): TIP's set <= 10% more time, every
# scheme <= 15%. The simulation itself does not change (cycles are checked
# equal across variants). Prints the table and writes
# bench/results/profiling.txt. Figures, not pass/fail criteria; a
# simulation that differs between variants makes the exit status 1.
#
# Usage: bench/bench_profiling.sh [--quick] [--reps N]
set -u -o pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SIM=$TOP/build/bin/sim
REPS=3 QUICK=
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1; REPS=1; shift ;;
    --reps) REPS=$2; shift 2 ;;
    *) echo "usage: $0 [--quick] [--reps N]" >&2; exit 2 ;;
    esac
done
[ -x "$SIM" ] || { echo "bench_profiling: $SIM is missing (make build)" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
TIPSET=tip,tip-ilp,nci,nci-ilp,lci,dispatch,fetch,software
WORKLOADS=(rounding sort stream_prefetch)
MAX=()
[ -z "$QUICK" ] || MAX=(--max-insts 3M)
variants=("reference" "tip-set" "all" "all+trace")
args_of() {
    case $1 in
    reference) ;;
    tip-set) echo "--sample $TIPSET --sample-hz 4000" ;;
    all) echo "--sample all --sample-hz 4000" ;;
    all+trace) echo "--sample all --sample-hz 4000 --commit-trace $T/trace.gz" ;;
    esac
}
status=0
out=$TOP/bench/results/profiling${QUICK:+_quick}.txt
{
echo "Sampled profiling: sim's time with profilers attached against none, same run, fastest of $REPS"
echo "($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %T UTC'))"
echo
printf "%-16s %12s %10s %10s %10s %10s\n" workload instructions reference tip-set all all+trace
for w in "${WORKLOADS[@]}"; do
    prog=$TOP/build/rv/workloads/$w
    declare -A secs=()
    cycles_ref=
    for ((r = 0; r < REPS; r++)); do
        for v in "${variants[@]}"; do
            # shellcheck disable=SC2046
            "$SIM" --full -q --guest-output none "${MAX[@]}" $(args_of "$v") -o "$T/r.json" -- "$prog" > /dev/null 2>&1
            read -r s cyc insts < <(python3 -c "
import json; r = json.load(open('$T/r.json'))['results'][0]; print(r['seconds'], r['cycles'], r['instructions'])")
            secs[$v]+="$s "
            [ -n "$cycles_ref" ] || cycles_ref=$cyc
            if [ "$cyc" != "$cycles_ref" ]; then echo "MISMATCH: $w $v simulated $cyc cycles, not $cycles_ref"; status=1; fi
        done
    done
    # The fastest run of each: on a shared machine interference only ever adds time.
    fastest() { tr ' ' '\n' <<< "$1" | grep . | sort -g | head -1; }
    ref=$(fastest "${secs[reference]}")
    printf "%-16s %12s %9.2fs" "$w" "$insts" "$ref"
    for v in tip-set all all+trace; do
        m=$(fastest "${secs[$v]}")
        printf " %+9.1f%%" "$(awk -v a="$m" -v b="$ref" 'BEGIN { print 100 * (a / b - 1) }')"
    done
    echo
    unset secs
done
echo
echo "Targets: TIP's set <= +10%, every scheme (all) <= +15% (issues 10 and 13)."
} | tee "$out"
exit $status
