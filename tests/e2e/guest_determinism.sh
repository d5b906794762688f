#!/usr/bin/env bash
# The guest's world is the same for every stage and every user:
# - /dev/urandom and /dev/random read the guest's fixed stream (getrandom's):
#   a program whose work follows the bytes it reads (tests/progs/urandom_stream)
#   retires the same instructions and prints the same values run after run,
#   under bbv, sim --full, and restored from checkpoints taken mid-stream
#   (checkpoint --run, and sim on the checkpoints), from another directory;
# - the working directory is /guest/work wherever the tool runs: a program
#   whose work follows getcwd's length (tests/progs/guest_cwd) counts alike
#   from two directories of different path lengths, its relative and
#   absolute paths still lead to its files, writing beside the directory is
#   still refused, and a checkpoint taken after its chdir restores from
#   elsewhere; one taken before checkpoints stored the guest's root
#   ("cwd_root") is still restored, the guest seeing host paths as it did.
source "$(dirname "$0")/lib.sh"
cd "$T"
count() { tail -n 1 "$1"; }

# ------------------------------------------------------------ randomness
U=$RV/progs/urandom_stream
mkdir -p r1 "r2/a directory whose path is much longer than the first"
for i in 1 2 3; do
    (cd r1 && "$BIN/bbv" --count-only -- "$U" values > "../u$i.out" 2> "../u$i.err") || fail "urandom_stream run $i failed"
done
total=$(count u1.err)
expect_eq "run 2's count" "$total" "$(count u2.err)"
expect_eq "run 3's count" "$total" "$(count u3.err)"
cmp -s u1.out u2.out && cmp -s u1.out u3.out || fail "the values read differ between runs"
grep -q '^uuid [0-9a-f-]\{36\} boot_id 5eed5eed-' u1.out || fail "no uuid and boot_id: $(tail -n 2 u1.out)"
(cd "r2/a directory whose path is much longer than the first" && "$BIN/bbv" --count-only -- "$U" values > "$T/u4.out" 2> "$T/u4.err")
expect_eq "count from another directory" "$total" "$(count u4.err)"
"$BIN/sim" --full -o full.json --guest-output sim.out -- "$U" values > /dev/null 2>&1 || fail "sim --full failed"
grep -q "\"instructions\": $total," full.json || fail "sim --full counts $(grep -o '"instructions": [0-9]*' full.json | head -1), bbv $total"
cmp -s u1.out sim.out || fail "sim --full's guest read other values"
echo "ok   urandom_stream: $total instructions and the same values in 4 bbv runs and sim --full"

# Checkpoints mid-stream, with both devices and a dup of one open: every
# restored run reads on where the stream was.
points=$(python3 -c "t=$total; print(','.join(str(t * k // 5 + 7) for k in range(1, 5)))")
(cd r1 && "$BIN/checkpoint" -o "$T/uck" --at "$points" -- "$U" values > /dev/null) || fail "taking checkpoints failed"
i=0
for c in uck/*.ckpt; do
    (cd "r2/a directory whose path is much longer than the first" &&
        "$BIN/checkpoint" --run "$T/$c" --guest-output "$T/run.out" --summary "$T/run.json" < /dev/null) ||
        fail "$(basename "$c"): the restored run failed"
    grep -q "\"end\": $total," run.json || fail "$(basename "$c"): ended at $(grep -o '"end": [0-9]*' run.json), not $total"
    n=$(stat -c %s run.out)
    [ "$n" -gt 0 ] && tail -c "$n" u1.out | cmp -s - run.out || fail "$(basename "$c"): not the tail of the full run's values"
    i=$((i + 1))
done
"$BIN/sim" -o regions.json --guest-output reg.out uck/*.ckpt > /dev/null 2>&1 || fail "sim on the checkpoints failed"
python3 - "$total" <<'PY' || fail "sim's regions do not end where the full run does"
import json, sys
for r in json.load(open("regions.json"))["results"]:
    assert r["stopped_by"] == "exit" and r["start"] + r["instructions"] == int(sys.argv[1]), r
PY
for f in reg.out.*; do tail -c "$(stat -c %s "$f")" u1.out | cmp -s - "$f" || fail "sim's $f: not the tail of the full run's values"; done
echo "ok   $i checkpoints mid-stream: checkpoint --run and sim read on the same values to instruction $total"

# -------------------------------------------------------------- the cwd
G=$RV/progs/guest_cwd
short=$T/c
long="$T/c/a directory whose path is much, much longer than the first one"
mkdir -p "$short" "$long"
(cd "$short" && "$BIN/bbv" --count-only -- "$G" show > "$T/g1.out" 2> "$T/g1.err") || fail "guest_cwd failed: $(cat g1.out)"
(cd "$long" && "$BIN/bbv" --count-only -- "$G" show > "$T/g2.out" 2> "$T/g2.err") || fail "guest_cwd failed: $(cat g2.out)"
gtotal=$(count g1.err)
expect_eq "guest_cwd's count from a longer path" "$gtotal" "$(count g2.err)"
cmp -s g1.out g2.out || fail "guest_cwd's output depends on the directory: $(diff g1.out g2.out | head -n 5)"
grep -q "^cwd /guest/work$" g1.out && grep -q "^cwd /guest/work/gc_dir$" g1.out || fail "getcwd: $(grep ^cwd g1.out)"
! grep -q ": no$" g1.out || fail "guest_cwd: $(grep ': no$' g1.out)"
"$BIN/sim" --full -o gfull.json -- "$G" show > /dev/null 2>&1 || fail "sim --full guest_cwd failed"
grep -q "\"instructions\": $gtotal," gfull.json || fail "sim --full counts guest_cwd $(grep -o '"instructions": [0-9]*' gfull.json | head -1), bbv $gtotal"
echo "ok   guest_cwd: $gtotal instructions from paths of ${#short} and ${#long} characters and in sim --full; it sees /guest/work"

# Writing beside the working directory through /guest/work/.. is refused.
(cd "$short" && "$BIN/bbv" --count-only -- "$G" escape > "$T/esc.out" 2> /dev/null) || fail "guest_cwd escape failed"
expect_eq "escapes refused" 2 "$(grep -c '/guest/work/.*: Permission denied$' esc.out)"
[ ! -e "$T/gc_escape.txt" ] && [ ! -e "$T/gc_escape_dir" ] || fail "the guest wrote beside its directory"
echo "ok   /guest/work/../ leads outside the directories the guest may write: refused"

# A checkpoint after its chdir into gc_dir (and before its next getcwd),
# restored from the longer directory: the guest goes on in gc_dir, seeing
# /guest/work/gc_dir, and ends as the whole run did.
at=$( (cd "$short" && "$BIN/bbv" --strace --count-only -- "$G" show 2>&1 > /dev/null) |
    sed -n 's/^\[\([0-9]*\)\] chdir(.*= 0 (0x0)$/\1/p' | head -n 1)
[ -n "$at" ] || fail "no chdir in guest_cwd's --strace"
(cd "$short" && "$BIN/checkpoint" -o "$T/gck" --at $((at + 1)) -- "$G" show > /dev/null) || fail "checkpoint after chdir failed"
[ -d "$short/gc_dir" ] || fail "the checkpoint run did not stop in the middle"
(cd "$long" && "$BIN/checkpoint" --run "$T"/gck/*.ckpt --allow-write "$short" --guest-output "$T/grun.out" \
    --summary "$T/grun.json") || fail "the restored guest_cwd failed: $(cat grun.out)"
grep -q "\"end\": $gtotal," grun.json || fail "restored guest_cwd ended at $(grep -o '"end": [0-9]*' grun.json), not $gtotal"
tail -c "$(stat -c %s grun.out)" g1.out | cmp -s - grun.out || fail "restored guest_cwd: $(diff <(tail -n "$(wc -l < grun.out)" g1.out) grun.out)"
grep -q "^cwd /guest/work/gc_dir$" grun.out || fail "restored guest_cwd: $(grep ^cwd grun.out)"
[ ! -e "$short/gc_dir" ] || fail "the restored run did not work in the original directory"
echo "ok   a checkpoint after chdir restores from another directory: /guest/work/gc_dir, $gtotal instructions"

# A checkpoint from before the guest had a root: restored as it was taken.
(cd "$short" && "$BIN/checkpoint" -o "$T/gck_old" --at $((at + 1)) -- "$G" show > /dev/null)
python3 "$TOP/tests/tools/ckpt_edit.py" gck_old/*.ckpt old.ckpt --json "OS  " 'del j["cwd_root"]'
"$BIN/checkpoint" --info old.ckpt > /dev/null || fail "checkpoint --info refuses a checkpoint without cwd_root"
set +e; (cd "$long" && "$BIN/checkpoint" --run "$T/old.ckpt" --allow-write "$short" --guest-output "$T/old.out" \
    2> "$T/old.err"); set -e
grep -q "^cwd $short/gc_dir$" old.out || fail "an older checkpoint: $(cat old.err; grep ^cwd old.out)"
echo "ok   a checkpoint without cwd_root (older) restores, its guest seeing host paths as when it was taken"
