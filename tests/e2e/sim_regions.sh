#!/bin/bash
# sim over checkpoint regions: results do not depend on the thread count,
# warm checkpoints reproduce the full run's intervals, and bad checkpoints or
# mismatched warm state are refused with a reason.
. "$(dirname "$0")/lib.sh"

W=$RV/workloads/phases
cd "$T"
"$BIN/bbv" -i 1M -o ph -- "$W" 1 >/dev/null
"$BIN/simpoint" -loadFVFile ph.1000000.bb.gz -maxK 4 -saveSimpoints ph.simpoints -saveSimpointWeights ph.weights >/dev/null
"$BIN/checkpoint" -o ck --simpoints ph.simpoints --weights ph.weights -i 1M --warmup 1M \
    --warm "$TOP/configs/boom-tip.ini" --guest-output none -- "$W" 1
"$BIN/sim" --full -q -G 1M --interval-log full.csv --guest-output none -o full.json -- "$W" 1

strip() { python3 -c "
import json,sys
j=json.load(open(sys.argv[1]))
for r in j['results']: r.pop('seconds'); r.pop('mips')
print(json.dumps(j, sort_keys=True))" "$1"; }
for mode in detailed checkpoint; do
    OMP_NUM_THREADS=1 "$BIN/sim" -q --warmup $mode -j 1 -o j1.json ck/*.ckpt
    "$BIN/sim" -q --warmup $mode -j 2 -o j2.json ck/*.ckpt
    [ "$(strip j1.json)" == "$(strip j2.json)" ] || fail "--warmup $mode: results differ between 1 and 2 threads"
done

# Warm checkpoints carry caches, TLBs and predictors warmed over the whole
# prefix: each region's CPI is within 1.5% of the same interval in the full
# run. (0.5% without wrong-path execution: functional warming cannot leave in
# the caches what the full run's wrong paths polluted and prefetched there.
# Phases' interval 25, 12k mispredictions per 1M instructions, moves most:
# +1.3%, 1% more mispredictions, since the predictor learns each branch at
# once in functional warming and at commit, from what it read at fetch, in
# the detailed core; it moved 0.4% with TAGE's shortest history 4 instead
# of SonicBOOM's 2.)
python3 - <<'PY' || fail "warm-checkpoint regions differ from the full run"
import csv, json
rows = list(csv.DictReader(open('full.csv')))
bad = 0
for r in json.load(open('j2.json'))['results']:
    i = r['region']['simpoint']
    full = int(rows[i]['cycles']) / int(rows[i]['instructions'])
    assert r['instructions'] == int(rows[i]['instructions']), (i, r['instructions'])
    err = abs(r['cpi'] - full) / full
    print(f"interval {i}: region CPI {r['cpi']:.4f}, full run {full:.4f} ({100*err:.2f}%)")
    bad += err > 0.015
raise SystemExit(bad)
PY

# Several regions at once write their guest output to one file each.
n=$(python3 -c "import json; print(len(json.load(open('j2.json'))['results']))")
"$BIN/sim" -q --warmup none -o g.json --guest-output gout ck/*.ckpt
[ ! -e gout ] || fail "regions shared one guest-output file"
for ((i = 0; i < n; i++)); do [ -e "gout.$i" ] || fail "no guest output file gout.$i for region $i"; done

first=$(ls ck/*.ckpt | head -1)
# Warm state carries over to another pipeline (it holds caches, TLBs and
# predictors only), not to another cache geometry.
"$BIN/sim" -q --warmup checkpoint --set rob.entries=64 -o rob64.json "$first" || fail "warm state refused for a smaller ROB"
expect_status 1 "$BIN/sim" -q --warmup checkpoint --set l1d.size_kib=64 -o bad.json "$first" 2> err.txt
grep -q "different cache, TLB or predictor geometry" err.txt || fail "geometry mismatch not explained: $(cat err.txt)"
[ ! -e bad.json ] || fail "results written although the region failed"
# A checkpoint without warm state cannot be used with --warmup checkpoint.
"$BIN/checkpoint" -o cold --at 1000 -- "$W" 1 >/dev/null
expect_status 1 "$BIN/sim" -q --warmup checkpoint -o bad.json cold/*.ckpt 2> err.txt
grep -q "no warm micro-architectural state" err.txt || fail "missing warm state not explained: $(cat err.txt)"
# A truncated checkpoint is refused.
head -c 5000 "$first" > trunc.ckpt
expect_status 1 "$BIN/sim" -q -o bad.json trunc.ckpt 2> err.txt
[ "$(wc -l < err.txt)" -ge 1 ] && grep -q "trunc.ckpt" err.txt || fail "truncation not reported: $(cat err.txt)"
[ ! -e bad.json ] || fail "results written for a truncated checkpoint"
echo "sim regions: ok"
