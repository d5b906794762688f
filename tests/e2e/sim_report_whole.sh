#!/bin/bash
# What a person reads from sampled regions (issue 36): one whole-program
# report from weighted regions, in cycles and %, its shares equal to the
# regions' own profiles recombined here (weight x CPI); samples per region,
# too few flagged; periodic sampling that aliases with a loop detected (every
# sample on one instruction of div_dep's chain) where random sampling is
# not; source lines between the instructions; Base explained by the event
# bit --psv-extra would add.
. "$(dirname "$0")/lib.sh"
cd "$T"
W=$RV/workloads/fp_flags

# 1. Aliasing: div_dep's iteration is 32 dependent divides, each 29 cycles
# + 3 until its dependent issues (core.regread_stages 1 + 2: the divider does
# not forward): 1024 cycles, the sampling period.
for mode in periodic random; do
    flag=(); [ $mode = random ] && flag=(--sample-random)
    "$BIN/sim" --full --set fu.div=29 --set fu.div_units=1 --set core.regread_stages=1 --sample tip "${flag[@]}" \
        --sample-period 1024 -o $mode.json -- "$RV/sim/div_dep" 2000 \
        > /dev/null 2> $mode.err
done
grep -q "Periodic sampling aliases with a loop" periodic.err || fail "periodic aliasing not reported on stderr"
! grep -q "aliases" random.err || fail "random sampling reported as aliased"
python3 - <<'PY' || fail "aliasing in the JSON"
import json
p = json.load(open('periodic.json'))['results'][0]['sampled']
r = json.load(open('random.json'))['results'][0]['sampled']
print('periodic', p['quality'], 'random', r['tip']['error']['instruction'])
assert p['quality']['aliased'] and p['tip']['error']['instruction'] > 0.5
assert 'aliased' not in r['quality'] and r['tip']['error']['instruction'] < 0.15
PY

# 2. Too few samples: flagged in the JSON and on stderr.
"$BIN/sim" --full --sample tip --sample-period 5000 --max-insts 200k -o few.json -- "$W" > /dev/null 2> few.err
grep -q "Too few samples" few.err || fail "too few samples not reported"
python3 -c "import json; q = json.load(open('few.json'))['results'][0]['sampled']['quality']; assert q['too_few_samples'] and q['samples'] < 1000, q"

# 3. Regions: one whole-program report first.
"$BIN/bbv" -o p --interval 200k -- "$W" > /dev/null 2>&1
"$BIN/simpoint" -loadFVFile p.200000.bb.gz -maxK 4 -fixedLength off -saveSimpoints p.sp -saveSimpointWeights p.w \
    > /dev/null 2>&1
"$BIN/checkpoint" -o ck --simpoints p.sp --weights p.w --interval 200k --warmup 100k -- "$W" > /dev/null 2>&1
"$BIN/sim" -q --warmup detailed --sample tip,tea --sample-period 500 --report r.md -o r.json ck/*.ckpt
python3 - "$TOP/workloads/fp_flags.c" <<'PY' || fail "the whole-program report"
import json, re, sys
md = open('r.md').read()
res = json.load(open('r.json'))['results']
whole = md.split('\n## Region of')[0]
assert re.search(r'## The whole program, from %d regions' % len(res), whole), 'no whole-program section'
# Shares recombined independently: each region's function share x weight x CPI.
def fn_cycles(r):
    return {f['name']: f['cycles'] for f in r['profile']['functions']}
tot, share = 0.0, {}
for r in res:
    w = r['region']['weight'] * r['cpi']
    fc = fn_cycles(r); s = sum(fc.values())
    for name, c in fc.items(): share[name] = share.get(name, 0) + w * c / s
    tot += w
cpi = sum(r['region']['weight'] * r['cpi'] for r in res) / sum(r['region']['weight'] for r in res)
rows = re.findall(r'^\| `([^`]+)` \| ([\d.]+) \| ([\d.]+) \|', whole.split('### Hottest functions')[1].split('###')[0], re.M)
assert rows, 'no function rows'
for name, cyc, pct in rows:
    want = 100 * share[name] / tot
    assert abs(float(pct) - want) < 0.01, (name, pct, want)
    assert abs(float(cyc) - want / 100 * cpi * 1000) < 0.2, (name, cyc, want / 100 * cpi * 1000)
print('whole-program function shares and cycles per 1000 instructions agree:', rows)
# Samples per region, one row each.
table = whole.split('### Samples per region')[1].split('###')[0]
for r in res:
    n = r['sampled']['tip']['samples']
    assert re.search(r'`%s` \|.*\| %d \|' % (re.escape(r['checkpoint']), n), table), (r['checkpoint'], n)
# Source text between the instructions: fp_flags.c's own line 38.
src = open(sys.argv[1]).read().split('\n')
line = src[37].replace('`', "'")
assert '| **fp_flags.c:38** | | `%s` |' % line in md, 'source line 38 not interleaved'
# Base under TEA's nine, explained: fsqrt.d by ST-LAT, fflags accesses by FL-CSR.
notes = whole.split("Where Base (none of tea's events)")[1].split('\n\n')[1]
assert re.search(r'^- ST-LAT, .*`--psv-extra ST-LAT` shows it', notes, re.M), notes
assert re.search(r'^- FL-CSR, .*`--psv-extra FL-CSR` shows it', notes, re.M), notes
assert '`Base`: no event recorded' in whole and '`ST-LAT`: long-latency unit' in whole, 'no legend'
print('source lines, Base notes and the legend are there')
PY
# 4. The default period is chosen per region: at least 1000 samples (a run
#    of N instructions takes at least N/4 cycles on the 4-wide core), at a
#    random cycle of each period; a frequency given is kept.
"$BIN/sim" -q --warmup detailed --sample tip -o auto.json ck/*.ckpt
"$BIN/sim" -q --warmup detailed --sample tip --sample-hz 4000 -o fixed.json ck/0001*.ckpt
python3 - <<'PY' || fail "the per-region default period"
import json
for r in json.load(open('auto.json'))['results']:
    s = r['sampled']
    assert s['period'] == r['instructions'] // 4 // 1000 and s['random'], (s['period'], r['instructions'])
    assert s['tip']['samples'] >= 1000 and not s['quality']['too_few_samples'], s['quality']
f = json.load(open('fixed.json'))['results'][0]['sampled']
assert f['period'] == 800000 and not f['random'] and f['quality']['too_few_samples'], f['quality']
print('default periods', [r['sampled']['period'] for r in json.load(open('auto.json'))['results']])
PY
echo "sim report (whole program, sampling quality): ok"
