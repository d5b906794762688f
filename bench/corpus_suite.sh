#!/bin/bash
# A suite report (issue 38): sweep.sh --suite over the bundled workloads, the
# seven corpus runs of the other benches and two corpus runs that read their
# standard input (yaml-parse < doc.yaml, sqlite3 < sql_inmem.sql), intervals
# 100k and 1M x MaxK 1..30 with the default method, every full run in chunks
# (--full-chunks auto): each program's CPI error per configuration, the mean
# and largest over the suite, its Pareto front and cheapest configuration
# within the target (validate --sweep).
#
# Usage: bench/corpus_suite.sh [-o DIR]
#   -o DIR    work directory (default: a temporary one)
# Writes bench/results/corpus_suite.md (the sweep's report) and leaves the
# suite's list in DIR/suite.tsv.
source "$(dirname "$0")/paths.sh"
source "$(dirname "$0")/corpus_runs.sh" "$@"

SUITE=$OUT/suite.tsv
{
    printf '# name\tcommand\tstandard input (bench/corpus_suite.sh)\n'
    for entry in "${BENCH_RUNS[@]}"; do
        IFS='|' read -r name command <<<"$entry"
        printf '%s\t%s\n' "$name" "$command"
    done
    printf 'yaml_stdin\t%s\tdoc.yaml\n' "$CORPUS_BIN/yaml-parse"
    printf 'sqlite_inmem\t%s -batch -bail -init /dev/null\tsql_inmem.sql\n' "$CORPUS_BIN/sqlite3"
} >"$SUITE"
t0=$EPOCHREALTIME
(cd "$INPUTS" && BIN=$BIN "$TOP/scripts/sweep.sh" -o "$OUT/sweep" -i 100k,1M -k 1..30 -r none --full-chunks auto \
    --suite "$SUITE" >"$OUT/sweep.log" 2>&1) || { tail -n 20 "$OUT/sweep.log" >&2; die "the sweep failed"; }
secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
{
    echo "<!-- produced by: bench/corpus_suite.sh ($(grep -vc '^#' "$SUITE") programs; sweep.sh -i 100k,1M -k 1..30 -r none --full-chunks auto --suite), $secs s on this 2-core machine, at $(git -C "$TOP" rev-parse --short HEAD) -->"
    cat "$OUT/sweep/report/sweep.md"
} >"$TOP/bench/results/corpus_suite.md"
echo "wrote $TOP/bench/results/corpus_suite.md" >&2
