#!/usr/bin/env bash
# The main job (make demo): the whole pipeline on a bundled workload, bbv ->
# simpoint -> checkpoint (warm) -> sim regions -> sim --full -> validate,
# ending in the validation summary. Results already in the output directory
# are reused when up to date.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/pipeline.sh -o "${DEMO_OUT:-out/demo}" -i "${DEMO_INTERVAL:-1M}" -k "${DEMO_MAXK:-30}" \
    -m checkpoint -c configs/boom-tip.ini -- build/rv/workloads/phases "${DEMO_SIZE:-4}"
