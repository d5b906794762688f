#!/bin/bash
# scripts/pipeline.sh --cache DIR: the full detailed run is taken from the
# cache when, and only when, everything that determines it is the same. On
# tests/progs/stdin_count with its standard input from a file, run from one
# working directory:
#  - the first run runs it and a second one takes it from the cache, the
#    same bytes;
#  - another output directory (-o, also one inside the working directory)
#    and another interval size (-i, whose default -G a cached log interval
#    divides) take it from the cache too, and validate reads it;
#  - an explicit -G that no entry has runs it;
#  - a changed standard input (same path, other contents) and a changed
#    configuration (same path) each run it again, and going back to the
#    earlier ones takes their runs from the cache;
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
# run [PIPELINE OPTIONS...]: a run into $out made afresh, at -i 100k unless
# given; $how is how its full run came ("done" or "from the cache")
run() {
    n=$((n + 1))
    rm -rf "$out"
    BIN=$BIN "$P" -o "$out" -i 100k -k 5 --stdin "$IN" -c "$CORE" --cache "$T/cache" "$@" -- ./stdin_count \
        >"$T/log$n.txt" 2>&1 || { cat "$T/log$n.txt"; fail "run $n: pipeline.sh exited $?"; }
    how=$(grep -Eo "full: (done|from the cache)" "$out/pipeline.log" | sed 's/^full: //') ||
        fail "run $n: the full run neither ran nor came from the cache"
    grep -q "validate: done" "$out/pipeline.log" || fail "run $n: validate did not pass: $(tail -n 5 "$T/log$n.txt")"
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

# Another output directory, outside and inside the working directory: the
# same run, its interval log now named in the new directory.
out=$T/elsewhere
run
expect_eq "run (another -o)" "from the cache" "$how"
grep -q "\"path\": \"$out/full.csv\"" "$out/full.json" || fail "full.json names another directory's log: $(grep -A1 interval_log "$out/full.json")"
out=$W/out
run
expect_eq "run (-o inside the working directory)" "from the cache" "$how"
rm -rf "$out"
# Another interval size: its default -G (20k) is not cached, but 10k, which divides 200k, is.
out=$T/out
run -i 200k
expect_eq "run (-i 200k)" "from the cache" "$how"
grep -q "logged every 10000 instructions, which divides 200000" "$out/pipeline.log" || fail "the log interval taken is not said"
run -i 200k -G 20k
expect_eq "run (-i 200k -G 20k: not cached)" done "$how"
run -i 100k -G 20k
expect_eq "run (-i 100k -G 20k: cached now)" "from the cache" "$how"
echo "pipeline_cache: another -o or -i takes the full run from the cache; an explicit -G is kept"

# Another standard input at the same path.
seq 1 20001 >"$IN"
run
expect_eq "run 3 (standard input changed)" done "$how"
results "$first" | cmp -s - <(results "$out") && fail "run 3: another input gave the same full run"
seq 1 20000 >"$IN"
run
expect_eq "run 4 (standard input as before)" "from the cache" "$how"
results "$first" | cmp -s - <(results "$out") || fail "run 4 differs from run 1"

# Another configuration under the same name.
sed -i 's/^entries *= 128 /entries = 96 /' "$CORE"
grep -q '^entries = 96' "$CORE" || fail "could not change the ROB size in $CORE"
run
expect_eq "run 5 (configuration changed)" done "$how"
cp "$TOP/configs/boom-tip.ini" "$CORE"
run
expect_eq "run 6 (configuration as before)" "from the cache" "$how"
echo "pipeline_cache: a changed standard input or configuration runs the full run again"

# A damaged entry: noticed, run again, and whole after.
slot=$(dirname "$(grep -l . "$T"/cache/*/G10000/key | head -n 1)")
[ -f "$slot/out.0" ] || fail "no cache entry in $T/cache"
for s in "$T"/cache/*/G10000/out.0; do printf 'damage' >>"$s"; done
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
