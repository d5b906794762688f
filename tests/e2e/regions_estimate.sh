#!/usr/bin/env bash
# Estimates from the regions alone (pipeline.sh --no-full, sim on
# checkpoints): the whole-program CPI, every cycle-stack component, every
# event rate and the projected total cycles in regions.json's "combined"
# equal the weighted figures recomputed here from the regions' own results;
# no full run is made, and the summary ends with the whole-program lines.
source "$(dirname "$0")/lib.sh"
cd "$T"
BIN=$BIN "$TOP/scripts/pipeline.sh" -o out -i 1M -k 10 --no-full -- "$RV/workloads/phases" 1 > log.txt 2>&1 ||
    { cat log.txt; fail "pipeline --no-full failed"; }
[ ! -e out/full.json ] && [ ! -e out/validate ] || fail "--no-full ran the full run or validate"
grep -q "^ Whole program from [0-9]* regions" log.txt || fail "no whole-program line: $(tail -5 log.txt)"
grep -q "projected: [0-9]* cycles for [0-9]* instructions" log.txt || fail "no projected cycles"
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
assert c["confidence_interval"] is None
print(f"ok   {len(rs)} regions: CPI {cpi:.4f}, {len(c['cycle_stack'])} stack components, "
      f"{len(c['events_per_1000_instructions'])} event rates and {c['projected']['cycles']:.0f} cycles recomputed exactly")
PY
