#!/usr/bin/env bash
# The translated path (host code from lib/jit) against the interpreter, the
# reference: every bundled workload (at its test size), every test program
# and every asm program runs under
#     bbv --interval 7919 -o PREFIX -- PROG        (a prime: boundaries fall
#                                                   everywhere inside blocks)
# three ways: translated (the default), interpreted (--no-jit) and checked
# (--jit-check: each block run both ways and compared at its exit). Their
# stdout, stderr, exit status and .bb files must be identical (checked: the
# test programs and two workloads; the other workloads take long that way).
# Then:
#  - stops at every position of a 60-instruction block: checkpoints at 66
#    consecutive counts inside tests/asm/long_block, byte-identical both ways;
#  - functional warming (checkpoint --warm, the traced stencils) leaves the
#    same caches, TLBs and predictors all three ways, on programs whose
#    blocks fault part-way (signals, faults, code written at run time);
#  - code that writes code (tests/progs/self_modify: rewriting in place with
#    fence.i, unmapping and remapping, PROT_EXEC removed and restored) gives
#    qemu-riscv64's output on all three paths;
#  - random instruction sequences (tests/difftest) checked block by block
#    and against qemu-riscv64 (random_insns_vs_qemu.sh under --jit-check);
#  - the check mode does find a difference (tests/unit/test_jit.c).
source "$(dirname "$0")/lib.sh"
ulimit -c 0

QEMU=${QEMU:-qemu-riscv64}
command -v "$QEMU" >/dev/null || fail "$QEMU not found"

# run_mode MODE DIR PROG ARGS...: bbv with the mode's option, its outputs in
# DIR; the program runs in a fresh $T/cwd each time (the same path: programs
# see their working directory).
run_mode() {
    local mode=$1 dir=$2; shift 2
    local opt=()
    case $mode in off) opt=(--no-jit) ;; check) opt=(--jit-check) ;; esac
    mkdir -p "$dir"
    rm -rf "$T/cwd" && mkdir "$T/cwd"
    set +e
    (cd "$T/cwd" && exec "$BIN/bbv" "${opt[@]}" --interval 7919 -o "$dir/out" -- "$@" \
        </dev/null >"$dir/stdout" 2>"$dir/stderr")
    echo $? >"$dir/status"
    set -e
}

progs=()
for w in "$RV"/workloads/*; do progs+=("$w 1"); done
for p in "$RV"/progs/* "$RV"/asm/*; do progs+=("$p"); done
failed=0
for entry in "${progs[@]}"; do
    read -r -a cmd <<<"$entry"
    name=$(basename "${cmd[0]}")
    modes=(off check)
    [[ ${cmd[0]} != */workloads/* || $name == sort || $name == fp_flags ]] || modes=(off)
    for mode in on "${modes[@]}"; do run_mode "$mode" "$T/$name/$mode" "${cmd[@]}"; done
    for mode in "${modes[@]}"; do
        for f in stdout stderr status; do
            if ! cmp -s "$T/$name/on/$f" "$T/$name/$mode/$f"; then
                echo "$name: $f differs, translated vs $mode:" >&2
                diff "$T/$name/on/$f" "$T/$name/$mode/$f" | head -5 >&2
                failed=1
            fi
        done
        for bb in "$T/$name/on"/out*; do
            [ -e "$bb" ] || continue
            case $bb in *.json) continue ;; esac # timings
            cmp -s "$bb" "$T/$name/$mode/$(basename "$bb")" ||
                { echo "$name: $(basename "$bb") differs, translated vs $mode" >&2; failed=1; }
        done
    done
done
[ "$failed" = 0 ] || fail "the translated path differs from the interpreter"
echo "jit_differential: ${#progs[@]} programs identical translated, interpreted and checked"

# Stops inside a block, at each of its 60 positions and a few more.
at=$(seq -s, 30000 30065)
for mode in on off; do
    opt=(); [ $mode = off ] && opt=(--no-jit)
    "$BIN/checkpoint" "${opt[@]}" -o "$T/ck_$mode" --at "$at" -- "$RV/asm/long_block" >/dev/null
done
n=0
for f in "$T"/ck_on/*.ckpt; do
    cmp -s "$f" "$T/ck_off/$(basename "$f")" || fail "checkpoint $(basename "$f") differs translated vs interpreted"
    n=$((n + 1))
done
expect_eq "checkpoints taken" 66 "$n"
echo "jit_differential: 66 checkpoints inside one block identical"

# Warm checkpoints near each program's end, all three ways.
for name in sig_faults segfault sig_handlers self_modify; do
    end=$("$BIN/bbv" --count-only -- "$RV/progs/$name" 2>&1 >/dev/null </dev/null | grep -E "^[0-9]+$" | tail -n 1 || true)
    for mode in on off check; do
        opt=(); case $mode in off) opt=(--no-jit) ;; check) opt=(--jit-check) ;; esac
        (cd "$T" && "$BIN/checkpoint" "${opt[@]}" -o "$T/warm_$mode" --warm "$TOP/configs/boom-tip.ini" \
            --at $((end - 5)) --guest-output none -- "$RV/progs/$name" </dev/null >/dev/null 2>&1) ||
            fail "$name: checkpoint --warm ($mode) failed"
    done
    for mode in off check; do
        cmp -s "$T"/warm_on/*.ckpt "$T"/warm_$mode/*.ckpt || fail "$name: warm checkpoint differs, translated vs $mode"
    done
    rm -rf "$T"/warm_*
done
echo "jit_differential: warm checkpoints identical translated, interpreted and checked"

# Runs of a million instructions and more train the branch predictor, the
# TLBs and the caches below the L1s on a thread of their own: the same warm
# state as on one thread (OMP_NUM_THREADS=1), in checkpoints that warm across
# several runs (sort: branches; ptr_chase: L2 and LLC misses, write-backs).
for prog in "sort 2" "ptr_chase 11"; do
    read -r -a argv <<<"$prog"
    for threads in 2 1; do
        (cd "$T" && OMP_NUM_THREADS=$threads "$BIN/checkpoint" -o "$T/threads_$threads" --warm "$TOP/configs/boom-tip.ini" \
            --at 3000000,9000000,21000000 --guest-output none -- "$RV/workloads/${argv[0]}" "${argv[@]:1}" </dev/null >/dev/null) ||
            fail "$prog: checkpoint --warm with $threads threads failed"
    done
    for f in "$T"/threads_2/*.ckpt; do
        cmp -s "$f" "$T/threads_1/$(basename "$f")" || fail "$prog: warm checkpoint $(basename "$f") differs with one thread"
    done
    expect_eq "$prog: warm checkpoints" 3 "$(ls "$T"/threads_2/*.ckpt | wc -l)"
    rm -rf "$T"/threads_*
done
echo "jit_differential: warm state identical with the predictor, TLBs and L2/LLC on their own thread and on one thread"

# Code that writes code, against qemu.
"$QEMU" "$RV/progs/self_modify" >"$T/sm_qemu"
grep -q "call without PROT_EXEC: SIGSEGV" "$T/sm_qemu" || fail "self_modify: unexpected qemu output"
for mode in on off check; do
    cmp "$T/sm_qemu" "$T/self_modify/$mode/stdout" || fail "self_modify ($mode) differs from qemu"
done
echo "jit_differential: self-modifying code as qemu runs it, all three ways"

# Random instruction sequences, every block checked.
RVSAMPLE_JIT=check RANDINSN_SEEDS=${RANDINSN_SEEDS:-20} RANDINSN_FIRST=1001 "$TOP/tests/e2e/random_insns_vs_qemu.sh"
echo "PASS jit_differential"
