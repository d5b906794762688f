#!/usr/bin/env bash
# The budget of points and two-stage sampling (issue 37) through pipeline.sh,
# on a bundled workload:
#  - by default the points are at most 1.5 x SimPoint 3.2's on the same
#    profile (simpoint run here without the proxy), and the estimate's 95%
#    interval from the regions (simpoint --measured) is the weighted CPI of
#    the regions' own results;
#  - with --target-ci, the second stage keeps every first-stage point,
#    simulates only the points it adds, stays within the budget, and
#    validate takes both stages' regions with the second stage's weights;
#    the estimate is recomputed from both stages' results; a target already
#    met adds nothing; a rerun is up to date;
#  - bad uses are refused with one line.
source "$(dirname "$0")/lib.sh"
cd "$T"
PROG=$RV/workloads/phases
run() { BIN=$BIN "$TOP/scripts/pipeline.sh" "$@" -- "$PROG" 1; }

run -o one -i 100k -k 20 > one.log 2>&1 || { cat one.log; fail "the default pipeline failed"; }
"$BIN/simpoint" -loadFVFile one/phases.100000.bb.gz -fixedLength off -maxK 20 -saveSimpoints sp.simpoints > /dev/null
grep -q "estimate from the [0-9]* regions (simpoint --measured): CPI [0-9.]* ± [0-9.]*% (95%: " one.log ||
    fail "no estimate line: $(tail -5 one.log)"
# the estimate is the regions' weighted CPI; the points within 1.5 x SimPoint's
python3 - one/phases.estimate.json one/regions.json one/phases.weights sp.simpoints <<'PY' || fail "the default pipeline's estimate or budget"
import json, sys
est, reg = (json.load(open(p)) for p in sys.argv[1:3])
w = {int(c): float(x) for x, c in (l.split() for l in open(sys.argv[3]) if l.strip())}
simpoint = sum(1 for l in open(sys.argv[4]) if l.strip())
m, b = est["measured"], est["budget"]
assert m["complete"] and m["points"] == len(w) == len(reg["results"]), (m, len(w))
assert b["simpoint_points"] == simpoint and b["points"] == int(1.5 * simpoint + 1e-9), (b, simpoint)
assert m["points"] <= b["points"], (m["points"], b)
cpi = sum(w[r["region"]["cluster"]] * r["cycles"] / r["instructions"] for r in reg["results"]) / sum(w.values())
assert abs(m["cpi"] / cpi - 1) < 1e-5, (m["cpi"], cpi)
assert abs(m["low"] - cpi * (1 - m["ci95_relative"])) < 1e-4 and 0 < m["ci95_relative"] < 0.5, m
print(f"ok   {m['points']} points within the budget of {b['points']} (SimPoint's {simpoint}): CPI {cpi:.4f} "
      f"± {100 * m['ci95_relative']:.2f}%")
PY

run -o two -i 100k -k 20 --target-ci 0.5 > two.log 2>&1 || { cat two.log; fail "--target-ci failed"; }
grep -q "^[0-9:]* two stages: the first's [0-9]* points gave ± [0-9.]*%, the second added [1-9][0-9]* " two.log ||
    fail "no second stage line, or nothing added: $(grep -i 'stage' two.log)"
grep -q "^| phases |" two.log || fail "no validation summary"
python3 - two <<'PY' || fail "the two stages' points, regions or estimate"
import json, sys
d = sys.argv[1]
def points(f):
    return {int(i): int(c) for i, c in (l.split() for l in open(f) if l.strip())}
first, final = points(f"{d}/phases.simpoints"), points(f"{d}/phases.2.simpoints")
w = {int(c): float(x) for x, c in (l.split() for l in open(f"{d}/phases.2.weights") if l.strip())}
r1, r2 = (json.load(open(f"{d}/{f}"))["results"] for f in ("regions.json", "regions2.json"))
est = json.load(open(f"{d}/phases.estimate.json"))
m, b = est["measured"], est["budget"]
# every first-stage point kept with its cluster id, the new ones simulated once, in the second stage only
assert all(final.get(i) == c for i, c in first.items()), "a first-stage point lost or renumbered"
new = {i for i in final if i not in first}
assert new and {r["region"]["simpoint"] for r in r2} == new, (new, [r["region"]["simpoint"] for r in r2])
assert {r["region"]["simpoint"] for r in r1} == set(first)
assert len(final) <= b["points"] and m["points"] == len(final) and len(m["added"]) == len(new), (len(final), b, m)
cpi = sum(w[r["region"]["cluster"]] * r["cycles"] / r["instructions"] for r in r1 + r2) / sum(w.values())
assert m["complete"] and abs(m["cpi"] / cpi - 1) < 1e-5, (m["cpi"], cpi)
assert m["first_stage"]["points"] == len(first) and m["ci95_relative"] < m["first_stage"]["ci95_relative"], m
print(f"ok   first stage {len(first)} points, {len(new)} added (budget {b['points']}): CPI {cpi:.4f} "
      f"± {100 * m['ci95_relative']:.2f}% from ± {100 * m['first_stage']['ci95_relative']:.2f}%; validate took both stages")
PY
grep -q -- "--reweighted" two/.stamps/validate || fail "validate did not take the first stage's reweighted regions"
run -o two -i 100k -k 20 --target-ci 0.5 > again.log 2>&1 || fail "the rerun failed"
! grep -q ": running" again.log || fail "the rerun ran a stage again: $(grep ': running' again.log)"

# a target met by the first stage (phases: +- 52%, its phases few points apart) adds nothing, and the rest goes on
run -o met -i 100k -k 20 --target-ci 100 > met.log 2>&1 || { cat met.log; fail "--target-ci 100 failed"; }
grep -q "the second added 0 where" met.log || fail "a met target added points: $(grep 'two stages' met.log)"
[ "$(python3 -c 'import json; print(len(json.load(open("met/regions2.json"))["results"]))')" = 0 ] ||
    fail "regions simulated for a met target"
echo "ok   a target the first stage meets adds no point; the pipeline's rerun is up to date"

expect_refused() {
    local what=$1
    shift
    if run -o bad "$@" > bad.log 2>&1; then fail "accepted: $*"; fi
    grep -qF -- "$what" bad.log || fail "$*: expected '$what', got: $(cat bad.log)"
}
expect_refused "--target-ci adds points within a budget" -M simpoint --target-ci 1
expect_refused "--target-ci wants a percentage" --target-ci 0
expect_refused "--budget wants a number of points" --budget 0.5x
expect_refused "--budget is for the methods over the proxy metrics" -M simpoint --budget 2x
expect_refused "--target-ci and --extra-per-cluster" --target-ci 1 --extra-per-cluster 2
echo "ok   bad --budget and --target-ci refused"
