#!/usr/bin/env bash
# bench_sim.sh: speed of the detailed core model and of functional warming,
# and the pointer-chase latency staircase of the simulated memory hierarchy.
#
# 1. Detailed core: simulated MIPS of
#      sim --full -q --guest-output none -o R.json -- PROG
#    on sort, interp and stencil at their default arguments (20-30 M
#    instructions each; built-in config = configs/boom-tip.ini). Instructions,
#    cycles and seconds come from R.json (results[0].instructions, .cycles,
#    .seconds: sim's own timing of the simulation, without start-up).
#    Best of --reps runs (default 3). Target: >= 1 MIPS (gem5 O3: 0.1-0.2).
# 2. Functional warming: wall time ($EPOCHREALTIME, so start-up, ELF loading
#    and writing the one checkpoint are included) of
#      checkpoint -o D --at N --warm configs/boom-tip.ini --guest-output none -- PROG SIZE
#    against the same command without --warm (plain fast-forward), interleaved,
#    best of --reps each; N = the program's instruction count rounded down to a
#    whole million (checkpoint stops at the last --at). SIZE 5 (93-146 M
#    instructions; SIZE 1 = the default arguments with --quick) so that
#    start-up does not dominate the fast-forward time. Target: warming >= 20 MIPS.
# 3. Pointer chase (build/rv/sim/ptr_chase KIB ITERS, tests/sim/ptr_chase.S):
#    one cyclic chain of dependent loads through every 64-byte line of a KIB
#    working set, 4 KiB to 256 MiB, under configs/boom-tip.ini as it is (next-
#    line prefetcher on) and again with --set prefetch.next_line=0. Cycles per
#    load and the misses per load are taken as in tests/e2e/sim_known_answers.sh
#    from the interval-log rows (-G 3600 = 200 iterations = 3200 loads) wholly
#    in the chase (loads > 0.85 x instructions, the last row excluded); for
#    working sets up to 8 MiB the chase runs three passes over the chain (at
#    least 2000 iterations) and the first is not measured (warm caches);
#    beyond that, 2000 iterations of the first pass are enough (the chain
#    starts at the lines the build wrote first, long evicted: all from DRAM).
#    Cycles are deterministic, so each point is run once. "est" is what the
#    configured latencies predict for the measured hit mix (see the legend).
#    256 MiB takes about 8 s (most of it simulating the 34 M-instruction build).
#
# Prints the report and writes it to bench/results/sim.txt (sim_quick.txt with
# --quick). A failed run or an inconsistent result (instruction count differing
# from `bbv --count-only`, a guest that did not exit 0, a chase with too few
# measured rows) is reported loudly and makes the exit status 1. Timings are
# figures, not pass/fail criteria. Needs bash >= 5 and python3 (JSON parsing).
#
# Usage: bench/bench_sim.sh [--quick] [--reps N] [--keep]
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
RVS=$TOP/build/rv/sim
CONFIG=$TOP/configs/boom-tip.ini

usage() {
    cat <<'EOF'
Usage: bench/bench_sim.sh [options]
Detailed-core MIPS (sim --full), functional-warming MIPS (checkpoint --warm) against plain
fast-forward, and the pointer-chase latency sweep; report in bench/results/sim.txt.

  --quick        smoke run: 1 rep, warming at the default arguments, chase up to 16 MiB
                 (report in bench/results/sim_quick.txt)
  --full         the default (accepted for bench/run_all.sh)
  --reps N       runs per timed figure, the fastest kept (default 3)
  --keep         keep the temporary directory (JSON results, interval logs)
  -h, --help     this help
EOF
}

msg() { echo "bench_sim: $*" >&2; }

quick=0 reps= keep=0
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --full) ;;
        --reps) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"; reps=$2; shift ;;
        --keep) keep=1 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
    shift
done
if [ -z "$reps" ]; then
    if [ $quick -eq 1 ]; then reps=1; else reps=3; fi
fi
DETAILED=(sort interp stencil)
WARM_SIZE=5 CHASE_KIB=(4 16 64 256 1024 4096 16384 65536 262144)
if [ $quick -eq 1 ]; then
    WARM_SIZE=1 CHASE_KIB=(4 16 64 256 1024 4096 16384)
    txt=$TOP/bench/results/sim_quick.txt
else
    txt=$TOP/bench/results/sim.txt
fi

[ -n "${EPOCHREALTIME:-}" ] || die "needs bash >= 5 (\$EPOCHREALTIME)"
command -v python3 >/dev/null || die "needs python3 (to read the JSON results)"
for t in sim checkpoint bbv; do
    [ -x "$TOP/build/bin/$t" ] || die "build/bin/$t not built (run 'make build')"
done
for w in "${DETAILED[@]}"; do
    [ -x "$RVW/$w" ] || die "$RVW/$w not built (run 'make rv-programs')"
done
[ -x "$RVS/ptr_chase" ] || die "$RVS/ptr_chase not built (run 'make rv-programs')"
[ -r "$CONFIG" ] || die "$CONFIG missing"

T=$(mktemp -d "${TMPDIR:-/tmp}/bench_sim.XXXXXX") || die "mktemp failed"
if [ $keep -eq 1 ]; then msg "keeping $T"; else trap 'rm -rf "$T"' EXIT; fi
mkdir -p "$T/cwd" "$T/bin" "$T/prog"
# Private copies: a rebuild of build/ during the run must not mix binaries.
for t in sim checkpoint bbv; do cp "$TOP/build/bin/$t" "$T/bin/$t" || die "cannot copy build/bin/$t"; done
for w in "${DETAILED[@]}"; do cp "$RVW/$w" "$T/prog/$w" || die "cannot copy $RVW/$w"; done
cp "$RVS/ptr_chase" "$T/prog/ptr_chase" || die "cannot copy $RVS/ptr_chase"
SIM=$T/bin/sim CKPT=$T/bin/checkpoint BBV=$T/bin/bbv
cd "$T/cwd" || die "cannot enter $T/cwd"     # the guests' working directory

sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
load3() { cut -d' ' -f1-3 /proc/loadavg; }
# Contention meter (as in bench_bbv.sh): CPUs kept busy by processes other than
# this script's children, averaged over a section. With 2 cores, above about
# 0.5 the section was measured under contention.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
child_ticks() { sed 's/^.*) //' "/proc/$$/stat" | awk '{ print $14 + $15 }'; }
HZ=$(getconf CLK_TCK)
meter_start() { m_t=$EPOCHREALTIME m_b=$(busy_ticks) m_c=$(child_ticks); }
meter_others() {
    awk -v b0="$m_b" -v b1="$(busy_ticks)" -v c0="$m_c" -v c1="$(child_ticks)" \
        -v t0="$m_t" -v t1="$EPOCHREALTIME" -v hz="$HZ" \
        'BEGIN { o = ((b1 - b0) - (c1 - c0)) / hz / (t1 - t0); if (o < 0) o = 0; printf "%.2f", o }'
}

problems=0
problem() {
    problems=$((problems + 1))
    echo "bench_sim: *** FAILURE: $* ***" >&2
}

# jget FILE EXPR...: Python expressions over d (the JSON document), r
# (d["results"][0] when present), printed space-separated on one line.
jget() {
    python3 - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0] if isinstance(d, dict) and d.get("results") else None
print(" ".join(str(eval(e)) for e in sys.argv[2:]))
EOF
}

# count PROG [ARGS]: retired instructions (bbv --count-only, last stderr line)
count() {
    local c
    "$BBV" --count-only -- "$@" >/dev/null 2>"$T/count.err" </dev/null ||
        { problem "bbv --count-only $* failed"; echo 0; return; }
    c=$(tail -n 1 "$T/count.err")
    [[ $c =~ ^[0-9]+$ ]] || { problem "bbv --count-only $*: last stderr line '$c' is not a count"; c=0; }
    echo "$c"
}

commit=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git -C "$TOP" diff --quiet HEAD -- lib sim checkpoint configs 2>/dev/null; then
    commit="$commit-dirty"
fi
sim_sha=$(sha256sum "$SIM" | cut -c1-12)
ckpt_sha=$(sha256sum "$CKPT" | cut -c1-12)
date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
mode=full; [ $quick -eq 1 ] && mode=quick
load_start=$(load3)
msg "$(date -u '+%F %T UTC'), $(nproc) cores, load $load_start, tree $commit, sim $sim_sha, checkpoint $ckpt_sha, $reps rep(s)"

# ------------------------------------------------------------ 1. detailed core
out1=$(printf '%-9s %12s %12s %7s %9s %8s %7s %6s  %s\n' workload instructions cycles CPI seconds MIPS spread others check)
met1=0
for w in "${DETAILED[@]}"; do
    meter_start
    ref=$(count "$T/prog/$w")
    best= worst= check=ok insts= cycles=
    for ((i = 1; i <= reps; i++)); do
        j=$T/$w.detailed.$i.json
        if ! "$SIM" --full -q --guest-output none -o "$j" -- "$T/prog/$w" >"$T/$w.sim.out" 2>"$T/$w.sim.err" </dev/null; then
            problem "$w: sim --full exited $?: $(tail -n 3 "$T/$w.sim.err")"; check=FAILED; break
        fi
        read -r n c s stop st < <(jget "$j" 'r["instructions"]' 'r["cycles"]' 'r["seconds"]' 'r["stopped_by"]' 'r.get("exit_status")')
        msg "$w: rep $i/$reps: $n instructions, $c cycles, $s s"
        if [ "$stop" != exit ] || [ "$st" != 0 ]; then problem "$w: stopped_by $stop, exit status $st"; check=GUEST-FAILED; fi
        if [ -n "$insts" ] && { [ "$n" != "$insts" ] || [ "$c" != "$cycles" ]; }; then
            problem "$w: rep $i gave $n instructions / $c cycles, rep 1 $insts / $cycles (not deterministic)"; check=NONDETERMINISTIC
        fi
        insts=$n cycles=$c
        if [ -z "$best" ] || lt "$s" "$best"; then best=$s; fi
        if [ -z "$worst" ] || lt "$worst" "$s"; then worst=$s; fi
    done
    [ "$check" = FAILED ] && { out1+=$'\n'"$(printf '%-9s %s' "$w" FAILED)"; continue; }
    if [ "$insts" != "$ref" ]; then problem "$w: sim retired $insts instructions, bbv --count-only $ref"; check=COUNT-MISMATCH; fi
    others=$(meter_others)
    row=$(awk -v w="$w" -v n="$insts" -v c="$cycles" -v s="$best" -v x="$worst" -v r="$reps" -v o="$others" -v k="$check" 'BEGIN {
        sp = r > 1 ? sprintf("%.0f%%", (x / s - 1) * 100) : "-"
        printf "%-9s %12d %12d %7.3f %9.3f %8.2f %7s %6s  %s", w, n, c, c / n, s, n / s / 1e6, sp, o, k }')
    awk -v n="$insts" -v s="$best" 'BEGIN { exit !(n / s / 1e6 >= 1) }' && met1=$((met1 + 1))
    out1+=$'\n'"$row"
done

# ------------------------------------------------------ 2. functional warming
out2=$(printf '%-9s %4s %11s %8s %9s %8s %9s %8s %11s %9s %6s  %s\n' workload SIZE "at N" "warm s" "warm MIPS" "ff s" "ff MIPS" "ff/warm" "warm(int.)" "ff(int.)" others check)
met2=0
declare -A wbest wint
for w in "${DETAILED[@]}"; do
    meter_start
    total=$(count "$T/prog/$w" "$WARM_SIZE")
    at=$(( total / 1000000 * 1000000 ))
    [ "$at" -gt 0 ] || { problem "$w $WARM_SIZE: $total instructions, too few for the warming figure"; continue; }
    wbest=() wint=()
    check=ok
    for ((i = 1; i <= reps; i++)); do
        for kind in warm ff; do
            d=$T/ck.$w.$kind
            rm -rf "$d"
            args=()
            [ $kind = warm ] && args=(--warm "$CONFIG")
            s=$EPOCHREALTIME
            "$CKPT" -o "$d" --at "$at" "${args[@]}" --guest-output none -- "$T/prog/$w" "$WARM_SIZE" \
                >"$T/ck.out" 2>"$T/ck.err" </dev/null
            rc=$?
            e=$EPOCHREALTIME
            if [ $rc -ne 0 ]; then problem "$w: checkpoint ($kind) exited $rc: $(tail -n 3 "$T/ck.err")"; check=FAILED; continue; fi
            wall=$(sub "$e" "$s")
            read -r n im < <(jget "$d/checkpoints.json" 'd["fast_forward"]["instructions"]' 'd["fast_forward"]["mips"]')
            [ "$n" = "$at" ] || { problem "$w: checkpoint ($kind) fast-forwarded $n instructions, not $at"; check=COUNT-MISMATCH; }
            msg "$w $WARM_SIZE: rep $i/$reps: checkpoint --at $at ($kind): $wall s wall (checkpoint's own figure $im MIPS)"
            if [ -z "${wbest[$kind]:-}" ] || lt "$wall" "${wbest[$kind]}"; then wbest[$kind]=$wall; fi
            if [ -z "${wint[$kind]:-}" ] || lt "${wint[$kind]}" "$im"; then wint[$kind]=$im; fi
        done
    done
    [ -n "${wbest[warm]:-}" ] && [ -n "${wbest[ff]:-}" ] || { out2+=$'\n'"$(printf '%-9s %4s %s' "$w" "$WARM_SIZE" FAILED)"; continue; }
    others=$(meter_others)
    row=$(awk -v w="$w" -v z="$WARM_SIZE" -v n="$at" -v ws="${wbest[warm]}" -v fs="${wbest[ff]}" \
        -v wi="${wint[warm]}" -v fi="${wint[ff]}" -v o="$others" -v k="$check" 'BEGIN {
        wm = n / ws / 1e6; fm = n / fs / 1e6
        printf "%-9s %4d %11d %8.3f %9.1f %8.3f %9.1f %8.2f %11.1f %9.1f %6s  %s", w, z, n, ws, wm, fs, fm, fm / wm, wi, fi, o, k }')
    awk -v n="$at" -v s="${wbest[warm]}" 'BEGIN { exit !(n / s / 1e6 >= 20) }' && met2=$((met2 + 1))
    out2+=$'\n'"$row"
done

# ---------------------------------------------------------- 3. pointer chase
# chase_stats CSV SKIP_LOADS: over the interval-log rows wholly in the chase
# (loads > 0.85 x instructions, the last row excluded), skipping rows until
# SKIP_LOADS chase loads have gone by: "rows loads cycles l1d l2 llc dtlb walks"
# (walks = l2tlb_misses, I and D).
chase_stats() {
    python3 - "$1" "$2" <<'EOF'
import csv, sys
rows = [{k: int(v) for k, v in row.items()} for row in csv.DictReader(open(sys.argv[1]))][:-1]
skip, seen = int(sys.argv[2]), 0
keys = ["loads", "cycles", "l1d_misses", "l2_misses", "llc_misses", "dtlb_misses", "l2tlb_misses"]
tot = dict.fromkeys(keys, 0); n = 0
for x in rows:
    if x["loads"] <= 0.85 * x["instructions"]:
        continue
    if seen >= skip:
        n += 1
        for k in keys:
            tot[k] += x[k]
    seen += x["loads"]
print(n, *(tot[k] for k in keys))
EOF
}

read -r L1 L2 LLC DNS FMHZ TLB2 PTW L1K L1W L2K L2W LLCK LLCW DTLB L2TLB PF < <(
    "$SIM" -c "$CONFIG" --list-params | awk '
        /^\[/ { sec = substr($1, 2, length($1) - 2); next }
        NF >= 3 && $2 == "=" { v[sec "." $1] = $3 }
        END { print v["l1d.latency"], v["l2.latency"], v["llc.latency"], v["dram.latency_ns"], v["core.freq_mhz"],
                    v["l2tlb.latency"], v["ptw.latency"], v["l1d.size_kib"], v["l1d.ways"], v["l2.size_kib"], v["l2.ways"],
                    v["llc.size_kib"], v["llc.ways"], v["dtlb.entries"], v["l2tlb.entries"], v["prefetch.next_line"] }')
[ -n "$PF" ] || die "could not read the latencies from sim -c $CONFIG --list-params"
# DRAM in core cycles, rounded up as lib/uarch/dram.c does.
DRAMC=$(( (DNS * FMHZ + 999) / 1000 ))
LAT_L2=$((L1 + L2)) LAT_LLC=$((L1 + L2 + LLC)) LAT_DRAM=$((L1 + L2 + LLC + DRAMC))

fmt3='%9s %6s %7s %8s %8s %6s %6s %6s %6s %8s %8s %8s %6s  %s\n'
chase_table() { # chase_table LABEL [--set ...]
    local label=$1; shift
    local t kib iters skip name csv st rows loads cyc l1 l2 l3 dt wk wall s e rc check
    t=$(printf "$fmt3" "work set" iters loads "cyc/ld" est "L1%" "L2%" "LLC%" "DRAM%" "l1d m/ld" "l2 m/ld" "llc m/ld" "walk/ld" "sim s")
    for kib in "${CHASE_KIB[@]}"; do
        # Three passes over the chain up to 8 MiB (the first is not measured;
        # one pass = KIB * 16 loads = KIB iterations), else 2000 iterations
        # (32000 loads) of the first, all from DRAM.
        if [ "$kib" -le 8192 ]; then
            iters=$(( 3 * kib > 2000 ? 3 * kib : 2000 )) skip=$(( kib * 16 ))
        else
            iters=2000 skip=0
        fi
        name=$T/chase.$label.$kib
        s=$EPOCHREALTIME
        "$SIM" --full -q --guest-output none -c "$CONFIG" "$@" -G 3600 --interval-log "$name.csv" -o "$name.json" \
            -- "$T/prog/ptr_chase" "$kib" "$iters" >"$name.out" 2>"$name.err" </dev/null
        rc=$?
        e=$EPOCHREALTIME
        wall=$(sub "$e" "$s")
        check=
        if [ $rc -ne 0 ]; then
            problem "ptr_chase $kib KiB ($label): sim exited $rc: $(tail -n 3 "$name.err")"
            t+=$'\n'"$(printf '%9s %6s  FAILED (exit %s after %.1f s)' "$(human "$kib")" "$iters" "$rc" "$wall")"
            continue
        fi
        read -r rows loads cyc l1 l2 l3 dt wk < <(chase_stats "$name.csv" "$skip")
        if [ "$rows" -lt 2 ]; then
            problem "ptr_chase $kib KiB ($label): only $rows interval-log rows wholly in the measured chase"; check=" FEW-ROWS"
            [ "$loads" -gt 0 ] || { t+=$'\n'"$(printf '%9s %6s  no rows measured' "$(human "$kib")" "$iters")"; continue; }
        fi
        msg "ptr_chase $kib KiB ($label): $iters iterations, $rows rows measured, $wall s"
        t+=$'\n'"$(awk -v ws="$(human "$kib")" -v it="$iters" -v n="$loads" -v c="$cyc" -v a="$l1" -v b="$l2" -v d="$l3" \
            -v dt="$dt" -v wk="$wk" -v w="$wall" -v k="$check" -v f="$fmt3" \
            -v L1="$L1" -v L2="$LAT_L2" -v L3="$LAT_LLC" -v LD="$LAT_DRAM" -v tl="$TLB2" -v pw="$PTW" 'BEGIN {
            m1 = a / n; m2 = b / n; m3 = d / n
            h1 = 1 - m1; h2 = m1 - m2; h3 = m2 - m3; h4 = m3
            est = h1 * L1 + h2 * L2 + h3 * L3 + h4 * LD + dt / n * tl + wk / n * pw
            printf substr(f, 1, length(f) - 1), ws, it, n, sprintf("%.2f", c / n), sprintf("%.2f", est),
                sprintf("%.1f", 100 * h1), sprintf("%.1f", 100 * h2), sprintf("%.1f", 100 * h3), sprintf("%.1f", 100 * h4),
                sprintf("%.3f", m1), sprintf("%.3f", m2), sprintf("%.3f", m3), sprintf("%.3f", wk / n), sprintf("%.1f%s", w, k) }')"
    done
    echo "$t"
}
human() { if [ "$1" -ge 1024 ]; then echo "$(( $1 / 1024 )) MiB"; else echo "$1 KiB"; fi; }

meter_start
out3a=$(chase_table asis)
out3b=$(chase_table nopf --set prefetch.next_line=0)
others3=$(meter_others)

# ------------------------------------------------------------------- report
report() {
    echo "sim benchmark ($mode run, $date_utc, tree $commit, sim binary $sim_sha, checkpoint binary $ckpt_sha,"
    echo "$(nproc) cores, best of $reps; 1/5/15-min load average $load_start at the start, $(load3) at the end)"
    echo "others: average number of CPUs that processes other than this benchmark kept busy during the"
    echo "workload/section (0 = quiet; with 2 cores, above about 0.5 the figures were measured under contention)."
    echo
    echo "1. Detailed core: sim --full -q --guest-output none -o R.json -- PROG (default arguments; built-in"
    echo "   config = configs/boom-tip.ini). seconds = results[0].seconds (simulation only), fastest rep;"
    echo "   MIPS = instructions / seconds; CPI = cycles / instructions; spread = slowest / fastest rep - 1."
    echo "$out1"
    echo "   target: >= 1 MIPS (gem5 O3 runs about 0.1-0.2 MIPS) -- met by $met1/${#DETAILED[@]}"
    echo
    echo "2. Functional warming: checkpoint -o D --at N --warm configs/boom-tip.ini --guest-output none -- PROG SIZE"
    echo "   against the same without --warm (plain fast-forward); N = the run's instruction count rounded down"
    echo "   to a million. Wall time (\$EPOCHREALTIME: start-up, ELF loading, the fast-forward and writing the one"
    echo "   checkpoint), fastest of $reps interleaved reps; MIPS = N / wall seconds; ff/warm = how many times faster"
    echo "   plain fast-forward is. (int.): checkpoint's own fast_forward.mips (checkpoints.json; the pass only)."
    echo "$out2"
    echo "   target: functional warming >= 20 MIPS -- met by $met2/${#DETAILED[@]}"
    echo
    echo "3. Pointer chase: sim --full -c configs/boom-tip.ini [--set ...] -G 3600 --interval-log -- ptr_chase KIB ITERS"
    echo "   Configured (sim --list-params): L1D ${L1K} KiB ${L1W}-way, load-to-use $L1; L2 ${L2K} KiB ${L2W}-way, +$L2 = $LAT_L2;"
    echo "   LLC ${LLCK} KiB ${LLCW}-way, +$LLC = $LAT_LLC; DRAM ${DNS} ns at ${FMHZ} MHz = +$DRAMC = $LAT_DRAM cycles per load"
    echo "   ($(awk -v a="$DNS" -v f="$FMHZ" 'BEGIN { printf "%.4g", a * f / 1000 }') cycles rounded up, as lib/uarch/dram.c does)."
    echo "   D-TLB $DTLB entries (covers $((DTLB * 4)) KiB), L2 TLB $L2TLB entries direct-mapped (covers $((L2TLB * 4 / 1024)) MiB),"
    echo "   +$TLB2 on a D-TLB miss, +$PTW more for a page walk; the chase misses the D-TLB once per 64 loads (one"
    tlb1=$(awk -v a="$TLB2" 'BEGIN { printf "%.4g", a / 64 }')
    tlb2=$(awk -v a="$TLB2" -v b="$PTW" 'BEGIN { printf "%.4g", (a + b) / 64 }')
    echo "   page) beyond the D-TLB's reach: +$tlb1 cycles per load, and beyond the L2 TLB's +$tlb2."
    echo "   Measured over the interval-log rows wholly in the chase (working sets <= 8 MiB: after the first"
    echo "   pass over the chain; beyond, the first 2000 iterations, all from DRAM). cyc/ld = cycles / loads"
    echo "   (16 dependent loads per 18-instruction iteration);"
    echo "   L1% .. DRAM%: where the loads hit, from the events (L1% = 1 - l1d_misses/loads, L2% = (l1d_misses -"
    echo "   l2_misses)/loads, ...); x m/ld = x_misses / loads; walk/ld = l2tlb_misses (page walks) / loads;"
    echo "   est = (L1%*$L1 + L2%*$LAT_L2 + LLC%*$LAT_LLC + DRAM%*$LAT_DRAM) / 100 + dtlb_misses/ld*$TLB2 + walk/ld*$PTW: what the"
    echo "   configured latencies predict for that hit mix if every load paid its level's full latency;"
    echo "   sim s = wall time of the whole sim run (build + chase)."
    echo
    echo "   a) configs/boom-tip.ini as it is (prefetch.next_line = $PF):"
    echo "$out3a" | sed 's/^/   /'
    echo
    echo "   b) the same with --set prefetch.next_line=0 (pure latency steps):"
    echo "$out3b" | sed 's/^/   /'
    echo "   (others during section 3: $others3)"
    if [ $quick -eq 1 ]; then
        echo "   (--quick: working sets up to 16 MiB only; the full run goes to 256 MiB)"
    fi
    if [ $problems -gt 0 ]; then
        echo
        echo "*** bench_sim: $problems FAILURE(S): see the messages on stderr and the check columns ***"
    fi
}
mkdir -p "$(dirname "$txt")" || die "cannot create $(dirname "$txt")"
echo
report | tee "$T/report.txt"
cp "$T/report.txt" "$txt.tmp.$$" && mv "$txt.tmp.$$" "$txt" || die "cannot write $txt"
echo "results: ${txt#"$TOP"/}"
if [ $problems -gt 0 ]; then
    echo "*** bench_sim: $problems FAILURE(S) ***" >&2
    exit 1
fi
