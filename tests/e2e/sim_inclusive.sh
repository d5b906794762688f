#!/usr/bin/env bash
# Inclusive time per function (perf report --children) on tests/progs/
# call_tree, whose call structure is known: g is a leaf called only by f, f
# calls only g, rec calls itself down to depth 8, solo is a leaf. Against
# the golden self time of the same run: inclusive(g) = self(g), inclusive(f)
# = self(f) + self(g), inclusive(rec) = self(rec) (each cycle counted once
# however deep the recursion), _start's inclusive time is every cycle, and
# main's all of them but the start-up and exit around it. Then from regions:
# the whole program's report keeps the leaf identities.
source "$(dirname "$0")/lib.sh"
cd "$T"
P=$RV/progs/call_tree
"$BIN/sim" --full -q --profile-top 0 --report r.md -o r.json -- "$P" > /dev/null || fail "sim failed"
python3 - <<'PY' || fail "inclusive time of a full run"
import json
r = json.load(open("r.json"))["results"][0]
self_ = {f["name"]: f["cycles"] for f in r["profile"]["functions"]}
inc = {f["name"]: f for f in r["profile"]["inclusive"]}
total = sum(self_.values())
close = lambda a, b: abs(a - b) <= 1e-6 * total
for leaf in ("g", "rec", "solo"):
    assert close(inc[leaf]["cycles"], self_[leaf]), (leaf, inc[leaf], self_[leaf])
assert close(inc["f"]["cycles"], self_["f"] + self_["g"]), (inc["f"], self_["f"], self_["g"])
assert all(close(i["self_cycles"], self_.get(n, 0)) for n, i in inc.items()), "self columns differ from the functions'"
assert close(inc["_start"]["cycles"], total), (inc["_start"], total)
main = inc["main"]["cycles"]
assert self_["main"] + inc["f"]["cycles"] + self_["rec"] + self_["solo"] <= main + 1e-6 * total < total, main
assert main > 0.9 * total, f"main has {main / total:.1%} of the run"
print(f"ok   inclusive: main {main / total:.1%}, f {inc['f']['cycles'] / total:.1%} = self {self_['f'] / total:.1%} "
      f"+ g {self_['g'] / total:.1%}, rec {inc['rec']['cycles'] / total:.1%} = self")
PY
grep -q '^### Inclusive time (`perf report --children`)' r.md || fail "no inclusive table in the report"
grep -qE '^\| `_start` \| [0-9.]+ \| 100\.00 \|' r.md || fail "_start is not 100%: $(grep '`_start`' r.md | head -1)"

# From regions: the whole program's table, leaves equal to their self time.
"$BIN/bbv" -o p --interval 100k -- "$P" > /dev/null 2>&1
"$BIN/simpoint" -loadFVFile p.100000.bb.gz -maxK 4 -fixedLength off -saveSimpoints p.sp -saveSimpointWeights p.w \
    > /dev/null 2>&1
"$BIN/checkpoint" -o ck --simpoints p.sp --weights p.w --interval 100k --warmup 50k -- "$P" > /dev/null 2>&1
"$BIN/sim" -q --warmup detailed --profile-top 0 --report w.md -o w.json ck/*.ckpt > /dev/null || fail "sim on regions"
python3 - <<'PY' || fail "inclusive time of the whole program from regions"
import re
md = open("w.md").read()
whole = md[md.index("## The whole program"):md.index("\n## Region")]
rows = re.findall(r"^\| `(\w+)` \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|$",
                  whole[whole.index("### Inclusive"):], re.M)
inc = {n: (float(i), float(s)) for n, i, _, s, _ in rows}
for leaf in ("g", "solo"):
    if leaf in inc:
        assert abs(inc[leaf][0] - inc[leaf][1]) <= 0.2, (leaf, inc[leaf])
assert "f" in inc and inc["f"][0] > inc["f"][1], inc.get("f")
print("ok   the whole program from regions:", {n: inc[n] for n in ("main", "f", "g") if n in inc})
PY
