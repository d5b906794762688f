#!/usr/bin/env bash
# calib.sh: the detailed core (sim --full) against published figures of the
# hardware it models, SonicBOOM (MegaBoom; configs/boom-tip.ini).
#
# Builds public benchmarks from the sources vendored under bench/calib/vendor
# (vendor/README.md: repository, commit and path of each file) and two
# microbenchmarks of ours as static riscv64 programs (bench/calib/calib.mk,
# into build/calib/), checks that each computes what it should (under
# qemu-riscv64: CoreMark's own CRC validation, Dhrystone's "should be"
# values, Embench's verify_benchmark), then runs each once per configuration
#     sim --full -q --guest-output none -o R.json [-c CONFIG] -- PROG
# and prints, per configuration, a table of its figures beside the
# published ones (bench/calib/report.py computes them from R.json):
#   CoreMark/MHz = iterations x 1e6 / cycles, over the cycles the extra
#       iterations of a second build take (CoreMark's timed loop, without
#       start-up and report) and over the whole run; CoreMark's own timing
#       is meaningless here (the emulator's clock counts instructions); the
#       same for the signed-ee_u32 build, and the ratio of the two
#   DMIPS/MHz = (runs x 1e6 / cycles) / 1757, the same two ways
#   mispredict penalty = extra cycles per extra misprediction of
#       branch_penalty.S's random variant over its predictable one
#   taken-branch IPC of taken_loop.S (loops of 16 and 4 instructions)
#   and for every program its instructions, IPC and mispredicts per 1000
#   instructions.
# Configurations: boom-tip (configs/boom-tip.ini), boom-tea
# (configs/boom-tea.ini), boom-tip+sfb (boom-tip with --set core.sfb=1, run
# only when `sim --list-params` has core.sfb); any of them + SEC.KEY=V
# overrides (e.g. boom-tip+core.wrong_path=0), joined with '+'. Writes bench/results/calib.md
# (calib_quick.md with --quick) and prints it. Exit status 1 if a program
# failed its check or a run did not exit 0; 2 on a usage or build error.
#
# Usage: bench/calib/calib.sh [--config LIST] [--quick] [-j JOBS] [-o FILE]
#   --config LIST  comma-separated configurations (default boom-tip,boom-tea,boom-tip+sfb)
#   --quick        smoke run: fewer iterations, one Embench program
#   -j JOBS        simulations run at once (default: the number of cores)
#   -o FILE        the Markdown report (default bench/results/calib.md)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../paths.sh"
CAL=$TOP/bench/calib
OUT=$TOP/build/calib

configs=boom-tip,boom-tea,boom-tip+sfb quick=0 jobs=$(nproc) md=
while [ $# -gt 0 ]; do
    case $1 in
    --config) [ $# -ge 2 ] || die "--config needs a list"; configs=$2; shift ;;
    --quick) quick=1 ;;
    -j) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "-j needs a positive integer"; jobs=$2; shift ;;
    -o) [ $# -ge 2 ] || die "-o needs a file"; md=$2; shift ;;
    -h|--help) print_help; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
    shift
done

# The programs; their names carry their parameters (calib.mk builds them,
# report.py reads the parameters back). Two CoreMark builds and two
# Dhrystone run counts: the difference is the benchmark's timed loop alone.
# CoreMark twice over: as distributed, and with a signed ee_u32 (coremark-s32-N),
# the two builds whose difference Luffca measured on MegaBoom's RTL.
# Sizes: 2-15 M instructions each, about 85 M per configuration in all
# (seconds of simulation; --quick: a third of that).
if [ $quick -eq 1 ]; then
    CM=(3 9) DHRY=(3000 9000) OUTER=2048 TAKEN=(16-62500 4-250000) EMBENCH=(crc32)
    md=${md:-$TOP/bench/results/calib_quick.md}
else
    CM=(10 40) DHRY=(10000 40000) OUTER=16384 TAKEN=(16-250000 4-1000000)
    EMBENCH=(crc32 edn huffbench matmult-int wikisort)
    md=${md:-$TOP/bench/results/calib.md}
fi
PROGS=("${CM[@]/#/coremark-}" "${CM[@]/#/coremark-s32-}" "${DHRY[@]/#/dhrystone-}" "${EMBENCH[@]/#/embench-}"
       "branch-random-$OUTER" "branch-predictable-$OUTER" "${TAKEN[@]/#/taken-}")
# binary NAME: the program that NAME runs (the Dhrystones share one)
binary() { case $1 in dhrystone-*) echo "$OUT/dhrystone" ;; *) echo "$OUT/$1" ;; esac; }
# stdin NAME: what NAME reads (Dhrystone asks for its number of runs)
stdin() { case $1 in dhrystone-*) echo "${1#dhrystone-}" ;; esac; }

# config_args NAME: sets ARGS to sim's options for configuration NAME:
# boom-tip or boom-tea, then '+sfb' or '+SEC.KEY=V' overrides (an ablation:
# which mechanism moves a figure)
config_args() {
    local base=${1%%+*} rest=${1#*+} set
    case $base in
    boom-tip|boom-tea) ARGS=(-c "$TOP/configs/$base.ini") ;;
    *) die "unknown configuration '$1' (boom-tip or boom-tea, then +sfb or +SEC.KEY=V)" ;;
    esac
    [ "$rest" != "$1" ] || return 0
    IFS=+ read -r -a sets <<<"$rest"
    for set in "${sets[@]}"; do
        [ "$set" = sfb ] && set=core.sfb=1
        [[ $set == *.*=* ]] || die "configuration '$1': '$set' is not sfb or SEC.KEY=V"
        ARGS+=(--set "$set")
    done
}
IFS=, read -r -a CONFIGS <<<"$configs"
[ ${#CONFIGS[@]} -gt 0 ] || die "--config: no configuration"
for c in "${CONFIGS[@]}"; do config_args "$c"; done

command -v python3 >/dev/null || die "needs python3 (to read sim's JSON results)"
command -v qemu-riscv64 >/dev/null || die "needs qemu-riscv64 (to check the programs' output; make deps)"
[ -x "$BIN/sim" ] || die "build/bin/sim not built (run 'make build')"
T=$(mktemp -d "${TMPDIR:-/tmp}/calib.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$T"' EXIT
# A private copy: the core may be rebuilt while this runs.
cp "$BIN/sim" "$T/sim"
SIM=$T/sim

targets=()
for p in "${PROGS[@]}"; do targets+=("$(binary "$p")"); done
mapfile -t targets < <(printf '%s\n' "${targets[@]}" | sort -u)
make -s -C "$TOP" -f bench/calib/calib.mk -j"$jobs" "${targets[@]#"$TOP"/}" >"$T/make.log" 2>&1 ||
    { cat "$T/make.log" >&2; die "the programs could not be built (make -f bench/calib/calib.mk)"; }

# ------------------------------------------------------------ correctness
failures=0
fail() { echo "$SCRIPT: $*" >&2; failures=$((failures + 1)); }
# check_coremark OUT: CoreMark validated itself. With the performance-run
# seeds (seedcrc 0xe9f5) it compares its list, matrix and state CRCs with
# the known values and prints ERROR! for any that differs; the only ERROR!
# allowed is the run-time rule (at least 10 s), which no simulated run meets
# and which makes it print "Errors detected" instead of "Correct operation
# validated".
check_coremark() {
    awk '/^seedcrc *: 0xe9f5$/ { seeds = 1 } /^\[0\]crcfinal *: 0x/ { final = 1 }
         /ERROR!/ && !/Must execute for at least 10 secs/ { bad = 1 }
         END { exit !(seeds && final && !bad) }' "$1"
}
# check_dhrystone OUT RUNS: every "should be" value that is not
# implementation-dependent is the one printed above it
check_dhrystone() {
    awk -v runs="$2" '
        /should be:/ {
            want = $0; sub(/.*should be: */, "", want)
            if (want ~ /^\(/) next
            if (want == "Number_Of_Runs + 10") want = runs + 10
            n++
            if (got != want) { bad++; print "dhrystone: " name " = " got ", should be " want > "/dev/stderr" }
            next
        }
        /: / { name = got = $0; sub(/:.*/, "", name); sub(/^[^:]*: */, "", got) }
        END { exit !(n >= 20 && !bad) }' "$1"
}
checked=()
for p in "${PROGS[@]}"; do
    out=$T/$p.qemu
    rc=0
    qemu-riscv64 "$(binary "$p")" <<<"$(stdin "$p")" >"$out" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
        fail "$p exited $rc under qemu-riscv64: $(tail -n 2 "$out")"
    elif [[ $p == coremark-* ]] && ! check_coremark "$out"; then
        fail "$p: CoreMark did not validate its run (see below)"; cat "$out" >&2
    elif [[ $p == dhrystone-* ]] && ! check_dhrystone "$out" "${p#dhrystone-}"; then
        fail "$p: wrong final values"
    else
        checked+=("$p")
    fi
done
[ $failures -eq 0 ] || die "$failures program(s) failed their check under qemu-riscv64; nothing simulated"

# ------------------------------------------------------------- simulation
has_sfb() { "$SIM" --list-params | awk '/^\[/ { s = $1 } s == "[core]" && $1 == "sfb" { f = 1 } END { exit !f }'; }
report_args=() runnable=()
for c in "${CONFIGS[@]}"; do
    config_args "$c"
    if [ "$c" = boom-tip+sfb ] && ! has_sfb; then
        report_args+=(--unavailable "$c::n/a (no core.sfb parameter)")
    else
        report_args+=(--config "$c::${ARGS[*]#"$TOP"/}")
        runnable+=("$c")
        mkdir -p "$T/runs/$c"
    fi
done
for p in "${PROGS[@]}"; do report_args+=(--program "$p"); done
run_one() {
    local c=$1 p=$2 ARGS
    config_args "$c"
    "$SIM" --full -q --guest-output none -o "$T/runs/$c/$p.json" "${ARGS[@]}" -- "$(binary "$p")" \
        <<<"$(stdin "$p")" >"$T/runs/$c/$p.log" 2>&1 ||
        echo "$SCRIPT: sim failed on $p ($c): $(tail -n 3 "$T/runs/$c/$p.log")" >&2
}
export -f run_one config_args binary stdin die
export T SIM OUT TOP SCRIPT
start=$SECONDS
if [ ${#runnable[@]} -gt 0 ]; then
    echo "$SCRIPT: $((${#runnable[@]} * ${#PROGS[@]})) simulations, $jobs at a time" >&2
    # one line per run, CONFIG PROGRAM, shared out between the jobs
    for c in "${runnable[@]}"; do
        for p in "${PROGS[@]}"; do echo "$c $p"; done
    done | xargs -P "$jobs" -L 1 bash -c 'run_one "$@"' _
fi
sim_seconds=$((SECONDS - start))

# ----------------------------------------------------------------- report
commit=$(git -C "$TOP" rev-parse --short HEAD)
if [ -n "$(git -C "$TOP" status --porcelain -- sim lib configs)" ]; then
    commit+=" (with uncommitted changes under sim/, lib/ or configs/)"
fi
mkdir -p "$(dirname "$md")"
rc=0
python3 "$CAL/report.py" --runs "$T/runs" "${report_args[@]}" \
    --meta "date=$(date -u '+%F %T UTC')" --meta "commit=$commit" \
    --meta "sim=build/bin/sim, sha256 $(sha256sum "$SIM" | cut -c1-12)" \
    --meta "host=$(uname -n), $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
    --meta "run=bench/calib/calib.sh$([ $quick -eq 1 ] && echo ' --quick') --config $configs: $sim_seconds s of simulation" \
    --meta "checked=${checked[*]}" >"$T/report.md" || rc=$?
[ $rc -le 1 ] || die "report.py failed"
cp "$T/report.md" "$md.tmp.$$" && mv "$md.tmp.$$" "$md"
cat "$md"
echo "report: ${md#"$TOP"/}" >&2
exit $rc
