#!/usr/bin/env bash
# Malformed and truncated inputs and misuse: exit status 1, a one-line message
# naming the file, line and problem, and no output file (not even a partial one).
source "$(dirname "$0")/lib.sh"
SP=$BIN/simpoint

# bad_input NAME CONTENT EXPECTED-MESSAGE-PART
bad_input() {
    printf "$2" > "$T/$1.bb"
    set +e
    "$SP" -loadFVFile "$T/$1.bb" -maxK 3 -saveSimpoints "$T/out.sp" -saveLabels "$T/out.l" 2> "$T/err"
    local st=$?
    set -e
    expect_eq "$1: exit status" 1 "$st"
    expect_eq "$1: one line" 1 "$(wc -l < "$T/err")"
    grep -qF -- "$3" "$T/err" || fail "$1: message '$(cat "$T/err")' lacks '$3'"
    [ ! -e "$T/out.sp" ] && [ ! -e "$T/out.l" ] || fail "$1: output written"
    ls "$T" | grep -q tmp && fail "$1: temporary file left"
    return 0
}
good='T:1:10 :2:20 \nT:2:30 \nT:1:5 :3:5 \n'
bad_input missing_colon 'T:1:10 :2:20 \nT:1:5 2:3 \n' "missing_colon.bb:2:7: expected ':' before a block id"
bad_input bad_count 'T:1:10 \n# c\nT:1:abc \n' "bad_count.bb:3:5: expected a non-negative count"
bad_input negative_id 'T:-1:10 \n' "negative_id.bb:1:3: negative block id"
bad_input empty_interval 'T:1:10 \nT\nT:2:5 \n' "empty_interval.bb:2:1: interval with no blocks"
bad_input zero_interval 'T:1:0 \n' "zero_interval.bb:1:1: interval with zero instructions"
bad_input late_zero_id 'T:1:10 \nT:0:10 \n' "late_zero_id.bb:2: block id 0"
bad_input huge_id 'T:4294967296:1 \n' "huge_id.bb:1:3: block id too large"
bad_input no_intervals '# only a comment\n' "no intervals"
bad_input truncated_line "${good}T:1:5 :2:" "truncated_line.bb:4:10: expected a non-negative count"

# a gzip file cut in half
for i in $(seq 1 3000); do echo "T:$((i % 40 + 1)):$((i + 100)) :$((i % 7 + 50)):9 "; done | gzip -c > "$T/full.gz"
head -c $(($(stat -c %s "$T/full.gz") / 2)) "$T/full.gz" > "$T/cut.bb.gz"
expect_status 1 "$SP" -loadFVFile "$T/cut.bb.gz" -maxK 3 -saveSimpoints "$T/out.sp" 2> "$T/err"
grep -q "cut.bb.gz: truncated or corrupt gzip data" "$T/err" || fail "truncated gzip: $(cat "$T/err")"
[ ! -e "$T/out.sp" ] || fail "truncated gzip: output written"

# files that cannot be read or written
expect_status 1 "$SP" -loadFVFile "$T/nonexistent.bb" -maxK 3 2> "$T/err"
grep -q "nonexistent.bb" "$T/err" || fail "missing file message"
printf "$good" > "$T/good.bb"
expect_status 1 "$SP" -loadFVFile "$T/good.bb" -maxK 3 -saveSimpoints "$T/no/such/dir/x" 2> "$T/err"
grep -q "cannot write" "$T/err" || fail "unwritable output message"

# misuse: non-zero exit (SimPoint 3.2 exits 0)
expect_status 1 "$SP" -loadFVFile "$T/good.bb" 2> "$T/err"
grep -q -- "-maxK is required" "$T/err" || fail "no -maxK message"
expect_status 1 "$SP" -loadFVFile "$T/good.bb" -maxK 3 -frobnicate 2> /dev/null
expect_status 1 "$SP" -loadFVFile "$T/good.bb" -maxK 2 -k 2 2> /dev/null
expect_status 1 "$SP" -loadFVFile "$T/good.bb" -k 4 2> "$T/err"   # more clusters than intervals
grep -q "more than the 3 intervals" "$T/err" || fail "k > n message"
expect_status 1 "$SP" -loadFVFile "$T/good.bb" -maxK 3 -loadVectorWeights "$T/good.bb" 2> /dev/null
printf '0.5\n0.5\n' > "$T/w2"
expect_status 1 "$SP" -loadFVFile "$T/good.bb" -maxK 3 -loadVectorWeights "$T/w2" -fixedLength off 2> "$T/err"
grep -q "2 weights for 3 intervals" "$T/err" || fail "weights count message"
# the budget and two-stage sampling (--points, --pilot, --measured, --target-ci)
printf '# rvsample proxy 1\ninterval\tinstructions\tproxy_cpi\n0\t30\t1.2\n1\t30\t1.5\n2\t10\t1.1\n' > "$T/good.proxy"
two_stage_refused() {
    local what=$1
    shift
    expect_status 1 "$SP" -loadFVFile "$T/good.bb" -maxK 3 --proxy "$T/good.proxy" "$@" --json "$T/out.json" 2> "$T/err"
    expect_eq "$*: one line" 1 "$(wc -l < "$T/err")"
    grep -qF -- "$what" "$T/err" || fail "$*: message '$(cat "$T/err")' lacks '$what'"
    [ ! -e "$T/out.json" ] || fail "$*: output written"
}
echo '{"tool": "sim", "mode": "full", "results": []}' > "$T/full.json"
echo '{"tool": "sim", "mode": "regions", "results": [{"region": {"simpoint": 7}, "instructions": 10, "cycles": 9}]}' \
    > "$T/far.json"
two_stage_refused "option --points: bad value '0.5x'" --points 0.5x
two_stage_refused "--pilot needs --points" --pilot 1x
two_stage_refused "--target-ci needs --measured FILE" --points 2 --target-ci 1
two_stage_refused "option --target-ci: bad value '0'" --points 2 --measured "$T/full.json" --target-ci 0
two_stage_refused "full.json: not sim's results on checkpoints" --points 2 --measured "$T/full.json"
two_stage_refused "far.json: results[0]: interval 7, but the profile has 3 intervals" --points 2 --measured "$T/far.json"
echo '{"tool": "sim", "mode": "regions", "results": []}' > "$T/none.json"
two_stage_refused "no result in the --measured files" --points 3 --pilot 1 --measured "$T/none.json" --target-ci 1
# maxK above the interval count is clamped with a warning, as a convenience
"$SP" -loadFVFile "$T/good.bb" -maxK 10 -saveSimpoints "$T/ok.sp" 2> "$T/err"
grep -q "warning: maxK 10" "$T/err" || fail "no clamp warning"
echo "simpoint_errors: ok"
