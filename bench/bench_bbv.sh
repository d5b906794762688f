#!/usr/bin/env bash
# bench_bbv.sh: throughput of `bbv` against qemu-riscv64 on the same programs.
#
# For each workload: choose SIZE so the run retires about TARGET instructions
# (1-5 G by default; calibrated with `bbv --count-only` at SIZE 1 and 2, which
# also captures a fixed start-up cost such as ptr_chase's BUILD phase), then
# time, in the same benchmark run and one after another:
#   qemu-riscv64 PROG SIZE
#   bbv --interval 100M          -- PROG SIZE     (1 interval size)
#   bbv --interval 10M,100M,1G   -- PROG SIZE     (3 interval sizes)
# Wall time is taken with bash's $EPOCHREALTIME around each command (so it
# includes process start-up, ELF loading and writing the .bb.gz files); MIPS =
# retired instructions / wall seconds. The guest's stdout and exit status must
# be identical under qemu and under both bbv runs, and both bbv runs must
# retire the same count; a mismatch is reported loudly and makes the exit
# status non-zero. Timings are figures, not pass/fail criteria.
#
# Prints a table on stdout and writes bench/results/bbv.csv and bbv.txt (the
# table) (bench/results/bbv_quick.* with --quick). With --reps N the three
# commands are run N times, interleaved, and each keeps its fastest time; the
# spread column shows how noisy the machine was. Contention is measured, not
# assumed: "others" is the average number of CPUs that processes other than
# this benchmark kept busy during the workload (from /proc/stat), next to the
# 1-minute load average; with 2 cores, figures with others above about 0.5
# were measured under contention.
#
# Usage: bench/bench_bbv.sh [--quick] [--target N] [--reps N] [--keep]
#                           [--csv FILE] [WORKLOAD...]
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
BBV=$TOP/build/bin/bbv
QEMU=${QEMU:-qemu-riscv64}

usage() {
    cat <<'EOF'
Usage: bench/bench_bbv.sh [options] [WORKLOAD...]
Time bbv (1 and 3 interval sizes) against qemu-riscv64 on RISC-V workloads.

  --quick        smoke run: about 60 M instructions per workload (default target 1.5G)
  --target N     instructions per workload, k/M/G suffixes (SIZE is chosen to match)
  --reps N       run each command N times (interleaved) and keep the fastest (default 1)
  --csv FILE     CSV output, the table goes next to it as .txt
                 (default bench/results/bbv.csv, bbv_quick.csv with --quick)
  --keep         keep the temporary directory (guest outputs, .bb.gz, summaries)
  -h, --help     this help

Default workloads: int_compute ptr_chase sort interp stencil (build/rv/workloads/).
Environment: QEMU (default qemu-riscv64).
EOF
}


# to_count 1.5G -> 1500000000
to_count() {
    awk -v s="$1" 'BEGIN {
        m = 1; u = toupper(substr(s, length(s)));
        if (u == "K") m = 1e3; else if (u == "M") m = 1e6; else if (u == "G") m = 1e9;
        if (m != 1) s = substr(s, 1, length(s) - 1);
        if (s !~ /^[0-9]+(\.[0-9]+)?$/) exit 1;
        printf "%.0f\n", s * m }'
}

quick=0 target= reps=1 csv= keep=0 workloads=()
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --target) [ $# -ge 2 ] || die "--target needs a value"; target=$(to_count "$2") || die "bad --target '$2'"; shift ;;
        --reps) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"; reps=$2; shift ;;
        --csv) [ $# -ge 2 ] || die "--csv needs a file"; csv=$2; shift ;;
        --keep) keep=1 ;;
        -h|--help) usage; exit 0 ;;
        -*) die "unknown option '$1' (see --help)" ;;
        *) workloads+=("$1") ;;
    esac
    shift
done
[ ${#workloads[@]} -gt 0 ] || workloads=(int_compute ptr_chase sort interp stencil)
if [ -z "$target" ]; then
    if [ $quick -eq 1 ]; then target=60000000; else target=1500000000; fi
fi
if [ -z "$csv" ]; then
    if [ $quick -eq 1 ]; then csv=$TOP/bench/results/bbv_quick.csv; else csv=$TOP/bench/results/bbv.csv; fi
fi

[ -n "${EPOCHREALTIME:-}" ] || die "needs bash >= 5 (\$EPOCHREALTIME)"
[ -x "$BBV" ] || die "$BBV not built (run 'make')"
QEMU=$(command -v "$QEMU") || die "qemu-riscv64 not found (Debian package qemu-user)"
for w in "${workloads[@]}"; do
    [ -x "$RVW/$w" ] || die "$RVW/$w not built (run 'make rv-programs')"
done

T=$(mktemp -d "${TMPDIR:-/tmp}/bench_bbv.XXXXXX") || die "mktemp failed"
if [ $keep -eq 1 ]; then echo "bench_bbv: keeping $T" >&2; else trap 'rm -rf "$T"' EXIT; fi
mkdir -p "$T/cwd"
cd "$T/cwd" || die "cannot enter $T/cwd"     # the guests' working directory
# Run a private copy: a rebuild of build/bin/bbv during the run must not mix binaries.
cp "$BBV" "$T/bbv" || die "cannot copy $BBV"
BBV=$T/bbv
bbv_sha=$(sha256sum "$BBV" | cut -c1-12)

sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }
div() { awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN { if (b > 0) printf f, a / b; else printf "nan" }'; }
load1() { cut -d' ' -f1 /proc/loadavg; }
# Contention meter: CPU time used on the whole machine (/proc/stat: user, nice,
# system, irq, softirq, steal) minus the CPU time of this script's waited-for
# children (/proc/$$/stat cutime+cstime), both in clock ticks.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
child_ticks() { sed 's/^.*) //' "/proc/$$/stat" | awk '{ print $14 + $15 }'; }
HZ=$(getconf CLK_TCK)
msg() { echo "bench_bbv: $*" >&2; }

# run_rep KEY OUT ERR CMD...: run CMD once, stdout in OUT, stderr in ERR; keeps
# per KEY the fastest and slowest wall time (wmin, wmax), the exit status (xrc;
# every rep must agree) and, with SUMMARY set to bbv's --summary file, the best
# "mips" bbv reported (smips). Sets WALL to this rep's time.
declare -A wmin wmax xrc smips
run_rep() {
    local key=$1 out=$2 err=$3 s e rc m; shift 3
    s=$EPOCHREALTIME
    "$@" >"$out" 2>"$err" </dev/null
    rc=$?
    e=$EPOCHREALTIME
    WALL=$(sub "$e" "$s")
    if [ -n "${xrc[$key]:-}" ] && [ "$rc" != "${xrc[$key]}" ]; then
        problem "$key: exit status ${xrc[$key]} then $rc"
    fi
    xrc[$key]=$rc
    if [ -z "${wmin[$key]:-}" ] || awk -v a="$WALL" -v b="${wmin[$key]}" 'BEGIN { exit !(a < b) }'; then wmin[$key]=$WALL; fi
    if [ -z "${wmax[$key]:-}" ] || awk -v a="$WALL" -v b="${wmax[$key]}" 'BEGIN { exit !(a > b) }'; then wmax[$key]=$WALL; fi
    if [ -n "${SUMMARY:-}" ]; then
        m=$(summary_field "$SUMMARY" mips)
        if [ -n "$m" ] && { [ -z "${smips[$key]:-}" ] || awk -v a="$m" -v b="${smips[$key]}" 'BEGIN { exit !(a > b) }'; }; then
            smips[$key]=$m
        fi
    fi
}

problems=0
problem() {
    problems=$((problems + 1))
    echo "bench_bbv: *** MISMATCH/FAILURE: $* ***" >&2
}

# count W SIZE: retired instructions of W at SIZE (bbv --count-only)
count() {
    local c
    "$BBV" --count-only -- "$RVW/$1" "$2" >/dev/null 2>"$T/count.err" </dev/null ||
        { cat "$T/count.err" >&2; die "bbv --count-only failed on $1 $2"; }
    c=$(tail -n 1 "$T/count.err")
    [[ $c =~ ^[0-9]+$ ]] || die "bbv --count-only on $1 $2: last stderr line is '$c', not a count"
    echo "$c"
}

# summary_field FILE KEY: a number from bbv's JSON summary (flat keys only)
summary_field() {
    sed -n 's/^[[:space:]]*"'"$2"'":[[:space:]]*\([0-9.eE+-]*\),\{0,1\}[[:space:]]*$/\1/p' "$1" | head -n 1
}

commit=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && ! git -C "$TOP" diff --quiet HEAD -- lib bbv 2>/dev/null; then
    commit="$commit-dirty"
fi
date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)
mode=full; [ $quick -eq 1 ] && mode=quick
qemu_ver=$("$QEMU" --version | head -n 1 | awk '{ print $3 }')

msg "$(date -u '+%F %T UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), bbv $commit (binary $bbv_sha), qemu $qemu_ver"
msg "target about $target instructions per workload, $reps rep(s) per command"

mkdir -p "$(dirname "$csv")" || die "cannot create $(dirname "$csv")"
csv_tmp=$T/results.csv
echo "date_utc,commit,mode,workload,size,instructions,qemu_wall_s,bbv1_wall_s,bbv1_mips,bbv1_mips_internal,bbv3_wall_s,bbv3_mips,qemu_wall_max_s,bbv1_wall_max_s,bbv3_wall_max_s,ratio_bbv1_qemu,ratio_bbv3_qemu,qemu_mips,output_match,load1_before,load1_after,other_cpus_busy,nproc,reps,bbv_sha256" >"$csv_tmp"

fmt_row="%-12s %6s %14s %9s %9s %9s %9s %9s %7s %7s %10s %s\n"
table=$(printf "$fmt_row" workload SIZE instructions "MIPS(1)" "MIPS(3)" "qemu s" "bbv s" bbv/qemu spread others "load" "check")

below_mips=0 above_ratio=0
for w in "${workloads[@]}"; do
    prog=$RVW/$w
    l_before=$(load1)
    t_start=$EPOCHREALTIME busy_start=$(busy_ticks) child_start=$(child_ticks)

    # --- choose SIZE: count(SIZE) ~= c0 + slope * SIZE
    c1=$(count "$w" 1) || exit 2
    c2=$(count "$w" 2) || exit 2
    size=$(awk -v c1="$c1" -v c2="$c2" -v t="$target" 'BEGIN {
        slope = c2 - c1; c0 = c1 - slope; if (slope <= 0) slope = c1;
        s = int((t - c0) / slope + 0.5); if (s < 1) s = 1; print s }')
    msg "$w: $c1 instructions at SIZE 1, $c2 at SIZE 2 -> SIZE $size"

    # --- the three runs
    check=ok
    # Reps interleaved (qemu, bbv 1 size, bbv 3 sizes, qemu, ...) so that a slow
    # spell of the host hits the three commands alike; each keeps its fastest.
    wmin=() wmax=() xrc=() smips=()
    for ((r = 1; r <= reps; r++)); do
        # env -i: the guest gets an empty environment under qemu too, as under bbv
        SUMMARY= run_rep qemu "$T/$w.qemu.out" "$T/$w.qemu.err" env -i "$QEMU" "$prog" "$size"
        t_q=$WALL
        SUMMARY=$T/$w.1.json run_rep bbv1 "$T/$w.bbv1.out" "$T/$w.bbv1.err" \
            "$BBV" -o "$T/$w.1" --interval 100M --summary "$T/$w.1.json" -- "$prog" "$size"
        t_1=$WALL
        SUMMARY= run_rep bbv3 "$T/$w.bbv3.out" "$T/$w.bbv3.err" \
            "$BBV" -o "$T/$w.3" --interval 10M,100M,1G --summary "$T/$w.3.json" -- "$prog" "$size"
        msg "$w: rep $r/$reps: qemu-riscv64 $t_q s, bbv --interval 100M $t_1 s, bbv --interval 10M,100M,1G $WALL s"
    done
    q_wall=${wmin[qemu]} q_max=${wmax[qemu]} q_rc=${xrc[qemu]}
    b1_wall=${wmin[bbv1]} b1_max=${wmax[bbv1]} b1_rc=${xrc[bbv1]} mips_int=${smips[bbv1]:-}
    b3_wall=${wmin[bbv3]} b3_max=${wmax[bbv3]} b3_rc=${xrc[bbv3]}

    # --- checks
    if [ "$b1_rc" -eq 125 ] || [ "$b3_rc" -eq 125 ]; then   # 125: bbv itself failed
        problem "$w: bbv failed (exit $b1_rc / $b3_rc)"; sed 's/^/    /' "$T/$w.bbv1.err" | tail -5 >&2; check=BBV-FAILED
    fi
    if [ "$q_rc" != "$b1_rc" ] || [ "$q_rc" != "$b3_rc" ]; then
        problem "$w SIZE $size: exit status qemu $q_rc, bbv $b1_rc / $b3_rc"; check=EXIT-MISMATCH
    fi
    if ! cmp -s "$T/$w.qemu.out" "$T/$w.bbv1.out" || ! cmp -s "$T/$w.qemu.out" "$T/$w.bbv3.out"; then
        problem "$w SIZE $size: guest stdout differs between qemu-riscv64 and bbv"
        diff "$T/$w.qemu.out" "$T/$w.bbv1.out" | head -n 10 >&2
        check=STDOUT-MISMATCH
    fi
    insts=$(summary_field "$T/$w.1.json" instructions)
    insts3=$(summary_field "$T/$w.3.json" instructions)
    if [ -z "$insts" ] || [ "$insts" != "$insts3" ]; then
        problem "$w: instruction counts differ between the 1-size and 3-size runs ('$insts' vs '$insts3')"
        check=COUNT-MISMATCH; insts=${insts:-0}
    fi
    for n in 10000000 100000000 1000000000; do
        [ -s "$T/$w.3.$n.bb.gz" ] || { problem "$w: $T/$w.3.$n.bb.gz missing"; check=OUTPUT-MISSING; }
    done
    if [ $quick -eq 0 ] && { [ "$insts" -lt 1000000000 ] || [ "$insts" -gt 5000000000 ]; }; then
        msg "$w: note: $insts instructions is outside 1-5 G"
    fi
    l_after=$(load1)
    # others: average number of CPUs kept busy by everything but this benchmark
    others=$(awk -v b0="$busy_start" -v b1="$(busy_ticks)" -v c0="$child_start" -v c1="$(child_ticks)" \
        -v t0="$t_start" -v t1="$EPOCHREALTIME" -v hz="$HZ" \
        'BEGIN { o = ((b1 - b0) - (c1 - c0)) / hz / (t1 - t0); if (o < 0) o = 0; printf "%.2f", o }')

    b1_mips=$(div "$insts" "$(awk -v w="$b1_wall" 'BEGIN { print w * 1e6 }')" %.1f)
    b3_mips=$(div "$insts" "$(awk -v w="$b3_wall" 'BEGIN { print w * 1e6 }')" %.1f)
    q_mips=$(div "$insts" "$(awk -v w="$q_wall" 'BEGIN { print w * 1e6 }')" %.1f)
    r1=$(div "$b1_wall" "$q_wall" %.2f)
    r3=$(div "$b3_wall" "$q_wall" %.2f)
    spread=-
    [ "$reps" -gt 1 ] && spread=$(awk -v a="$b1_max" -v b="$b1_wall" 'BEGIN { printf "%.0f%%", (a / b - 1) * 100 }')
    awk -v m="$b1_mips" 'BEGIN { exit !(m < 200) }' && below_mips=$((below_mips + 1))
    awk -v r="$r1" 'BEGIN { exit !(r > 2.5) }' && above_ratio=$((above_ratio + 1))

    row=$(printf "$fmt_row" "$w" "$size" "$insts" "$b1_mips" "$b3_mips" \
        "$(printf %.2f "$q_wall")" "$(printf %.2f "$b1_wall")" "$r1" "$spread" "$others" "$l_before-$l_after" "$check")
    table+=$'\n'"$row"
    echo "$date_utc,$commit,$mode,$w,$size,$insts,$q_wall,$b1_wall,$b1_mips,${mips_int:-},$b3_wall,$b3_mips,$q_max,$b1_max,$b3_max,$r1,$r3,$q_mips,$check,$l_before,$l_after,$others,$(nproc),$reps,$bbv_sha" >>"$csv_tmp"
done
cp "$csv_tmp" "$csv.tmp.$$" && mv "$csv.tmp.$$" "$csv" || die "cannot write $csv"
txt=${csv%.csv}.txt

n=${#workloads[@]}
report() {
    echo "bbv throughput ($mode run, $date_utc, bbv $commit binary $bbv_sha, qemu-riscv64 $qemu_ver, $(nproc) cores, best of $reps)"
    echo "MIPS(1): bbv --interval 100M; MIPS(3): bbv --interval 10M,100M,1G; wall times include start-up and output;"
    echo "bbv s, bbv/qemu and spread (slowest/fastest rep - 1) are for MIPS(1). others: average number of CPUs"
    echo "other processes kept busy during the workload (0 = quiet; with 2 cores, above about 0.5 the figures were"
    echo "measured under contention). load: 1-minute load average before-after (counts this benchmark, about 1.0)."
    echo "$table"
    echo
    echo "target (bbv, 1 interval size): >= 200 MIPS -- met by $((n - below_mips))/$n; <= 2.5x qemu-riscv64 wall time -- met by $((n - above_ratio))/$n"
    if [ $problems -gt 0 ]; then
        echo "*** bench_bbv: $problems MISMATCH/FAILURE(S): see the 'check' column and the messages on stderr ***"
    fi
}
echo
report | tee "$txt.tmp.$$"
mv "$txt.tmp.$$" "$txt" || die "cannot write $txt"
echo "results: ${csv#"$TOP"/}, ${txt#"$TOP"/}"
if [ $problems -gt 0 ]; then
    echo "*** bench_bbv: $problems MISMATCH/FAILURE(S) ***" >&2
    exit 1
fi
