#!/usr/bin/env bash
# The main job on a bundled workload. For now: collect basic-block vectors of
# the phase-changing workload and show what came out. Later stages (simpoint,
# checkpoint, sim, validate) extend this into the full validation pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DEMO_OUT:-out/demo}
size=${DEMO_SIZE:-4}
mkdir -p "$out"
prog=build/rv/workloads/phases
echo "== bbv: $prog $size (intervals of 1M and 10M instructions)"
build/bin/bbv -v --interval 1M,10M -o "$out/phases" -- "$prog" "$size" > "$out/phases.stdout"
echo "== program output:"
cat "$out/phases.stdout"
echo "== summary ($out/phases.summary.json):"
cat "$out/phases.summary.json"
echo "== first intervals of $out/phases.1000000.bb.gz (blocks per interval, top block):"
zcat "$out/phases.1000000.bb.gz" | grep '^T' | head -8 | awk '{
    n = 0; best = 0; bid = 0
    for (i = 1; i <= NF; i++) { split($i, f, ":"); n++; if (f[3] > best) { best = f[3]; bid = f[2] } }
    printf "  interval %d: %d blocks, hottest block %d (%d instructions)\n", NR - 1, n, bid, best }'
if [ -x build/bin/simpoint ]; then
    echo "== simpoint (maxK 10) on the 1M intervals:"
    build/bin/simpoint -loadFVFile "$out/phases.1000000.bb.gz" -maxK 10 \
        -saveSimpoints "$out/phases.simpoints" -saveSimpointWeights "$out/phases.weights" >/dev/null
    paste "$out/phases.simpoints" "$out/phases.weights" | awk '{ printf "  interval %s  cluster %s  weight %s\n", $1, $2, $3 }'
fi
