#!/usr/bin/env bash
# One run of every corpus program (the rows of tests/corpus/programs.txt
# marked for the pipeline) through scripts/pipeline.sh: bbv, simpoint, warm
# checkpoints, sim over the regions, the full detailed run, validate. Every
# stage must run, every region run its whole interval (or to the end), the instruction totals
# of profile and full run agree, and the sampled CPI be within 10% of the
# full run's (it is printed for each).
# The full runs are kept in build/test-cache/full-runs (pipeline.sh --cache,
# keyed by everything they read, sim's binary included) and taken from there
# when nothing changed, so the programs run and write in fixed directories:
# build/test-cache/corpus_pipeline, one make test of this tree at a time.
source "$(dirname "$0")/lib.sh"
source "$TOP/tests/corpus/lib.sh"
W=$TOP/build/test-cache/corpus_pipeline
PIPELINE_CACHE=$TOP/build/test-cache/full-runs
mkdir -p "$W"
exec 9> "$W.lock"
flock 9
trap 'rm -rf "$T" "$W"' EXIT
corpus_setup_repeatable "$W/run"

n=0
for label in "${LABELS[@]}"; do
    [ "${PIPELINE[$label]}" = yes ] || continue
    [ -n "${ONLY:-}" ] && ! [[ $label =~ $ONLY ]] && continue
    out=$W/pl.$label
    rm -rf "$out" # every stage runs (pipeline.sh would reuse the last test's)
    read -r interval err < <(corpus_pipeline "$label" "$W/run" "$out") || fail "$label: the pipeline failed"
    for s in bbv simpoint checkpoint regions validate; do
        grep -q "$s: done in" "$out/pipeline.log" || fail "$label: stage $s did not run"
    done
    full=$(grep -Eo "full: (done|from the cache) in" "$out/pipeline.log") || fail "$label: the full run did not run"
    cached=''
    [ "$full" == "full: done in" ] || cached=' (full run from the cache)'
    python3 - "$out/regions.json" "$out/full.json" "$out/$label.summary.json" <<'PY' || fail "$label: regions or totals wrong"
import json, sys
regions, full, prof = (json.load(open(p)) for p in sys.argv[1:])
total = prof["instructions"]
assert full["results"][0]["instructions"] == total, "full run and profile disagree"
for r in regions["results"]:  # a whole interval, or up to the end (the last, partial one)
    g = r["region"]
    end = g["start"] + g["warmup"] + r["instructions"]
    assert r["instructions"] == g["interval"] or end == total, f"region {g} ran short: {r['instructions']}"
PY
    awk -v e="$err" 'BEGIN { exit !(e <= 10 && e >= -10) }' || fail "$label: CPI error $err% is over 10%"
    printf 'ok   %-14s %9s instructions, intervals of %7s, %2d regions, CPI error %6s%%%s\n' "$label" \
        "$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$out/$label.summary.json" | head -n 1)" \
        "$interval" "$(grep -c '^[0-9]' "$out/$label.simpoints")" "$err" "$cached"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no corpus run went through the pipeline"
echo "corpus: $n programs through the pipeline"
