#!/bin/bash
# scripts/sweep.sh --suite: three programs from a list file (name, command,
# standard input; a quoted argument, a comment, an empty line), their full
# runs in chunks (--full-chunks 2): one report with every program's error
# under each configuration and the mean and largest over the suite, the
# Pareto front and the cheapest configuration within the target; each
# program reads its own standard input; on Slurm (--dry-run) each full run is
# a pass, an array of chunks and a stitch, with the program's input. Bad
# suites and options are refused with the file, line and reason, before
# anything is made.
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts/sweep.sh
cd "$T"
cp "$RV/workloads/phases" "$RV/workloads/sort" "$RV/progs/stdin_count" .
seq 1 20000 > in.txt
printf '# a suite: name, command, standard input\n\nphases-1\t./phases 1\nsort-1\t"./sort" 1\ncount\t./stdin_count\tin.txt\n' \
    > suite.tsv
BIN=$BIN "$S" -o out -i 100k,200k -k 1..3 -r 200k:3 -M simpoint -P 2 --full-chunks 2 --suite suite.tsv > log.txt 2>&1 ||
    { cat log.txt; fail "sweep.sh --suite exited $?"; }
expect_eq "programs in the manifest" "phases-1 sort-1 count" "$(cut -f1 out/manifest.tsv | tail -n +2 | uniq | tr '\n' ' ' | sed 's/ $//')"
for p in phases-1 sort-1 count; do
    python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["results"][0]["chunked"]; assert c["chunks"] == 2, c' \
        "out/programs/$p/full.json" || fail "$p: the full run is not in 2 chunks"
done
grep -q "^lines 20000 bytes 108894 " out/programs/count/logs/bbv.log || fail "count did not read in.txt: $(cat out/programs/count/logs/bbv.log)"
R=out/report/sweep.md
sed -n '/^## Per program and configuration/,/^## /p' "$R" > matrix.md
for p in phases-1 sort-1 count "\*\*mean abs. error\*\*" "\*\*max abs. error\*\*"; do
    grep -q "^| $p | [-+0-9.]*% | [-+0-9.]*% |" matrix.md || fail "the per-program table has no row '$p': $(cat matrix.md)"
done
grep -q "^## Pareto front" "$R" && grep -qE '^\*\*(Cheapest configuration within the target|No configuration meets the target)' "$R" ||
    fail "the report has no Pareto front or answer"
echo "ok   a suite of 3 (its names, inputs, chunked full runs): per-program errors, mean and max, front, answer"

# On Slurm: each program's full run is a pass, a job array and a stitch, reading its input.
BIN=$BIN "$S" -o dry -i 100k,200k -k 1..3 -r none -M simpoint --full-chunks 2 --suite suite.tsv --engine slurm --dry-run \
    > dry.txt 2>&1 || { cat dry.txt; fail "sweep.sh --suite --engine slurm --dry-run"; }
for p in phases-1 sort-1 count; do
    grep -qE "^[0-9:]+ +dry[0-9]+  $p: full.chunks \(array of 2 tasks\)  <- dry[0-9]+$" dry.txt ||
        fail "$p: no array of chunks in the graph: $(grep "  $p: " dry.txt)"
done
awk '/#### job dry[0-9]*: count: full.pass/,/^$/' dry.txt | grep -q "declare -- STDIN=\"$T/in.txt\"" ||
    fail "count's functional pass does not read in.txt"
echo "ok   on Slurm, each program's full run: a pass (with its input), an array of 2 chunks, a stitch"

refused() { # refused MESSAGE SWEEP-ARGS...
    local msg=$1
    shift
    expect_status 1 env BIN="$BIN" "$S" -o bad "$@" 2> err.txt
    grep -q -- "$msg" err.txt || fail "sweep.sh $*: $(cat err.txt)"
    [ ! -e bad ] || fail "sweep.sh $* made bad/"
}
bad_suite() { printf "$2" > b.tsv; refused "$1" --suite b.tsv; }
bad_suite "b.tsv:1: 1 tab-separated fields" 'phases ./phases\n'
bad_suite "b.tsv:2: the name 'a/b' is not made of" 'ok\t./phases\na/b\t./sort\n'
bad_suite "b.tsv:2: a second program named p" 'p\t./phases\np\t./sort\n'
bad_suite "b.tsv:1: no program ./nothere" 'p\t./nothere 1\n'
bad_suite "b.tsv:1: no standard input file nofile" 'p\t./phases\tnofile\n'
bad_suite "b.tsv:1: the command: No closing quotation" 'p\t./phases "1\n'
bad_suite "b.tsv: no programs" '# nothing\n'
refused "b.tsv.none: No such file" --suite b.tsv.none
refused "give one of them" --suite suite.tsv -- ./phases
refused "wants a number of chunks or auto" --full-chunks 0 -- ./phases
refused "no full runs to chunk" --full-chunks 2 --no-full -- ./phases
echo "ok   refused: suites with a bad line (file:line: why), a missing suite, --suite with programs, bad --full-chunks"
