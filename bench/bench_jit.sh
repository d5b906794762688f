#!/usr/bin/env bash
# bench_jit.sh: the translator (lib/jit) against qemu-riscv64 and against our
# own interpreter, on bundled workloads and real programs of the corpus, all
# measured in the same run, each command's fastest of --reps runs, the
# runs in rounds over all programs (interference on a shared machine only
# ever adds time, and comes in spells):
#   qemu      qemu-riscv64 PROG ARGS                     (no plugin)
#   bbv       bbv --interval 100M -- PROG ARGS           (translated, the default)
#   bbv-i     bbv --no-jit --interval 100M -- PROG ARGS  (the interpreter)
#   ff        checkpoint --at N -- PROG ARGS, N = 95% of the run: the
#             fast-forward's own MIPS from checkpoints.json
#   warm      checkpoint --warm configs/boom-tip.ini --at W (W = the first
#             --warm-insts instructions): functional warming MIPS, translated
#             and interpreted
# Wall times include process start-up and output. The guest's stdout must be
# identical under qemu and bbv (checked). Prints a table and writes
# bench/results/jit.txt, jit.csv and jit_warming.csv (the warming model's
# events per 1000 instructions; *_quick.* with --quick).
#
# Usage: bench/bench_jit.sh [--quick] [--reps N] [--warm-insts N] [--perf]
#   --perf   also record perf profiles of bbv and of warming on sort, lua, bzip2, gzip
#            and ptr_chase (furthest from the warming target), and print where the
#            time goes (top symbols; [JIT] = translated code)
source "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
QEMU=${QEMU:-qemu-riscv64}
REPS=3 QUICK= WARM_INSTS=100000000 PERF=
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1; shift ;;
    --reps) REPS=$2; shift 2 ;;
    --warm-insts) WARM_INSTS=$2; shift 2 ;;
    --perf) PERF=1; shift ;;
    -h|--help) print_help; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
done
command -v "$QEMU" >/dev/null || die "$QEMU not found"
[ -x "$BIN/bbv" ] || die "build first (make build)"
[ -x "$CORPUS_BIN/lua" ] || make -s -C "$TOP" corpus >&2 || die "the corpus could not be built (make corpus)"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 "$TOP/tests/corpus/make_inputs.py" "$T/in" >/dev/null
# The real programs' input, larger than the tests' (the same text repeated).
for i in $(seq 1 "$([ -n "$QUICK" ] && echo 1 || echo 6)"); do cat "$T/in/text.txt"; done >"$T/in/big.txt"

size=$([ -n "$QUICK" ] && echo 4 || echo 30)
[ -n "$QUICK" ] && WARM_INSTS=20000000
# label | program | arguments (run in $T/in)
RUNS="int_compute|$RVW/int_compute|$size
sort|$RVW/sort|$size
interp|$RVW/interp|$size
ptr_chase|$RVW/ptr_chase|$((size / 3 + 1))
stencil|$RVW/stencil|$size
lua|$CORPUS_BIN/lua|work.lua big.txt
gzip|$CORPUS_BIN/gzip|-n -c -9 big.txt
bzip2|$CORPUS_BIN/bzip2|-c -9 big.txt
xz|$CORPUS_BIN/xz|-c -3 big.txt
zstd|$CORPUS_BIN/zstd|-c -q -12 big.txt"

# timed OUT CMD...: wall seconds of CMD, run in the inputs' directory
timed() { (cd "$T/in" && wall_seconds "$@"); }

suffix=$([ -n "$QUICK" ] && echo _quick)
csv=$TOP/bench/results/jit$suffix.csv
txt=$TOP/bench/results/jit$suffix.txt
mkdir -p "$TOP/bench/results"
echo "program,instructions,qemu_s,bbv_s,bbv_over_qemu,bbv_interp_s,interp_over_jit,bbv_mips,ff_mips,ff_over_bbv,warm_mips,warm_interp_mips" >"$csv"
hdr=$(printf '%-12s %12s %8s %8s %9s %8s %8s %8s %8s %7s %9s %9s' program instructions "qemu s" "bbv s" "bbv/qemu" \
    "bbv-i s" "bbv-i/bbv" "bbv MIPS" "ff MIPS" "ff/bbv" "warm MIPS" "warm-i MIPS")
{
    echo "bench_jit ($(date -u +%FT%TZ), $(git -C "$TOP" rev-parse --short HEAD), $("$QEMU" --version | head -n 1), $(nproc) cores, fastest of $REPS)"
    echo "$hdr"
} | tee "$txt"
status=0
# Round-robin: each round runs every command of every program once, so that
# a slow spell of the machine (other tenants of its host) costs one rep of
# several programs rather than all the reps of one.
declare -A N Q B I FF W WI
for r in $(seq 1 "$REPS"); do
    echo "bench_jit: round $r of $REPS" >&2
    while IFS='|' read -r label prog args <&3; do
        read -r -a argv <<<"$args"
        Q[$label]+=" $(timed "$T/q_$label.out" "$QEMU" "$prog" "${argv[@]}")"
        B[$label]+=" $(timed "$T/b_$label.out" "$BIN/bbv" --interval 100M -o "$T/bb" --summary "$T/b_$label.json" -- \
            "$prog" "${argv[@]}")"
        I[$label]+=" $(timed "$T/i_$label.out" "$BIN/bbv" --no-jit --interval 100M -o "$T/bb" -- "$prog" "${argv[@]}")"
        insts=$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$T/b_$label.json" | head -n 1)
        N[$label]=$insts
        at=$((insts * 95 / 100)) wat=$((WARM_INSTS < insts ? WARM_INSTS : insts * 95 / 100))
        rm -rf "$T/ck"
        (cd "$T/in" && "$BIN/checkpoint" -o "$T/ck" --at "$at" --guest-output none -- "$prog" "${argv[@]}" >/dev/null)
        FF[$label]+=" $(json_mips "$T/ck/checkpoints.json" fast_forward)"
        for mode in on off; do
            rm -rf "$T/ck"
            (cd "$T/in" && RVSAMPLE_JIT=$mode "$BIN/checkpoint" -o "$T/ck" --warm "$TOP/configs/boom-tip.ini" \
                --at "$wat" --guest-output none -- "$prog" "${argv[@]}" >/dev/null)
            if [ $mode = on ]; then W[$label]+=" $(json_mips "$T/ck/checkpoints.json" fast_forward)"
            else WI[$label]+=" $(json_mips "$T/ck/checkpoints.json" fast_forward)"; fi
        done
        cp "$T/ck/checkpoints.json" "$T/warming_$label.json" # the model's counts: the same in both modes
    done 3<<<"$RUNS"
done
while IFS='|' read -r label prog args <&3; do
    cmp -s "$T/q_$label.out" "$T/b_$label.out" || { echo "$label: bbv's output differs from qemu's" >&2; status=1; }
    cmp -s "$T/b_$label.out" "$T/i_$label.out" || { echo "$label: --no-jit output differs" >&2; status=1; }
    insts=${N[$label]}
    # shellcheck disable=SC2086 # the lists split into their values
    qs=$(fastest ${Q[$label]}) bs=$(fastest ${B[$label]}) is=$(fastest ${I[$label]})
    # shellcheck disable=SC2086
    ffm=$(largest ${FF[$label]}) wm=$(largest ${W[$label]}) wim=$(largest ${WI[$label]})
    awk -v l="$label" -v n="$insts" -v q="$qs" -v b="$bs" -v i="$is" -v ff="$ffm" -v w="$wm" -v wi="$wim" -v csv="$csv" 'BEGIN {
        bm = n / b / 1e6
        printf "%-12s %12d %8.2f %8.2f %9.2f %8.2f %8.2f %8.0f %8.0f %7.2f %9.1f %9.1f\n", l, n, q, b, b / q, i, i / b, bm, ff, ff / bm, w, wi
        printf "%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f,%.3f,%.1f,%.1f\n", l, n, q, b, b / q, i, i / b, bm, ff, ff / bm, w, wi >> csv
    }' | tee -a "$txt"
done 3<<<"$RUNS"
# The programs warming leaves below 150 MIPS, each with its fast-forward's
# MIPS: warming runs the same translated code, so it cannot be faster.
awk -F, 'NR > 1 { n++; if ($5 <= 1.0) le1++; if ($5 <= 1.5) le15++; if ($5 > mx) mx = $5; g += log($5)
        if ($11 >= 150) w++; else below = below sprintf("%s %s %.1f (ff %.0f)", below ? "," : "", $1, $11, $9) }
    END { printf "\nbbv/qemu: at most 1.0x on %d of %d programs, at most 1.5x on %d, worst %.2fx, geometric mean %.2fx; warming >= 150 MIPS on %d\n", le1, n, le15, mx, exp(g / n), w
          if (below) printf "warming below 150 MIPS:%s\n", below }' "$csv" | tee -a "$txt"
echo "ff = checkpoint fast-forward (the fast_forward MIPS it reports); warm = functional warming over the first $WARM_INSTS instructions" | tee -a "$txt"

# What warming had to do, from the model's counts in checkpoints.json: the
# work that sets its speed besides the program's own (each L1 miss and
# prefetch is an L2 access; each data access, fetch block and branch an event).
echo | tee -a "$txt"
python3 - "$T" "$csv" "$TOP/bench/results/jit_warming$suffix.csv" $(cut -d'|' -f1 <<<"$RUNS") <<'PY' | tee -a "$txt"
import csv, json, sys
d, table, out, labels = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
cols = ["l1d_accesses", "l1d_misses", "prefetches", "l2_accesses", "l2_misses", "l1i_accesses", "branches", "mispredicts"]
rows = list(csv.DictReader(open(table)))
mips = {r["program"]: r["warm_mips"] for r in rows}
print("warming's events per 1000 instructions (the model's counts over the warmed prefix)")
print(f"{'program':<12} {'warm MIPS':>9} " + " ".join(f"{c:>12}" for c in cols))
with open(out, "w") as f:
    f.write("program,warm_mips," + ",".join(c + "_per_kinst" for c in cols) + "\n")
    for l in labels:
        w = json.load(open(f"{d}/warming_{l}.json"))["warming"]
        per = [1000 * w[c] / w["instructions"] for c in cols]
        print(f"{l:<12} {float(mips[l]):>9.1f} " + " ".join(f"{x:>12.2f}" for x in per))
        f.write(f"{l},{mips[l]}," + ",".join(f"{x:.3f}" for x in per) + "\n")
PY

if [ -n "$PERF" ]; then
    command -v perf >/dev/null || die "perf not found"
    for label in sort lua bzip2 gzip ptr_chase; do
        line=$(grep "^$label|" <<<"$RUNS"); IFS='|' read -r _ prog args <<<"$line"; read -r -a argv <<<"$args"
        # RVSAMPLE_PERF_MAP: the translator names its code (OP@PC, exit@PC) in
        # /tmp/perf-PID.map; translated code is summed per operation.
        before=$(ls /tmp/perf-*.map 2>/dev/null || true)
        (cd "$T/in" && RVSAMPLE_PERF_MAP=1 perf record -q -o "$T/perf.data" "$BIN/bbv" --interval 100M -o "$T/bb" \
            -- "$prog" "${argv[@]}" >/dev/null 2>&1)
        echo "== where bbv's time goes: $label (perf; translated code summed per operation, exits = block exits)" |
            tee -a "$txt"
        perf report -i "$T/perf.data" --stdio --sort sym 2>/dev/null | grep -v '^#' | grep '%' |
            awk '{ sym = $3; if (sym ~ /@[0-9a-f]+$/) { sub(/@.*/, "", sym); jit += $1; if (sym == "exit") sym = "exits" }
                   t[sym] += $1 }
                 END { for (k in t) printf "%7.2f%%  %s\n", t[k], k; printf "%7.2f%%  (translated code, all)\n", jit }' |
            sort -rn | head -n 12 | tee -a "$txt"
        comm -13 <(echo "$before") <(ls /tmp/perf-*.map 2>/dev/null || true) | xargs -r rm -f
        rm -rf "$T/ck"
        (cd "$T/in" && perf record -q -o "$T/perf.data" "$BIN/checkpoint" -o "$T/ck" --warm "$TOP/configs/boom-tip.ini" \
            --at "$WARM_INSTS" --guest-output none -- "$prog" "${argv[@]}" >/dev/null 2>&1)
        echo "== where warming's time goes: $label (checkpoint: the warming run; rv-warm: its thread, predictor," \
            "TLBs, L2 and LLC; waiting is in train and wait_trained)" | tee -a "$txt"
        perf report -i "$T/perf.data" --stdio --sort comm,sym 2>/dev/null | grep -v '^#' | grep . | head -n 12 | tee -a "$txt"
    done
fi
exit $status
