#!/usr/bin/env bash
# warm_symbols.sh: where a warming run's time goes, per thread and symbol,
# in seconds of perf samples (4 kHz cpu-clock), the least of --runs runs:
# perf counts a thread only while it runs, so a busy host inflates these
# figures far less than the wall time (its other work still takes the
# host's caches). Each run is
#   checkpoint --warm configs/boom-tip.ini --at N --guest-output none -- PROG ARGS
# with the warming thread (the warming run is "checkpoint", the thread
# "rv-warm"), or with --one-cpu under taskset -c to the first CPU this
# script may use (no thread). Translated code counts as JIT; TOTAL is every
# sample of the thread. Prints the --top largest.
#
# Usage: bench/warm_symbols.sh [--bin DIR] [--one-cpu] [--runs N] [--at N] [--top N] -- PROG [ARGS...]
#   --bin DIR   the checkpoint binary's directory (default: this build's)
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
RUNS=3 AT=100000000 TOPN=25 ON=()
while [ $# -gt 0 ]; do
    case $1 in
    --bin) BIN=$2; shift 2 ;;
    --one-cpu) ON=(taskset -c "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)"); shift ;;
    --runs) RUNS=$2; shift 2 ;;
    --at) AT=$2; shift 2 ;;
    --top) TOPN=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
[ $# -gt 0 ] || die "no program (see --help)"
[ -x "$BIN/checkpoint" ] || die "no checkpoint in $BIN"
command -v perf >/dev/null || die "perf not found"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for r in $(seq 1 "$RUNS"); do
    rm -rf "$T/ck"
    perf record -q -F 4000 -o "$T/perf.data" -- "${ON[@]}" "$BIN/checkpoint" -o "$T/ck" --warm "$TOP/configs/boom-tip.ini" \
        --at "$AT" --guest-output none -- "$@" >/dev/null 2>"$T/err" || { cat "$T/err" >&2; die "the run failed"; }
    # comm, address, symbol: an unnamed user-space address is translated code
    perf script -i "$T/perf.data" -F comm,ip,sym 2>/dev/null | awk -v r="$r" '{
        s = $3; if (s == "[unknown]" && $2 !~ /^ffff/) s = "JIT"
        n[$1 " " s]++; t[$1]++
    } END { for (k in n) print r, k, n[k]; for (c in t) print r, c, "TOTAL", t[c] }'
done | awk '{ k = $2 " " $3; if (!(k in m) || $4 < m[k]) m[k] = $4 }
    END { for (k in m) printf "%-12s %-40s %7.3f s\n", substr(k, 1, index(k, " ") - 1), substr(k, index(k, " ") + 1), m[k] / 4000 }' |
    sort -k3 -g -r | head -n "$TOPN"
