#!/usr/bin/env bash
# sim_ab.sh: the detailed core's speed on the bundled workloads, reference
# builds against this one, interleaved round by round (each reference, this
# build, again...), as a noisy host allows no other comparison. Each run is
#   sim --full -q --guest-output none -o R.json [--set ...] -- PROG
# and counts the MIPS its result reports (simulation only). Prints every
# round's figures, each build's median and its ratio to the first reference,
# and this build's wrong-path instructions fetched and issued per committed
# one (the work the speculative front end adds, which the MIPS do not count).
#
# Usage: bench/sim_ab.sh --ref-bin DIR... [--rounds N] [--set SEC.KEY=V]... [PROG...]
#   --ref-bin DIR   a reference sim binary's directory (repeatable)
#   --rounds N      runs of each build (default 3)
#   --set SEC.KEY=V a configuration override for every build (repeatable)
#   PROG            programs (default: the bundled sort, interp and stencil)
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
REFS=() ROUNDS=3 SETS=()
while [ $# -gt 0 ]; do
    case $1 in
    --ref-bin) REFS+=("$2"); shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --set) SETS+=(--set "$2"); shift 2 ;;
    -h|--help) print_help; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) break ;;
    esac
done
PROGS=("$@")
[ ${#PROGS[@]} -gt 0 ] || PROGS=("$RVW/sort" "$RVW/interp" "$RVW/stencil")
[ ${#REFS[@]} -gt 0 ] || die "no reference build (--ref-bin)"
for d in "${REFS[@]}"; do [ -x "$d/sim" ] || die "no reference sim in '$d' (--ref-bin)"; done
[ -x "$BIN/sim" ] || die "build first (make build)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

sim_mips() { # BIN_DIR PROG: one run's MIPS (its result stays in $T/r.json)
    "$1/sim" --full -q --guest-output none "${SETS[@]}" -o "$T/r.json" -- "$2" >/dev/null 2>&1 ||
        die "$1/sim failed on $2"
    python3 -c "import json, sys; print('%.3f' % json.load(open(sys.argv[1]))['results'][0]['mips'])" "$T/r.json"
}

BUILDS=("${REFS[@]}" "$BIN")
for prog in "${PROGS[@]}"; do
    declare -A runs=()
    for r in $(seq 1 "$ROUNDS"); do
        for b in "${BUILDS[@]}"; do runs[$b]+=" $(sim_mips "$b" "$prog")" || exit 2; done
    done
    # This build ran last: its result's wrong-path work.
    wrong_path=$(python3 -c "import json, sys
r = json.load(open(sys.argv[1]))['results'][0]
e, n = r['events'], r['instructions']
print('%.2f fetched, %.2f issued' % (e.get('wrong_path_fetched', 0) / n, e.get('wrong_path_issued', 0) / n))" "$T/r.json")
    # shellcheck disable=SC2086 # the lists split into their values
    ref=$(median ${runs[${REFS[0]}]})
    echo "$(basename "$prog"): median MIPS of $ROUNDS"
    for b in "${BUILDS[@]}"; do
        # shellcheck disable=SC2086
        m=$(median ${runs[$b]})
        printf '  %8s  x%.3f  %s\n' "$m" "$(awk -v a="$m" -v b="$ref" 'BEGIN { print a / b }')" \
            "$([ "$b" = "$BIN" ] && echo "this build" || echo "$b")"
    done
    echo "  this build's wrong path, per committed instruction: $wrong_path"
    unset runs
done
