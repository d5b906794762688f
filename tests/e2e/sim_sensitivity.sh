#!/bin/bash
# sim --sensitivity: known answers on microbenchmarks (a loop bound by the
# divider is sensitive to the divider and nothing else; a pointer chase to
# memory latency and not to widths), each variant's CPI equal to a plain run
# with the same parameters set by hand, results independent of the thread
# count, regions from warm checkpoints (geometry variants re-warmed against a
# re-warmed baseline), and bad resource lists refused.
. "$(dirname "$0")/lib.sh"
cd "$T"

speedups() { python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['sensitivity']
for v in s['variants']:
    print(v['name'].replace(' ', '_'), v.get('speedup', 'skipped'), v.get('bottleneck', False))" "$1"; }

# 1. The divider bounds div_bound: doubling it (or halving its latency)
#    nearly doubles speed; widths, the window and memory change < 1%.
"$BIN/sim" --full -q -o div.json --sensitivity fu.div_units,fu.div,widths,window,memory-latency \
    -- "$RV/progs/div_bound" > /dev/null
speedups div.json > div.txt
cat div.txt
awk '$1 ~ /^fu\.div/ && !($2 > 0.8 && $3 == "True") { print "divider: " $0; bad = 1 }
     $1 !~ /^fu\.div/ && !($2 < 0.01 && $3 == "False") { print "not the divider: " $0; bad = 1 }
     END { exit bad }' div.txt || fail "div_bound is not sensitive to the divider alone"

# 2. The chase follows memory latency, not widths or the divider.
"$BIN/sim" --full -q -o chase.json --sensitivity memory-latency,widths,fu.div_units -- "$RV/progs/chase" > /dev/null
speedups chase.json > chase.txt
cat chase.txt
awk '$1 ~ /^memory-latency/ && !($2 > 0.3 && $3 == "True") { print; bad = 1 }
     $1 !~ /^memory-latency/ && !($2 < 0.01 && $3 == "False") { print; bad = 1 }
     END { exit bad }' chase.txt || fail "chase is not sensitive to memory latency alone"

# 3. A variant is the run with its parameters set by hand; the speedup is
#    the two CPIs' ratio; the report's effective values are the config's.
"$BIN/sim" --full -q -o rob.json --sensitivity rob.entries,perfect-bp --sensitivity-factors x0.25 \
    -- "$RV/workloads/sort" > /dev/null
"$BIN/sim" --full -q -o rob32.json --set rob.entries=32 -- "$RV/workloads/sort" > /dev/null
"$BIN/sim" --full -q -o bp.json --set ideal.branch_prediction=1 -- "$RV/workloads/sort" > /dev/null
python3 - <<'PY' || fail "a variant differs from the same configuration run by hand"
import json
s = json.load(open('rob.json'))
base = s['results'][0]['cpi']
v = {x['name']: x for x in s['sensitivity']['variants']}
rob, bp = v['rob.entries x0.25'], v['perfect-bp']
assert rob['changes'] == [{'param': 'rob.entries', 'from': 128, 'to': 32, 'scale': 0.25}], rob['changes']
for variant, path in ((rob, 'rob32.json'), (bp, 'bp.json')):
    cpi = json.load(open(path))['results'][0]['cpi']
    assert abs(variant['cpi'] - cpi) < 1e-12, (variant['name'], variant['cpi'], cpi)
    assert abs(variant['speedup'] - (base / cpi - 1)) < 1e-9
assert rob['speedup'] < 0 and bp['speedup'] > 0.1, (rob['speedup'], bp['speedup'])
assert abs(rob['elasticity'] - rob['speedup'] / (0.25 - 1)) < 1e-9
print(f"rob 32: {100 * rob['speedup']:+.2f}%, perfect-bp: {100 * bp['speedup']:+.2f}%, both equal to runs by hand")
PY

# 4. Regions from warm checkpoints, two threads against one: the same study.
W=$RV/workloads/phases
"$BIN/bbv" -i 1M -o ph -- "$W" 1 >/dev/null
"$BIN/simpoint" -loadFVFile ph.1000000.bb.gz -maxK 3 -saveSimpoints ph.simpoints -saveSimpointWeights ph.weights >/dev/null
"$BIN/checkpoint" -o ck --simpoints ph.simpoints --weights ph.weights -i 1M --warmup 500k \
    --warm "$TOP/configs/boom-tip.ini" --guest-output none -- "$W" 1
study=(--warmup checkpoint --sensitivity memory-latency,l2.size_kib,perfect-l1d)
"$BIN/sim" -q -j 1 -o one.json "${study[@]}" ck/*.ckpt
"$BIN/sim" -j 2 -o two.json "${study[@]}" ck/*.ckpt 2> report.txt || fail "regions study failed"
python3 - <<'PY' || fail "the regions study depends on the thread count or mixes warm-ups"
import json
one, two = (json.load(open(p))['sensitivity'] for p in ('one.json', 'two.json'))
assert one == two, 'thread count changed the study'
v = {x['name']: x for x in two['variants']}
geo = v['l2.size_kib x2']
assert geo['warmup'] == 'functional' and 'baseline_cpi' in geo and not geo['shares_warm_state'], geo
assert v['memory-latency x2']['warmup'] == 'checkpoint' and v['memory-latency x2']['shares_warm_state']
for x in two['variants']:
    assert x['regions']['min_speedup'] <= x['speedup'] + 1e-12 <= x['regions']['max_speedup'] + 2e-12, x
print('regions:', {k: round(100 * x['speedup'], 2) for k, x in v.items()})
PY
grep -q "re-warmed" report.txt || fail "the report does not say which variants were re-warmed"
# Variants share one warm-up per region and geometry: the same figures as
# warming each run on its own (a plain run with the parameter set by hand).
for mode in functional checkpoint; do
    "$BIN/sim" -q --warmup $mode -o shared.json --sensitivity rob.entries --sensitivity-factors x0.5 ck/*.ckpt
    "$BIN/sim" -q --warmup $mode -o alone.json --set rob.entries=64 ck/*.ckpt
    python3 -c "
import json
v = json.load(open('shared.json'))['sensitivity']['variants'][0]
alone = json.load(open('alone.json'))['combined']['cpi']
assert abs(v['cpi'] - alone) < 1e-9, (v['cpi'], alone)" || fail "$mode: a shared warm-up changed the results"
done

# 5. Bad lists are refused in one line, before anything runs.
for bad in "rob.entrys" "core.freq_mhz" "frontend+nothing"; do
    expect_status 1 "$BIN/sim" --full -q --sensitivity "$bad" -- "$RV/progs/div_bound" 2> err.txt
    [ "$(wc -l < err.txt)" -eq 1 ] || fail "'$bad': not one line: $(cat err.txt)"
done
for bad in x1 15% x -200%; do
    expect_status 1 "$BIN/sim" --full -q --sensitivity rob.entries --sensitivity-factors "$bad" \
        -- "$RV/progs/div_bound" 2> err.txt
    grep -q "not an acceleration" err.txt || fail "factor '$bad' not refused: $(cat err.txt)"
done
expect_status 1 "$BIN/sim" --full -q --sensitivity-preset nope -- "$RV/progs/div_bound" 2> err.txt
# A cache size that cannot be built is reported, not run.
"$BIN/sim" --full -q -o skip.json --sensitivity l1d.size_kib --sensitivity-factors +15% -- "$RV/progs/div_bound" >/dev/null
python3 -c "
import json; v = json.load(open('skip.json'))['sensitivity']['variants'][0]
assert 'skipped' in v and 'speedup' not in v, v; print('skipped:', v['skipped'])" || fail "an impossible variant was not skipped"
# The summary names the bottleneck (issue 36): on sort, perfect branch
# prediction dwarfs every x2 resource, which all move past 1% yet are not
# flagged; the JSON's "named" is the same rule (>1% and >= half the top).
"$BIN/sim" --full --max-insts 2M -o rank.json --sensitivity perfect-bp,widths,window,memory-latency \
    -- "$RV/workloads/sort" 2> rank.err > /dev/null
python3 - <<'PY' || fail "the sensitivity summary does not name the bottleneck alone"
import json, re
vs = json.load(open('rank.json'))['sensitivity']['variants']
top = max(vs, key=lambda v: v['speedup'])
for v in vs:
    assert v['named'] == (v['speedup'] > 0.01 and v['speedup'] >= 0.5 * top['speedup']), v
assert sum(v['bottleneck'] for v in vs) >= 3 and sum(v['named'] for v in vs) == 1, [(v['name'], v['speedup']) for v in vs]
err = open('rank.err').read()
assert re.search(r'The bottleneck: %s \(\+%.2f%%\)' % (re.escape(top['name']), 100 * top['speedup']), err), err
assert err.count('BOTTLENECK') == 2, 'flagged in the table beyond the named one'  # the legend line and one row
print('named:', top['name'])
PY
echo "sim --sensitivity: known answers hold"
