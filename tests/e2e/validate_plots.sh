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
