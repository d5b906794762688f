#!/usr/bin/env bash
# Plots stay readable whatever the data: with one metric's error made huge
# (L1D MPKI x1000 in a region), the error breakdown still draws CPI in a
# panel of its own scale, clips the other metrics at a range the outlier
# does not set, and writes the outlier's value on its bar.
source "$(dirname "$0")/lib.sh"
cd "$T"
cp "$TOP"/tests/validate/small/* .
python3 - <<'PY'
import json
j = json.load(open("regions.json"))
j["results"][0]["events"]["l1d_misses"] *= 1000
json.dump(j, open("outlier.json", "w"))
PY
"$BIN/validate" --simpoints small.simpoints --weights small.weights --labels small.labels -i 2000 --full full.json \
    --regions outlier.json -o out > /dev/null 2>&1 || fail "validate failed"
gp=out/plots/error_breakdown.gp dat=out/plots/error_breakdown.dat
grep -q "set multiplot" "$gp" || fail "no panels: $(head -5 "$gp")"
python3 - "$gp" "$dat" <<'PY'
import re, sys
gp, dat = open(sys.argv[1]).read(), open(sys.argv[2]).read()
blocks = [b for b in dat.split("\n\n\n")]
assert blocks[0].strip().splitlines()[-1].startswith('"CPI"'), "CPI is not in a block of its own"
l1d = next(float(l.split('"')[2].split()[0]) for l in dat.splitlines() if l.startswith('"L1D MPKI"'))
assert abs(l1d) > 1000, f"the outlier is not there: {l1d}"
ranges = [tuple(map(float, m)) for m in re.findall(r"set yrange \[([-0-9.e+]+):([-0-9.e+]+)\]", gp)]
cpi_range, other = ranges[0], ranges[1]
assert other[1] < abs(l1d) / 10, f"the other metrics' range {other} follows the outlier {l1d}"
assert cpi_range[1] < 20, f"CPI's own scale is {cpi_range}"
assert "with labels" in gp, "clipped bars carry no value"
print(f"ok   L1D MPKI error {l1d:+.0f}% clipped at +/-{other[1]:.3g}%; CPI on its own scale +/-{cpi_range[1]:.3g}%")
PY
grep -q '^| L1D MPKI | 40 | .* | +3.0[0-9]*e+04 | +7.67e+04% |' out/report.md ||
    grep '^| L1D MPKI' out/report.md | grep -q '| +[0-9.e+]* | +' || fail "no difference beside the relative error: $(grep '^| L1D' out/report.md)"
[ -s out/plots/error_breakdown.png ] || ! command -v gnuplot > /dev/null || fail "gnuplot drew no PNG"
# The clipped bars' values are written upright in their group, and no text
# of any plot overlaps another or runs off the image.
python3 - "$gp" "$dat" <<'PY' || fail "the clipped bars' values"
import re, shlex, sys
lim = float(re.search(r"clipped at \+/-([0-9.e+]+)%", open(sys.argv[1]).read())[1])
others = open(sys.argv[2]).read().split("\n\n\n")[1]
for row in (shlex.split(l) for l in others.splitlines() if l.startswith('"')):
    values = dict(zip(("total", "sampling", "warm-up"), map(float, row[1:4])))
    for side, sign in ((row[4], 1), (row[5], -1)):
        want = ", ".join(f"{n} {v:+.0f}%" for n, v in values.items() if sign * v > lim) or "-"
        assert side == want, (row, want)
print("ok   every bar beyond the clip has its value written, no other")
PY
grep -q 'with labels rotate by 90 right boxed' "$gp" || fail "clipped values are not upright: $(grep labels "$gp")"
have_svg() { command -v gnuplot > /dev/null && [ -s "$1/plots/cpi_clusters.svg" ]; }
! have_svg out || python3 "$TOP/tests/tools/svg_text.py" out/plots/*.svg || fail "texts overlap or are cut off"

# Many clusters (a made-up full run of 180 intervals, cluster i % K): the
# cluster labels turn upright when they no longer fit side by side, and
# only every other one is written when even upright ones would touch, as
# the title says; without regions, no warm-up bars.
python3 - "$TOP/tests/validate/small/full.json" <<'PY'
import json, random, sys
cols = ("interval,start,instructions,cycles,computing,stalled_load_dram,flushed_mispredict,drained_bubble,"
        "branches,branch_mispredicts,l1d_misses").split(",")
for k in (5, 40, 90):
    rnd, rows = random.Random(k), []
    for i in range(180):
        c, cycles = i % k, 1000 + 37 * (i % k) + random.Random(i).randrange(50)
        rows.append(dict(zip(cols, (i, 1000 * i, 1000, cycles, 500, cycles - 600, 50, 50, 100, 2 + c % 5, 10 + c))))
    tot = {c: sum(r[c] for r in rows) for c in cols[2:]}
    full = json.load(open(sys.argv[1]))
    res = full["results"][0]
    res.update(instructions=tot["instructions"], cycles=tot["cycles"], cpi=tot["cycles"] / tot["instructions"],
               ipc=tot["instructions"] / tot["cycles"], stack={c: tot[c] for c in cols[4:8]},
               events={c: tot[c] for c in cols[8:]}, interval_log={"path": f"full{k}.csv", "interval": 1000})
    res["states"] = dict(zip(("computing", "stalled", "flushed", "drained"), (tot[c] for c in cols[4:8])))
    json.dump(full, open(f"full{k}.json", "w"))
    open(f"full{k}.csv", "w").write(",".join(cols) + "\n" + "".join(",".join(str(r[c]) for c in cols) + "\n" for r in rows))
    open(f"k{k}.labels", "w").write("".join(f"{i % k} 0.1\n" for i in range(180)))
    open(f"k{k}.simpoints", "w").write("".join(f"{c} {c}\n" for c in range(k)))
    open(f"k{k}.weights", "w").write("".join(f"{sum(1 for i in range(180) if i % k == c) / 180} {c}\n" for c in range(k)))
PY
for k in 5 40 90; do
    "$BIN/validate" --simpoints k$k.simpoints --weights k$k.weights --labels k$k.labels -i 1000 --full full$k.json \
        -o k$k > /dev/null 2>&1 || fail "validate with $k clusters failed"
    grep -q warm-up k$k/plots/error_by_cluster.gp && fail "$k clusters: warm-up bars without regions"
    ! have_svg k$k || python3 "$TOP/tests/tools/svg_text.py" k$k/plots/*.svg || fail "$k clusters: texts overlap or are cut off"
done
grep -q 'set xtics scale 0 norotate' k5/plots/cpi_clusters.gp || fail "5 clusters: labels not level"
grep -q 'rotate by 90' k40/plots/cpi_clusters.gp || fail "40 clusters: labels not upright"
grep -q 'xtic(2)' k40/plots/cpi_clusters.gp || fail "40 clusters: not every cluster labelled"
grep -q 'one cluster in 2 labelled' k90/plots/cpi_clusters.gp || fail "90 clusters: the title does not say which are labelled"
grep -q 'xtic((int($0) % 2 == 0 ? strcol(2) : ""))' k90/plots/cpi_clusters.gp || fail "90 clusters: labels not thinned"
if have_svg k90; then
    labels=$(grep -cE '<text>[0-9]+ \(0\.0[0-9]+\)</text>' k90/plots/cpi_clusters.svg)
    expect_eq "90 clusters: labels written" 45 "$labels"
fi
echo "ok   cluster labels level at 5, upright at 40, every other one at 90"
