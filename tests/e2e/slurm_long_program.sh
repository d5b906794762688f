#!/bin/bash
# bench/long_program.sh small (issue 38): bzip2 on 600 lines of generated text
# (15.6M instructions) through the whole pipeline on a real single-node Slurm
# cluster started here (as slurm_sweep.sh), the full run as a job array
# (--full-chunks 3): a functional pass job asking for the warming thread's
# CPU, three chunk tasks of a CPU each and a stitch job; the stitched full run
# is a local pipeline.sh --full-chunks 3's, and validate's CPI the same; the
# chunk checkpoints and parts are removed once stitched; a second run submits
# nothing; the report has every stage and the projection, and the chunked
# run's CPI is within 0.5% of the serial run's.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

. "$TOP/tests/tools/slurm_cluster.sh"
trap 'slurm_cluster_stop; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
slurm_cluster_start "$T/cluster" || fail "no Slurm cluster (above: why)"

L=$T/lp W=$T/lp/work
timeout 600 "$TOP/bench/long_program.sh" -o "$L" --lines 600 -i 1M -k 5 --chunks 3 --prefix 0 --use-cluster \
    --result "$L/report.md" > "$T/bench.txt" 2>&1 || { cat "$T/bench.txt"; fail "bench/long_program.sh failed"; }
P=$W/pipeline.txt
grep -q '  full.pass  <- 1$' "$P" && grep -q '  full.chunks (array of 3 tasks)  <- 6$' "$P" &&
    grep -q '  full  <- 7$' "$P" || fail "the chunked full run's jobs: $(grep -E '^[0-9:]+ +[0-9]+  ' "$P")"
grep -q "all 10 jobs completed" "$P" || fail "not all jobs completed: $(tail -n 20 "$P")"
grep -q -- '--cpus-per-task=2' "$W/run/.slurm/full.pass.sh" || fail "the pass does not ask for the warming thread's CPU"
grep -q -- '--cpus-per-task=1' "$W/run/.slurm/full.chunks.sh" || fail "a chunk task asks for more than one CPU"
for i in 0 1 2; do expect_eq "chunk task $i" ok "$(cat "$W/run/.slurm/full.chunks.$i.status")"; done
[ ! -e "$W/run/full.chunks" ] && [ ! -e "$W/run/full.parts" ] || fail "the chunks' checkpoints or parts were left"
echo "ok   on Slurm: a pass (2 CPUs), an array of 3 chunk tasks (1 CPU each) and a stitch; nothing left behind"

# The same pipeline here, the chunks in one sim: the same full run and validation.
(cd "$W" && BIN=$L/bin "$L/tree/scripts/pipeline.sh" -o "$T/local" -n bzip2 -i 1M -k 5 --full-chunks 3 \
    -- "$TOP/build/corpus/bin/bzip2" -c -9 big.txt > "$T/local.txt" 2>&1) || { tail "$T/local.txt"; fail "the local pipeline"; }
cmp -s "$T/local/full.csv" "$W/run/full.csv" || fail "the interval logs differ between the engines"
python3 - "$T/local" "$W/run" << 'PY' || fail "the engines' full runs or validations differ (above)"
import csv, json, sys
a, b = (json.load(open(f"{d}/full.json"))["results"][0] for d in sys.argv[1:])
assert a["chunked"]["chunks"] == b["chunked"]["chunks"] == 3, (a["chunked"], b["chunked"])
for r in a, b:
    for k in "seconds", "mips", "chunked", "interval_log":
        r.pop(k)
assert a == b, [k for k in a if a[k] != b.get(k)]
va, vb = (list(csv.DictReader(open(f"{d}/validate/summary.csv")))[0] for d in sys.argv[1:])
for k in "actual", "predicted", "error_pct", "cpi_full", "cpi_estimate":
    assert va[k] == vb[k], (k, va[k], vb[k])
PY
echo "ok   the Slurm run's stitched full run and validation are a local --full-chunks run's"

(cd "$W" && BIN=$L/bin "$L/tree/scripts/pipeline.sh" -o "$W/run" -n bzip2 -i 1M -k 5 --full-chunks 3 --engine slurm --wait \
    -- "$TOP/build/corpus/bin/bzip2" -c -9 big.txt > "$T/again.txt" 2>&1) || { tail "$T/again.txt"; fail "the second run"; }
! grep -q "submitted as job" "$T/again.txt" || fail "a second run submitted jobs: $(grep submitted "$T/again.txt")"
echo "ok   a second run submits nothing"

R=$L/report.md
for s in "bbv (--proxy" "simpoint" "checkpoint (warm" "regions: the longest of" "functional pass" "chunk tasks, median rate" \
    "stitch" "validate" "serial full run (measured)" "## Projection: a 10^12-instruction program on 100 nodes"; do
    grep -qF "$s" "$R" || fail "the report has no '$s': $(cat "$R")"
done
d=$(sed -n "s/.*the chunked run's CPI is [0-9.]* against the serial run's [0-9.]* (\([-+][0-9.]*\)%).*/\1/p" "$R")
[ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d <= 0.5 && d >= -0.5) }' || fail "chunked against serial CPI: '$d'"
echo "ok   the report: every stage, the serial run, the projection; chunked CPI ${d}% from the serial run's"
