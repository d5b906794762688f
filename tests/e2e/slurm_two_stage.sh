#!/bin/bash
# pipeline.sh --target-ci (two-stage sampling, issue 37) with --engine slurm
# on a real single-node Slurm cluster started here (as slurm_sweep.sh): the
# second stage's simpoint, checkpoints and regions are jobs after the first
# stage's regions, the estimate and validate jobs after them; the points of
# both stages, the estimate and its interval, and the validation report are a
# local run's (pipeline_two_stage.sh's); validate takes the second stage's
# regions (known only once they ran); a second run submits nothing; a target
# the first stage meets adds no point and validate runs without them.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

. "$TOP/tests/tools/slurm_cluster.sh"
trap 'slurm_cluster_stop; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
slurm_cluster_start "$T/cluster" || fail "no Slurm cluster (above: why)"

cd "$T" || exit 1
cp "$RV/workloads/phases" .
t0=$SECONDS
pipeline() { # pipeline OUT-DIR LOG [OPTIONS...]
    local out=$1 log=$2
    shift 2
    BIN=$BIN timeout 300 "$TOP/scripts/pipeline.sh" -o "$out" -i 100k -k 20 "$@" -- ./phases 1 > "$log" 2>&1 ||
        { cat "$log"; fail "pipeline.sh $* failed"; }
    echo "$((SECONDS - t0)) s: pipeline.sh $*"
}
pipeline "$T/local" "$T/local.txt" --target-ci 0.5
pipeline "$T/slurm" "$T/slurm.txt" --target-ci 0.5 --engine slurm --wait
S=$T/slurm.txt
for stage in simpoint2 checkpoint2 regions2 estimate validate; do
    grep -qE "^[0-9:]+ +[0-9]+  $stage  <- [0-9 ]+$" "$S" || fail "no job for $stage after another: $(grep -E '^[0-9:]+ +[0-9]+  ' "$S")"
done
grep -q "all [0-9]* jobs completed" "$S" || fail "not all jobs completed: $(tail -n 20 "$S")"
grep -q "^[0-9:]* two stages: the first's [0-9]* points gave ± [0-9.]*%, the second added [1-9][0-9]* " "$S" ||
    fail "no second stage line after the jobs, or nothing added: $(grep -i 'stage' "$S")"
for f in phases.simpoints phases.2.simpoints phases.2.weights ckpt2.new.simpoints; do
    cmp -s "$T/local/$f" "$T/slurm/$f" || fail "$f differs between the engines"
done
python3 - "$T/local" "$T/slurm" << 'PY' || fail "the engines' second stages, estimates or validations differ (above)"
import json, sys
a, b = sys.argv[1:]
def load(d, f):
    return json.load(open(f"{d}/{f}"))
for f in ("regions.json", "regions2.json"):
    pa, pb = ({r["region"]["simpoint"]: r["cycles"] for r in load(d, f)["results"]} for d in (a, b))
    assert pa == pb and pa, (f, pa, pb)
ma, mb = (load(d, "phases.estimate.json")["measured"] for d in (a, b))
for k in "cpi", "ci95_relative", "df", "points":
    assert ma[k] == mb[k], (k, ma[k], mb[k])
# validate took both stages' regions (the second's known only once they ran), as the local run did
points = sum(1 for l in open(f"{b}/phases.2.simpoints") if l.strip())
ra, rb = (load(d, "validate/report.json") for d in (a, b))
assert len(ra["regions"]) == len(rb["regions"]) == points, (len(ra["regions"]), len(rb["regions"]), points)
assert ra["cpi"] == rb["cpi"], (ra["cpi"], rb["cpi"])
PY
echo "ok   on Slurm: the second stage's jobs after the first's regions; points, estimate and validation a local run's"

pipeline "$T/slurm" "$T/again.txt" --target-ci 0.5 --engine slurm --wait
! grep -q "submitted as job" "$T/again.txt" || fail "a second run submitted jobs: $(grep submitted "$T/again.txt")"
echo "ok   a second run submits nothing"

pipeline "$T/met" "$T/met.txt" --target-ci 100 --engine slurm --wait
grep -q "the second added 0 where" "$T/met.txt" || fail "a met target added points: $(grep 'two stages' "$T/met.txt")"
grep -q "^| phases |" "$T/met.txt" || fail "no validation summary without second-stage regions"
python3 - "$T/met" << 'PY' || fail "validate's regions without a second stage (above)"
import json, sys
d = sys.argv[1]
regions = json.load(open(f"{d}/validate/report.json"))["regions"]
first = sum(1 for l in open(f"{d}/phases.simpoints") if l.strip())
assert len(regions) == first, (len(regions), first)
PY
echo "ok   a target the first stage meets adds no point on Slurm, and validate runs without them"
