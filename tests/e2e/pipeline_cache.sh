#!/bin/bash
# scripts/pipeline.sh --cache DIR: the full detailed run is taken from the
# cache only when everything it reads is the same. On tests/progs/stdin_count
# with its standard input from a file, run from one working directory into
# one output directory made afresh each time (the cache keeps an entry per
# command, and the command names the output directory):
#  - the first run runs it and a second one takes it from the cache, the
#    same bytes;
#  - a changed standard input (same path, other contents) and a changed
#    configuration (same path) each run it again;
#  - a damaged cache entry is noticed and run again, with the run's result,
#    and the entry is whole again after it;
#  - -f runs it without reading the cache.
. "$(dirname "$0")/lib.sh"

P=$TOP/scripts/pipeline.sh
W=$T/work
mkdir -p "$W"
cp "$RV/progs/stdin_count" "$W/"
# outside the working directory, whose every file is in the key anyway
IN=$T/in.txt CORE=$T/core.ini
seq 1 20000 >"$IN"
cp "$TOP/configs/boom-tip.ini" "$CORE"
cd "$W"

n=0 out=$T/out
# run [PIPELINE OPTIONS...]: a run into $out made afresh; $how is how its
# full run came ("done" or "from the cache")
run() {
    n=$((n + 1))
    rm -rf "$out"
    BIN=$BIN "$P" -o "$out" -i 100k -k 5 --stdin "$IN" -c "$CORE" --cache "$T/cache" "$@" -- ./stdin_count \
        >"$T/log$n.txt" 2>&1 || { cat "$T/log$n.txt"; fail "run $n: pipeline.sh exited $?"; }
    how=$(grep -Eo "full: (done|from the cache)" "$out/pipeline.log" | sed 's/^full: //') ||
        fail "run $n: the full run neither ran nor came from the cache"
}
# the full run's results without its timings
results() { grep -v '"seconds"\|"mips"\|"wall_seconds"' "$1/full.json"; }

run
expect_eq "run 1 (empty cache)" done "$how"
first=$T/first
cp -r "$out" "$first"
run
expect_eq "run 2 (the same inputs)" "from the cache" "$how"
cmp -s "$first/full.json" "$out/full.json" || fail "the cached full run differs from the one run"
cmp -s "$first/full.csv" "$out/full.csv" || fail "the cached interval log differs from the one run"
echo "pipeline_cache: the same inputs take the full run from the cache, the same bytes"

# Another standard input at the same path.
seq 1 20001 >"$IN"
run
expect_eq "run 3 (standard input changed)" done "$how"
results "$first" | cmp -s - <(results "$out") && fail "run 3: another input gave the same full run"
seq 1 20000 >"$IN"
run
expect_eq "run 4 (standard input as before)" done "$how" # the entry held run 3's
results "$first" | cmp -s - <(results "$out") || fail "run 4 differs from run 1"

# Another configuration under the same name.
sed -i 's/^entries *= 128 /entries = 96 /' "$CORE"
grep -q '^entries = 96' "$CORE" || fail "could not change the ROB size in $CORE"
run
expect_eq "run 5 (configuration changed)" done "$how"
cp "$TOP/configs/boom-tip.ini" "$CORE"
run
expect_eq "run 6 (configuration as before)" done "$how"
echo "pipeline_cache: a changed standard input or configuration runs the full run again"

# A damaged entry: noticed, run again, and whole after.
slot=$(dirname "$(grep -l . "$T"/cache/*/key | head -n 1)")
[ -f "$slot/out.0" ] || fail "no cache entry in $T/cache"
printf 'damage' >>"$slot/out.0"
run
expect_eq "run 7 (entry damaged)" done "$how"
grep -q "damaged" "$out/pipeline.log" || fail "run 7 did not say the entry is damaged"
results "$first" | cmp -s - <(results "$out") || fail "run 7 differs from run 1"
run
expect_eq "run 8 (after the damaged entry's rerun)" "from the cache" "$how"
echo "pipeline_cache: a damaged entry is run again and replaced"

run -f
expect_eq "run 9 (-f)" done "$how"
echo "PASS pipeline_cache"
