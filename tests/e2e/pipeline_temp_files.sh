#!/usr/bin/env bash
# A program that keeps a temporary file (mkstemp in its directory) and
# writes its output as it goes (tests/progs/temp_work), through pipeline.sh:
#  - checkpoint's pass stops at its last point and puts back what it
#    changed: the directory is as before it ran (the earlier output as it
#    was, no temporary file), and the checkpoints keep a file history;
#  - the regions, restored from those checkpoints, still see the temporary
#    file as it was (they run, kept apart, and write nothing to the host);
#  - so the full run finds the directory as bbv's run did: the same
#    instructions (validate passes), and the output is the whole run's;
#  - on Slurm, the full run's job waits for the end of checkpoint's.
source "$(dirname "$0")/lib.sh"
cd "$T"
mkdir work && cd work
prog=$RV/progs/temp_work
qemu-riscv64 "$prog" > ../want.txt || fail "temp_work under qemu"
cp temp_work.out ../want.out
echo "an earlier output" > temp_work.out
"$BIN/checkpoint" -o ../ck --at 3000000,9000000 --guest-output none -- "$prog" > /dev/null ||
    fail "checkpoint of temp_work"
[ "$(ls)" = temp_work.out ] && [ "$(cat temp_work.out)" = "an earlier output" ] ||
    fail "checkpoint's pass left the directory changed: $(ls; head -n 2 temp_work.out)"
[ -f ../ck/files/journal ] && grep -q '"file_history": "files"' ../ck/checkpoints.json ||
    fail "checkpoint kept no file history"
"$BIN/sim" -q -o ../regions.json ../ck/*.ckpt > /dev/null 2> ../regions.err || fail "the regions: $(tail -n 1 ../regions.err)"
[ "$(ls)" = temp_work.out ] && [ "$(cat temp_work.out)" = "an earlier output" ] ||
    fail "the regions wrote to the host: $(ls)"
echo "ok   checkpoint's pass puts the directory back as it found it; the regions run from its checkpoints, writing nothing"

BIN=$BIN "$TOP/scripts/pipeline.sh" -o ../p -i 1M -- "$prog" > ../p.txt 2>&1 ||
    { tail -n 5 ../p.txt; fail "pipeline.sh on temp_work"; }
grep -q "validate: done" ../p.txt || fail "validate did not pass: $(tail -n 3 ../p.txt)"
want=$("$BIN/bbv" --count-only -- "$prog" 2>&1 > /dev/null | tail -n 1)
grep -q '"instructions": '"$want"',' ../p/full.json || fail "the full run's instructions are not bbv's $want"
cmp -s temp_work.out ../want.out && [ "$(ls)" = temp_work.out ] ||
    fail "after the pipeline, the directory is not what a whole run leaves: $(ls)"
echo "ok   pipeline.sh: the full run retires bbv's $want instructions, the output is the whole run's, nothing else is left"

# On Slurm nothing else orders the full run after checkpoint's pass, which
# runs the program part-way on the same files: its job waits for the pass's end.
BIN=$BIN "$TOP/scripts/pipeline.sh" --engine slurm --dry-run -o ../dry -i 1M -- "$prog" > ../dry.txt 2>&1 ||
    fail "pipeline.sh --engine slurm --dry-run: $(tail -n 2 ../dry.txt)"
ck=$(sed -n 's/^#### job \(dry[0-9]*\): checkpoint .*/\1/p' ../dry.txt)
[ -n "$ck" ] && grep -q -- "--job-name=rv:full .*--dependency=afterany:$ck " ../dry.txt ||
    fail "the full run's job does not wait for checkpoint's ($ck): $(grep -- '--job-name=rv:full ' ../dry.txt)"
echo "ok   on Slurm, the full run's job starts after checkpoint's pass has ended (afterany:$ck)"
