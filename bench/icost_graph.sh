#!/usr/bin/env bash
# icost_graph.sh: the dependence graph of sim --icost against re-simulation
# (issue 39) on every bundled workload (the first --max-insts instructions at
# SIZE 1, default 10M) and every known-answer program (tests/sim/*.S and
# tests/progs/icost_*, whole):
#   sim --full -q --max-insts N --icost dmiss,bmisp,win,bw -o W.json -- W 1
# with OMP_NUM_THREADS=1 (the graph's time and a re-simulation's on one
# core). Per program: the costs above 5% of the cycles compared, the mean and
# worst |graph - re-simulation| / re-simulation over them (the paper: 8.1%
# mean, 14.3% worst), the critical path against the simulated cycles, and
# the graph's host time against one re-simulation's.
#
# Usage: bench/icost_graph.sh [--max-insts N] [--sim BIN] [--dir DIR] [--before DIR [--before-label TEXT]]
#                             [--out FILE] [--no-run] [--programs LIST]
#   --dir DIR     keep the JSON results there (default: a temporary directory)
#   --no-run      only write the tables from the results already in --dir
#   --before DIR  the JSON results of an earlier build (--dir of its run) for
#                 the "before" columns; --before-label says which build it was
#   --out FILE    the Markdown (default bench/results/icost_graph.md)
#   --programs LIST  only these, comma-separated, named as in the table (sort,
#                 tests/progs/icost_serial); give --out too, so as not to
#                 overwrite the full table with a part
# A run with --sim of an earlier build and --dir gives the before results:
# bench/results/icost_graph.md was made so.
set -u -o pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SIM=$TOP/build/bin/sim
MAX=10M
DIR=
BEFORE=
BEFORE_LABEL="an earlier build"
OUT=$TOP/bench/results/icost_graph.md
RUN=1
ONLY=
while [ $# -gt 0 ]; do
    case $1 in
    --max-insts) MAX=$2; shift 2 ;;
    --sim) SIM=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    --before-label) BEFORE_LABEL=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --no-run) RUN=0; shift ;;
    --programs) ONLY=,$2,; shift 2 ;;
    *) echo "usage: $0 [--max-insts N] [--sim BIN] [--dir DIR] [--before DIR [--before-label TEXT]] [--out FILE] [--no-run] [--programs LIST]" >&2
       exit 2 ;;
    esac
done
[ ${#ONLY} != 2 ] || { echo "icost_graph: --programs needs names" >&2; exit 2; }
[ -x "$SIM" ] || { echo "icost_graph: $SIM is missing (make build)" >&2; exit 2; }
if [ -z "$DIR" ]; then
    DIR=$(mktemp -d)
    trap 'rm -rf "$DIR"' EXIT
fi
mkdir -p "$DIR"
export OMP_NUM_THREADS=1
CLASSES=dmiss,bmisp,win,bw
PROGRAMS=()
# Whether program $1 is among those asked for (all without --programs).
wanted() { [ -z "$ONLY" ] || [[ $ONLY == *",$1,"* ]]; }
for f in "$TOP"/workloads/*.c; do
    w=$(basename "$f" .c)
    wanted "$w" || continue
    PROGRAMS+=("$w")
    [ $RUN = 1 ] || continue
    "$SIM" --full -q --guest-output none --max-insts "$MAX" --icost "$CLASSES" -o "$DIR/$w.json" \
        -- "$TOP/build/rv/workloads/$w" 1 || exit 1
done
for f in "$TOP"/tests/sim/*.S; do
    p=$(basename "$f" .S)
    wanted "tests/sim/$p" || continue
    PROGRAMS+=("tests/sim/$p")
    [ $RUN = 1 ] || continue
    "$SIM" --full -q --guest-output none --icost "$CLASSES" -o "$DIR/tests_sim_$p.json" -- "$TOP/build/rv/sim/$p" || exit 1
done
for p in icost_serial icost_parallel; do   # tests/e2e/sim_icost.sh's known answers
    wanted "tests/progs/$p" || continue
    PROGRAMS+=("tests/progs/$p")
    [ $RUN = 1 ] || continue
    "$SIM" --full -q --guest-output none --icost "$CLASSES" -o "$DIR/tests_progs_$p.json" -- "$TOP/build/rv/progs/$p" || exit 1
done
IFS=, read -r -a asked <<< "${ONLY:1:${#ONLY}-2}"
for a in ${ONLY:+"${asked[@]}"}; do
    [[ " ${PROGRAMS[*]} " == *" $a "* ]] || { echo "icost_graph: no program '$a'" >&2; exit 2; }
done
python3 - "$DIR" "${BEFORE:-}" "$BEFORE_LABEL" "$MAX" "$CLASSES" "${PROGRAMS[@]}" > "$OUT" <<'PY'
import json, os, sys
d, before, before_label, maxi, classes, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]

def load(directory, name):
    path = os.path.join(directory, name.replace('/', '_') + '.json')
    return json.load(open(path))['icost'] if directory and os.path.exists(path) else None

def cells(ic, same=False):
    if ic is None: return ['', '', '', ''] + (['', ''] if same else [])
    g = ic['graph']
    n = g['costs_compared']
    out = [str(n), f"{100 * g['mean_cost_difference']:.1f}%" if n else '-',
           f"{100 * g['worst_cost_difference']:.1f}%" if n else '-']
    if same:
        sm = g.get('same_mispredicts')
        out += [f"{100 * sm['mean_cost_difference']:.1f}%" if n and sm else '-',
                f"{100 * sm['worst_cost_difference']:.1f}%" if n and sm else '-']
    return out + [f"{100 * g['critical_path_difference']:+.1f}%"]

def worst_term(ic):
    base, worst = ic['baseline_cpi'], None
    for t in ic['terms']:
        if t['cost_cpi'] < 0.05 * base: continue
        diff = abs(t['graph']['cost_cpi'] - t['cost_cpi']) / t['cost_cpi']
        if worst is None or diff > worst[0]: worst = (diff, t)
    if worst is None: return ''
    t = worst[1]
    same = t['graph'].get('resimulation_same_mispredicts_cost_cpi')
    held = f" ({100 * same / base:.1f}% held)" if same is not None and abs(same - t['cost_cpi']) > 1e-9 else ''
    return f"{t['name']} {t['cost_percent']:.1f}%{held} / {100 * t['graph']['cost_cpi'] / base:.1f}%"

print('# The dependence graph of icost against re-simulation (issue 39)\n')
print(f'Produced by `bench/icost_graph.sh` (`--icost {classes}`; the bundled workloads\' first {maxi} '
      'instructions at SIZE 1, the known-answer programs of tests/sim and tests/progs/icost_* whole; one thread). Costs compared: '
      'those above 5% of the cycles; difference: |graph - re-simulation| / re-simulation (the paper: 8.1% '
      'mean, 14.3% worst); held: the same against re-simulation\'s costs with its branch mispredictions held at '
      'the baseline\'s (priced at what one costs in the set\'s world: the predictor follows the fetch packets, '
      'which bw changes, while the graph keeps the baseline\'s events; sim/RESULTS.md); critical path: the '
      f'graph\'s baseline against the simulated cycles. Before: {before_label}, where given.\n')
print('| program | compared | mean | worst | held: mean | held: worst | critical path | before: compared | mean | '
      'worst | critical path | worst term now (re-sim (held) / graph) |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
for w in names:
    ic, old = load(d, w), load(before, w)
    print(f"| {w} | " + ' | '.join(cells(ic, True) + cells(old)) + f" | {worst_term(ic)} |")
print()
print('## Time: the graph against one re-simulation\n')
def ratio(g): return g['seconds'] / g['resimulation_seconds'] if g['resimulation_seconds'] > 0 else 0
print('| program | graph sets | graph (s) | one re-simulation (s) | ratio | before: ratio |')
print('|---|---:|---:|---:|---:|---:|')
tg = tr = bg = br = 0
for w in names:
    g, old = load(d, w)['graph'], load(before, w)
    sets = len(load(d, w)['terms']) + 1
    tg += g['seconds']; tr += g['resimulation_seconds']
    if old: bg += old['graph']['seconds']; br += old['graph']['resimulation_seconds']
    was = f"{ratio(old['graph']):.2f}" if old else ''
    print(f"| {w} | {sets} | {g['seconds']:.2f} | {g['resimulation_seconds']:.2f} | {ratio(g):.2f} | {was} |")
print(f"| all | | {tg:.2f} | {tr:.2f} | {tg / tr if tr else 0:.2f} | {f'{bg / br:.2f}' if br else ''} |")
PY
cat "$OUT"
