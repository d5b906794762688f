#!/bin/bash
# TEA (issue: time-proportional event analysis): with a sample every cycle
# TEA is the golden per-instruction cycle stacks exactly, and the golden
# stacks add up to the golden time profile; TEA beats IBS, SPE and RIS on
# every bundled workload and stays within a stated bound; the nab-like and
# lbm-like workloads show what the paper's case studies show.
. "$(dirname "$0")/lib.sh"
cd "$T"

# 1. A sample every cycle: TEA = golden PICS; the stacks sum to the golden profile.
"$BIN/sim" --full -q --sample tea,tip --psv-extra all --sample-period 1 --max-insts 500k --profile-top 0 \
    -o p1.json -- "$RV/workloads/stream_prefetch" 1 0 > /dev/null
python3 - <<'PY' || fail "TEA sampled every cycle is not the golden PICS"
import json
r = json.load(open('p1.json'))['results'][0]
s = r['sampled']
assert all(v == 0 for v in s['tea']['error'].values()), s['tea']['error']
assert set(s['tea']['error']) == {'instruction', 'block', 'function', 'application'}
golden = {e['pc']: e['cycles'] for e in r['pics']['instructions']}
oracle = {e['pc']: e['cycles'] for e in r['profile']['instructions']}
for pc, c in oracle.items():
    assert abs(golden.get(pc, 0) - c) < 1e-6 * max(1, c), (pc, golden.get(pc), c)
    stack = next(e['stack'] for e in r['pics']['instructions'] if e['pc'] == pc)
    assert abs(sum(stack.values()) - c) < 1e-6 * max(1, c), (pc, stack, c)
print('tea error', s['tea']['error'], '; golden stacks of', len(golden), 'pcs add up to the golden profile')
PY

# 2. Every bundled workload: TEA's instruction-level PICS error is below IBS's,
#    SPE's and RIS's on the same sample cycles.
for w in "$RV"/workloads/*; do
    "$BIN/sim" --full -q --sample tea,ibs,spe,ris,nci-tea --sample-period 997 --max-insts 1M \
        --sampled-csv "$(basename "$w").csv" -o /dev/null -- "$w" 1 > /dev/null
done
python3 - *.csv <<'PY' || fail "an event-based scheme beat TEA"
import csv, sys
for path in sys.argv[1:]:
    err = {row['profiler']: float(row['error_instruction']) for row in csv.DictReader(open(path))}
    print(f"{path[:-4]:16} " + "  ".join(f"{k} {100 * v:5.1f}%" for k, v in err.items()))
    assert all(err['tea'] < err[k] for k in ('ibs', 'spe', 'ris')), (path, err)
PY

# 3. A bound on TEA's PICS error: sort, 1M instructions, a sample every 97 cycles.
"$BIN/sim" --full -q --sample tea --sample-period 97 --max-insts 1M --sampled-csv bound.csv -o /dev/null \
    -- "$RV/workloads/sort" > /dev/null
python3 -c "
import csv
e = float(next(csv.DictReader(open('bound.csv')))['error_instruction'])
print(f'TEA on sort: {100 * e:.2f}% instruction-level PICS error (bound 5%)')
assert e < 0.05
" || fail "TEA's PICS error on sort exceeds 5%"

# 4. nab-like: TEA with FL-CSR puts the flushes on the fflags accesses and the
#    square root's latency in ST-LAT; IBS blames something else.
"$BIN/sim" --full -q --sample tea,ibs --psv-extra all --sample-period 499 --max-insts 3M -o nab.json \
    -- "$RV/workloads/fp_flags" > /dev/null
python3 - <<'PY' || fail "the nab-like case study"
import json
r = json.load(open('nab.json'))['results'][0]
s = r['sampled']
def top(p, n):
    return p['profile']['instructions'][:n] if 'profile' in p else p['instructions'][:n]
golden = top(r['pics'], 6)
tea = top(s['tea'], 6)
for name, rows in (('golden', golden), ('tea', tea), ('ibs', top(s['ibs'], 3))):
    print(name, [(e['disasm'], max(e['stack'], key=e['stack'].get)) for e in rows])
sqrt = [e for e in tea if e['disasm'].startswith('fsqrt.d')]
csr = [e for e in tea if 'fflags' in e['disasm']]
assert sqrt and all(max(e['stack'], key=e['stack'].get) == 'ST-LAT' for e in sqrt), 'fsqrt.d not ST-LAT'
assert csr and all(max(e['stack'], key=e['stack'].get) == 'FL-CSR' for e in csr), 'fflags not FL-CSR'
assert tea[0]['disasm'].startswith('fsqrt.d') and golden[0]['disasm'].startswith('fsqrt.d')
assert not top(s['ibs'], 1)[0]['disasm'].startswith('fsqrt.d'), 'IBS got it right'
PY

# 5. lbm-like: prefetching 3 iterations ahead shrinks the load's ST-LLC
#    component, grows the stores' DR-SQ, and speeds the stream up (Fig. B.11).
for d in 0 3; do
    "$BIN/sim" --full -q --pics --profile-top 0 -o lbm$d.json -- "$RV/workloads/stream_prefetch" 1 $d > /dev/null
done
python3 - <<'PY' || fail "the lbm-like case study"
import json
def part(path):
    r = json.load(open(path))['results'][0]
    st = dt = 0
    for e in r['pics']['instructions']:
        for k, v in e['stack'].items():
            if 'fld' in e.get('disasm', '') and 'ST-LLC' in k: st += v
            if 'fsd' in e.get('disasm', '') and 'DR-SQ' in k: dt += v
    return r['cycles'], st / r['cycles'], dt / r['cycles']
c0, st0, dr0 = part('lbm0.json')
c3, st3, dr3 = part('lbm3.json')
print(f"distance 0: {c0} cycles, loads ST-LLC {100*st0:.1f}%, stores DR-SQ {100*dr0:.1f}%")
print(f"distance 3: {c3} cycles, loads ST-LLC {100*st3:.1f}%, stores DR-SQ {100*dr3:.1f}%; speedup {c0/c3:.2f}x")
assert st3 < st0 / 4 and dr3 > dr0 and c0 / c3 > 1.15
PY
echo "TEA: ok"
