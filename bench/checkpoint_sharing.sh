#!/bin/bash
# Bytes per checkpoint with and without the page store (issue 38): the warm
# checkpoints of a chunked full run (checkpoint --warm --chunk-insts 4M
# --warmup 100k) and of SimPoint's simulation points (bbv and simpoint -maxK 30
# at 1M, checkpoint --warm --warmup 1M), each taken self-contained (every
# checkpoint holds its pages: the format before the store) and with the pages
# shared (pages.store counted in), on the bundled workloads and seven corpus runs.
#
# Usage: bench/checkpoint_sharing.sh [-o DIR]
# Writes bench/results/checkpoint_sharing.md.
source "$(dirname "$0")/paths.sh"

source "$(dirname "$0")/corpus_runs.sh" "$@"
CONFIG=$TOP/configs/boom-tip.ini

# bytes DIR: the checkpoints' and the store's bytes, and the checkpoints
bytes() { echo "$(cat "$1"/*.ckpt "$1"/pages.store 2>/dev/null | wc -c) $(ls "$1"/*.ckpt | wc -l)"; }

ROWS=$OUT/rows.tsv
: >"$ROWS"
for entry in "${BENCH_RUNS[@]}"; do
    IFS='|' read -r name command <<<"$entry"
    read -r -a cmd <<<"$command"
    d=$OUT/$name
    rm -rf "$d" && mkdir -p "$d"
    (
        cd "$INPUTS"
        "$BIN/bbv" -o "$d/p" --interval 1M -- "${cmd[@]}" >/dev/null
        "$BIN/simpoint" -loadFVFile "$d/p.1000000.bb.gz" -maxK 30 -fixedLength off -saveSimpoints "$d/p.sp" \
            -saveSimpointWeights "$d/p.w" >/dev/null
        for kind in chunks simpoints; do
            plan=(--chunk-insts 4M --warmup 100k)
            [ $kind = chunks ] || plan=(--simpoints "$d/p.sp" --weights "$d/p.w" -i 1M --warmup 1M)
            "$BIN/checkpoint" -o "$d/$kind-alone" --warm "$CONFIG" --self-contained "${plan[@]}" -- "${cmd[@]}" >/dev/null
            "$BIN/checkpoint" -o "$d/$kind-shared" --warm "$CONFIG" "${plan[@]}" -- "${cmd[@]}" >/dev/null
            printf '%s\t%s\t%s\t%s\n' "$name" "$kind" "$(bytes "$d/$kind-alone")" "$(bytes "$d/$kind-shared")" >>"$ROWS"
        done
    ) || die "$name failed"
    echo "$name done" >&2
done

python3 - "$ROWS" >"$TOP/bench/results/checkpoint_sharing.md" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]
print("# Bytes per checkpoint, self-contained and with the page store\n")
print("`bench/checkpoint_sharing.sh`: warm checkpoints (configs/boom-tip.ini) of a chunked full run (4M chunks,")
print("100k warm-up) and of SimPoint's points (-maxK 30 at 1M, 1M warm-up); self-contained: every checkpoint")
print("holds its pages (`--self-contained`, the format before the store); shared: the run's pages.store counted in.")
print("KiB per checkpoint; the warm state (caches, TLBs, predictors) is in every checkpoint either way.\n")
print("| program | plan | checkpoints | self-contained KiB/ckpt | shared KiB/ckpt | ratio |")
print("|---|---|--:|--:|--:|--:|")
tot = {}
for name, kind, ab, an, sb, sn in rows:
    a, s = int(ab) / int(an) / 1024, int(sb) / int(sn) / 1024
    t = tot.setdefault(kind, [0, 0, 0])
    t[0] += int(an); t[1] += int(ab); t[2] += int(sb)
    print(f"| {name} | {kind} | {an} | {a:.1f} | {s:.1f} | {a / s:.2f}x |")
for kind, (n, a, s) in tot.items():
    print(f"| **all** | {kind} | {n} | {a / n / 1024:.1f} | {s / n / 1024:.1f} | {a / s:.2f}x |")
EOF
echo "wrote $TOP/bench/results/checkpoint_sharing.md" >&2
