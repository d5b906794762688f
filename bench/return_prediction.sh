#!/bin/bash
# Return prediction of the detailed core on every bundled workload and the
# whole corpus of tests/corpus/SPLIT.md (issue 34's target: >= 98% on
# CoreMark, bench/calib, and the corpus): the first --max-insts
# instructions of each run (default 50M; the whole run when shorter) under
#   sim --full -q --max-insts N -o R.json [--set K=V...] -- PROGRAM ARGS
# in a fresh copy of its inputs. Per run: committed returns, those the core
# mispredicted (the return-address stack's top was wrong when the return was
# fetched on the correct path), the accuracy, and the share of all
# mispredicts that are returns; a run below 98% again without the wrong path
# and with a 1024-entry stack, to tell its cause.
#
# Usage: bench/return_prediction.sh [-o DIR] [--max-insts N] [--set K=V]... [--out FILE]
#   -o DIR         work directory (default: a temporary one)
#   --set K=V      a parameter for every run (e.g. bpred.ras_entries=64)
#   --out FILE     the Markdown (default bench/results/return_prediction.md)
# The corpus needs `make corpus` and tests/corpus/build.sh --eval and
# --tuning-extra.
source "$(dirname "$0")/paths.sh"

MAX=50M
SETS=()
RESULT=$TOP/bench/results/return_prediction.md
ARGS=()
while [ $# -gt 0 ]; do
    case $1 in
    --max-insts) MAX=$2; shift 2 ;;
    --set) SETS+=(--set "$2"); shift 2 ;;
    --out) RESULT=$2; shift 2 ;;
    *) ARGS+=("$1"); shift ;;
    esac
done
CORPUS_ALL=
source "$(dirname "$0")/corpus_runs.sh" "${ARGS[@]}" --corpus all
WORKLOADS=()
for w in "$RVW"/*; do WORKLOADS+=("$(basename "$w")|$w"); done

declare -A COMMAND=()
for entry in "${WORKLOADS[@]}" "${BENCH_RUNS[@]}"; do
    IFS='|' read -r name command <<<"$entry"
    COMMAND[$name]=$command
done

# measure NAME TAG [SIM-OPTION...]: one run of NAME, its figures as a row
# of DIR/rows-TAG.tsv (name, instructions, returns, mispredicted returns,
# all mispredicts).
measure() {
    local name=$1 tag=$2 work=$OUT/work
    shift 2
    eval "cmd=(${COMMAND[$name]})" # the corpus lists quote some arguments
    rm -rf "$work" && cp -a "${BENCH_DIR[$name]:-$INPUTS}" "$work" || die "cannot copy $name's inputs"
    guest_env_for "${COMMAND[$name]}"
    (cd "$work" && TMPDIR=$OUT/tmp STDIN=${BENCH_STDIN[$name]:-} wall_seconds "$OUT/$name-$tag.out" "$BIN/sim" --full \
        -q --guest-output none --max-insts "$MAX" "${SETS[@]}" "$@" "${ENV_OPTS[@]}" -o "$OUT/$name-$tag.json" \
        -- "${cmd[@]}") >/dev/null
    [ -s "$OUT/$name-$tag.json" ] || die "$name: sim failed ($(head -c 300 "$OUT/$name-$tag.out.err"))"
    python3 - "$name" "$OUT/$name-$tag.json" >>"$OUT/rows-$tag.tsv" <<'PY' || die "$name: no events in its result"
import json, sys
r = json.load(open(sys.argv[2]))['results'][0]
e = r['events']
print('\t'.join(str(x) for x in (sys.argv[1], r['instructions'], e['returns'], e['return_mispredicts'],
                                 e['branch_mispredicts'])))
PY
    echo "$name ($tag) done" >&2
}

mkdir -p "$OUT/tmp"
rm -f "$OUT"/rows-*.tsv
for entry in "${WORKLOADS[@]}" "${BENCH_RUNS[@]}"; do measure "${entry%%|*}" plain; done
# The runs below 98% again: without the wrong path (the return-address
# stack then sees the correct path's calls and returns alone) and with 1024
# entries (no overflow).
for name in $(awk -F'\t' '$3 > 0 && $4 / $3 > 0.02 { print $1 }' "$OUT/rows-plain.tsv"); do
    measure "$name" no-wrong-path --set core.wrong_path=0
    measure "$name" ras-1024 --set bpred.ras_entries=1024
done
touch "$OUT/rows-no-wrong-path.tsv" "$OUT/rows-ras-1024.tsv"

python3 - "$OUT" "$MAX" "${SETS[*]}" >"$RESULT" <<'PY'
import sys
out = sys.argv[1]
def rows(tag):
    return {l.split('\t')[0]: [int(x) for x in l.rstrip('\n').split('\t')[1:]] for l in open(f'{out}/rows-{tag}.tsv')}
plain, nowp, big = rows('plain'), rows('no-wrong-path'), rows('ras-1024')
def accuracy(r):
    return 1 - r[2] / r[1] if r[1] else None
def pct(a):
    return '-' if a is None else f'{100 * a:.2f}%'
print('# Return prediction of the detailed core (issue 34)\n')
print(f'Produced by `bench/return_prediction.sh` (the first {sys.argv[2]} instructions of each run, '
      f'`sim --full` with configs/boom-tip.ini{" and " + sys.argv[3] if sys.argv[3] else ""}; the bundled '
      'workloads with their default arguments, then the corpus of tests/corpus/SPLIT.md). Accuracy = 1 - '
      'return mispredicts / returns (committed returns: a `jalr` reading ra or t0 that does not write the '
      'same link register); target: >= 98%. A run below it is simulated again with `--set core.wrong_path=0` '
      '(the return-address stack sees the correct path alone) and with `--set bpred.ras_entries=1024`.\n')
print('| run | instructions | returns | mispredicted | accuracy | returns among all mispredicts | '
      'without the wrong path | 1024 entries |')
print('|---|---:|---:|---:|---:|---:|---:|---:|')
below = []
for name, (n, ret, miss, allm) in plain.items():
    a = accuracy(plain[name])
    if a is not None and a < 0.98:
        below.append(name)
    share = f'{100 * miss / allm:.1f}%' if allm else '-'
    extra = [pct(accuracy(t[name])) if name in t else '' for t in (nowp, big)]
    print(f'| {name} | {n:,} | {ret:,} | {miss:,} | {pct(a)} | {share} | {extra[0]} | {extra[1]} |')
at = sum(1 for r in plain.values() if r[1] and accuracy(r) >= 0.98)
print(f'\n{at} of {sum(1 for r in plain.values() if r[1])} runs with returns at 98% or more. '
      f'Below: {", ".join(below) if below else "none"}.')
if below and all(accuracy(nowp[n]) >= 0.98 and big[n][2] == plain[n][2] for n in below):
    print('\nEvery run below 98% is at 98% or more without the wrong path and mispredicts as many returns '
          'with 1024 entries: its returns are mispredicted not for the stack\'s depth but because '
          'wrong-path calls and returns overwrite entries below the top, which a misprediction\'s repair '
          '(SonicBOOM\'s: the top pointer and the top entry, frontend.scala) does not restore.')
PY
echo "wrote $RESULT" >&2
