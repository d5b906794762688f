#!/usr/bin/env bash
# sim_same.sh: a speed change must not change a simulated result. Runs
#   sim --full -q --guest-output none -o R.json [ARGS...] -- PROG
# with a reference build and this one on every bundled workload (or the
# programs given), checks the result JSONs are identical apart from the
# timing fields (seconds, mips) and prints each build's user-space
# instruction count (perf stat -e instructions:u: steady on a loaded host,
# unlike MIPS) and their ratio; where the host has no such counter (a VM),
# each build's user CPU seconds instead (less noisy than MIPS, still noisy).
#
# Usage: bench/sim_same.sh --ref-bin DIR [--arg A]... [PROG...]
#   --ref-bin DIR  the reference sim binary's directory
#   --arg A        an extra sim argument for both builds (repeatable)
#   --no-perf      compare the results only
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
REF="" ARGS=() PERF=1
while [ $# -gt 0 ]; do
    case $1 in
    --ref-bin) REF=$2; shift 2 ;;
    --arg) ARGS+=("$2"); shift 2 ;;
    --no-perf) PERF=0; shift ;;
    -h|--help) print_help; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) break ;;
    esac
done
[ -x "$REF/sim" ] || die "no reference sim in '$REF' (--ref-bin)"
[ -x "$BIN/sim" ] || die "build first (make build)"
PROGS=("$@")
[ ${#PROGS[@]} -gt 0 ] || PROGS=("$RVW"/*)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

COUNTER=instructions:u
perf stat -x, -e "$COUNTER" true 2>&1 | grep -q 'not supported' && COUNTER=user-seconds

run() { # BIN_DIR PROG OUT: the run's instruction count or user seconds (0 without perf)
    local cmd=("$1/sim" --full -q --guest-output none "${ARGS[@]}" -o "$3" -- "$2")
    if [ "$PERF" = 1 ] && [ "$COUNTER" = instructions:u ]; then
        perf stat -x, -e "$COUNTER" -o "$3.perf" "${cmd[@]}" >/dev/null 2>"$3.err" || die "$1/sim failed on $2"
        awk -F, '/instructions/ { print $1 }' "$3.perf"
    elif [ "$PERF" = 1 ]; then
        local TIMEFORMAT=%U
        { time "${cmd[@]}" >/dev/null 2>"$3.err" || die "$1/sim failed on $2"; } 2>&1
    else
        "${cmd[@]}" >/dev/null 2>"$3.err" || die "$1/sim failed on $2"
        echo 0
    fi
}

strip() { python3 -c '
import json, sys
def drop(v):
    if isinstance(v, dict): return {k: drop(x) for k, x in v.items() if k not in ("seconds", "mips")}
    if isinstance(v, list): return [drop(x) for x in v]
    return v
print(json.dumps(drop(json.load(open(sys.argv[1]))), sort_keys=True, indent=1))' "$1"; }

status=0
for prog in "${PROGS[@]}"; do
    a=$(run "$REF" "$prog" "$T/a.json") || exit 2
    b=$(run "$BIN" "$prog" "$T/b.json") || exit 2
    for f in "$T"/a.json*; do # side files (--profileme-samples ...) too
        g=$T/b${f#"$T"/a}
        case $f in *.perf|*.err) continue ;; esac
        if [ "$f" = "$T/a.json" ]; then diff -q <(strip "$f") <(strip "$g") >/dev/null
        else cmp -s "$f" "$g"; fi || { echo "$(basename "$prog"): $(basename "$f") DIFFERS"; status=1; }
    done
    printf '%-16s same=%s  %s ref %s this %s  x%s\n' "$(basename "$prog")" "$([ $status = 0 ] && echo yes || echo NO)" "$COUNTER" \
        "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')"
done
exit $status
