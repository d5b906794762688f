#!/usr/bin/env bash
# Output options accept '-' (standard output) and targets that are not
# regular files: a FIFO stays a FIFO (renaming a temporary over it, or over
# /dev/null, would replace it with a plain file).
source "$(dirname "$0")/lib.sh"
cd "$T"
prog=$RV/asm/loop_simple
"$BIN/sim" --full -q -o - -- "$prog" > stdout.json
grep -q '"tool": "sim"' stdout.json || fail "sim -o - wrote no JSON to stdout"
mkfifo pipe
cat pipe > from_pipe.json &
reader=$!
"$BIN/sim" --full -q -o pipe -- "$prog"
wait $reader
[ -p pipe ] || fail "the FIFO was replaced by a regular file"
strip() { grep -v "\"seconds\"\|\"mips\"" "$1"; }
cmp -s <(strip stdout.json) <(strip from_pipe.json) || fail "the FIFO did not receive the same JSON as stdout"
ls pipe.tmp* 2> /dev/null && fail "a temporary was left beside the FIFO"
echo "output targets: ok"

# '-' names standard output wherever one file is written; where a directory
# or a prefix of several files is expected it is refused, and nothing named
# '-' appears.
W=$RV/workloads/phases
# (into files first: grep -q ending the pipe early would kill the writer with SIGPIPE)
"$BIN/sim" --full -o - -- "$W" 1 > s.out 2> /dev/null; grep -q '"tool": "sim"' s.out || fail "sim -o - wrote no JSON on stdout"
"$BIN/bbv" -o p --interval 1M --summary - -- "$W" 1 > b.out 2> /dev/null; grep -q '"instructions"' b.out || fail "bbv --summary - wrote nothing"
"$BIN/simpoint" -loadFVFile p.1000000.bb.gz -maxK 3 -saveSimpoints - -saveSimpointWeights w > p.out 2> /dev/null
grep -q '^[0-9]* 0$' p.out || fail "simpoint -saveSimpoints - wrote nothing"
for cmd in "bbv -o - -- $W 1" "checkpoint -o - --at 100 -- $W 1" "checkpoint --run x.ckpt --bbv - --interval 1M" \
           "sim --plots - --full -o x.json -- $W 1" "validate -o - --simpoints a --weights b -i 1 --full c" \
           "validate --plots - --simpoints a --weights b -i 1 --full c"; do
    set +e; "$BIN"/$cmd > /dev/null 2> err.txt; st=$?; set -e
    [ "$st" -ne 0 ] && grep -q "'-' (standard output) cannot stand for" err.txt || fail "$cmd: $(cat err.txt)"
done
[ -z "$(ls -d ./-* 2> /dev/null)" ] || fail "files named '-' were written: $(ls -d ./-*)"
echo "ok   '-' is standard output for single files and refused for directories and prefixes"

# Two outputs on one file (issue 35 D8) are refused before the run, however
# the file is named (the same path, through '..', a symbolic link, an
# existing file); the other outputs are not written. /dev/null may be shared.
mkdir sub && touch old.json && ln -s old.json link.json
for pair in "-o r.json --report r.json" "-o r.json --commit-trace sub/../r.json" "--profile old.json -o link.json" \
            "--sampled-csv - -o -"; do
    set +e; "$BIN/sim" --full --max-insts 50k -q $pair -- "$W" 1 > /dev/null 2> err.txt; st=$?; set -e
    [ "$st" -eq 1 ] && grep -q "name the same file" err.txt || fail "sim $pair: status $st, $(cat err.txt)"
    [ ! -e r.json ] && [ ! -s old.json ] || fail "sim $pair wrote an output"
done
"$BIN/sim" --full --max-insts 50k -q -o /dev/null --report /dev/null -- "$W" 1 || fail "sim: /dev/null twice refused"
echo "ok   two outputs on one file are refused"
