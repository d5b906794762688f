#!/usr/bin/env bash
# tip_errors.sh: the profile error of every profiler on every bundled
# workload, beside the TIP and TEA papers' averages (Paper A §5.1, Paper B
# §5.1; notes/tip.md §4, notes/tea.md §3).
#
# One run per workload (SIZE 1, 6-25 M instructions, 8-41 M cycles):
#   sim --full -q --sample all --sample-sweep-hz 4000,400000,4000000 --sampled-csv W.csv -- W
# gives, on the same cycles, 4 kHz and 400 kHz, periodic and random (seed 1).
# At 4 kHz these short runs get only 10-50 samples, so statistical error
# dominates; the papers' runs are minutes long (10^5-10^6 samples). 400 kHz
# and 4 MHz give thousands and tens of thousands of samples per run, closer
# to the papers' regime.
# Each workload is classified as the TIP paper does from its commit states:
# compute-intensive (> 50% computing), else flush-intensive (> 3% flushed),
# else stall-intensive. Writes bench/results/tip_errors.md.
#
# Usage: bench/tip_errors.sh [-j JOBS]
set -u -o pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=2
[ "${1:-}" != -j ] || JOBS=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ls "$TOP"/build/rv/workloads/* | xargs -P "$JOBS" -I{} sh -c \
    '"$0/build/bin/sim" --full -q --guest-output none --sample all --sample-sweep-hz 4000,400000,4000000 --sampled-csv "$1/$(basename {}).csv" -o "$1/$(basename {}).json" -- {} > /dev/null' "$TOP" "$T"
python3 - "$T" > "$TOP/bench/results/tip_errors.md" <<'PY'
import csv, glob, json, os, sys
d = sys.argv[1]
paper_tip = {'tip': (1.6, 0.7, 0.3), 'tip-ilp': (7.2, 1.2, 0.4), 'nci': (9.3, 2.3, 0.6), 'nci-ilp': (19.3, None, None),
             'lci': (55.4, 11.9, 1.6), 'dispatch': (53.1, 22.4, 5.8), 'software': (61.8, 29.9, 9.1), 'fetch': (None, None, None)}
paper_tea = {'tea': 2.1, 'nci-tea': 11.3, 'ibs': 55.6, 'spe': 55.5, 'ris': 56.0, 'tea-dispatch': None}
rows, info = {}, []
for path in sorted(glob.glob(os.path.join(d, '*.csv'))):
    w = os.path.basename(path)[:-4]
    r = json.load(open(path[:-4] + '.json'))['results'][0]
    st = r['states']; c = r['cycles']
    cls = 'compute' if st['computing'] > 0.5 * c else 'flush' if st['flushed'] > 0.03 * c else 'stall'
    info.append((w, r['instructions'], c, cls))
    for row in csv.DictReader(open(path)):
        key = (float(row['hz']), row['random'] == '1', row['profiler'])
        if key in rows and rows[key][-1][0] == w: continue      # the main sampler repeats 4 kHz periodic
        rows.setdefault(key, []).append((w, int(row['samples']), float(row['error_instruction']),
                                         float(row['error_block']), float(row['error_function'])))
print('# Profile error of every profiler on the bundled workloads\n')
print('Produced by `bench/tip_errors.sh` (one `sim --full --sample all --sample-sweep-hz 4000,400000,4000000` per workload; '
      'every profiler on the same cycles). Errors: the TIP paper\'s metric against the golden attribution; '
      'for tea, nci-tea, tea-dispatch, ibs, spe and ris the TEA paper\'s cycle-stack (PICS) error.\n')
print('| workload | instructions | cycles | class |\n|---|---:|---:|---|')
for w, i, c, cls in info: print(f'| {w} | {i:,} | {c:,} | {cls} |')
def table(hz, random, names, paper, stacks):
    what = 'cycle stacks (TEA and the event-based schemes)' if stacks else 'time profiles'
    print(f'\n### {hz/1000:g} kHz, {"random" if random else "periodic"} sampling: {what}\n')
    print('| profiler | samples/run | instruction avg (max) | block avg (max) | function avg (max) | paper: instruction / block / function |')
    print('|---|---:|---:|---:|---:|---|')
    for n in names:
        v = rows.get((hz, random, n))
        if not v: continue
        s = sum(x[1] for x in v) / len(v)
        cols = []
        for k in (2, 3, 4):
            e = [x[k] * 100 for x in v]
            cols.append(f'{sum(e)/len(e):.1f}% ({max(e):.1f}%)')
        p = paper.get(n)
        ptxt = ('' if p is None else f'{p}%' if not isinstance(p, tuple) else
                ' / '.join('-' if x is None else f'{x}%' for x in p))
        print(f'| {n} | {s:.0f} | ' + ' | '.join(cols) + f' | {ptxt} |')
for hz in (4000.0, 400000.0, 4000000.0):
    for random in (False, True):
        table(hz, random, list(paper_tip), paper_tip, False)
        table(hz, random, list(paper_tea), paper_tea, True)
# TEA's diagnostics from the golden PICS of each run (the paper: 30.0% combined, 5.8 cycles).
print('\n### TEA diagnostics (golden PICS of each run)\n')
events = ['DR-L1', 'DR-TLB', 'DR-SQ', 'FL-MB', 'FL-EX', 'FL-MO', 'ST-L1', 'ST-TLB', 'ST-LLC']
print('| workload | combined events | no-event stall p99 (cycles) | ' + ' | '.join(f'r({e})' for e in events) + ' |')
print('|---|---:|---:|' + '---:|' * len(events))
shares, p99s = [], []
for path in sorted(glob.glob(os.path.join(d, '*.json'))):
    p = json.load(open(path))['results'][0]['pics']
    shares.append(p['combined_event_share']); p99s.append(p['no_event_stall_p99'])
    corr = ['-' if p['correlation'][e] is None else f"{p['correlation'][e]:.2f}" for e in events]
    print(f"| {os.path.basename(path)[:-5]} | {100*p['combined_event_share']:.1f}% | {p['no_event_stall_p99']:g} | " + ' | '.join(corr) + ' |')
print(f"| average | {100*sum(shares)/len(shares):.1f}% | {sum(p99s)/len(p99s):.1f} | (paper: 30.0% and 5.8 cycles) |")
PY
cat "$TOP/bench/results/tip_errors.md"
