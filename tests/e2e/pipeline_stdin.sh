#!/usr/bin/env bash
# pipeline.sh and the program's standard input, on tests/progs/stdin_count
# (reads its input to the end):
#  - piped into the script, it is kept in DIR/stdin and every stage runs on
#    it: bbv counts the run on the input, not on /dev/null, and the full run
#    agrees (validate checks the counts); redirected from a file, the same;
#  - the same input again leaves every stage up to date, another reruns them;
#  - --stdin FILE that does not exist is refused; --stdin /dev/null is nothing;
#  - a run too short to sample, with --no-full, says there is no estimate and
#    fails: no "null" estimate is printed.
source "$(dirname "$0")/lib.sh"
cd "$T"
cp "$RV/progs/stdin_count" .
P=$TOP/scripts/pipeline.sh
seq 1 20000 > in.txt

# count: the instructions of stdin_count on FILE (bbv --count-only).
count() { "$BIN/bbv" --count-only -- ./stdin_count < "$1" 2>&1 > /dev/null | tail -n 1; }
# insts DIR: the instructions of the pipeline's bbv run
insts() { sed -n 's/^  "instructions": \([0-9]*\),$/\1/p' "$1/stdin_count.summary.json"; }
# pipe NAME OPTIONS...: in.txt piped into a pipeline run into NAME (NAME.txt: its output)
pipe() {
    local name=$1
    shift
    cat in.txt | BIN=$BIN "$P" -o "$T/$name" -i 100k -k 5 "$@" -- ./stdin_count > "$name.txt" 2>&1 ||
        { cat "$name.txt"; fail "pipeline.sh $name failed"; }
}

want=$(count in.txt)
empty=$(count /dev/null)
[ "$want" -gt $((10 * empty)) ] || fail "the input makes no difference to the count ($want, $empty on /dev/null)"
pipe p
cmp -s in.txt p/stdin || fail "the piped input is not in p/stdin"
expect_eq "bbv's count on the piped input" "$want" "$(insts p)"
grep -q '"instructions": '"$want"',' p/full.json || fail "the full run did not run on the input: $(grep -m1 '"instructions"' p/full.json)"
grep -q "validate: done" p.txt || fail "validate did not pass: $(tail -n 5 p.txt)"
grep -q "standard input: $(wc -c < in.txt) bytes" p.txt || fail "the captured input is not said: $(head -n 5 p.txt)"
echo "ok   piped input: kept in DIR/stdin, bbv and the full run both count $want instructions"

# The same input again: up to date; another: bbv, checkpoint and the full run again.
pipe p
for s in bbv checkpoint full; do grep -q "$s: up to date" p.txt || fail "the same input reran $s: $(cat p.txt)"; done
seq 1 30000 > in.txt
pipe p
for s in bbv checkpoint full; do grep -q "$s: done" p.txt || fail "another input did not rerun $s: $(cat p.txt)"; done
expect_eq "bbv's count on the new input" "$(count in.txt)" "$(insts p)"
echo "ok   the same input leaves the stages up to date; another reruns them"

# Redirected from a file: the same as piped.
BIN=$BIN "$P" -o "$T/r" -i 100k -k 5 --no-full -- ./stdin_count < in.txt > r.txt 2>&1 || { cat r.txt; fail "redirected run failed"; }
cmp -s in.txt r/stdin && expect_eq "bbv's count, input redirected" "$(count in.txt)" "$(insts r)"
# --stdin: a file that is not there is refused; /dev/null is nothing.
expect_status 1 env BIN="$BIN" "$P" -o "$T/x" --stdin nothere.txt -- ./stdin_count 2> err.txt
grep -q "no --stdin file nothere.txt" err.txt || fail "a missing --stdin file: $(cat err.txt)"
BIN=$BIN "$P" -o "$T/n" -i 100k -k 5 --no-full --stdin /dev/null -- ./stdin_count < in.txt > n.txt 2>&1 || true
[ ! -e n/stdin ] && expect_eq "count with --stdin /dev/null" "$empty" "$(insts n)"
echo "ok   a redirected input is kept too; --stdin names the input"

# Shorter than two intervals: no estimate from the regions, said, and a failure.
expect_status 1 env BIN="$BIN" "$P" -o "$T/short" -i 10M -k 5 --no-full -- ./stdin_count < in.txt > short.txt 2>&1
grep -q "no whole-program estimate from the regions" short.txt || fail "no reason given: $(tail -n 5 short.txt)"
! grep -qiE 'CPI (null|none|nan)|estimate from the regions alone is combined' short.txt || fail "a null estimate was printed: $(cat short.txt)"
echo "PASS pipeline_stdin"
