#!/bin/bash
# sim --sample profileme: the exact figures agree with the golden profile,
# the estimates with the exact figures within their stated intervals and
# converge as 1/sqrt(samples) (Fig. 3), paired estimates of wasted issue
# slots approach the exact ones, a load's issue-to-completion latency is
# the memory's, runs are deterministic, and bad options are refused.
. "$(dirname "$0")/lib.sh"
cd "$T"
sort=$RV/workloads/sort

# 1. Single sampling, one per 100 fetched.
"$BIN/sim" --full -q --max-insts 4M --profile-top 0 -o one.json --sample profileme --profileme-interval 100 \
    --plots plots -- "$sort"
python3 - <<'PY' || fail "ProfileMe's single-sampling figures are wrong"
import json, math
r = json.load(open('one.json'))['results'][0]
pm = r['profileme']
golden = {e['pc']: e['commits'] for e in r['profile']['instructions']}
pcs = pm['pcs']
# The exact retire counts are the golden commits, pc by pc.
assert {p['pc']: p['events']['retired']['exact'] for p in pcs if p['events']['retired']['exact']} == golden
assert sum(golden.values()) == r['instructions']
# Every fetched instance is sampled or not; the samples are about one in 100.
assert abs(pm['samples'] * 100 / pm['instances'] - 1) < 0.02, (pm['samples'], pm['instances'])
# Estimates: within their 95% interval for about 95% of the well-sampled pcs.
hot = [p['events']['retired'] for p in pcs if p['events']['retired']['samples'] >= 50]
inside = sum(e['ci95'][0] <= e['exact'] <= e['ci95'][1] for e in hot) / len(hot)
assert len(hot) >= 20 and inside >= 0.85, (len(hot), inside)
# Fig. 3: about two thirds of the pcs within 1 +- 1/sqrt(k).
env = pm['within_envelope']['retired']
assert env['pcs'] > 100 and 0.5 <= env['share'] <= 0.85, env
# The whole program's instruction count from the samples alone.
total = sum(p['events']['retired']['estimate'] for p in pcs)
assert abs(total / r['instructions'] - 1) < 0.02, (total, r['instructions'])
# Latencies: the sampled means near the exact ones for the hottest pc.
lat = pcs[0]['mean_latency']
for k, v in lat.items():
    assert v['exact_mean'] >= 0 and abs(v['sampled_mean'] - v['exact_mean']) <= 0.25 * v['exact_mean'] + 0.5, (k, v)
print(f"{len(hot)} hot pcs, {100 * inside:.0f}% inside their 95% interval; "
      f"{100 * env['share']:.0f}% of {env['pcs']} pcs within 1 +- 1/sqrt(k); total {total:.0f} of {r['instructions']}")
PY
[ -s plots/profileme_convergence.dat ] || fail "no convergence plot data"

# 2. Paired sampling: wasted issue slots, estimated against exact, get
#    closer with more samples.
for s in 100 1600; do
    "$BIN/sim" --full -q --max-insts 4M -o pair$s.json --sample profileme --profileme-interval $s --pair-window 20 -- "$sort"
done
python3 - <<'PY' || fail "paired estimates do not approach the exact wasted slots"
import json
def error(path):
    pm = json.load(open(path))['results'][0]['profileme']
    assert pm['pairs'] > 0 and pm['window'] == 20
    top = [p for p in pm['pcs'] if p['paired']['wasted_slots_exact'] > 0][:20]
    est = sum(abs(p['paired']['wasted_slots_estimate'] - p['paired']['wasted_slots_exact']) for p in top)
    return est / sum(p['paired']['wasted_slots_exact'] for p in top)
fine, coarse = error('pair100.json'), error('pair1600.json')
print(f'wasted issue slots, top 20 pcs: {100 * fine:.1f}% error at 1/100, {100 * coarse:.1f}% at 1/1600')
assert fine < 0.15 and fine < coarse, (fine, coarse)
PY

# 3. A missing load's issue-to-completion latency is the memory's.
"$BIN/sim" --full -q -o chase.json --sample profileme --profileme-interval 50 -- "$RV/progs/chase"
python3 - <<'PY' || fail "the chase's load latency is not the memory's"
import json
pcs = json.load(open('chase.json'))['results'][0]['profileme']['pcs']
load = max(pcs, key=lambda p: p['mean_latency']['load_issue_to_completion']['exact_mean'])
lat = load['mean_latency']['load_issue_to_completion']
assert lat['exact_mean'] > 100 and abs(lat['sampled_mean'] / lat['exact_mean'] - 1) < 0.1, lat
assert load['events']['dcache_miss']['exact'] > 0.9 * load['events']['retired']['exact'], load['events']
print(f"chase load {load['pc']}: issue to completion {lat['exact_mean']:.0f} cycles, sampled {lat['sampled_mean']:.0f}")
PY

# 4. Aborted instances (flushes) are sampled too, with their reason; the same
#    seed gives the same samples; the raw records are the samples.
"$BIN/sim" --full -q --max-insts 2M -o a.json --sample profileme --profileme-interval 50 \
    --profileme-samples a.csv -- "$RV/workloads/fp_flags" 1
"$BIN/sim" --full -q --max-insts 2M -o b.json --sample profileme --profileme-interval 50 -- "$RV/workloads/fp_flags" 1
"$BIN/sim" --full -q --max-insts 2M -o c.json --sample profileme --profileme-interval 50 --sample-seed 7 -- "$RV/workloads/fp_flags" 1
python3 - <<'PY' || fail "aborted instances or determinism"
import json
get = lambda p: json.load(open(p))['results'][0]['profileme']
a, b, c = get('a.json'), get('b.json'), get('c.json')
assert a == b, 'the same seed gave other samples'
assert a['pcs'] != c['pcs'] and a['instances'] == c['instances']
aborted = sum(p['events']['aborted']['exact'] for p in a['pcs'])
assert aborted > 0 and sum(p['events']['aborted']['samples'] for p in a['pcs']) > 0, aborted
csr = sum(p['events']['aborted_csr_flush']['exact'] for p in a['pcs'])
assert csr > 0.9 * aborted, (csr, aborted)   # fp_flags flushes on its fflags accesses
import csv
rows = list(csv.DictReader(open('a.csv')))
assert len(rows) == a['samples'], (len(rows), a['samples'])
assert sum('aborted_csr_flush' in r['events'] for r in rows) == sum(p['events']['aborted_csr_flush']['samples'] for p in a['pcs'])
for r in rows:
    if r['retired'] == '1':
        assert int(r['fetch_to_map']) >= 1 and len(r['history']) == 18, r
print(f'fp_flags: {aborted} aborted instances ({csr} by CSR flushes); {len(rows)} sample records')
PY

# 5. Regions: each samples on its own; combined by the regions' weights, the
#    exact retire counts per 1,000 instructions add up to 1,000.
W=$RV/workloads/phases
"$BIN/bbv" -i 1M -o ph -- "$W" 1 >/dev/null
"$BIN/simpoint" -loadFVFile ph.1000000.bb.gz -maxK 3 -saveSimpoints ph.simpoints -saveSimpointWeights ph.weights >/dev/null
"$BIN/checkpoint" -o ck --simpoints ph.simpoints --weights ph.weights -i 1M --warmup 200k --guest-output none -- "$W" 1
"$BIN/sim" -q --profile-top 0 -o regions.json --sample profileme --profileme-interval 100 ck/*.ckpt
python3 - <<'PY' || fail "ProfileMe's regions do not combine"
import json
j = json.load(open('regions.json'))
assert all('profileme' in r for r in j['results'])
c = j['combined']['profileme']
exact = sum(p['per_1000_instructions'].get('retired', {}).get('exact', 0) for p in c['pcs'])
est = sum(p['per_1000_instructions'].get('retired', {}).get('estimate', 0) for p in c['pcs'])
assert abs(exact - 1000) < 1e-6 and abs(est / 1000 - 1) < 0.05, (exact, est)
assert c['samples'] == sum(r['profileme']['samples'] for r in j['results'])
print(f'regions: {len(j["results"])}, retired per 1,000: exact {exact:.1f}, estimated {est:.1f}')
PY

# 6. Refused.
expect_status 1 "$BIN/sim" --full -q --profileme-samples x.csv -- "$sort" 2> err.txt
expect_status 1 "$BIN/sim" --full -q --pair-window 8 -- "$sort" 2> err.txt
expect_status 1 "$BIN/sim" --full -q --sample profileme --profileme-interval 100 --pair-window 40 -- "$sort" 2> err.txt
grep -q "quarter" err.txt || fail "an overlapping pair window was not explained: $(cat err.txt)"
echo "sim --sample profileme: known answers hold"
