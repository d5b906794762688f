#!/usr/bin/env bash
# pipeline.sh says when its sampling saves little: regions (warm-ups
# included) that come to half the program or more, with the interval size
# that would simulate about a tenth of it; and says nothing when sampling
# saves much. phases 1 retires 25.7M instructions.
source "$(dirname "$0")/lib.sh"
cd "$T"
W=$RV/workloads/phases
BIN=$BIN "$TOP/scripts/pipeline.sh" -o big -i 2M -w 2 --no-full -- "$W" 1 > big.txt 2>&1 || { cat big.txt; fail "pipeline.sh -i 2M"; }
grep -q "sampling saves little: the [0-9]* regions simulate [0-9]* instructions" big.txt ||
    fail "no hint at -i 2M -w 2: $(cat big.txt)"
python3 - big.txt big/phases.simpoints << 'PY' || fail "the hint's figures are not the run's"
import re, sys
text, points = open(sys.argv[1]).read(), sum(1 for l in open(sys.argv[2]) if l.strip())
m = re.search(r"the (\d+) regions simulate (\d+) instructions.*?(\d+)% of the (\d+) the full run.*?-i (\S+) would", text)
k, sim, pct, total, suggest = int(m[1]), int(m[2]), int(m[3]), int(m[4]), m[5]
assert k == points, (k, points)
assert sim == k * (2_000_000 + 4_000_000), sim
assert abs(pct - 100 * sim / total) < 1, pct
size = float(suggest[:-1]) * {"k": 1e3, "M": 1e6}[suggest[-1]]
assert k * size * 3 <= total / 10 < k * size * 30, (suggest, k, total)
print(f"ok   hint at -i 2M -w 2: {k} regions, {sim} instructions, {pct}% of {total}; suggests -i {suggest}")
PY
BIN=$BIN "$TOP/scripts/pipeline.sh" -o small -i 100k --no-full -- "$W" 1 > small.txt 2>&1 || { cat small.txt; fail "pipeline.sh -i 100k"; }
! grep -q "sampling saves little" small.txt || fail "a hint where sampling saves much: $(grep 'saves little' small.txt)"
echo "ok   no hint at -i 100k"
