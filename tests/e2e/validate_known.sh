#!/usr/bin/env bash
# validate on the hand-made run of tests/validate/small, whose answers were
# computed by hand: 10 log rows of 1000 instructions (the last 500), intervals
# of 2000 (the last partial, 1500), clusters {0,2,4} and {1,3} represented by
# intervals 2 (CPI 1.1) and 1 (CPI 3.0), weights 0.6 and 0.4, simulated CPIs
# 1.155 and 2.94. Full CPI 17000/9500; oracle 1.86; estimate 1.869.
source "$(dirname "$0")/lib.sh"
V=$BIN/validate
S=$TOP/tests/validate/small
args=(--simpoints "$S/small.simpoints" --weights "$S/small.weights" --labels "$S/small.labels" --interval 2k
      --full "$S/full.json" --regions "$S/regions.json" --profile-summary "$S/profile.json" -q)

"$V" "${args[@]}" -o "$T/out" > "$T/gist.txt"
grep -q "^small_prog: CPI 1.869 estimated against 1.78947 in the full run: error +4.44% (sampling +3.94%, warm-up +0.50%); reports in $T/out/$" "$T/gist.txt" || fail "no one-line summary with -o: $(cat "$T/gist.txt")"
for f in report.md report.json summary.csv metrics.csv regions.csv clusters.csv plots/cpi_clusters.gp \
         plots/cpi_clusters.dat plots/error_breakdown.gp plots/error_by_cluster.dat; do
    [ -s "$T/out/$f" ] || fail "missing output $f"
done
if command -v gnuplot > /dev/null; then
    for f in cpi_clusters error_breakdown error_by_cluster; do
        grep -q '<svg' "$T/out/plots/$f.svg" || fail "$f.svg is not SVG"
        [ "$(head -c 4 "$T/out/plots/$f.png" | tail -c 3)" == PNG ] || fail "$f.png is not PNG"
    done
fi

# CSV: the LoopPoint/ROIperf columns and the split of the error
col() { awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } NR == 2 { print $k }' "$1"; }
sum=$T/out/summary.csv
expect_eq "actual cycles" 17000 "$(col "$sum" actual)"
expect_eq "predicted cycles (9500 x 1.869)" 17755.5 "$(col "$sum" predicted)"
expect_eq "CPI estimate" 1.869 "$(col "$sum" cpi_estimate)"
expect_eq "CPI oracle" 1.86 "$(col "$sum" cpi_oracle)"
expect_eq "error %" 4.444117647 "$(col "$sum" error_pct)"
expect_eq "sampling %" 3.941176471 "$(col "$sum" sampling_error_pct)"
expect_eq "warm-up %" 0.5029411765 "$(col "$sum" warmup_error_pct)"
expect_eq "serial speedup (9500 / 6000)" 1.583333333 "$(col "$sum" serial_speedup)"
expect_eq "parallel speedup (9500 / 3000)" 3.166666667 "$(col "$sum" parallel_speedup)"
expect_eq "coverage" 1 "$(col "$sum" coverage)"
# branch MPKI: full 40/9.5; oracle 4 (-5%); estimate 4.3
grep -q '^branch_mpki,"branch MPKI",4.210526316,4,4.3,2.125,2.125,-5,7.125$' "$T/out/metrics.csv" ||
    fail "branch MPKI row: $(grep branch_mpki "$T/out/metrics.csv")"
grep -q '^0,2,0.6,2.85,2000,1000,2310,1.155,1.1,5,' "$T/out/regions.csv" || fail "regions.csv: $(cat "$T/out/regions.csv")"
grep -q '"contains_full": true' "$T/out/report.json" || fail "the 95% interval should contain the full CPI"
grep -q '| small_prog | 17,000 | 17,755 | +4.44% | 1.583x, 3.167x | n/a, n/a | 100.00% |' "$T/out/report.md" ||
    fail "Markdown summary line"

# deterministic, bootstrap included; the default output is the Markdown on stdout
"$V" "${args[@]}" --json "$T/again.json"
cmp -s "$T/out/report.json" "$T/again.json" || fail "two runs differ"
"$V" "${args[@]}" > "$T/stdout.md"
cmp -s "$T/stdout.md" "$T/out/report.md" || fail "stdout differs from report.md"
"$V" "${args[@]}" --seed 2 --json "$T/seed2.json"
cmp -s "$T/out/report.json" "$T/seed2.json" && fail "the seed changes nothing"

# without region results: the sampling error only
"$V" --simpoints "$S/small.simpoints" --weights "$S/small.weights" -i 2000 --full "$S/full.json" -q --csv "$T/noreg"
expect_eq "oracle predicted" 1.86 "$(col "$T/noreg.summary.csv" cpi_predicted)"
expect_eq "no estimate" "" "$(col "$T/noreg.summary.csv" cpi_estimate)"
[ ! -e "$T/noreg.clusters.csv" ] || fail "clusters.csv without labels"

# --max-error: 4.44% passes 5% and fails 4%
expect_status 0 "$V" "${args[@]}" --json /dev/null --max-error 5%
expect_status 2 "$V" "${args[@]}" --json /dev/null --max-error 4
echo "validate_known: ok"
