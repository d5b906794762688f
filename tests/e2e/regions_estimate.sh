#!/usr/bin/env bash
# Estimates from the regions alone (pipeline.sh --no-full, sim on
# checkpoints): the whole-program CPI, every cycle-stack component, every
# event rate and the projected total cycles in regions.json's "combined"
# equal the weighted figures recomputed here from the regions' own results;
# no full run is made, and the summary ends with the whole-program lines.
# With extra members, they say which CPI to use, the representatives' or the
# members' stratified mean (when the first lies outside the second's 95%
# interval), with the interval written "±" as validate writes it.
source "$(dirname "$0")/lib.sh"
cd "$T"
BIN=$BIN "$TOP/scripts/pipeline.sh" -o out -i 1M -k 10 --no-full -- "$RV/workloads/phases" 1 > log.txt 2>&1 ||
    { cat log.txt; fail "pipeline --no-full failed"; }
[ ! -e out/full.json ] && [ ! -e out/validate ] || fail "--no-full ran the full run or validate"
grep -q "^ Whole program from [0-9]* regions" log.txt || fail "no whole-program line: $(tail -5 log.txt)"
grep -q "projected at the representatives' CPI: [0-9]* cycles for [0-9]* instructions" log.txt || fail "no projected cycles"
grep -q "no confidence interval" log.txt || fail "the missing confidence interval is not said"
python3 - out/regions.json out/phases.summary.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
total = json.load(open(sys.argv[2]))["instructions"]
rs, c = doc["results"], doc["combined"]
w = sum(r["region"]["weight"] for r in rs)
def per_inst(get):
    return sum(r["region"]["weight"] / w * get(r) / r["instructions"] for r in rs)
def close(a, b, what):
    assert abs(a - b) <= 1e-9 * max(1, abs(b)), f"{what}: combined {a}, recomputed {b}"
cpi = per_inst(lambda r: r["cycles"])
close(c["cpi"], cpi, "CPI")
close(c["ipc"], 1 / cpi, "IPC")
for name, v in c["cycle_stack"].items():
    s = per_inst(lambda r: r["stack"].get(name, 0))
    close(v["cpi"], s, f"stack {name}")
    close(v["share"], s / cpi, f"stack share {name}")
for name, v in c["events_per_1000_instructions"].items():
    close(v, 1000 * per_inst(lambda r: r["events"].get(name, 0)), f"event {name}")
assert c["projected"]["instructions"] == total
close(c["projected"]["cycles"], cpi * total, "projected cycles")
assert c["confidence_interval"]["interval"] is None and "one member simulated" in c["confidence_interval"]["why"]
print(f"ok   {len(rs)} regions: CPI {cpi:.4f}, {len(c['cycle_stack'])} stack components, "
      f"{len(c['events_per_1000_instructions'])} event rates and {c['projected']['cycles']:.0f} cycles recomputed exactly")
PY

# With three more random members of each cluster (seeded), the stratified
# estimate and its 95% interval, recomputed from the regions' results; the
# representatives-only estimate is unchanged by them, and the draw repeats.
BIN=$BIN "$TOP/scripts/pipeline.sh" -o extra -i 1M -k 10 --no-full --extra-per-cluster 3 -- "$RV/workloads/phases" 1 \
    > log2.txt 2>&1 || { cat log2.txt; fail "pipeline --extra-per-cluster failed"; }
grep -q "^   95% interval [0-9.]* \.\. [0-9.]* (±[0-9.]*%) around the members' stratified mean" log2.txt ||
    fail "no ± interval: $(tail -8 log2.txt)"
grep -q "^   which to use: CPI [0-9.]* ± [0-9.]*%, the" log2.txt || fail "which CPI to use is not said: $(tail -8 log2.txt)"
! grep -q '(+[0-9.]*%)' log2.txt || fail "an interval written (+x%): $(grep '(+' log2.txt)"
python3 - extra/regions.json out/regions.json <<'PY'
import json, math, sys
from collections import defaultdict
doc, base = (json.load(open(p)) for p in sys.argv[1:])
rs, c = doc["results"], doc["combined"]
reps = [r for r in rs if not r["region"].get("extra")]
extras = [r for r in rs if r["region"].get("extra")]
assert extras, "no extra members were simulated"
assert abs(c["cpi"] - base["combined"]["cpi"]) < 1e-12, "extra members changed the representatives' estimate"
by = defaultdict(list)
for r in rs:
    by[r["region"]["cluster"]].append(r)
W = {r["region"]["cluster"]: r["region"]["weight"] for r in reps}
ws = sum(W.values())
est = var = 0
for k, members in by.items():
    cpis = [m["cycles"] / m["instructions"] for m in members]
    n, N = len(cpis), members[0]["region"]["cluster_size"]
    mean = sum(cpis) / n
    est += W[k] / ws * mean
    if n > 1:
        s2 = sum((x - mean) ** 2 for x in cpis) / (n - 1)
        var += (W[k] / ws) ** 2 * max(0, 1 - n / N) * s2 / n
ci = c["confidence_interval"]
lo, hi = est - 1.959964 * math.sqrt(var), est + 1.959964 * math.sqrt(var)
for got, want, what in ((ci["cpi"], est, "stratified CPI"), (ci["low"], lo, "low"), (ci["high"], hi, "high")):
    assert abs(got - want) <= 1e-9, f"{what}: {got} against {want} recomputed"
assert ci["members_simulated"] == len(rs)
print(f"ok   {len(extras)} extra members: stratified CPI {est:.4f}, 95% interval {lo:.4f} .. {hi:.4f}, recomputed exactly")
PY
# The printed figures against the JSON: the interval, and the CPI to use.
python3 - extra/regions.json log2.txt <<'PY'
import json, re, sys
c = json.load(open(sys.argv[1]))["combined"]
log = open(sys.argv[2]).read()
ci, cpi = c["confidence_interval"], c["cpi"]
mean, half = ci["cpi"], (ci["high"] - ci["low"]) / 2
got = tuple(float(x) for x in re.search(r"95% interval ([0-9.]+) \.\. ([0-9.]+) \(±([0-9.]+)%\)", log).groups())
want = (round(ci["low"], 4), round(ci["high"], 4), round(100 * half / mean, 2))
assert got == want, f"interval: printed {got}, from the JSON {want}"
use = cpi if abs(cpi - mean) <= half else mean
got = tuple(float(x) for x in re.search(r"which to use: CPI ([0-9.]+) ± ([0-9.]+)%", log).groups())
want = (round(use, 4), round(100 * half / use, 2))
assert got == want, f"which to use: printed {got}, want {want} (representatives {cpi}, members {mean} ± {half})"
print(f"ok   printed: use CPI {want[0]} ± {want[1]}% (representatives {cpi:.4f}, members' mean {mean:.4f})")
PY
