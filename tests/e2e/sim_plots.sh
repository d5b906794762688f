#!/usr/bin/env bash
# sim --plots as a person reads them: on interp, whose hottest function has
# 167 executed instructions and its cycle stacks seven categories, no text
# overlaps another or runs off the image (tests/tools/svg_text.py), the
# per-instruction plots show the function's hottest instructions by the
# golden attribution (those of the JSON, recomputed here) and say so, and
# every category of the cycle stacks has a colour of its own.
source "$(dirname "$0")/lib.sh"
command -v gnuplot > /dev/null || { echo "skip: no gnuplot"; exit 0; }
cd "$T"
"$BIN/sim" --full -q --sample tip,nci,tea,ibs --sample-period 997 --sample-random --max-insts 2M --profile-top 0 \
    --pics --plots plots -o r.json -- "$RV/workloads/interp" > /dev/null || fail "sim failed"
python3 "$TOP/tests/tools/svg_text.py" plots/*.svg || fail "texts overlap or are cut off"
python3 - <<'PY' || fail "the per-instruction plots"
import json, re
r = json.load(open("r.json"))["results"][0]
insns = r["profile"]["instructions"]
fn = r["profile"]["functions"][0]["name"]
mine = [(int(e["pc"], 16), e["cycles"]) for e in insns if e["symbol"].split("+")[0] == fn]
gp = open("plots/hottest_function.gp").read()
m = re.search(r'set title "(\S+): time per instruction \(its (\d+) hottest instructions of (\d+), (\d+)% of its time\)"', gp)
assert m, gp.splitlines()[:12]
shown, executed = int(m[2]), int(m[3])
assert m[1] == fn and executed == len(mine), (m.groups(), fn, len(mine))
hot = sorted(mine, key=lambda x: -x[1])[:shown]
share = 100 * sum(c for _, c in hot) / sum(c for _, c in mine)
assert abs(share - int(m[4])) <= 0.5, (share, m[4])
base = next(int(e["pc"], 16) - int(e["symbol"].split("+")[1], 16) for e in insns if e["symbol"].startswith(fn + "+"))
rows = [l.split()[0].strip('"') for l in open("plots/hottest_function.dat") if l.startswith('"')]
assert rows == ["+0x%x" % (pc - base) for pc, _ in sorted(hot)], (rows, sorted(hot)[:3], base)
print(f"ok   {fn}: the {shown} hottest of {executed} instructions ({share:.0f}% of its time), as the JSON has them")
pics = open("plots/hottest_function_pics.gp").read()
keys = re.findall(r'lc rgb "(#[0-9a-f]{6})" title "([^"]+)"', pics)
colours = [c for c, _ in keys]
assert len(keys) >= 5 and len(set(colours)) == len(colours), keys
print(f"ok   cycle stacks: {len(keys)} categories, {len(set(colours))} colours")
PY
