#!/bin/bash
# What the chunks' start states get wrong (issue 38): bench/chunk_state.c on
# the bundled workloads and seven corpus runs (bench/corpus_runs.sh), chunks
# of C with a detailed warm-up of W (4M and 100k, sim --full's defaults).
# Each chunk is simulated with its state at B - W from functional warming
# (what sim --full --chunk-insts does), from the serial detailed run, and
# with one part at a time from the serial run (the caches, the TLBs, the
# branch predictor): the whole run's CPI difference from the serial run's
# in each case says which part's warming costs how much.
#
# Usage: bench/chunk_state.sh [-o DIR] [-C C] [-W W]
#   -o DIR    work directory (default: a temporary one)
# Writes bench/results/chunk_state.md (the per-chunk tables in DIR/NAME.md).
source "$(dirname "$0")/paths.sh"

C=4000000 W=100000 ARGS=()
while [ $# -gt 0 ]; do
    case $1 in
    -C) C=$2; shift 2 ;;
    -W) W=$2; shift 2 ;;
    *) ARGS+=("$1"); shift ;;
    esac
done
source "$(dirname "$0")/corpus_runs.sh" "${ARGS[@]}"
TOOL=$OUT/chunk_state
cc -std=c11 -D_GNU_SOURCE -O2 -flto=auto -Wall -Wextra -Werror -frounding-math -ffp-contract=off -fopenmp -I"$TOP/lib" \
    -I"$TOP/build/gen" -I"$TOP/sim" -o "$TOOL" "$TOP/bench/chunk_state.c" "$TOP/build/rel/libsim.a" \
    "$TOP/build/rel/librv.a" -ldw -lelf -lz -ljansson -linih -lm -fopenmp || die "could not build bench/chunk_state.c"

SPECS=(none all l1i+l1d+l2+llc tlb bp)
RESULT=$TOP/bench/results/chunk_state.md
{
    echo "# What the chunks' start states get wrong"
    echo
    echo "\`bench/chunk_state.sh\` (bench/chunk_state.c) at $(git -C "$TOP" rev-parse --short HEAD): chunks of $C,"
    echo "a detailed warm-up of $W. The whole run's CPI difference from the serial run's when every chunk starts"
    echo "(at B - W) from functional warming's state (none: what \`sim --full --chunk-insts\` does), from the"
    echo "serial detailed run's (all), or from warming's with one part taken from the serial run's."
    echo
    echo "| program | warming (none) | serial (all) | caches from serial | TLBs from serial | predictor from serial |"
    echo "|---|--:|--:|--:|--:|--:|"
} >"$RESULT.tmp"
for entry in "${BENCH_RUNS[@]}"; do
    IFS='|' read -r name command <<<"$entry"
    read -r -a cmd <<<"$command"
    (cd "$INPUTS" && OMP_NUM_THREADS=1 "$TOOL" "$C" "$W" 0 "${SPECS[@]}" -- "${cmd[@]}") >"$OUT/$name.md" ||
        die "$name: chunk_state failed"
    row=$(awk -F'|' '/^## The whole run/ { on = 1 } on && /^\| [a-z]/ && $2 !~ /from the serial/ { gsub(/ /, "", $3); printf " %s |", $3 }' "$OUT/$name.md")
    echo "| $name |$row" >>"$RESULT.tmp"
    echo "$name:$row" >&2
done
mv "$RESULT.tmp" "$RESULT"
echo "wrote $RESULT" >&2
