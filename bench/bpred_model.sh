#!/usr/bin/env bash
# bpred_model.sh: functional warming's branch predictor alone
# (bench/bpred_model.c: bpred_warm_events on the chase loop's control
# transfers and on a made-up program's), in nanoseconds per control
# transfer, this build's library against a reference build's, run in
# turns. Each figure is the sum over chunks of each chunk's fastest pass,
# so that a busy host's interruptions drop out. Each run also prints what
# the predictor learnt (statistics, a digest of its saved state): a change
# made for speed must leave them as the reference has them. Builds the
# bench against build/rel/librv.a (make build first) and, with --ref DIR,
# against DIR's (a tree with DIR/lib and DIR/build/rel/librv.a built).
#
# Usage: bench/bpred_model.sh [--ref DIR] [--rounds N] [--config INI] [STREAM...]
#   STREAM     chase, mixed (default both)
#   --rounds   runs of each build per stream (default 3)
#   --config   the core configuration (default configs/boom-tip.ini)
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
REF= ROUNDS=3 CONFIG=$TOP/configs/boom-tip.ini
while [ $# -gt 0 ]; do
    case $1 in
    --ref) REF=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --config) CONFIG=$2; shift 2 ;;
    -h|--help) print_help; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || set -- chase mixed
build_against "$TOP" bpred_model.c "$TOP/build/bench/bpred_model"
[ -z "$REF" ] || build_against "$REF" bpred_model.c "$TOP/build/bench/bpred_model_ref"
for stream in "$@"; do
    for r in $(seq 1 "$ROUNDS"); do
        [ -z "$REF" ] || echo "reference:  $("$TOP/build/bench/bpred_model_ref" "$stream" "$CONFIG" || echo failed)"
        echo "this build: $("$TOP/build/bench/bpred_model" "$stream" "$CONFIG" || echo failed)"
    done
done
