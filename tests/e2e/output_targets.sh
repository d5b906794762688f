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
