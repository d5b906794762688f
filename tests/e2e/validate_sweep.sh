#!/usr/bin/env bash
# validate --sweep over hand-made configurations of the tests/validate/small
# run (full CPI 17000/9500 = 1.7895):
#   interval 1000, MaxK 1: interval 4 (CPI 1.2)            -32.94%, 1000 insts
#   interval 2000, MaxK 1: interval 1 (CPI 3.0)            +67.65%, 2000 insts
#   interval 2000, MaxK 2: intervals 2 and 1 (0.6 x 1.1 + 0.4 x 3.0 = 1.86), +3.94%, 4000 insts,
#     its 95% confidence interval +-7.63% (labels: clusters of 3 and 2 intervals)
# and a second program, a copy of the first named "twin", for the mean over programs.
source "$(dirname "$0")/lib.sh"
V=$BIN/validate
S=$TOP/tests/validate/small
mkdir -p "$T/run"
cp "$S"/* "$T/run/"
printf '4 0\n' > "$T/run/k1.sp"
printf '1 0\n' > "$T/run/K1.sp"
printf '1 0\n' > "$T/run/k1.w"
{
    printf 'program\tinterval\tmax_k\tbic\tsimpoints\tweights\tlabels\tfull\tregions\n'
    for p in small twin; do
        printf '%s\t1000\t1\t0.9\trun/k1.sp\trun/k1.w\t-\trun/full.json\t-\n' $p
        printf '%s\t2k\t1\t0.9\trun/K1.sp\trun/k1.w\t-\trun/full.json\t-\n' $p
        printf '%s\t2k\t2\t0.9\trun/small.simpoints\trun/small.weights\trun/small.labels\trun/full.json\trun/regions.json\n' $p
    done
} > "$T/m.tsv"

"$V" -q --sweep "$T/m.tsv" --target 12% --baseline 1,0.9 -o "$T/out"
for f in sweep.md sweep.json sweep.rows.csv sweep.configs.csv plots/pareto.gp plots/heatmap_mean.dat \
         plots/heatmap_max.dat plots/cost_by_interval.dat plots/per_program.gp; do
    [ -s "$T/out/$f" ] || fail "missing output $f"
done
grep -q 'Cheapest configuration within the target: interval 2k, MaxK 2, BIC 0.9\*\*: mean |error| + 95% half-width 11.57% (mean |error| 3.94%' \
    "$T/out/sweep.md" || fail "cheapest: $(grep -i cheapest "$T/out/sweep.md" | head -2)"
# configs.csv: interval,max_k,bic,programs,k_mean,k_min,k_max,simulated,simulated_with_warmup,speedup,mean,max,rms,complete,pareto,meets,
# regions,estimate,warm-up,method,seconds,mean |error| + 95% half-width
grep -q '^1000,1,0.9,2,1,1,1,2000,2000,9.5,32.94117647,32.94117647,32.94117647,1,1,0,' "$T/out/sweep.configs.csv" ||
    fail "1000/1: $(grep '^1000,1,' "$T/out/sweep.configs.csv")"
grep -q '^2000,1,0.9,2,1,1,1,4000,4000,4.75,67.64705882,67.64705882,67.64705882,1,0,0,' "$T/out/sweep.configs.csv" ||
    fail "2000/1 is dominated: $(grep '^2000,1,' "$T/out/sweep.configs.csv")"
grep -q '^2000,2,0.9,2,2,2,2,8000,8000,2.375,3.941176471,3.941176471,3.941176471,1,1,1,2,4.444117647,0.5029411765,simpoint,,11.5676016$' \
    "$T/out/sweep.configs.csv" || fail "2000/2: $(grep '^2000,2,' "$T/out/sweep.configs.csv")"
# rows with region results carry the warm-up error
expect_eq "rows with regions" 2 "$(awk -F, 'NR > 1 && $17 == 1' "$T/out/sweep.rows.csv" | wc -l)"
grep -q '"best": {' "$T/out/sweep.json" || fail "no best configuration in the JSON"
# The Pareto front lists each point (cost, error) once, and k is per program, never a sum.
sed -n '/^## Pareto front/,/^## /p' "$T/out/sweep.md" | grep '^| [0-9]' | awk -F'|' '{ print $6, $9 }' | sort | uniq -d |
    grep -q . && fail "a point is listed twice on the Pareto front"
grep -q '| k per program |' "$T/out/sweep.md" || fail "the tables add up k over programs"

# sweep.md counts warnings that differ only in their numbers and file names
# as one kind, with the configurations it came from; recomputed here from
# every warning of sweep.json ("PROGRAM (MANIFEST:LINE): TEXT").
python3 - "$T/out" <<'PY' || fail "the warnings' kinds"
import json, re, sys
from collections import defaultdict
out = sys.argv[1]
notes = json.load(open(f"{out}/sweep.json"))["warnings"]
kinds, configs = defaultdict(int), defaultdict(set)
for note in notes:
    m = re.match(r"(\S+) \((\S+):(\d+)\): (.*)", note)
    shape = re.sub(r"(?:^|(?<=[ (]))[+-](?=\d)|\d+(?:\.\d+)*", "#", " ".join("@" if "/" in w else w for w in m[4].split(" ")))
    shape = re.sub(r"#+", "#", shape)
    kinds[shape] += 1
    configs[shape].add(m[3])
md = open(f"{out}/sweep.md").read()
assert f"## Warnings ({len(notes)}, of {len(kinds)} kinds)" in md, md[md.find("## Warnings"):][:200]
listed = [(int(n), int(c)) for n, c in re.findall(r"^- \*\*(\d+) ×\*\* \((\d+) configurations?\)", md, re.M)]
want = sorted(((n, len(configs[k])) for k, n in kinds.items() if n > 1), reverse=True)
assert sorted(listed, reverse=True) == want, (listed, want)
assert re.search(r"^  - from small at 2k: MaxK 2; twin at 2k: MaxK 2$", md, re.M), md[md.find("## Warnings"):]
print(f"ok   {len(notes)} warnings in {len(kinds)} kinds: {want}")
PY

# The target holds |error| and the confidence interval together: at 5%, the
# 3.94% of interval 2k, MaxK 2 is luck inside +-7.63%, and nothing is within it
# (the per-program choice too); the answer says why.
"$V" -q --sweep "$T/m.tsv" --target 5% --baseline 1,0.9 -o "$T/ci"
grep -q '^\*\*No configuration meets the target.\*\* The most accurate is interval 2k, MaxK 2, BIC 0.9: mean |error| 3.94%, with the 95% half-width 11.57%' \
    "$T/ci/sweep.md" || fail "a 3.94% error with a +-7.63% interval met a 5% target: $(grep -iE 'cheapest|no configuration' "$T/ci/sweep.md" | head -2)"
grep -q '^| small | none within the target |' "$T/ci/sweep.md" || fail "per program: $(grep '^| small |' "$T/ci/sweep.md")"
grep -q 'half-width of its 95% confidence interval <= 5.00%' "$T/ci/sweep.md" || fail "the target is not explained"
grep -q '^2000,2,0.9,.*,1,1,0,2,' "$T/ci/sweep.configs.csv" || fail "2000/2 meets 5%: $(grep '^2000,2,' "$T/ci/sweep.configs.csv")"

# with warm-up of one interval per region: interval 4 of 1000 needs 1000 more
"$V" -q --sweep "$T/m.tsv" --warmup-intervals 1 --csv "$T/w"
grep -q '^1000,1,0.9,2,1,1,1,2000,4000,' "$T/w.configs.csv" || fail "warm-up: $(grep '^1000,1,' "$T/w.configs.csv")"

# a target nobody meets: said so, and --max-error fails
"$V" -q --sweep "$T/m.tsv" --target 1% --markdown "$T/none.md" --max-error 5%
grep -q 'No configuration meets the target.\*\* The most accurate is interval 2k, MaxK 2' "$T/none.md" ||
    fail "unmet target: $(grep -i 'target' "$T/none.md" | head -3)"
expect_status 2 "$V" -q --sweep "$T/m.tsv" --json /dev/null --max-error 3%

# methods: the same configurations chosen two ways are compared on the same
# logs, each named by its method, with the selection time summed per configuration
{
    printf 'program\tinterval\tmax_k\tbic\tsimpoints\tweights\tlabels\tfull\tmethod\tseconds\n'
    for p in small twin; do
        printf '%s\t2k\t2\t0.9\trun/small.simpoints\trun/small.weights\trun/small.labels\trun/full.json\tsimpoint\t1.5\n' $p
        printf '%s\t2k\t2\t0.9\trun/K1.sp\trun/k1.w\t-\trun/full.json\tother\t2\n' $p
    done
} > "$T/methods.tsv"
"$V" -q --sweep "$T/methods.tsv" --target 12% --baseline 2,0.9 -o "$T/methods"
grep -q '^| 2k | simpoint | 2 | 8,000 | 1x | 3.94% | 3.94% | 3 | - |$' "$T/methods/sweep.md" ||
    fail "methods table: $(grep -A4 '^## Methods' "$T/methods/sweep.md")"
grep -q '^| 2k | other | 1 | 4,000 | 0.5x | 67.65% | 67.65% | 4 | - |$' "$T/methods/sweep.md" ||
    fail "methods table: $(grep -A4 '^## Methods' "$T/methods/sweep.md")"
grep -q 'within the target: interval 2k, MaxK 2, BIC 0.9, method simpoint\*\*' "$T/methods/sweep.md" ||
    fail "the answer does not name its method: $(grep -i cheapest "$T/methods/sweep.md" | head -1)"
grep -q ',other,4,67.64705882$' "$T/methods/sweep.configs.csv" || fail "configs.csv: no method and seconds"
printf 'program\tinterval\tmax_k\tsimpoints\tweights\tmethod\nsmall\t2k\t2\trun/K1.sp\trun/k1.w\ttwo words\n' > "$T/badm.tsv"
expect_status 1 "$V" -q --sweep "$T/badm.tsv" --full "$T/run/full.json" -o "$T/badm" 2> "$T/err"
grep -q "method: expected a name" "$T/err" || fail "bad method: $(cat "$T/err")"

# a bad line is named, and nothing is written
printf 'small\t2k\t3\t0.9\trun/nothere.sp\trun/k1.w\t-\trun/full.json\t-\n' >> "$T/m.tsv"
expect_status 1 "$V" -q --sweep "$T/m.tsv" -o "$T/bad" 2> "$T/err"
grep -q "nothere.sp: No such file or directory (configuration at .*m.tsv:8)" "$T/err" || fail "bad line: $(cat "$T/err")"
[ ! -e "$T/bad" ] || fail "output written for a bad manifest"
echo "validate_sweep: ok"
