#!/usr/bin/env bash
# One run of every corpus program (the rows of tests/corpus/programs.txt
# marked for the pipeline) through scripts/pipeline.sh: bbv, simpoint, warm
# checkpoints, sim over the regions, the full detailed run, validate. Every
# stage must run, every region run its whole interval (or to the end), the instruction totals
# of profile and full run agree, and the sampled CPI be within 10% of the
# full run's (it is printed for each).
source "$(dirname "$0")/lib.sh"
source "$TOP/tests/corpus/lib.sh"
corpus_setup_repeatable "$T/run"

n=0
for label in "${LABELS[@]}"; do
    [ "${PIPELINE[$label]}" = yes ] || continue
    [ -n "${ONLY:-}" ] && ! [[ $label =~ $ONLY ]] && continue
    out=$T/pl.$label
    read -r interval err < <(corpus_pipeline "$label" "$T/run" "$out") || fail "$label: the pipeline failed"
    for s in bbv simpoint checkpoint regions full validate; do
        grep -q "$s: done in" "$out/pipeline.log" || fail "$label: stage $s did not run"
    done
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
    printf 'ok   %-14s %9s instructions, intervals of %7s, %2d regions, CPI error %6s%%\n' "$label" \
        "$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$out/$label.summary.json" | head -n 1)" \
        "$interval" "$(grep -c '^[0-9]' "$out/$label.simpoints")" "$err"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no corpus run went through the pipeline"
echo "corpus: $n programs through the pipeline"
