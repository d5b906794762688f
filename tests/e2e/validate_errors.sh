#!/usr/bin/env bash
# validate refuses malformed and inconsistent inputs: exit status 1, one line
# "validate: FILE[:LINE]: reason" on stderr, and no output at all.
source "$(dirname "$0")/lib.sh"
V=$BIN/validate
S=$TOP/tests/validate/small
cp "$S"/* "$T/"

# refuse EXPECTED-MESSAGE-PART validate-arguments...
refuse() {
    local want=$1; shift
    set +e
    "$V" "$@" -o "$T/out" --json "$T/x.json" 2> "$T/err"
    local st=$?
    set -e
    expect_eq "'$want': exit status" 1 "$st"
    expect_eq "'$want': one line" 1 "$(wc -l < "$T/err")"
    grep -qF -- "$want" "$T/err" || fail "message '$(cat "$T/err")' lacks '$want'"
    [ ! -e "$T/out" ] && [ ! -e "$T/x.json" ] || fail "'$want': output written"
    ls "$T" | grep -q tmp && fail "'$want': temporary file left"
    return 0
}
base=(--simpoints "$T/small.simpoints" --weights "$T/small.weights" -i 2000 --full "$T/full.json")

# malformed files
printf '2 0\n1 x\n' > "$T/bad.sp"
refuse "bad.sp:2: expected '<interval> <cluster>'" --simpoints "$T/bad.sp" --weights "$T/small.weights" -i 2000 \
    --full "$T/full.json"
printf '0.6 0\n0.3 1\n' > "$T/bad.w"
refuse "bad.w: the weights sum to 0.9, not 1" --simpoints "$T/small.simpoints" --weights "$T/bad.w" -i 2000 \
    --full "$T/full.json"
sed '4s/,1000,3000,/,1000,3000x,/' "$T/full.csv" > "$T/bad.csv"
refuse "bad.csv:4: cycles: expected a non-negative number, got '3000x'" "${base[@]}" --log "$T/bad.csv"
head -c 200 "$T/regions.json" > "$T/cut.json"
refuse "cut.json:" "${base[@]}" --regions "$T/cut.json"
refuse "nothere.json: No such file or directory" "${base[@]}" --regions "$T/nothere.json"

# inconsistent inputs
refuse "the profile has 9501 instructions but the full run" "${base[@]}" --profile-insts 9501
# A profile cut into other intervals than --interval says (a 1M profile
# validated with -i 100k once reported a -52% error).
sed 's/"interval": 2000/"interval": 1000/' "$T/profile.json" > "$T/other_interval.json"
refuse "other_interval.json: the profile was cut into intervals of 1000 instructions, not the 2000 given with --interval" \
    "${base[@]}" --profile-summary "$T/other_interval.json"
sed 's/^3,3000,1000,3000,500,2360/3,3000,1000,3001,500,2361/' "$T/full.csv" > "$T/off.csv"
refuse "off.csv: cycles adds up to 17001 over the log but the full run's result says 17000" "${base[@]}" --log "$T/off.csv"
refuse "the interval size 2500 is not a multiple of the full run's log interval 1000" \
    --simpoints "$T/small.simpoints" --weights "$T/small.weights" -i 2500 --full "$T/full.json"
printf '0\n1\n1\n1\n0\n' > "$T/bad.labels"
refuse "small.simpoints:1: interval 2 is the simulation point of cluster 0 but" "${base[@]}" --labels "$T/bad.labels"
printf '0\n1\n0\n' > "$T/few.labels"
refuse "few.labels: 3 labels, but the full run has 5 intervals of 2000 instructions" "${base[@]}" --labels "$T/few.labels"
sed 's/"instructions": 2000/"instructions": 1999/' "$T/regions.json" > "$T/short.json"
refuse "short.json: results[0]: ran 1999 instructions, but interval 1 has 2000" "${base[@]}" --regions "$T/short.json"
sed 's/"cluster": 1,/"cluster": 0,/' "$T/regions.json" > "$T/clu.json"
refuse "clu.json: results[0]: simulation point 1 is of cluster 0" "${base[@]}" --regions "$T/clu.json"
sed 's/00112233aabbccdd/0000000000000000/' "$T/regions.json" > "$T/core.json"
refuse "core.json: core configuration 0000000000000000, but the full run" "${base[@]}" --regions "$T/core.json"
refuse "full.json: not region results" "${base[@]}" --regions "$T/full.json"
refuse "regions.json: not a full run" --simpoints "$T/small.simpoints" --weights "$T/small.weights" -i 2000 \
    --full "$T/regions.json"

# misuse
refuse "missing --full" --simpoints "$T/small.simpoints" --weights "$T/small.weights" -i 2000
refuse "option '--bogus': unknown" "${base[@]}" --bogus
refuse "--interval: expected a count" --simpoints "$T/small.simpoints" --weights "$T/small.weights" -i two \
    --full "$T/full.json"
refuse "--sweep takes its configurations from the manifest" --sweep "$T/m.tsv" --simpoints "$T/small.simpoints"

# checkpoints.json of other checkpoints (issue 35, D12): another program,
# another interval size, other simulation points or clusters.
checkpoints() { # OUT PROGRAM INTERVAL "SIMPOINT:CLUSTER ..."
    python3 - "$@" <<'PY'
import json, sys
out, program, interval, points = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split()
regions = [dict(simpoint=int(p), cluster=int(c), weight=0.5, interval=interval, warmup=0, start=int(p) * interval)
           for p, c in (pc.split(':') for pc in points)]
json.dump({"program": program, "interval": interval,
           "checkpoints": [{"file": "%04d.ckpt" % i, "start": r["start"], "regions": [r]} for i, r in enumerate(regions)],
           "fast_forward": {"instructions": 4000, "seconds": 0.5}, "writing": {"checkpoints": 2, "seconds": 0.25}},
          open(out, "w"))
PY
}
checkpoints "$T/ck.json" /work/tests/small_prog 2000 "1:1 2:0"
"$V" "${base[@]}" --regions "$T/regions.json" --checkpoints "$T/ck.json" --json "$T/ok.json" ||
    fail "validate refused the regions' own checkpoints.json"
rm -f "$T/ok.json"
checkpoints "$T/ck_prog.json" /work/tests/other_prog 2000 "1:1 2:0"
refuse "ck_prog.json: the checkpoints of another program (/work/tests/other_prog, not /work/tests/small_prog" \
    "${base[@]}" --regions "$T/regions.json" --checkpoints "$T/ck_prog.json"
checkpoints "$T/ck_interval.json" /work/tests/small_prog 1000 "1:1 2:0"
refuse "ck_interval.json: checkpoints for intervals of 1000 instructions, not the 2000" \
    "${base[@]}" --checkpoints "$T/ck_interval.json"
checkpoints "$T/ck_points.json" /work/tests/small_prog 2000 "1:1 3:0"
refuse "ck_points.json: checkpoints[1] starts interval 3, not a simulation point" "${base[@]}" --checkpoints "$T/ck_points.json"
checkpoints "$T/ck_cluster.json" /work/tests/small_prog 2000 "1:0 2:0"
refuse "ck_cluster.json: checkpoints[0]: simulation point 1 is of cluster 0" "${base[@]}" --checkpoints "$T/ck_cluster.json"
checkpoints "$T/ck_short.json" /work/tests/small_prog 2000 "1:1"
refuse "ck_short.json: no checkpoint for simulation point 2 (cluster 0)" "${base[@]}" --checkpoints "$T/ck_short.json"

# Over the file-size limit (a full disk alike), the run fails and leaves no
# directory, not even gnuplot's logs of the plots it could not finish (F09).
mkdir "$T/fsz"
set +e
(cd "$T/fsz" && ulimit -f 4 && "$V" -q "${base[@]}" --labels "$T/small.labels" -o vo/deeper 2> err)
st=$?
set -e
expect_eq "validate past the file-size limit: exit status" 1 "$st"
grep -q "File too large" "$T/fsz/err" || fail "no clear error past the file-size limit: $(cat "$T/fsz/err")"
[ "$(ls "$T/fsz")" = err ] || fail "validate past the file-size limit left $(cd "$T/fsz" && find . -path ./err -o -print)"

# --allow-mismatch turns a count or configuration mismatch into a warning
"$V" "${base[@]}" --profile-insts 9501 --allow-mismatch --regions "$T/core.json" --json "$T/ok.json" 2> "$T/err"
grep -q "warning: --profile-insts: the profile has 9501" "$T/err" || fail "no mismatch warning: $(cat "$T/err")"
grep -q "warning: .*core configuration 0000000000000000" "$T/err" || fail "no configuration warning"
echo "validate_errors: ok"
