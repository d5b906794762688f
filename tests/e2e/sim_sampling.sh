#!/bin/bash
# Sampled profiling in sim (issue: TIP and the profilers it is measured
# against): TIP with a sample every cycle is the golden attribution exactly,
# whole program and checkpoint region alike; every profiler recomputed
# independently from --commit-trace equals sim's own profile; --samples
# records add up to the profiles; TIP's error falls as the frequency rises;
# random sampling is seeded; bad options fail with one line.
. "$(dirname "$0")/lib.sh"
cd "$T"
R=$RV/workloads/rounding

json_check() { python3 - "$@"; }

# 1. A sample every cycle: TIP = Oracle at every granularity.
"$BIN/sim" --full -q --sample tip,nci --sample-period 1 --max-insts 1M -o p1.json -- "$R" > /dev/null
"$BIN/checkpoint" -o ck --at 2000000 --guest-output none -- "$R" > /dev/null
"$BIN/sim" -q --warmup detailed --max-insts 500k --sample tip --sample-period 1 -o p1r.json ck/*.ckpt
json_check p1.json p1r.json <<'PY' || fail "TIP sampled every cycle differs from the golden attribution"
import json, sys
for path in sys.argv[1:]:
    r = json.load(open(path))['results'][0]
    err = r['sampled']['tip']['error']
    print(path, 'tip error', err, 'nci instruction error', r['sampled'].get('nci', {}).get('error'))
    assert all(v == 0 for v in err.values()), err
    assert r['sampled']['tip']['sampled_cycles'] == r['cycles'], (r['sampled']['tip']['sampled_cycles'], r['cycles'])
PY

# 2. Independent recomputation from the commit trace, and the sample records.
for w in rounding sort; do
    "$BIN/sim" --full -q --sample all --sample-period 997 --max-insts 2M --profile-top 0 \
        --commit-trace $w.trace.gz --samples $w.samples.csv -o $w.json -- "$RV/workloads/$w" > /dev/null
    python3 "$TOP/tests/tools/profile_from_trace.py" $w.trace.gz 997 > $w.re.json
    json_check $w.json $w.re.json $w.samples.csv <<'PY' || fail "$w: profiles disagree with the trace or the records"
import csv, json, sys
from collections import defaultdict
from fractions import Fraction
r = json.load(open(sys.argv[1]))['results'][0]
s = r['sampled']
again = json.load(open(sys.argv[2]))
for name, prof in again.items():
    mine = {e['pc']: e['cycles'] for e in s[name]['profile']['instructions']}
    for pc, c in prof.items():
        assert abs(mine.get(pc, 0) - float(Fraction(c))) <= 1e-6 * max(1, float(Fraction(c))), (name, pc, mine.get(pc), c)
    assert all(pc in prof for pc, c in mine.items() if c), (name, 'extra pcs')
    print(f"{name}: {len(prof)} pcs agree with the trace")
weights, count = defaultdict(int), defaultdict(int)
for row in csv.DictReader(open(sys.argv[3])):
    weights[row['profiler']] += int(row['weight'])
    count[row['profiler']] += 1
for name, p in s.items():
    if not isinstance(p, dict) or 'profile' not in p: continue
    total = sum(e['cycles'] for e in p['profile']['instructions'])
    assert abs(total - p['sampled_cycles']) < 1e-6 * total, (name, total, p['sampled_cycles'])
    assert count[name] == p['samples'], (name, count[name], p['samples'])
    assert weights[name] == round(p['sampled_cycles']), (name, weights[name], p['sampled_cycles'])
    assert p['sampled_cycles'] <= r['cycles']
print("records add up to the profiles")
PY
done

# 3. TIP's error falls as the sampling frequency rises (Fig. A.11).
"$BIN/sim" --full -q --sample tip,nci --sample-sweep-hz 1000,10000,100000,1000000 --max-insts 2M \
    --sampled-csv sweep.csv -o sweep.json -- "$R" > /dev/null
json_check sweep.json <<'PY' || fail "TIP's error does not fall with the sampling frequency"
import json
r = json.load(open('sweep.json'))['results'][0]
for random in (False, True):
    errs = [(e['hz'], e['tip']['error']['instruction']) for e in r['sample_sweep'] if e['random'] == random]
    print('random' if random else 'periodic', errs)
    assert all(a[1] > b[1] for a, b in zip(errs, errs[1:])), errs
PY
[ "$(grep -c ',tip,' sweep.csv)" -eq 9 ] || fail "sweep.csv: expected 9 tip rows (main + 4 frequencies x 2)"

# 4. Random sampling: seeded, so repeatable.
for seed in 5 5 6; do
    "$BIN/sim" --full -q --sample tip --sample-random --sample-seed $seed --sample-period 5000 --max-insts 1M \
        -o rand$seed.json -- "$R" > /dev/null
    python3 -c "import json; print(json.dumps(json.load(open('rand$seed.json'))['results'][0]['sampled']))" >> rand.txt
done
[ "$(sed -n 1p rand.txt)" == "$(sed -n 2p rand.txt)" ] || fail "the same seed gave different samples"
[ "$(sed -n 1p rand.txt)" != "$(sed -n 3p rand.txt)" ] || fail "another seed gave the same samples"

# 5. Bad options.
expect_one_line() { # STATUS PATTERN cmd...
    local want=$1 pattern=$2; shift 2
    set +e; "$@" > out.txt 2> err.txt; local got=$?; set -e
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want"
    grep -q -- "$pattern" err.txt || fail "'$*': '$(cat err.txt)' lacks '$pattern'"
    [ "$(wc -l < err.txt)" -eq 1 ] || fail "'$*': more than one line: $(cat err.txt)"
}
expect_one_line 1 "unknown profiler 'pebs'" "$BIN/sim" --full --sample tip,pebs -- "$R"
expect_one_line 1 "expected a frequency" "$BIN/sim" --full --sample-hz 0 -- "$R"
expect_one_line 1 "give one of them" "$BIN/sim" --full --sample-hz 10 --sample-period 5 -- "$R"
expect_one_line 1 "given twice" "$BIN/sim" --full --sample tip,tip -- "$R"
"$BIN/checkpoint" -o ck2 --at 1000000,2000000 --guest-output none -- "$R" > /dev/null
expect_one_line 1 "need --full or a single region" "$BIN/sim" --sample tip --samples x.csv ck2/*.ckpt
[ ! -e x.csv ] || fail "a refused run left x.csv"
echo "sampled profiling: ok"
