#!/usr/bin/env bash
# warm_model.sh: the warming model's stages alone (bench/warm_model.c: the
# requests of the L1s, those below the L1s, the D-TLB), in nanoseconds per
# request of a pointer chase over each working set, this build's library
# against a reference build's, run in turns. Each figure is the sum over
# chunks of each chunk's fastest pass, so a busy host's interruptions drop
# out: it measures the model's code, not the host's load. Builds the bench
# against build/rel/librv.a (make build first) and, with --ref DIR, against
# DIR's (a tree bench/warm_ref.sh built: DIR/lib, DIR/build/rel/librv.a).
#
# Usage: bench/warm_model.sh [--ref DIR] [--rounds N] [NODES...]
#   NODES    working sets in 64-byte lines (default 1024 16384 65536: 64 KB, 1 MB, 4 MB)
#   --rounds runs of each build per working set (default 2)
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
REF= ROUNDS=2
while [ $# -gt 0 ]; do
    case $1 in
    --ref) REF=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    -h|--help) print_help; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || set -- 1024 16384 65536
build_against "$TOP" warm_model.c "$TOP/build/bench/warm_model"
[ -z "$REF" ] || build_against "$REF" warm_model.c "$TOP/build/bench/warm_model_ref"
for nodes in "$@"; do
    for r in $(seq 1 "$ROUNDS"); do
        [ -z "$REF" ] || echo "$nodes lines, reference: $("$TOP/build/bench/warm_model_ref" "$nodes")"
        echo "$nodes lines, this build: $("$TOP/build/bench/warm_model" "$nodes")"
    done
done
