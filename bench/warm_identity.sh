#!/usr/bin/env bash
# warm_identity.sh: functional warming gives byte-identical results to a
# reference build. Both builds take warm checkpoints (checkpoint --warm) of
# bundled workloads and corpus programs under several core configurations
# and simulate regions with --warmup functional and --warmup checkpoint;
# every .ckpt file must hold the same bytes (bench/ckpt_same.py: but for
# the fill levels of L1 lines, which warming no longer records), and every
# sim JSON be the same bytes once its "seconds" and "mips" lines
# (wall-clock timings) are left out.
#
# Usage: bench/warm_identity.sh [--ref-bin DIR | --ref-commit C] [--quick]
#   --ref-bin DIR     reference checkpoint and sim binaries in DIR
#   --ref-commit C    build them from commit C (default 4ebd8ae, before the
#                     warming work) into build/warm-ref-C (bench/warm_ref.sh)
#   --quick           fewer programs and configurations
# Exits 0 when everything matched; prints one line per comparison.
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
REF_BIN= REF_COMMIT=4ebd8ae QUICK=
while [ $# -gt 0 ]; do
    case $1 in
    --ref-bin) REF_BIN=$2; shift 2 ;;
    --ref-commit) REF_COMMIT=$2; shift 2 ;;
    --quick) QUICK=1; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
[ -x "$BIN/checkpoint" ] && [ -x "$BIN/sim" ] || die "build first (make build)"
[ -x "$CORPUS_BIN/lua" ] || make -s -C "$TOP" corpus >&2 || die "the corpus could not be built (make corpus)"

# The reference binaries: built once per commit (bench/warm_ref.sh).
[ -n "$REF_BIN" ] || REF_BIN=$("$TOP/bench/warm_ref.sh" "$REF_COMMIT") || exit 2
[ -x "$REF_BIN/checkpoint" ] && [ -x "$REF_BIN/sim" ] || die "no reference binaries in $REF_BIN"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 "$TOP/tests/corpus/make_inputs.py" "$T/in" >/dev/null

# Configurations: the two bundled cores, and one with odd geometry (a fetch
# block that is not a power of two bytes, direct-mapped and one-set caches,
# one-entry L1 TLBs, no L2 TLB, more TAGE tables with other widths) so that
# every special case of the warming model is exercised.
ODD=$(echo --set frontend.fetch_width=3 --set l1i.size_kib=1 --set l1i.ways=1 --set l1d.size_kib=1 \
    --set l1d.ways=16 --set itlb.entries=1 --set dtlb.entries=3 --set l2tlb.entries=0 --set bpred.tage_tables=12 \
    --set bpred.tage_log_entries=9 --set bpred.tage_tag_bits=7 --set bpred.tage_min_history=2 \
    --set bpred.tage_max_history=200 --set bpred.btb_ways=1 --set bpred.ras_entries=2)
CONFIGS="tip|$TOP/configs/boom-tip.ini|
tea|$TOP/configs/boom-tea.ini|
odd|$TOP/configs/boom-tip.ini|$ODD"
# label | program | arguments (run in $T/in) | checkpoint points (--at) | jit mode
RUNS="sort|$RVW/sort|30|9000000,41000000|on
stencil|$RVW/stencil|30|7000000,40000000|on
ptr_chase|$RVW/ptr_chase|11|12000000,30000000|on
int_compute|$RVW/int_compute|30|5000000,33000000|on
interp|$RVW/interp|30|8000000,25000000|on
phases|$RVW/phases|1|6000000,20000000|on
strings|$RVW/strings|30|10000000,22000000|on
sort_interpreted|$RVW/sort|30|3000000,11000000|off
lua|$CORPUS_BIN/lua|work.lua text.txt|10000000,26000000|on
gzip|$CORPUS_BIN/gzip|-n -c -9 text.txt|4000000,15000000|on
bzip2|$CORPUS_BIN/bzip2|-c -9 text.txt|6000000,20000000|on"
if [ -n "$QUICK" ]; then
    CONFIGS=$(echo "$CONFIGS" | sed -n '1p;3p')
    RUNS=$(echo "$RUNS" | grep -E '^(sort|ptr_chase|lua)\|')
fi

status=0 compared=0
report() { # OK? WHAT
    compared=$((compared + 1))
    if [ "$1" = 0 ]; then echo "same      $2"; else echo "DIFFERENT $2"; status=1; fi
}
# sim's JSON without its wall-clock timings
untimed() { grep -v -E '^ *"(seconds|mips)": ' "$1"; }

# take SIDE BINDIR LABEL PROG ARGS AT JIT CFG SETS...: checkpoints (at the
# points, and regions of two simulation points with warm-ups) and sim's
# results for them, in $T/SIDE/LABEL. Both sides run in the same directory
# ($T/run) with the same input files: checkpoints record the paths of the
# files the guest has open, and its memory may hold what stat told it (the
# inode number of a fresh copy differs).
take() {
    local side=$1 bin=$2 label=$3 prog=$4 args=$5 at=$6 jit=$7 cfg=$8; shift 8
    local d=$T/run err=$T/$side.${label//\//.}.err argv
    cfg=$(config_for "$bin" "$cfg") # an older reference build reads its keys alone
    read -r -a argv <<<"$args"
    local first=${at%%,*} last=${at##*,}
    # two simulation points of 500k-instruction intervals, 1M warm-up each
    printf '%d 0\n%d 1\n' $((first / 500000)) $((last / 500000)) >"$d/s.simpoints"
    printf '0.25 0\n0.75 1\n' >"$d/s.weights"
    (
        cd "$d" || exit 1
        export RVSAMPLE_JIT=$jit
        "$bin/checkpoint" -o at --at "$at" --warm "$cfg" "$@" --guest-output none -- "$prog" "${argv[@]}" >/dev/null &&
            "$bin/checkpoint" -o rg --simpoints s.simpoints --weights s.weights -i 500k --warmup 1M --warm "$cfg" "$@" \
                --guest-output none -- "$prog" "${argv[@]}" >/dev/null &&
            "$bin/sim" -q -j 2 -c "$cfg" "$@" --warmup functional -o functional.json rg/*.ckpt &&
            "$bin/sim" -q -j 2 -c "$cfg" "$@" --warmup checkpoint -o checkpoint.json rg/*.ckpt
    ) 2>"$err" || { echo "$label ($side) failed: $(tail -n 3 "$err")" >&2; return 1; }
    mkdir -p "$T/$side/$label" && mv "$d"/{at,rg,functional.json,checkpoint.json} "$T/$side/$label/"
}

while IFS='|' read -r cname cfg sets <&4; do
    read -r -a setv <<<"$sets"
    while IFS='|' read -r label prog args at jit <&3; do
        name=$cname/$label
        rm -rf "$T/run" && cp -r "$T/in" "$T/run"
        take ref "$REF_BIN" "$name" "$prog" "$args" "$at" "$jit" "$cfg" "${setv[@]}" &&
            take new "$BIN" "$name" "$prog" "$args" "$at" "$jit" "$cfg" "${setv[@]}" ||
            { report 1 "$name: a run failed"; continue; }
        for f in "$T"/ref/"$name"/{at,rg}/*.ckpt; do
            rel=${f#"$T"/ref/"$name"/}
            "$TOP/bench/ckpt_same.py" "$f" "$T/new/$name/$rel" >/dev/null
            report $? "$name $rel ($(stat -c %s "$f") bytes)"
        done
        for mode in functional checkpoint; do
            cmp -s <(untimed "$T/ref/$name/$mode.json") <(untimed "$T/new/$name/$mode.json")
            report $? "$name sim --warmup $mode"
        done
        rm -rf "$T/ref/$name" "$T/new/$name"
    done 3<<<"$RUNS"
done 4<<<"$CONFIGS"
echo "warm_identity: $compared comparisons, $([ $status = 0 ] && echo "all identical" || echo "SOME DIFFER")"
exit $status
