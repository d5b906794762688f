#!/usr/bin/env bash
# A chunked full run (sim --full --chunk-insts) against the serial one on a
# bundled workload: instructions and the interval log's rows exactly equal,
# CPI within 0.1% and the golden profile within 0.5% (bench/chunked_compare.py);
# sim --stitch over checkpoint --chunk-insts's checkpoints gives the very same
# result; validate reads the result and says it was chunked; what cannot be
# stitched is refused before anything runs.
source "$(dirname "$0")/lib.sh"
cd "$T"
mkdir tmp && export TMPDIR=$T/tmp # the chunks' checkpoints and page store, removed at the end
prog=$RV/workloads/fp_flags
sim() { "$BIN/sim" -q -G 1M --profile-top 0 "$@"; }

sim --full --interval-log serial.csv -o serial.json -- "$prog" > /dev/null
OMP_NUM_THREADS=2 sim --full --chunk-insts 2M --interval-log chunked.csv -o chunked.json -- "$prog" > out.txt
[ -s out.txt ] || fail "the guest's output did not pass through once"
read -r insts rows cpi _ _ _ _ profile < <(python3 "$TOP/bench/chunked_compare.py" serial.json serial.csv chunked.json chunked.csv) ||
    fail "an exact quantity differs: instructions $insts, interval rows $rows"
awk -v c="$cpi" -v p="$profile" 'BEGIN { exit !(c <= 0.1 && c >= -0.1 && p <= 0.5) }' ||
    fail "chunked against serial: CPI $cpi%, golden profile $profile%"
python3 - chunked.json <<'PY' || fail "the result does not say how it was chunked"
import json, sys
c = json.load(open(sys.argv[1]))["results"][0]["chunked"]
assert (c["chunks"], c["instructions_per_chunk"], c["warmup"]) == (5, 2000000, 100000), c
PY
echo "ok   chunked full run (5 chunks of 2M, 100k warm-up): exact instructions and rows, CPI $cpi%, profile $profile%"

# The same chunks from checkpoint --chunk-insts, stitched: the same result.
"$BIN/checkpoint" -o ck --warm "$TOP/configs/boom-tip.ini" --chunk-insts 2M --warmup 100k -- "$prog" > /dev/null
expect_eq "chunk checkpoints" 5 "$(ls ck/*.ckpt | wc -l)"
sim --stitch --interval-log stitched.csv -o stitched.json ck/*.ckpt
cmp -s stitched.csv chunked.csv || fail "sim --stitch's interval log differs from sim --full --chunk-insts's"
python3 - stitched.json chunked.json <<'PY' || fail "sim --stitch's result differs from sim --full --chunk-insts's"
import json, sys
a, b = (json.load(open(p))["results"][0] for p in sys.argv[1:])
for r in a, b:
    for k in "seconds", "mips", "chunked", "interval_log", "program":
        r.pop(k, None)
assert a == b
PY
echo "ok   sim --stitch over checkpoint --chunk-insts: the same result"

# validate reads it unchanged and says the full run was chunked.
"$BIN/bbv" -o p --interval 1M --no-gzip -- "$prog" > /dev/null
"$BIN/simpoint" -loadFVFile p.1000000.bb -maxK 3 -fixedLength off -saveSimpoints p.sp -saveSimpointWeights p.w \
    -saveLabels p.labels > /dev/null
"$BIN/validate" --simpoints p.sp --weights p.w --labels p.labels -i 1M --full chunked.json -o v > v.txt
grep -q "the full run was chunked (5 chunks)" v.txt || fail "validate's summary: $(cat v.txt)"
grep -q "the full run was chunked: 5 chunks of 2,000,000 instructions" v/report.md || fail "report.md does not say the run was chunked"
echo "ok   validate states the chunking"

# Refused before anything runs; the guest's exit status still mirrored.
expect_status 1 "$BIN/sim" --full --chunk-insts 2M --sample tip -- "$prog" 2> err.txt
grep -q "cannot be stitched across chunks" err.txt || fail "--sample: $(cat err.txt)"
expect_status 1 "$BIN/sim" --full --chunks 4 -- "$prog" 2> err.txt
grep -q -- "--chunks N needs the program's length" err.txt || fail "--chunks: $(cat err.txt)"
expect_status 1 "$BIN/sim" --full --chunk-insts 1500k -- "$prog" 2> err.txt
grep -q "must be a multiple of the log interval" err.txt || fail "--chunk-insts 1500k: $(cat err.txt)"
expect_status 1 "$BIN/sim" --full --chunk-insts 1M --chunk-warmup 1M -- "$prog" 2> err.txt
grep -q "must be shorter than a chunk" err.txt || fail "--chunk-warmup 1M: $(cat err.txt)"
expect_status 125 "$BIN/sim" --stitch -q ck/00000[13]-*.ckpt 2> err.txt
grep -q "a chunk is missing" err.txt || fail "a missing chunk: $(cat err.txt)"
expect_status 3 "$BIN/sim" --full -q --chunk-insts 1M -- "$RV/progs/exit_code" 3 > /dev/null
expect_status 139 "$BIN/sim" --full -q --chunk-insts 1M -o fault.json -- "$RV/progs/segfault" 2> err.txt
grep -q "segmentation fault" err.txt || fail "the guest's fault was not reported: $(cat err.txt)"
[ -z "$(ls tmp)" ] || fail "left in TMPDIR: $(ls tmp)"
echo "ok   refused: sampling, --chunks without a length, chunks that cut a log row, a long warm-up, a missing chunk;"
echo "     the guest's exit status and fault as in a serial run"

# pipeline.sh --full-chunks: the full run's stage in chunks, its Slurm job with a CPU per chunk.
BIN=$BIN "$TOP/scripts/pipeline.sh" -o pl -i 1M -k 3 --full-chunks 3 --engine slurm --dry-run -- "$prog" > pl.txt 2>&1 ||
    fail "pipeline.sh --full-chunks --dry-run: $(tail -n 3 pl.txt)"
awk '/job dry[0-9]*: full/,/submitted as job/' pl.txt > full_job.txt
grep -q -- '--cpus-per-task=3' full_job.txt || fail "the full run's job does not ask for 3 CPUs"
grep -q 'full_in_chunks\\ 3' full_job.txt || fail "the full run's job does not run in chunks"
expect_status 1 "$TOP/scripts/pipeline.sh" -o pl2 --full-chunks 3 --sample tip -- "$prog" 2> err.txt
grep -q "cannot be stitched" err.txt || fail "--full-chunks with --sample: $(cat err.txt)"
echo "ok   pipeline.sh --full-chunks: the full run's Slurm job runs in chunks on a CPU each; --sample refused"
