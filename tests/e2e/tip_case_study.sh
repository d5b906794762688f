#!/bin/bash
# The TIP paper's Imagick case study on the rounding workload: ceil and floor
# save and restore fflags around the conversion, and every such CSR access
# flushes the pipeline. The golden attribution and TIP put the time on the
# CSR instructions; NCI puts it on the instructions after them. The
# --report Markdown shows it, with the annotated listing and source lines.
. "$(dirname "$0")/lib.sh"
cd "$T"
"$BIN/sim" --full -q --sample tip,nci --sample-period 997 --sample-random --max-insts 5M --profile-top 0 \
    --pics --report report.md --plots plots -o r.json -- "$RV/workloads/rounding" > /dev/null
python3 - <<'PY' || fail "the CSR flushes are not where TIP and the golden attribution put them"
import json
r = json.load(open('r.json'))['results'][0]
def shares(entries):
    total = sum(e['cycles'] for e in entries)
    return {e['pc']: e['cycles'] / total for e in entries}, {e['pc']: e for e in entries}
golden, info = shares(r['profile']['instructions'])
tip, _ = shares(r['sampled']['tip']['profile']['instructions'])
nci, _ = shares(r['sampled']['nci']['profile']['instructions'])
csr = [pc for pc, e in info.items() if 'fflags' in e['disasm'] and e['symbol'].split('+')[0] in ('ceilf64', 'floorf64')]
assert len(csr) == 4, csr
after = ['0x%x' % (int(pc, 16) + 4) for pc in csr]   # the instruction after each (csrr* are 4 bytes)
g, t, n = (sum(p.get(pc, 0) for pc in csr) for p in (golden, tip, nci))
ga, ta, na = (sum(p.get(pc, 0) for pc in after) for p in (golden, tip, nci))
print(f"fflags accesses in ceil/floor: golden {100*g:.1f}%, TIP {100*t:.1f}%, NCI {100*n:.1f}%")
print(f"the instructions after them:   golden {100*ga:.1f}%, TIP {100*ta:.1f}%, NCI {100*na:.1f}%")
assert g > 0.25 and abs(t - g) < 0.05, 'TIP does not match the golden attribution on the CSR instructions'
assert n < g / 2 and na > ga + (g - n) / 2, 'NCI does not move the CSR time to the next instructions'
stack = next(e['stack'] for e in r['pics']['instructions'] if e['pc'] == csr[0])
assert max(stack, key=stack.get) == 'FL-CSR', stack
PY
grep -q '^### Profile error against the golden attribution' report.md || fail "report: no error table"
grep -q '^### Cycle categories' report.md || fail "report: no cycle categories"
grep -q '^### Annotated: `ceilf64`' report.md || fail "report: ceilf64 is not annotated"
grep -q 'csrrw zero, fflags, a4`.*FL-CSR' report.md || fail "report: the CSR write's cycle stack is missing"
grep -qE '^\| \*\*rounding\.c:[0-9]+\*\* \| \| `' report.md || fail "report: no source lines for the workload's own code"
# The report's golden share and cycles of the hottest instruction are the JSON's.
python3 - <<'PY' || fail "report and JSON disagree"
import json, re
r = json.load(open('r.json'))['results'][0]
top = max(r['profile']['instructions'], key=lambda e: e['cycles'])
want = 100 * top['cycles'] / r['cycles']
rows = [l for l in open('report.md') if l.startswith('| `') and top['disasm'] in l and top['symbol'] in l]
cycles, got = float(rows[0].split('|')[2]), float(rows[0].split('|')[3])
print(f"hottest instruction {top['symbol']}: JSON {want:.2f}% ({top['cycles']:.1f} cycles), report {got:.2f}% ({cycles})")
assert abs(got - want) < 0.006 and abs(cycles - top['cycles']) < 0.06
PY
# The plots: drawn, and drawn from the numbers in the JSON.
for p in profile_error hottest_function hottest_function_pics; do
    for f in svg png; do [ -s plots/$p.$f ] || fail "plots/$p.$f was not drawn"; done
done
python3 - <<'PY' || fail "plots/profile_error.dat disagrees with the JSON"
import json
s = json.load(open('r.json'))['results'][0]['sampled']
for line in open('plots/profile_error.dat'):
    if line.startswith('#'): continue
    name, *errs = line.split()
    want = s[name.strip('"')]['error']
    assert all(abs(float(e) - 100 * want[k]) < 1e-3 for e, k in zip(errs, ('instruction', 'block', 'function'))), name
PY
echo "TIP case study: ok"
