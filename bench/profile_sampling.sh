#!/usr/bin/env bash
# profile_sampling.sh: how well sampled simulation reproduces the whole
# program's profile, on every bundled workload at the pipeline's default
# SimPoint configuration (1M intervals, MaxK 30, warm checkpoints):
#   scripts/pipeline.sh -o DIR --sample tip,nci,tea,ibs --sample-hz HZ -- W
# then validate's profile section: the profile rebuilt from the regions
# (each weighted by weight x CPI) against the full run's golden profile,
# for the regions' golden attribution and for the sampled profilers, at
# instruction, block and function level; and the CPI error beside it.
# HZ is 400 kHz (a 1M-instruction region gets a few hundred samples; at
# 4 kHz it would get about one). Writes bench/results/profile_sampling.md.
#
# Usage: bench/profile_sampling.sh [-j JOBS] [--hz HZ]
set -u -o pipefail
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=2 HZ=400000
while [ $# -gt 0 ]; do
    case $1 in
    -j) JOBS=$2; shift 2 ;;
    --hz) HZ=$2; shift 2 ;;
    *) echo "usage: $0 [-j JOBS] [--hz HZ]" >&2; exit 2 ;;
    esac
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ls "$TOP"/build/rv/workloads/* | xargs -P "$JOBS" -I{} sh -c \
    'BIN="$0/build/bin" "$0/scripts/pipeline.sh" -o "$1/$(basename {})" -j 1 --sample tip,nci,tea,ibs --sample-hz "$2" -- {} > "$1/$(basename {}).log" 2>&1 || echo "FAILED: {} (see the log)"' "$TOP" "$T" "$HZ"
python3 - "$T" "$HZ" > "$TOP/bench/results/profile_sampling.md" <<'PY'
import glob, json, os, sys
d, hz = sys.argv[1], float(sys.argv[2])
print('# Profiles through sampled simulation: the rebuilt whole-program profile against the full run\n')
print(f'Produced by `bench/profile_sampling.sh`: `scripts/pipeline.sh` at its defaults (1M intervals, MaxK 30, warm '
      f'checkpoints) with `--sample tip,nci,tea,ibs --sample-hz {hz:g}`; errors from validate\'s profile section '
      '(instruction / block / function).\n')
print('| workload | regions | CPI error | golden | tip | nci | golden stacks | tea stacks | ibs stacks |')
print('|---|---:|---:|---|---|---|---|---|---|')
acc = {}
for rep in sorted(glob.glob(os.path.join(d, '*', 'validate', 'report.json'))):
    w = rep.split(os.sep)[-3]
    j = json.load(open(rep))
    p = j['profile']
    regions = len(json.load(open(os.path.join(d, w, 'regions.json')))['results'])
    def cell(k):
        if k not in p: return '-'
        e = p[k]['error']
        acc.setdefault(k, []).append(e)
        return ' / '.join(f"{100*e[g]:.1f}%" for g in ('instruction', 'block', 'function'))
    cpi = j['summary']['error'] if 'summary' in j and 'error' in j['summary'] else None
    if cpi is None:
        def find(o, key):
            if isinstance(o, dict):
                if key in o and isinstance(o[key], (int, float)): return o[key]
                o = list(o.values())
            if isinstance(o, list):
                for v in o:
                    r = find(v, key)
                    if r is not None: return r
        cpi = find(j, 'error')
    print(f"| {w} | {regions} | {100*cpi:+.2f}% | " + ' | '.join(cell(k) for k in
          ('golden', 'tip', 'nci', 'golden (cycle stacks)', 'tea (cycle stacks)', 'ibs (cycle stacks)')) + ' |')
print('\n| profile | instruction avg (max) | block avg (max) | function avg (max) |\n|---|---:|---:|---:|')
for k, v in acc.items():
    print(f'| {k} | ' + ' | '.join(f"{100*sum(e[g] for e in v)/len(v):.1f}% ({100*max(e[g] for e in v):.1f}%)"
                                    for g in ('instruction', 'block', 'function')) + ' |')
PY
cat "$TOP/bench/results/profile_sampling.md"
