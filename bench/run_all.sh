#!/usr/bin/env bash
# Run every bench/bench_*.sh in turn (one at a time: timings of concurrent
# benchmarks on a 2-core machine would be meaningless). Arguments are passed
# to each script (e.g. `bench/run_all.sh --quick`). A failing script (a
# correctness mismatch, a missing tool) does not stop the others; the exit
# status is non-zero if any failed. Benchmarks print figures; they are not
# pass/fail timing tests.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
shopt -s nullglob
scripts=(bench/bench_*.sh)
[ ${#scripts[@]} -gt 0 ] || { echo "run_all: no bench/bench_*.sh" >&2; exit 2; }
failed=()
for s in "${scripts[@]}"; do
    name=$(basename "$s" .sh)
    echo "==== $name ($(date -u '+%F %T UTC'), load $(cut -d' ' -f1-3 /proc/loadavg))"
    start=$SECONDS
    if bash "$s" "$@"; then
        echo "==== $name done in $((SECONDS - start)) s"
    else
        echo "==== $name FAILED (exit $?) after $((SECONDS - start)) s"
        failed+=("$name")
    fi
    echo
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "bench: ${#scripts[@]} run, failed: ${failed[*]}"
    exit 1
fi
echo "bench: ${#scripts[@]} run, all completed"
