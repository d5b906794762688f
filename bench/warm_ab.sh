#!/usr/bin/env bash
# warm_ab.sh: functional warming's speed on one program, reference builds
# against this one, interleaved round by round (each reference, this build,
# again...), as a noisy host allows no other comparison. Each run is
#   checkpoint --warm CONFIG --at N --guest-output none -- PROG ARGS
# and counts the fast_forward MIPS its checkpoints.json reports (the
# warming alone, without start-up or the checkpoint's writing). Prints every
# round's figures and each build's median.
#
# Usage: bench/warm_ab.sh --ref-bin DIR... [--config INI] [--at N] [--rounds N] -- PROG [ARGS...]
#   --ref-bin DIR   a reference checkpoint binary's directory (repeatable)
#   --config INI    the core configuration (default configs/boom-tip.ini)
#   --at N          instructions warmed (default 100000000)
#   --rounds N      runs of each build (default 5)
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
REFS=() CONFIG=$TOP/configs/boom-tip.ini AT=100000000 ROUNDS=5
while [ $# -gt 0 ]; do
    case $1 in
    --ref-bin) REFS+=("$2"); shift 2 ;;
    --config) CONFIG=$2; shift 2 ;;
    --at) AT=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
[ $# -gt 0 ] || die "no program (see --help)"
[ ${#REFS[@]} -gt 0 ] || die "no reference build (--ref-bin)"
for d in "${REFS[@]}"; do [ -x "$d/checkpoint" ] || die "no reference checkpoint in '$d' (--ref-bin)"; done
[ -x "$BIN/checkpoint" ] || die "build first (make build)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

warm_mips() { # BIN_DIR PROG ARGS...: one run's fast_forward MIPS
    local bin=$1
    shift
    rm -rf "$T/ck"
    "$bin/checkpoint" -o "$T/ck" --warm "$(config_for "$bin" "$CONFIG")" --at "$AT" --guest-output none -- "$@" >/dev/null 2>&1 ||
        die "$bin/checkpoint failed on $*"
    json_mips "$T/ck/checkpoints.json" fast_forward
}

BUILDS=("${REFS[@]}" "$BIN")
declare -A runs
for r in $(seq 1 "$ROUNDS"); do
    line="round $r:"
    for b in "${BUILDS[@]}"; do
        m=$(warm_mips "$b" "$@") || exit 2
        runs[$b]+=" $m"
        line+=" $m"
    done
    echo "$line MIPS (${#REFS[@]} reference(s), then this build)"
done
echo "median of $ROUNDS ($(basename "$CONFIG"), --at $AT):"
for b in "${BUILDS[@]}"; do
    # shellcheck disable=SC2086 # the list splits into its values
    printf '  %-8s %s\n' "$(median ${runs[$b]})" "$([ "$b" = "$BIN" ] && echo "this build" || echo "$b")"
done
