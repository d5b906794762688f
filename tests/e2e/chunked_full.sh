#!/usr/bin/env bash
# A chunked full run (sim --full --chunk-insts) against the serial one on a
# bundled workload: instructions and the interval log's rows exactly equal,
# CPI within 0.1% and the golden profile within 0.5% (bench/chunked_compare.py);
# sampled profiles stitched across chunks: one chunk gives the serial run's,
# a sample every cycle gives TIP = golden, five chunks sample as often as the
# serial run with TIP's error within a point of its; --commit-trace and
# --samples joined (one chunk: the serial run's bytes), ProfileMe and
# inclusive time stitched; sim --stitch over
# checkpoint --chunk-insts's checkpoints gives the very same result; validate
# reads the result and says it was chunked; what cannot be stitched is
# refused before anything runs; a program that rewrites a file it reads runs
# in chunks (each keeps its files apart from the functional pass's), and a
# chunk that diverged from the functional pass stops the run.
source "$(dirname "$0")/lib.sh"
cd "$T"
mkdir tmp && export TMPDIR=$T/tmp # the chunks' checkpoints and page store, removed at the end
prog=$RV/workloads/fp_flags
sim() { "$BIN/sim" -q -G 1M --profile-top 0 "$@"; }
# same_result A.json B.json: the two runs' results agree but for timing and
# how they were chunked (which keys differ, if not).
same_result() {
    python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p))["results"][0] for p in sys.argv[1:])
for r in a, b:
    for k in "seconds", "mips", "chunked", "interval_log", "program":
        r.pop(k, None)
assert a == b, [k for k in a if a[k] != b.get(k)]
PY
}
SAMPLE=(--sample tip,nci --sample-hz 4000000 --sample-sweep-hz 400000)

sim --full "${SAMPLE[@]}" --interval-log serial.csv -o serial.json -- "$prog" > /dev/null
OMP_NUM_THREADS=2 sim --full "${SAMPLE[@]}" --chunk-insts 2M --interval-log chunked.csv -o chunked.json -- "$prog" > out.txt
[ -s out.txt ] || fail "the guest's output did not pass through once"
read -r insts rows cpi _ _ _ _ profile < <(python3 "$TOP/bench/chunked_compare.py" serial.json serial.csv chunked.json chunked.csv) ||
    fail "an exact quantity differs: instructions $insts, interval rows $rows"
awk -v c="$cpi" -v p="$profile" 'BEGIN { exit !(c <= 0.1 && c >= -0.1 && p <= 0.5) }' ||
    fail "chunked against serial: CPI $cpi%, golden profile $profile%"
python3 - chunked.json <<'PY' || fail "the result does not say how it was chunked"
import json, sys
c = json.load(open(sys.argv[1]))["results"][0]["chunked"]
assert (c["chunks"], c["instructions_per_chunk"], c["warmup"]) == (5, 2000000, 500000), c
PY
echo "ok   chunked full run (5 chunks of 2M, the default 500k warm-up): exact instructions and rows, CPI $cpi%, profile $profile%"

# Sampled profiles across chunks (sim/RESULTS.md): every sampler (4 MHz
# periodic, the sweep's 400 kHz periodic and random) takes about as many
# samples as the serial run's, no two more than the chunk boundaries and the
# cycles' difference allow, and TIP's error against the golden profile is
# within a point of the serial run's; one chunk is the serial run itself.
OMP_NUM_THREADS=2 sim --full "${SAMPLE[@]}" --chunk-insts 10M -o one.json -- "$prog" > /dev/null
python3 - serial.json chunked.json one.json <<'PY' || fail "sampled profiles across chunks (above)"
import json, sys
serial, chunked, one = (json.load(open(p))["results"][0] for p in sys.argv[1:])
samplers = lambda r: [r["sampled"]] + r["sample_sweep"]
assert json.dumps(samplers(one)) == json.dumps(samplers(serial)), "one chunk: not the serial run's samples"
assert len(samplers(chunked)) == 3
for s, c in zip(samplers(serial), samplers(chunked)):
    assert (s["period"], s["random"]) == (c["period"], c["random"])
    # a sample more or fewer per boundary (4), and the cycles' difference
    slack = 4 + 1 + abs(chunked["cycles"] - serial["cycles"]) // s["period"]
    for p in "tip", "nci":
        n, m = s[p]["samples"], c[p]["samples"]
        assert abs(n - m) <= slack, f"period {s['period']} {p}: {m} samples, serial {n}"
    e, f = s["tip"]["error"]["instruction"], c["tip"]["error"]["instruction"]
    assert abs(e - f) <= 0.01, f"period {s['period']} random {s['random']}: TIP's error {f:.4f}, serial {e:.4f}"
    print(f"     period {s['period']}{' random' if s['random'] else ''}: TIP error {100 * f:.2f}% (serial {100 * e:.2f}%), "
          f"{c['tip']['samples']} samples (serial {s['tip']['samples']})")
PY
OMP_NUM_THREADS=2 sim --full --sample tip --sample-period 1 --chunk-insts 2M -o every.json -- "$prog" > /dev/null
python3 - every.json <<'PY' || fail "a sample every cycle across chunks: TIP is not the golden profile"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
tip = r["sampled"]["tip"]
assert tip["error"]["instruction"] == 0, tip["error"]
assert tip["sampled_cycles"] == r["cycles"] == tip["samples"], (tip["sampled_cycles"], r["cycles"], tip["samples"])
PY
echo "ok   sampled profiles across 5 chunks: as many samples as serial, TIP's error within a point; one chunk is"
echo "     the serial run; a sample every cycle gives TIP = golden over every cycle"

# --commit-trace, --samples, ProfileMe and inclusive time across chunks, on
# a program of many calls (1.7M instructions, -G 100k, chunks of 300k): one
# chunk writes the serial run's very bytes and samples ProfileMe as it does;
# six chunks' trace has every chunk's committing lines the serial run's
# (bytes, and cycles since the line before) from its first instructions on,
# all but a few near the boundaries (bench/chunked_trace_compare.py); the
# records' cycles only grow, their weights adding up to the stitched
# profiles' sampled cycles; ProfileMe counts every pc's retired instances
# exactly and samples as often, give or take chance; every function's
# inclusive time within half a point of the serial run's (sim/chunk_calls.h);
# the chunks from --chunk-pass's directory, one process each, the same.
calls=$RV/progs/call_tree
small() { sim -G 100k --sample tip,nci,profileme --sample-hz 4000000 "$@"; }
for run in serial chunked:300k one:2M; do
    name=${run%%:*} chunks=()
    [ "$name" == serial ] || chunks=(--chunk-insts "${run#*:}")
    OMP_NUM_THREADS=2 small --full "${chunks[@]}" --samples "s.$name.csv" --commit-trace "t.$name.csv" \
        --profileme-samples "pm.$name.csv" -o "c.$name.json" -- "$calls" > /dev/null
done
cmp -s t.one.csv t.serial.csv && cmp -s s.one.csv s.serial.csv && cmp -s pm.one.csv pm.serial.csv ||
    fail "one chunk's --commit-trace, --samples or --profileme-samples is not the serial run's"
python3 "$TOP/bench/chunked_trace_compare.py" t.serial.csv t.chunked.csv 300000 > trace.txt ||
    fail "the stitched commit trace: $(cat trace.txt)"
expect_eq "chunks in the commit trace" 6 "$(wc -l < trace.txt)"
awk '{ gsub(/%/, "", $6); if ($6 + 0 < 99.9 || $10 + 0 > 1000) bad = 1 } END { exit bad }' trace.txt ||
    fail "a chunk's commit trace is not the serial run's: $(cat trace.txt)"
python3 - s.chunked.csv c.serial.json c.chunked.json c.one.json pm.chunked.csv <<'PY' ||
    fail "records, ProfileMe or inclusive time across chunks (above)"
import csv, json, math, sys
s, c, one = (json.load(open(p))["results"][0] for p in sys.argv[2:5])
pm = list(csv.DictReader(open(sys.argv[5])))
assert [int(r["sample"]) for r in pm] == sorted(int(r["sample"]) for r in pm), "ProfileMe's samples out of order"
assert {int(r["sample"]) for r in pm} == set(range(c["profileme"]["samples"])), "ProfileMe's samples not numbered on"
inst = [int(r["instance"]) for r in pm]
assert inst == sorted(inst) and inst[-1] < c["profileme"]["instances"], "ProfileMe's instances not numbered on"
weights, last = {}, {}
for row in csv.DictReader(open(sys.argv[1])):
    p, cyc = row["profiler"], int(row["cycle"])
    assert cyc >= last.get(p, 0) and cyc < c["cycles"], (p, cyc, last.get(p))
    last[p] = cyc
    weights[p] = weights.get(p, 0) + int(row["weight"])
for p in "tip", "nci":
    assert weights[p] == c["sampled"][p]["sampled_cycles"], (p, weights[p], c["sampled"][p]["sampled_cycles"])
assert json.dumps(one["profileme"]) == json.dumps(s["profileme"]), "one chunk: not the serial run's ProfileMe"
retired = lambda r: {p["pc"]: p["events"]["retired"]["exact"] for p in r["profileme"]["pcs"] if p["events"]["retired"]["exact"]}
assert retired(s) == retired(c), "retired instances per pc differ"
n, m = s["profileme"]["samples"], c["profileme"]["samples"]
assert abs(m - n) <= 4 * math.sqrt(n) + 6, (m, n)
incl = lambda r: {f["name"]: f["cycles"] / r["cycles"] for f in r["profile"]["inclusive"]}
a, b = incl(s), incl(c)
assert abs(b["_start"] - 1) < 1e-9, b["_start"]
worst = max(abs(a[f] - b.get(f, 0)) for f in a)
assert worst <= 0.005 and len(a) > 50, (worst, len(a))
print(f"ok   across 6 chunks: ProfileMe's retired instances exact, {m} samples (serial {n}); the inclusive time of "
      f"{len(a)} functions within {100 * worst:.3f} points")
PY
small --full --chunk-insts 300k --chunk-pass cpd -- "$calls" > /dev/null
mkdir cparts
for k in 0 1 2 3 4 5; do small --stitch --part $k --part-out cparts/$k.part cpd; done
small --stitch -o c.parts.json cparts/*.part
same_result c.parts.json c.chunked.json || fail "call_tree's parts (ProfileMe, inclusive time) differ from its chunked run"
echo "ok   --commit-trace, --samples and --profileme-samples across chunks: one chunk's are the serial run's bytes; six chunks' trace"
echo "     the serial run's line for line, $(awk '{ gsub(/%/, "", $6); if (!m || $6 < m) m = $6 } END { print m }' trace.txt)% of each chunk's committing lines at least; the same"
echo "     ProfileMe and inclusive time from --chunk-pass's parts"

# The same chunks from checkpoint --chunk-insts, stitched: the same result.
"$BIN/checkpoint" -o ck --warm "$TOP/configs/boom-tip.ini" --chunk-insts 2M -- "$prog" > /dev/null
expect_eq "chunk checkpoints" 5 "$(ls ck/*.ckpt | wc -l)"
[ -f ck/files/journal ] && grep -q '"file_history": "files"' ck/checkpoints.json ||
    fail "checkpoint --chunk-insts left no file history (ck/files) or did not name it"
"$BIN/checkpoint" -o ck --warm "$TOP/configs/boom-tip.ini" --chunk-insts 2M -- "$prog" > /dev/null ||
    fail "checkpoint --chunk-insts into the directory of an earlier one (its file history there)"
sim --stitch "${SAMPLE[@]}" --interval-log stitched.csv -o stitched.json ck/*.ckpt
cmp -s stitched.csv chunked.csv || fail "sim --stitch's interval log differs from sim --full --chunk-insts's"
same_result stitched.json chunked.json || fail "sim --stitch's result differs from sim --full --chunk-insts's"
echo "ok   sim --stitch over checkpoint --chunk-insts: the same result"

# The same chunks one process each (a Slurm array's tasks: sim --stitch --part),
# their parts stitched: the same result again; bad parts refused, leaving nothing.
mkdir parts
for k in 0 1 2 3 4; do sim --stitch "${SAMPLE[@]}" --part $k --part-out parts/$k.part ck/*.ckpt; done
sim --stitch "${SAMPLE[@]}" --interval-log parts.csv -o parts.json parts/*.part
cmp -s parts.csv chunked.csv || fail "the parts' interval log differs from sim --full --chunk-insts's"
expect_eq "parts.json: chunks" 5 "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["chunked"]["chunks"])' parts.json)"
same_result parts.json stitched.json || fail "the parts' result differs from sim --stitch's"
refused() { # refused STATUS MESSAGE SIM-ARGS...: sim refuses, saying MESSAGE, writing no x.json
    local want=$1 msg=$2
    shift 2
    expect_status "$want" "$BIN/sim" -q "$@" 2> err.txt
    grep -q -- "$msg" err.txt || fail "sim $*: $(cat err.txt)"
    [ ! -e x.json ] || fail "sim $* left x.json"
}
refused 125 "chunk 4 of 5 follows a missing one" --stitch "${SAMPLE[@]}" -o x.json parts/[0134].part
refused 125 "chunk 2 of 5 is given twice" --stitch "${SAMPLE[@]}" -o x.json parts/[01].part parts/[1-4].part
refused 125 "chunk 5 is missing" --stitch "${SAMPLE[@]}" -o x.json parts/[0-3].part
head -c 3000 parts/1.part > cut.part
refused 125 "cut.part: not a chunk part of this sim (sim --stitch --part): .* (truncated?)" --stitch "${SAMPLE[@]}" \
    -o x.json parts/0.part cut.part parts/[2-4].part
cp parts/2.part bad.part
printf 'X' | dd of=bad.part bs=1 seek=2000 conv=notrunc 2> /dev/null
refused 125 "its CRC32 does not match" --stitch "${SAMPLE[@]}" -o x.json parts/[01].part bad.part parts/[34].part
refused 125 "ran on another core configuration" --stitch "${SAMPLE[@]}" --set rob.entries=64 -o x.json parts/*.part
refused 125 "sampled otherwise than this command asks" --stitch -o x.json parts/*.part
refused 125 "the run has 5 chunks" --stitch --part 5 --part-out x.json ck/*.ckpt
refused 1 "belong to the stitch of the parts" --stitch --part 0 --part-out p.part -o x.json ck/*.ckpt
refused 1 "go together" --stitch --part 0 ck/*.ckpt
echo "ok   chunks simulated one process each (--part) and their parts stitched: the same result; missing,"
echo "     repeated, truncated, damaged parts, another core or sampling, a chunk out of range refused"

# The pass alone (--chunk-pass DIR, a Slurm pass job's): chunks 0-3 simulated
# as if the pass were still running (no chunks.json yet, chunk 4 not yet
# published: their parts know no count), chunk 4 once it is there; the
# parts stitched are the same result again.
sim --full --chunk-insts 2M --chunk-pass pd -- "$prog" > /dev/null
expect_eq "published checkpoints" 5 "$(ls pd/chunk-*.ckpt | wc -l)"
mv pd/chunks.json chunks.json.saved && mv pd/chunk-000004.ckpt last.ckpt
mkdir parts2
for k in 0 1 2 3; do sim --stitch "${SAMPLE[@]}" --part $k --part-out parts2/$k.part pd; done
refused 125 "chunk-000004.ckpt: not written yet" --stitch "${SAMPLE[@]}" --part 4 --part-out x.json pd
refused 125 "the last chunk's part is missing" --stitch "${SAMPLE[@]}" -o x.json parts2/*.part
mv chunks.json.saved pd/chunks.json && mv last.ckpt pd/chunk-000004.ckpt
sim --stitch "${SAMPLE[@]}" --part 4 --part-out parts2/4.part pd
refused 125 "the run has 5 chunks" --stitch --part 5 --part-out x.json pd
sim --stitch "${SAMPLE[@]}" --interval-log parts2.csv -o parts2.json parts2/*.part
cmp -s parts2.csv chunked.csv || fail "the --chunk-pass parts' interval log differs from sim --full --chunk-insts's"
same_result parts2.json chunked.json || fail "the --chunk-pass parts' result differs from sim --full --chunk-insts's"
echo "ok   the pass alone (--chunk-pass) and the chunks from its directory, the first four before it ended:"
echo "     the same result; a chunk not yet published, a missing last part, a chunk out of range refused"

# validate reads it unchanged and says the full run was chunked.
"$BIN/bbv" -o p --interval 1M --no-gzip -- "$prog" > /dev/null
"$BIN/simpoint" -loadFVFile p.1000000.bb -maxK 3 -fixedLength off -saveSimpoints p.sp -saveSimpointWeights p.w \
    -saveLabels p.labels > /dev/null
"$BIN/validate" --simpoints p.sp --weights p.w --labels p.labels -i 1M --full chunked.json -o v > v.txt
grep -q "the full run was chunked (5 chunks)" v.txt || fail "validate's summary: $(cat v.txt)"
grep -q "the full run was chunked: 5 chunks of 2,000,000 instructions" v/report.md || fail "report.md does not say the run was chunked"
echo "ok   validate states the chunking"

# Refused before anything runs; the guest's exit status still mirrored.
expect_status 1 "$BIN/sim" --stitch --sample tip --samples s.csv parts/*.part 2> err.txt
grep -q "not over a job array's parts" err.txt || fail "--samples over parts: $(cat err.txt)"
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
echo "ok   refused: --samples over parts, --chunks without a length, chunks that cut a log row, a long warm-up, a missing chunk;"
echo "     the guest's exit status and fault as in a serial run"

# A program that rewrites a file it reads and keeps open (file_feedback):
# each chunk's checkpoint carries the file as it was, and the chunk writes a
# private copy, never the host's, while the functional pass goes on; so the
# chunks stitch into the serial run's instructions and rows exactly, and the
# file ends as the pass (a serial run, qemu) leaves it. One that closes the
# file and opens it again to read it before it writes over it in place
# (file_reread) gives a chunk restored in between the pass's later file,
# which no checkpoint carries nor the pass's file history keeps: a chunk
# that does not end where the pass was (pc and registers) stops the run
# instead of stitching another program's result.
# serial_and_chunked NAME CHUNKS: $RV/progs/NAME's serial run in NAMEs/ and
# its run in 2M chunks without warm-up in NAME/ (NAME.json, NAME.csv, their
# output NAME.txt): the same instructions and rows, in CHUNKS chunks.
serial_and_chunked() {
    local n=$1
    mkdir "$n" "${n}s"
    (cd "${n}s" && sim --full --interval-log "../${n}s.csv" -o "../${n}s.json" -- "$RV/progs/$n" > "../${n}s.txt") ||
        fail "$n's serial run"
    (cd "$n" && OMP_NUM_THREADS=2 sim --full --chunk-insts 2M --chunk-warmup 0 --interval-log "../$n.csv" \
        -o "../$n.json" -- "$RV/progs/$n" > "../$n.txt" 2> "../$n.err") || fail "$n in chunks: $(tail -n 1 "$n.err")"
    python3 "$TOP/bench/chunked_compare.py" "${n}s.json" "${n}s.csv" "$n.json" "$n.csv" > /dev/null ||
        fail "$n in chunks: an exact quantity differs from the serial run's"
    python3 - "$n.json" "$2" <<'PY' || fail "$n was not run in $2 chunks"
import json, sys
assert json.load(open(sys.argv[1]))["results"][0]["chunked"]["chunks"] == int(sys.argv[2])
PY
}
serial_and_chunked file_feedback 13
mkdir ffq rr
(cd ffq && qemu-riscv64 "$RV/progs/file_feedback" > ../ffq.txt) || fail "file_feedback under qemu"
cmp -s file_feedback/feedback.dat file_feedbacks/feedback.dat && cmp -s file_feedback/feedback.dat ffq/feedback.dat ||
    fail "the file after the chunked run is not what the serial run and qemu leave"
cmp -s file_feedback.txt ffq.txt && [ ! -s file_feedback.err ] ||
    fail "file_feedback's output or warnings: $(cat file_feedback.txt file_feedback.err)"
(cd rr && ! OMP_NUM_THREADS=2 sim --full --chunk-insts 2M --chunk-warmup 0 -o ../rr.json \
    -- "$RV/progs/file_reread" > ../rr.txt 2>&1) || fail "a chunked run that diverged from the program was stitched"
grep -q "ended at pc 0x[0-9a-f]* with other registers than the functional pass had there" rr.txt &&
    [ ! -e rr.json ] || fail "the diverged chunk's message, or a result left: $(tail -n 1 rr.txt)"
# The last chunk has no next one to be checked against: it must end the
# program after the pass's instructions (file_last_read reads again, in its
# last chunk, a file it closed, which the pass has rewritten by then).
mkdir lr && (cd lr && ! OMP_NUM_THREADS=2 sim --full --chunk-insts 2M --chunk-warmup 0 -o ../lr.json \
    -- "$RV/progs/file_last_read" > ../lr.txt 2>&1) || fail "a chunked run whose last chunk diverged was stitched"
grep -q "the last chunk (6 of 6) ended the program after [0-9]* instructions, the functional pass after [0-9]*" lr.txt &&
    [ ! -e lr.json ] || fail "the diverged last chunk's message, or a result left: $(tail -n 1 lr.txt)"
# A program that saves each value into a new file renamed over the old one,
# and at its end unlinks the file and writes it again (file_replace, as tcc
# its output): a chunk restored before the pass replaced the file reads it
# from the pass's file history, so the chunks stitch into the serial run.
serial_and_chunked file_replace 7
cmp -s file_replace/replace.dat file_replaces/replace.dat && cmp -s file_replace.txt file_replaces.txt &&
    [ "$(ls file_replace)" = replace.dat ] ||
    fail "file_replace's file or output after the chunked run is not the serial run's: $(ls file_replace)"
[ -z "$(ls tmp)" ] || fail "left in TMPDIR: $(ls tmp)"
echo "ok   a program that rewrites a file it keeps open (file_feedback) in 13 chunks: the serial run's instructions"
echo "     and rows, the file as the serial run and qemu leave it; one that replaces it by renaming a new one over"
echo "     it (file_replace) in 7 chunks: the serial run's; one that reopens it to read what it wrote over in place"
echo "     (file_reread), or whose last chunk does (file_last_read), stops the run"

# pipeline.sh --full-chunks: the full run's stage in chunks, its Slurm job with a CPU per chunk.
BIN=$BIN "$TOP/scripts/pipeline.sh" -o pl -i 1M -k 3 --full-chunks 3 --engine slurm --dry-run -- "$prog" > pl.txt 2>&1 ||
    fail "pipeline.sh --full-chunks --dry-run: $(tail -n 3 pl.txt)"
grep -q 'full.pass  <- dry1$' pl.txt && grep -q 'full.chunks (array of 3 tasks)  <- dry6$' pl.txt &&
    grep -q '   dry8  full  <- dry7$' pl.txt || fail "the chunked full run's jobs: $(grep '   dry' pl.txt)"
awk '/job dry6: full.pass/,/job dry7/' pl.txt | grep -q -- '--cpus-per-task=2' ||
    fail "the functional pass does not ask for the warming thread's CPU"
awk '/job dry7: full.chunks/,/job dry8/' pl.txt | grep -q -- '--cpus-per-task=1' || fail "a chunk task asks for more than a CPU"
awk '/job dry7: full.chunks/,/job dry8/' pl.txt | grep -q -- '--dependency=after:dry6 ' ||
    fail "the chunk tasks do not start with the pass"
! BIN=$BIN "$TOP/scripts/pipeline.sh" -o pl1 -i 1M -k 3 --full-chunks 1001 --engine slurm --dry-run -- "$prog" > pl1.txt 2>&1 &&
    grep -q "full-chunks 1001: Slurm takes arrays of at most 1000 tasks" pl1.txt ||
    fail "more chunk tasks than MaxArraySize (1000 when unknown): $(tail -n 2 pl1.txt)"
OMP_NUM_THREADS=2 BIN=$BIN "$TOP/scripts/pipeline.sh" -o pl2 -i 1M -k 3 --full-chunks 3 --sample tip,nci -- "$prog" \
    > pl2.txt 2>&1 || fail "pipeline.sh --full-chunks --sample: $(tail -n 5 pl2.txt)"
python3 - pl2/full.json <<'PY' || fail "pipeline.sh --full-chunks --sample: the full run is not chunked and sampled"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["chunked"]["chunks"] == 3 and r["sampled"]["tip"]["samples"] > 0, (r["chunked"], r["sampled"]["tip"]["samples"])
PY
grep -q "the full run was chunked: 3 chunks" pl2/validate/report.md && grep -q "^## Profiles" pl2/validate/report.md ||
    fail "pipeline.sh --full-chunks --sample: validate's report"
echo "ok   pipeline.sh --full-chunks: on Slurm a pass (2 CPUs), an array of a task per chunk started with it (at"
echo "     most MaxArraySize) and a stitch; with"
echo "     --sample, the chunked full run's sampled profiles and validate's report"
