#!/usr/bin/env bash
# bench/chunk_overlap.sh (issue 38): the wall time of a chunked full run
# (sim --full --chunk-insts) with the chunks started as the functional pass
# makes them ready (sim/chunk_pass.h) against a sim that starts them after
# the whole pass (an older build, --old-bin), on the same programs, chunks
# and threads, each run REPEAT times, niced; the results must be the same.
# Prints one row per program and build: pass, chunks summed, wall (median).
#
# Usage: bench/chunk_overlap.sh --old-bin DIR [--new-bin DIR] [--threads "T..."] [--repeat R]
#   T: OpenMP threads (the new build's pass runs on one of them) [1 2]
#   programs: bzip2 -c -9 on bench/long_program.sh's small input (600 lines
#   of make_inputs.py --text) in chunks of 5M; xz -c -3 and zstd -c -q -6 on
#   the corpus's text.txt in chunks of 4M.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
NEW=$TOP/build/bin OLD='' THREADS="1 2" REPEAT=3
while [ $# -gt 0 ]; do
    case $1 in
    --old-bin) OLD=$2; shift 2 ;;
    --new-bin) NEW=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    *) echo "chunk_overlap.sh: unknown option $1" >&2; exit 1 ;;
    esac
done
[ -n "$OLD" ] || { echo "chunk_overlap.sh: --old-bin DIR (a sim that starts the chunks after the pass)" >&2; exit 1; }
C=$TOP/build/corpus/bin
[ -x "$C/bzip2" ] || { echo "chunk_overlap.sh: no $C/bzip2 (make corpus)" >&2; exit 1; }
W=$(mktemp -d /tmp/chunk_overlap.XXXXXX)
trap 'rm -rf "$W"' EXIT
python3 "$TOP/tests/corpus/make_inputs.py" "$W/in" > /dev/null
python3 "$TOP/tests/corpus/make_inputs.py" --text 600 "$W/in/big.txt"
# copies: a build in the tree while this runs changes nothing
mkdir "$W/old" "$W/new" && cp "$OLD/sim" "$W/old/" && cp "$NEW/sim" "$W/new/"
OLD=$W/old NEW=$W/new
export TMPDIR=$W
cd "$W/in"

# run BIN NAME CHUNK PROGRAM...: one chunked run on T threads, its JSON in $W/NAME.json.
run() {
    local bin=$1 name=$2 c=$3
    shift 3
    OMP_NUM_THREADS=$T nice -n 10 "$bin/sim" -q --full --chunk-insts "$c" -o "$W/$name.json" -- "$@" > /dev/null
}

echo "| program | chunks | threads | build | functional pass s | chunks summed s | wall s (median of $REPEAT) | CPI |"
echo "|---|--:|--:|---|--:|--:|--:|--:|"
for T in $THREADS; do
for spec in "bzip2 5M $C/bzip2 -c -9 big.txt" "xz 4M $C/xz -c -3 text.txt" "zstd 4M $C/zstd -c -q -6 text.txt"; do
    read -r label c prog <<< "$spec"
    read -ra argv <<< "$prog"
    for which in old new; do
        bin=$OLD
        [ "$which" == old ] || bin=$NEW
        for r in $(seq "$REPEAT"); do run "$bin" "$label.$which.$r" "$c" "${argv[@]}"; done
        python3 - "$W" "$label" "$which" "$REPEAT" "$T" << 'PY'
import json, statistics, sys
w, label, which, n, t = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
rs = [json.load(open(f"{w}/{label}.{which}.{i}.json"))["results"][0] for i in range(1, n + 1)]
c = rs[0]["chunked"]
cpi = rs[0]["cycles"] / rs[0]["instructions"]
med = lambda k: statistics.median(r["chunked"][k] for r in rs)
desc = "chunks after the pass" if which == "old" else "chunks as the pass makes them ready"
print(f"| {label} | {c['chunks']} | {t} | {desc} | {med('functional_pass_seconds'):.2f} | {med('chunk_seconds'):.2f} | "
      f"{med('wall_seconds'):.2f} | {cpi:.5f} |")
PY
    done
    python3 - "$W/$label.old.1.json" "$W/$label.new.1.json" << 'PY' || { echo "chunk_overlap.sh: $label: the builds' results differ" >&2; exit 1; }
import json, sys
a, b = (json.load(open(p))["results"][0] for p in sys.argv[1:])
for r in a, b:
    for k in "seconds", "mips", "chunked", "program":
        r.pop(k, None)
    r.get("profile", {}).pop("inclusive", None)  # the new build stitches inclusive time, the old had none
assert a == b, [k for k in a if a[k] != b.get(k)]
PY
done
done
echo
echo "(each build's results identical but for the new build's inclusive time; the new build's pass on one of the chunks' threads, which simulates chunks once it is done; load averages at the end $(cut -d' ' -f1-3 /proc/loadavg))"
