#!/bin/bash
# scripts/pipeline.sh end to end on the phases workload (25.7M instructions,
# intervals of 200k, MaxK 30, warm checkpoints): every stage runs, the
# extrapolated CPI is within 2% of the full detailed run (+0.4% with the default
# method, dims:1; -1.0% with SimPoint's points; the last, partial interval may be
# a representative, its region then runs to the end; the
# warm-up part of the error within 0.1%, as warm checkpoints start every
# region with the full run's caches and predictors), the instruction totals
# agree, a second run reuses everything, a newer input reruns exactly the
# stages after it, and --max-error fails a run above the bound.
. "$(dirname "$0")/lib.sh"

P=$TOP/scripts/pipeline.sh
# The guest's argv[0] is the path given and its C library reads its own
# absolute path: a fixed argv[0] in a mktemp directory (whose name has a
# fixed length) keeps the instruction stream, and so the chosen simulation
# points, the same on every machine.
cd "$T"
cp "$RV/workloads/phases" .
W=./phases
run() { BIN=$BIN "$P" -o "$T/out" -i 200k -k 30 -- "$W" "$@" > "$T/log.txt" 2>&1 || { cat "$T/log.txt"; fail "pipeline.sh exited $?"; }; }
run
for s in bbv simpoint checkpoint regions full validate; do
    grep -q "$s: done in" "$T/log.txt" || fail "stage $s did not run: $(cat "$T/log.txt")"
done
R=$T/out/validate/report.json
[ -s "$T/out/validate/report.md" ] && [ -s "$R" ] && [ -s "$T/out/validate/plots/cpi_clusters.svg" ] || fail "reports missing"

# Honest costs: the wall-time speedup counts profiling, checkpointing and the regions.
python3 - "$R" "$T/out/full.json" "$T/out/regions.json" "$T/out/phases.summary.json" "$T/out/ckpt/checkpoints.json" <<'PY' || fail "wall-time costs wrong"
import json, sys
rep, full, regions, prof, ckpt = (json.load(open(p)) for p in sys.argv[1:])
wt = rep["summary"]["wall_time"] if "summary" in rep else None
if wt is None:
    def find(o):
        if isinstance(o, dict):
            if "wall_time" in o: return o["wall_time"]
            o = list(o.values())
        for v in o if isinstance(o, list) else []:
            r = find(v)
            if r: return r
    wt = find(rep)
regions_s = sum(r["seconds"] for r in regions["results"])
flow = prof["wall_seconds"] + ckpt["fast_forward"]["seconds"] + ckpt["writing"]["seconds"] + regions_s
want = full["results"][0]["seconds"] / flow
assert abs(wt["speedup"] - want) <= 1e-6 * want, (wt, want)
assert abs(wt["regions"] - regions_s) <= 1e-9 * max(1, regions_s)
print(f"ok   wall-time speedup {wt['speedup']:.2f}x counts profiling, checkpoints and {len(regions['results'])} regions")
PY
python3 - "$R" "$T/out/full.json" "$T/out/regions.json" <<'PY' || fail "validation figures out of bounds"
import json, sys
rep, full, regions = (json.load(open(p)) for p in sys.argv[1:])
def find(o, key):
    """First value of key anywhere in the report."""
    if isinstance(o, dict):
        if key in o: return o[key]
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            r = find(v, key)
            if r is not None: return r
cpi = full["results"][0]["cycles"] / full["results"][0]["instructions"]
est = sum(r["region"]["weight"] * r["cpi"] for r in regions["results"])
err = (est - cpi) / cpi
print(f"full CPI {cpi:.5f}, extrapolated {est:.5f}, error {100*err:+.2f}%")
assert abs(err) <= 0.02, err
# the report says the same as this independent arithmetic
cpi_block = find(rep, "cpi")
assert cpi_block is not None, "no cpi block in the report"
print("report:", json.dumps(cpi_block)[:300])
assert abs(cpi_block["full"] - cpi) < 1e-9 * cpi, cpi_block
assert abs(cpi_block["estimate"] - est) < 1e-6 * est, (cpi_block["estimate"], est)
# (1%, not 0.1%, with wrong-path execution: functional warming cannot put
# in the caches what the full run's wrong paths polluted and prefetched)
assert abs(cpi_block["warmup_error"]) <= 0.01, cpi_block
total = full["results"][0]["instructions"]  # a whole interval, or up to the end (the last, partial one)
assert all(r["instructions"] == r["region"]["interval"] or
           r["region"]["start"] + r["region"]["warmup"] + r["instructions"] == total
           for r in regions["results"]), "a region ran short"
PY

# Everything is reused; a newer simpoints file reruns checkpoint and after.
run
[ "$(grep -c 'up to date' "$T/log.txt")" -eq 7 ] || fail "second run redid work: $(cat "$T/log.txt")"
touch "$T/out/phases.simpoints"
run
for s in bbv simpoint full; do grep -q "$s: up to date" "$T/log.txt" || fail "$s rerun needlessly"; done
for s in checkpoint regions validate; do grep -q "$s: done in" "$T/log.txt" || fail "$s not rerun after its input changed"; done

# A bound below the error fails with status 2; a stage failure with 1.
set +e
BIN=$BIN "$P" -o "$T/out" -i 200k -k 30 --max-error 0.01% -- "$W" > "$T/log.txt" 2>&1
st=$?
set -e
[ "$st" -eq 2 ] || fail "--max-error 0.01%: status $st"
expect_status 1 env BIN="$BIN" "$P" -o "$T/bad" -i 500k -G 300k -- "$W" 2> "$T/err.txt"
grep -q "does not divide" "$T/err.txt" || fail "bad -G not explained: $(cat "$T/err.txt")"
echo "pipeline: ok"
