#!/usr/bin/env bash
# pipeline.sh and sweep.sh mean the same by the options they share, with the
# same defaults: -M is dims:1 in both (sweep.sh said simpoint), -w counts
# intervals in both (pipeline.sh counted instructions), and both --help
# texts say so. Checked on the commands the scripts would run, printed by
# --engine slurm --dry-run (nothing runs, no Slurm needed).
source "$(dirname "$0")/lib.sh"
cd "$T"
cp "$RV/workloads/phases" .
P=$TOP/scripts/pipeline.sh S=$TOP/scripts/sweep.sh

# dry_pipeline OUT OPTIONS...: pipeline.sh's plan at -i 200k into OUT.txt
dry_pipeline() {
    local out=$1
    shift
    BIN=$BIN "$P" -o "$T/$out" -i 200k "$@" --engine slurm --dry-run -- ./phases > "$out.txt" 2>&1 ||
        { cat "$out.txt"; fail "pipeline.sh $* --dry-run failed"; }
}
# dry_sweep OUT OPTIONS...: sweep.sh's plan at 100k and 1M, MaxK 1..4, 1M:4 simulated
dry_sweep() {
    local out=$1
    shift
    BIN=$BIN "$S" -o "$T/$out" -i 100k,1M -k 1..4 -r 1M:4 "$@" --engine slurm --dry-run -- ./phases > "$out.txt" 2>&1 ||
        { cat "$out.txt"; fail "sweep.sh $* --dry-run failed"; }
}

# The defaults: dims:1 and a warm-up of one interval, in both.
dry_pipeline p
grep -q "method dims:1, warm-up 200000 (checkpoint)" p.txt || fail "pipeline.sh defaults: $(grep '== phases' p.txt)"
grep -q -- "-maxK 30 --proxy-dims 1 --proxy " p.txt || fail "pipeline.sh's simpoint is not run with dims:1"
dry_sweep s
grep -q -- "--sweep-max-k 1..4 --sweep-bic 0.9 --proxy-dims 1 --proxy " s.txt ||
    fail "sweep.sh's default method is not dims:1: $(grep -o 'simpoint -loadFVFile[^|]*' s.txt | head -n 1)"
grep -q "take_checkpoints $T/s/programs/phases/ckpt.dims:1.1000000.maxk_4.bic_0.9 1000000 1000000 " s.txt ||
    fail "sweep.sh's default warm-up is not one interval: $(grep -o 'take_checkpoints [^ ]* [0-9]* [0-9]*' s.txt | head -n 1)"
echo "ok   defaults: -M dims:1 and -w 1 (one interval) in both scripts"

# -w K: K intervals in both; a count of instructions is refused with the reason.
dry_pipeline p3 -w 3
grep -q "warm-up 600000 (checkpoint)" p3.txt || fail "pipeline.sh -w 3 at 200k: $(grep '== phases' p3.txt)"
dry_sweep s3 -w 3
grep -q "take_checkpoints $T/s3/programs/phases/ckpt.dims:1.1000000.maxk_4.bic_0.9 1000000 3000000 " s3.txt ||
    fail "sweep.sh -w 3 at 1M: $(grep -o 'take_checkpoints [^ ]* [0-9]* [0-9]*' s3.txt | head -n 1)"
for script in "$P" "$S"; do
    expect_status 1 env BIN="$BIN" "$script" -o "$T/bad" -w 1M -- ./phases 2> err.txt
    grep -q -- "-w wants a number of intervals" err.txt || fail "$(basename "$script") -w 1M: $(cat err.txt)"
done
echo "ok   -w counts intervals in both scripts; -w 1M is refused"

# --help: the same defaults and meanings, in both.
for script in "$P" "$S"; do
    "$script" -h > help.txt
    grep -q '^  -M .*' help.txt && grep -A5 '^  -M ' help.txt | grep -q '\[dims:1' ||
        fail "$(basename "$script") -h: -M's default: $(grep -A5 '^  -M ' help.txt)"
    grep -q '^  -w K  *warm-up before each region, in intervals' help.txt ||
        fail "$(basename "$script") -h: -w: $(grep '^  -w' help.txt)"
done
echo "PASS script_defaults"
