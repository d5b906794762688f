#!/usr/bin/env bash
# icost_events.sh: why the dependence graph of sim --icost differs from
# re-simulation on one program (issue 39): its hottest missing load, event
# by event, in the graph's sets and in the re-simulations.
#
#   sim --full --icost dmiss,bmisp,win,bw          (RVSAMPLE_DEPGRAPH_TRACE: the graph's loads, every set)
#   sim --full --icost ... --set core.wrong_path=0 (the same study without wrong-path execution)
#   sim --full --sample profileme --profileme-interval 1 --profileme-samples CSV [--set ...]
#       once per set (the baseline, perfect-l1d, perfect-bp, infinite-rob,
#       infinite-bandwidth, as sim/whatif/resources.c sets them): every
#       instance of the load, retired or squashed on a wrong path
#
# The load is the retired one with the most L1D misses in the baseline; a
# dynamic load is the k-th retired instance of it in every run. Per set:
# the core's counts (cycles, mispredictions, wrong-path instructions
# fetched and issued, L1D and D-TLB misses), the load's wrong-path
# instances that dispatched (their address known), its retired instances'
# mean latency in re-simulation and in the graph, how many missed
# (above 30 cycles) in one but not the other, and how many found their
# line or page asked for in the graph by the wrong path past the core's
# dispatch (the probe's records: what a larger window dispatches).
#
# The branches: each set's retired mispredictions against the baseline's
# (the graph keeps the baseline's), by pc, the largest changes.
#
# Usage: bench/icost_events.sh [--max-insts N] [--sim BIN] [--out FILE] [PROGRAM [ARGS...]]
#   default PROGRAM: build/rv/progs/icost_serial (whole); --out default
#   bench/results/icost_events.md
set -u -o pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SIM=$TOP/build/bin/sim
OUT=$TOP/bench/results/icost_events.md
MAXI=()
while [ $# -gt 0 ]; do
    case $1 in
    --max-insts) MAXI=(--max-insts "$2"); shift 2 ;;
    --sim) SIM=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -*) echo "usage: $0 [--max-insts N] [--sim BIN] [--out FILE] [PROGRAM [ARGS...]]" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || set -- "$TOP/build/rv/progs/icost_serial"
[ -x "$SIM" ] || { echo "icost_events: $SIM is missing (make build)" >&2; exit 2; }
[ -x "$1" ] || { echo "icost_events: $1 is missing (make build)" >&2; exit 2; }
T=$(mktemp -d)
# ICOST_EVENTS_KEEP=1 keeps the runs' files (the graph's trace, the samples) for a closer look.
if [ "${ICOST_EVENTS_KEEP:-0}" = 1 ]; then echo "icost_events: files in $T" >&2; else trap 'rm -rf "$T"' EXIT; fi
export OMP_NUM_THREADS=1
CLASSES=dmiss,bmisp,win,bw
# sim/whatif/resources.c's limit studies, as --set options (lib/uarch/config.h's maxima)
WIN="--set rob.entries=1024 --set regs.int_phys=1024 --set regs.fp_phys=1024 --set iq.int_entries=256
     --set iq.mem_entries=256 --set iq.fp_entries=256 --set lsq.load_entries=256 --set lsq.store_entries=256"
BW="--set frontend.fetch_width=16 --set core.decode_width=16 --set iq.int_issue=16 --set iq.mem_issue=16
    --set iq.fp_issue=16 --set core.commit_width=8"
SETS=(0 2 16 4 8)
declare -A OPTS=([0]="" [2]="--set ideal.l1d=1" [16]="--set ideal.branch_prediction=1" [4]="$WIN" [8]="$BW")

RVSAMPLE_DEPGRAPH_TRACE=$T/graph.csv "$SIM" --full -q --guest-output none "${MAXI[@]}" --icost $CLASSES \
    -o "$T/icost.json" -- "$@" || exit 1
"$SIM" --full -q --guest-output none "${MAXI[@]}" --icost $CLASSES --set core.wrong_path=0 -o "$T/icost_nowp.json" \
    -- "$@" || exit 1
# Every instance of a memory access (effective address not 0): pc, retired, events, load latency, address.
run_set() { # set, pc ('' for every pc), program and its arguments
    local s=$1 pc=$2
    shift 2
    mkfifo "$T/fifo.$s"
    awk -F, -v pc="$pc" -v br="$T/br.$s.csv" '
        NR > 1 && $13 != "0x0" && (pc == "" || $4 == pc) {print $4 "," $5 "," $6 "," $12 "," $13}
        NR > 1 && $5 == 1 && $6 ~ /mispredicted/ {n[$4]++}
        END {for (p in n) print p "," n[p] > br}' "$T/fifo.$s" > "$T/pm.$s.csv" &
    # shellcheck disable=SC2086
    "$SIM" --full -q --guest-output none "${MAXI[@]}" --sample profileme --profileme-interval 1 \
        --profileme-samples "$T/fifo.$s" ${OPTS[$s]} -o "$T/run.$s.json" -- "$@"
    local rc=$?
    wait
    return $rc
}
run_set 0 "" "$@" || exit 1
PC=$(awk -F, '$2 == 1 && $3 ~ /dcache_miss/ {n[$1]++} END {for (p in n) if (n[p] > best) {best = n[p]; pc = p}; print pc}' "$T/pm.0.csv")
[ -n "$PC" ] || { echo "icost_events: no load of $1 misses the L1D" >&2; exit 1; }
for s in 2 16 4 8; do run_set "$s" "$PC" "$@" || exit 1; done

python3 - "$T" "$PC" "$TOP" "$*" "${MAXI[*]}" "${SETS[@]}" > "$OUT" <<'PY'
import csv, json, os, sys
d, pc, top, prog, maxi = sys.argv[1:6]
sets = [int(s) for s in sys.argv[6:]]
names = {0: 'baseline', 2: 'dmiss', 16: 'bmisp', 4: 'win', 8: 'bw'}
MISS = 30

graph = {s: [] for s in sets}
for row in csv.DictReader(open(os.path.join(d, 'graph.csv'))):
    s = int(row['set'])
    if row['pc'] == pc and s in graph: graph[s].append(row)

def resim(s):
    retired, wrong = [], 0
    for line in open(os.path.join(d, f'pm.{s}.csv')):
        p, ret, ev, lat, addr = line.rstrip('\n').split(',')
        if p != pc: continue
        if ret == '1': retired.append((int(lat), 'dtlb_miss' in ev))
        elif 'aborted_mispredict' in ev: wrong += 1
    return retired, wrong

def study(name):
    ic = json.load(open(os.path.join(d, name)))['icost']
    base = ic['baseline_cpi']
    def held(t):
        h = t['graph'].get('resimulation_same_mispredicts_cost_cpi')
        return 100 * h / base if h is not None else None
    return ic, {t['name']: (100 * t['cost_cpi'] / base, 100 * t['graph']['cost_cpi'] / base, held(t)) for t in ic['terms']}

print('# Why the dependence graph differs from re-simulation, event by event (issue 39)\n')
print(f'Produced by `bench/icost_events.sh` on `{os.path.relpath(prog.split()[0], top)}`'
      f'{" " + " ".join(prog.split()[1:]) if len(prog.split()) > 1 else ""}'
      f'{" (" + maxi.replace("--max-insts ", "the first ") + " instructions)" if maxi else ""}: its load at {pc} (the retired load with the '
      'most L1D misses), its k-th retired instance in every run. Graph: the baseline run\'s dependence graph '
      '(`RVSAMPLE_DEPGRAPH_TRACE`), each set; re-simulation: a run with the set\'s limit study, every instance '
      f'sampled (ProfileMe at interval 1). Missed: a latency above {MISS} cycles.\n')
print('## The core in each set\n')
print('| set | cycles | mispredictions | wrong path: fetched | issued | L1D misses | D-TLB misses | '
      'the load on the wrong path (dispatched) |')
print('|---|---:|---:|---:|---:|---:|---:|---:|')
runs = {s: resim(s) for s in sets}
for s in sets:
    r = json.load(open(os.path.join(d, f'run.{s}.json')))['results'][0]
    e = r['events']
    print(f"| {names[s]} | {r['cycles']} | {e['branch_mispredicts']} | {e['wrong_path_fetched']} | "
          f"{e['wrong_path_issued']} | {e['l1d_misses']} | {e['dtlb_misses']} | {runs[s][1]} |")
print('\n## The load in the graph and in re-simulation\n')
print('| set | instances | re-simulation: mean latency | missed | D-TLB misses | graph: mean latency | missed | '
      'missed in one only | graph: walks the baseline\'s wrong path had made | graph: lines / pages the wrong path '
      'past the core\'s dispatch asked for |')
print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for s in sets:
    rs, gs = runs[s][0], graph[s]
    if len(rs) != len(gs):
        print(f'| {names[s]} | {len(rs)} re-simulated, {len(gs)} in the graph: not the same loads | | | | | | | | |')
        continue
    glat = [int(g['latency']) for g in gs]
    walks = sum(int(g['wp_tlb']) > 0 for g in gs)
    lines, pages = (sum(int(g['ahead']) & bit > 0 for g in gs) for bit in (1, 2))
    differ = sum((a > MISS) != (b > MISS) for (a, _), b in zip(rs, glat))
    print(f"| {names[s]} | {len(rs)} | {sum(a for a, _ in rs) / len(rs):.1f} | {sum(a > MISS for a, _ in rs)} | "
          f"{sum(t for _, t in rs)} | {sum(glat) / len(glat):.1f} | {sum(g > MISS for g in glat)} | {differ} | {walks} | "
          f"{lines} / {pages} |")
print('\n## The study with and without wrong-path execution (% of the cycles: re-simulation / graph)\n')
with_wp, without = study('icost.json'), study('icost_nowp.json')
print('Held: re-simulation\'s cost with its mispredictions held at the baseline\'s (sim/RESULTS.md).\n')
print('| term | with the wrong path | held | without (`--set core.wrong_path=0`) |')
print('|---|---:|---:|---:|')
for name, (r, g, h) in with_wp[1].items():
    r2, g2, _ = without[1].get(name, (0, 0, None))
    print(f'| {name} | {r:.2f} / {g:.2f} | {"" if h is None else f"{h:.2f}"} | {r2:.2f} / {g2:.2f} |')
for label, (ic, _) in (('with the wrong path', with_wp), ('without', without)):
    g = ic['graph']
    print(f"\n{label}: baseline CPI {ic['baseline_cpi']:.3f}; the graph's mean / worst difference "
          f"{100 * g['mean_cost_difference']:.1f}% / {100 * g['worst_cost_difference']:.1f}% over {g['costs_compared']} costs; "
          f"critical path {100 * g['critical_path_difference']:+.2f}%.", end='')
print()
print('\n## Mispredictions: each set against the baseline (the graph keeps the baseline\'s)\n')
def branches(s):
    path = os.path.join(d, f'br.{s}.csv') # absent: no misprediction
    return {p: int(n) for p, n in (l.strip().split(',') for l in open(path))} if os.path.exists(path) else {}
base = branches(0)
print('| set | retired mispredictions | against the baseline | the pcs that changed most (baseline -> set) |')
print('|---|---:|---:|---|')
for s in sets:
    b = branches(s)
    moved = sorted(set(base) | set(b), key=lambda p: -abs(b.get(p, 0) - base.get(p, 0)))[:4]
    top = ', '.join(f'{p} {base.get(p, 0)} -> {b.get(p, 0)}' for p in moved if b.get(p, 0) != base.get(p, 0))
    print(f'| {names[s]} | {sum(b.values())} | {sum(b.values()) - sum(base.values()):+d} | {top} |')
PY
cat "$OUT"
