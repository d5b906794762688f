#!/usr/bin/env bash
# The main job on a bundled workload: basic-block vectors -> simulation points
# -> checkpoints -> each region run from its checkpoint and checked against the
# profile. (The detailed core and the validation report extend this later.)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${DEMO_OUT:-out/demo}
size=${DEMO_SIZE:-4}
interval=${DEMO_INTERVAL:-1M}
prog=build/rv/workloads/phases
rm -rf "$out"
mkdir -p "$out"
B=build/bin

echo "== 1. bbv: $prog $size, intervals of $interval instructions"
$B/bbv -v --interval "$interval" -o "$out/phases" -- "$prog" "$size" > "$out/phases.stdout"
n=$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$out/phases.summary.json" | head -n 1)
N=$(sed -n 's/.*"interval": \([0-9]*\).*/\1/p' "$out/phases.summary.json" | head -n 1)

echo "== 2. simpoint: cluster the $((n / N)) intervals (maxK 10)"
$B/simpoint -loadFVFile "$out/phases.$N.bb.gz" -maxK 10 -saveSimpoints "$out/phases.simpoints" \
    -saveSimpointWeights "$out/phases.weights" -saveLabels "$out/phases.labels" > /dev/null
paste "$out/phases.simpoints" "$out/phases.weights" |
    awk '{ printf "   simulation point: interval %3d  cluster %s  weight %s\n", $1, $2, $3 }'

echo "== 3. checkpoint: one pass, a checkpoint before each simulation point (warm-up 1 interval)"
$B/checkpoint -v -o "$out/ckpt" --simpoints "$out/phases.simpoints" --weights "$out/phases.weights" \
    --interval "$N" --warmup "$N" --guest-output none -- "$prog" "$size"

echo "== 4. each region run from its checkpoint; its blocks must equal the profile's line"
$B/bbv -o "$out/plain" --interval "$N" --no-gzip -- "$prog" "$size" > /dev/null
as_pcs() { grep '^T' "$1" | sed -n "$3p" | tr ' ' '\n' | grep : |
    awk -F: 'NR == FNR { pc[$1] = $2; next } { print pc[$2], $3 }' <(grep -v '^#' "$2" | awk '{ print $1 ":" $2 }') - | sort; }
while read -r index cluster; do
    start=$(( index * N > N ? index * N - N : 0 ))
    warm=$(( index * N - start ))
    ck=$(ls "$out"/ckpt/*-at-"$start".ckpt)
    $B/checkpoint --run "$ck" --insts $((warm + N)) --bbv "$out/region$index" --interval "$N" > /dev/null
    line=$(( warm > 0 ? 2 : 1 ))
    if cmp -s <(as_pcs "$out/plain.$N.bb" "$out/plain.bbmap" $((index + 1))) \
              <(as_pcs "$out/region$index.$N.bb" "$out/region$index.bbmap" $line); then
        verdict="same blocks and counts as the profile"
    else
        verdict="DIFFERS from the profile"; status=1
    fi
    printf '   region %3d (cluster %s) from %s: %s\n' "$index" "$cluster" "$(basename "$ck")" "$verdict"
done < "$out/phases.simpoints"
echo "== outputs in $out/"
exit "${status:-0}"
