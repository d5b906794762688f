#!/usr/bin/env bash
# The last, partial interval: 25.7M instructions in 10M intervals leave a
# 5.7M tail. pipeline.sh weights clusters by instructions (SimPoint's
# -fixedLength off), so three one-interval clusters extrapolate exactly;
# weights that count intervals (-fixedLength on) over-weight the tail, and
# validate names that as the cause, with no NaN anywhere.
source "$(dirname "$0")/lib.sh"
cd "$T"
prog=$RV/workloads/phases
BIN=$BIN "$TOP/scripts/pipeline.sh" -o out -i 10M -k 3 -- "$prog" 1 > log.txt 2>&1 || { cat log.txt; fail "pipeline failed"; }
err=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "error_pct") c = i } NR == 2 { print $c }' out/validate/summary.csv)
awk -v e="$err" 'BEGIN { exit !(e < 0.5 && e > -0.5) }' || fail "CPI error $err% with a partial last interval"
python3 - out/phases.weights out/phases.summary.json <<'PY' || fail "weights are not the clusters' instruction shares"
import json, sys
w = sorted(float(l.split()[0]) for l in open(sys.argv[1]))
total = json.load(open(sys.argv[2]))["instructions"]
want = sorted([10e6 / total, 10e6 / total, (total - 20e6) / total])
assert all(abs(a - b) < 1e-5 for a, b in zip(w, want)), (w, want)
PY
echo "ok   pipeline: weights by length, CPI error $err% with a 5.7M tail in 10M intervals"

# The same clusters weighted by interval count: the cause is named.
"$BIN/simpoint" -loadFVFile out/phases.10000000.bb.gz -maxK 3 -saveSimpoints on.sp -saveSimpointWeights on.w \
    -saveLabels on.labels > /dev/null
"$BIN/validate" --simpoints on.sp --weights on.w --labels on.labels -i 10M --full out/full.json \
    -o v 2> warn.txt
grep -q "the weights count intervals (SimPoint's -fixedLength on), and the last holds [0-9]* instructions, not 10000000" warn.txt ||
    fail "validate did not name the weights: $(cat warn.txt)"
grep -q "no confidence interval can be given" warn.txt || fail "one-interval clusters given an interval: $(cat warn.txt)"
! grep -qi "nan" warn.txt v/report.md v/summary.csv v/clusters.csv 2> /dev/null || fail "NaN printed: $(grep -il nan warn.txt v/*)"
echo "ok   validate names interval-count weights as the cause: $(grep -m1 'the weights count' warn.txt | cut -c1-120)..."
