#!/bin/bash
# scripts/sweep.sh --engine slurm on a real single-node Slurm cluster started
# here (Debian's slurm-wlm and munge, as root, configured in a temporary
# directory on free ports, stopped at the end whatever happens): a small sweep
# of two workloads gives the same reports as the local engine on the same
# inputs; --dry-run prints the job scripts and the graph and submits nothing;
# a missing program's failed jobs are reported
# with their logs and cancel their dependents instead of leaving them pending,
# while the other programs' stages are reused and not submitted again; without
# --wait the command returns at once, and a rerun says how the last jobs
# ended. pipeline.sh too: its validation report is a local run's, and a second
# run submits nothing; hostile names (spaces, quotes, $(...), '%', a leading
# '-') work and run nothing.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# ----------------------------------------------------------- the cluster
. "$TOP/tests/tools/slurm_cluster.sh"
trap 'slurm_cluster_stop; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
slurm_cluster_start "$T/cluster" || fail "no Slurm cluster (above: why)"

# ------------------------------------------------------------- the sweeps
S=$TOP/scripts/sweep.sh
cd "$T" || exit 1
cp "$RV/workloads/phases" "$RV/workloads/sort" .
ARGS=(-i "100k,200k" -k 1..3 -r 200k:3 -S 1 -M simpoint) # the engines compared, on SimPoint's method
sweep() { # sweep OUT-DIR LOG [OPTIONS...] -- PROGRAMS: status in $st
    local out=$1 log=$2
    shift 2
    st=0
    BIN=$BIN timeout 300 "$S" -o "$out" "${ARGS[@]}" "$@" > "$log" 2>&1 || st=$?
    [ "$st" -ne 124 ] || { cat "$log"; fail "sweep.sh $* did not finish in 300 s"; }
    echo "$((SECONDS - t0)) s: sweep.sh $* (status $st)"
    [ -z "${SHOW_LOGS:-}" ] || cat "$log"
}
t0=$SECONDS
sweep "$T/local" "$T/local.txt" -P 2 -- ./phases 1 -- ./sort 1
[ "$st" -eq 0 ] || { cat "$T/local.txt"; fail "the local sweep failed"; }

sweep "$T/dry" "$T/dry.txt" --engine slurm --dry-run -- ./phases 1 -- ./sort 1
[ "$st" -eq 0 ] || { cat "$T/dry.txt"; fail "--dry-run failed"; }
expect_eq "dry-run job scripts" 15 "$(grep -c '^#!/bin/bash' "$T/dry.txt")"
grep -q -- '--dependency=afterok:dry1 --kill-on-invalid-dep=yes' "$T/dry.txt" || fail "no dependency in the dry run"
grep -q -- '--array=0-2 ' "$T/dry.txt" || fail "no regions array in the dry run"
grep -q 'dry15  report  <- ' "$T/dry.txt" || fail "no report after the others in the graph: $(cat "$T/dry.txt")"
if [ -n "$(timeout 10 squeue -h)" ] || [ -n "$(find "$T/dry" -name '*.jobid')" ]; then fail "--dry-run submitted jobs"; fi

sweep "$T/slurm" "$T/slurm.txt" --engine slurm --wait -- ./phases 1 -- ./sort 1
[ "$st" -eq 0 ] || { cat "$T/slurm.txt"; fail "the Slurm sweep failed"; }
grep -q "all 15 jobs completed" "$T/slurm.txt" || fail "not 15 jobs: $(cat "$T/slurm.txt")"
# same_but_times DIR FILE: FILE of the run in DIR with the run's directory as
# OUT and the measured times (the methods' seconds, a column or a key) left out.
same_but_times() {
    python3 - "$1" "$2" << 'PY'
import csv, io, json, sys
d, f = sys.argv[1:]
text = open(f"{d}/{f}").read().replace(d, "OUT")
if f.endswith((".csv", ".tsv")):
    sep = "\t" if f.endswith(".tsv") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=sep))
    keep = [i for i, h in enumerate(rows[0]) if h != "seconds"]
    text = "\n".join(sep.join(r[i] for i in keep if i < len(r)) for r in rows)
elif f.endswith(".json"):
    def strip(o):
        if isinstance(o, dict): return {k: strip(v) for k, v in o.items() if k != "seconds"}
        if isinstance(o, list): return [strip(v) for v in o]
        return o
    text = json.dumps(strip(json.loads(text)), indent=1, sort_keys=True)
print(text)
PY
}
for f in manifest.tsv report/sweep.md report/sweep.json report/sweep.rows.csv report/sweep.configs.csv; do
    cmp <(same_but_times "$T/local" "$f") <(same_but_times "$T/slurm" "$f") > /dev/null ||
        fail "$f differs between the engines: $(diff <(same_but_times "$T/local" "$f") <(same_but_times "$T/slurm" "$f") | head)"
done
python3 - "$T/local" "$T/slurm" << 'PY' || fail "region results differ between the engines"
import glob, json, os, sys
a, b = sys.argv[1:]
files = sorted(os.path.relpath(f, a) for f in glob.glob(f"{a}/programs/*/regions.*.json"))
assert files and files == sorted(os.path.relpath(f, b) for f in glob.glob(f"{b}/programs/*/regions.*.json")), files
for f in files:
    ra, rb = (json.load(open(os.path.join(d, f)))["results"] for d in (a, b))
    for x, y in zip(ra, rb):
        bad = sorted(k for k in set(x) | set(y) if k not in ("seconds", "mips", "checkpoint") and x.get(k) != y.get(k))
        assert not bad and len(ra) == len(rb), (f, bad, [(x.get(k), y.get(k)) for k in bad][:3])
print(f"{len(files)} region files: the same results")
PY
echo "slurm: the reports are the same as the local engine's"

# A missing program: its bbv and full run fail and are reported with their
# logs; simpoint, checkpoint, the regions and the report are cancelled, not
# left pending; the command ends with status 1.
sweep "$T/slurm" "$T/fail.txt" --engine slurm --wait -- ./phases 1 -- ./sort 1 -- ./missing
[ "$st" -eq 1 ] || { cat "$T/fail.txt"; fail "a missing program: status $st, expected 1"; }
grep -q "missing: bbv (job [0-9]*): FAILED: see $T/slurm/programs/missing/logs/bbv.log" "$T/fail.txt" ||
    fail "the failed bbv is not reported with its log: $(cat "$T/fail.txt")"
grep -q "missing: full (job [0-9]*): FAILED: see $T/slurm/programs/missing/logs/full.log" "$T/fail.txt" ||
    fail "the failed full run is not reported with its log"
grep -q "report (job [0-9]*): did not finish: cancelled after a job it depends on failed" "$T/fail.txt" ||
    fail "the report's cancellation is not reported: $(cat "$T/fail.txt")"
[ -z "$(timeout 10 squeue -h)" ] || fail "jobs left in the queue: $(squeue)"
expect_eq "phases and sort up to date beside the missing program" 12 "$(grep -c ': up to date' "$T/fail.txt")"
expect_eq "jobs submitted: the missing program's and the report" 8 "$(grep -c ': submitted as job' "$T/fail.txt")"
# Without --wait: submitted, and the command returns; a rerun says how the last jobs ended.
sweep "$T/slurm" "$T/nowait.txt" --engine slurm -- ./phases 1 -- ./sort 1 -- ./missing
if [ "$st" -ne 0 ] || ! grep -q "== submitted; " "$T/nowait.txt"; then cat "$T/nowait.txt"; fail "no submission without --wait"; fi
grep -q "missing: bbv: its last job, [0-9]*, FAILED: see $T/slurm/programs/missing/logs/bbv.log" "$T/nowait.txt" ||
    fail "the last failure is not reported on the rerun: $(cat "$T/nowait.txt")"
grep -q "missing: simpoint-100000: its last job, [0-9]*, did not finish (cancelled" "$T/nowait.txt" ||
    fail "the last cancellation is not reported on the rerun"
for _ in $(seq 60); do [ -n "$(timeout 10 squeue -h)" ] || break; sleep 1; done
[ -z "$(timeout 10 squeue -h)" ] || fail "jobs still queued 60 s after a failure: $(squeue)"

# pipeline.sh through Slurm, its regions in two tasks: the validation report of
# a local run but for the wall times, and the same output files.
pipeline() { # pipeline OUT-DIR LOG [OPTIONS...]
    local out=$1 log=$2
    shift 2
    BIN=$BIN timeout 300 "$TOP/scripts/pipeline.sh" -o "$out" -i 200k -k 4 "$@" -- ./sort 1 > "$log" 2>&1 ||
        { cat "$log"; fail "pipeline.sh $* failed"; }
    echo "$((SECONDS - t0)) s: pipeline.sh $*"
}
pipeline "$T/pl.local" "$T/pl.local.txt"
pipeline "$T/pl.slurm" "$T/pl.slurm.txt" --engine slurm --wait --regions-per-task 2
grep -q "regions.tasks (array of 3 tasks)" "$T/pl.slurm.txt" || fail "no array of 3 tasks (the budget of 1.5 x MaxK 4 points, 2 a task): $(cat "$T/pl.slurm.txt")"
no_wall() { sed "s#$1#OUT#g" "$1/validate/report.md" | grep -v '^| sort |\|^- wall time'; }
cmp <(no_wall "$T/pl.local") <(no_wall "$T/pl.slurm") > /dev/null ||
    fail "the pipeline's reports differ: $(diff <(no_wall "$T/pl.local") <(no_wall "$T/pl.slurm") | head)"
expect_eq "output files" "$(cd "$T/pl.local" && find . | sort)" "$(cd "$T/pl.slurm" && find . -path ./.slurm -prune -o -print | sort)"
# Up to date: nothing submitted, and the summary printed as by a local run.
pipeline "$T/pl.slurm" "$T/pl.again.txt" --engine slurm --wait --regions-per-task 2
[ "$(grep -c ': up to date' "$T/pl.again.txt")" == 7 ] || cat "$T/pl.again.txt" >&2
expect_eq "stages up to date on the second run" 7 "$(grep -c ': up to date' "$T/pl.again.txt")"
! grep -q submitted "$T/pl.again.txt" || fail "the second run submitted jobs: $(cat "$T/pl.again.txt")"
grep -q '^## Summary' "$T/pl.again.txt" || fail "no summary on the second run: $(cat "$T/pl.again.txt")"
# A job the partition can never run is refused, and said so.
st=0
BIN=$BIN timeout 60 "$TOP/scripts/pipeline.sh" -o "$T/big" --engine slurm --slurm-opts "--cpus-per-task=999" \
    -- ./sort 1 > "$T/big.txt" 2>&1 || st=$?
expect_eq "status of an impossible job" 1 "$st"
grep -q "bbv: sbatch refused the job" "$T/big.txt" || fail "an impossible job: $(cat "$T/big.txt")"

# Hostile names on the cluster (script_names.sh runs the dry runs' job scripts
# by hand): an output directory and a program named with spaces, quotes,
# $(...), backquotes, ';' and '%' (Slurm's output patterns), and a leading '-'.
# The jobs run, their logs land in DIR/.slurm, and no name runs as a command.
odd_dir="-out %a %j 'q' \"d\" \$(touch PWNED) \`touch PWNED\` ;touch PWNED;#"
odd_prog="-prog %x \$(touch PWNED) 'q' ;touch PWNED;# x" # no backquote: see script_names.sh
cp sort "./$odd_prog"
st=0
BIN=$BIN timeout 300 "$TOP/scripts/pipeline.sh" -o "$odd_dir" -i 200k -k 4 --engine slurm --wait --regions-per-task 2 \
    -- "$odd_prog" 1 > "$T/odd.txt" 2>&1 || st=$?
[ "$st" -eq 0 ] || { cat "$T/odd.txt"; fail "pipeline.sh --engine slurm on hostile names: status $st"; }
[ -s "$odd_dir/validate/report.md" ] || fail "hostile names: no report"
ls -- "$odd_dir/.slurm/bbv.out" "$odd_dir/.slurm/regions.tasks.0.out" "$odd_dir/.slurm/regions.tasks.1.out" > /dev/null ||
    fail "hostile names: the jobs' logs are not in DIR/.slurm: $(find . -name '*.out')"
found=$(find "$T" -name 'PWNED*')
[ -z "$found" ] || fail "hostile names: a name ran as a command: $found"
echo "slurm_sweep: ok"
