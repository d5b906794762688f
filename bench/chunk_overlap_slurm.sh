#!/usr/bin/env bash
# bench/chunk_overlap_slurm.sh OLD-TREE NEW-TREE (issue 38): bench/long_program.sh's
# small version (bzip2 on 600 lines, 3 chunks, the tests' one-node Slurm cluster,
# as root) run from two built checkouts, one after the other: one whose chunk
# tasks wait for the whole pass (afterok) and one whose tasks start with it and
# wait for their own checkpoints. Prints each one's full run (from the pass
# job's start to the stitch job's end, pipeline.log), its pass and its chunk
# tasks, and the whole pipeline's wall time.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 2 ] || { echo "usage: bench/chunk_overlap_slurm.sh OLD-TREE NEW-TREE" >&2; exit 1; }
W=$(mktemp -d /tmp/chunk_overlap_slurm.XXXXXX)
trap 'rm -rf "$W"' EXIT
echo "| build | full run: pass start to stitch end s | pass s | chunk tasks (start to end) s | pipeline s |"
echo "|---|--:|--:|--:|--:|"
for tree in "$@"; do
    out=$W/$(basename "$tree")
    nice -n 10 "$tree/bench/long_program.sh" -o "$out" --lines 600 -i 1M -k 5 --chunks 3 --prefix 0 \
        --result "$out/report.md" > "$out.txt" 2>&1 || { tail -n 20 "$out.txt" >&2; exit 1; }
    python3 - "$out/work/run/pipeline.log" "$tree" "$(cut -d' ' -f1 "$out/work/walls.txt")" << 'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("lp", sys.argv[2] + "/bench/long_program.py")
lp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lp)
st = lp.stages(sys.argv[1])
tasks = [v for k, v in st.items() if k.startswith("full.chunks.")]
span = max(v[2] for v in tasks) - min(v[0] for v in tasks)
print(f"| {sys.argv[2]} | {st['full'][2] - st['full.pass'][0]:.1f} | {st['full.pass'][1]:.1f} | {span:.1f} | {sys.argv[3]} |")
PY
done
echo
echo "(one node of 2 CPUs: the pass asks for both, so no chunk task runs beside it there; load averages at the end $(cut -d' ' -f1-3 /proc/loadavg))"
