#!/usr/bin/env bash
# Bad checkpoints and bad plans fail with one clear line and a non-zero exit;
# an interrupted or out-of-space run leaves no half-written checkpoint, nor
# its hidden staging directory (a killed run's is removed by the next run).
source "$(dirname "$0")/lib.sh"
cd "$T"
prog=$RV/workloads/sort

expect_error() { # expect_error STATUS PATTERN cmd...
    local want=$1 pattern=$2; shift 2
    set +e; "$@" > stdout.txt 2> stderr.txt; local got=$?; set -e
    [ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want ($(cat stderr.txt))"
    grep -q -- "$pattern" stderr.txt || fail "'$*': '$(cat stderr.txt)' lacks '$pattern'"
    [ "$(wc -l < stderr.txt)" -eq 1 ] || fail "'$*': more than one line: $(cat stderr.txt)"
}

"$BIN/checkpoint" -o ck --at 1000000 -- "$prog" 1 > /dev/null
good=$(ls ck/*.ckpt)
size=$(stat -c %s "$good")

head -c $((size / 2)) "$good" > truncated.ckpt
expect_error 125 'truncated checkpoint' "$BIN/checkpoint" --run truncated.ckpt
head -c 10 "$good" > tiny.ckpt
expect_error 1 'not a checkpoint\|truncated' "$BIN/checkpoint" --info tiny.ckpt
cp "$good" flipped.ckpt
printf '\xff' | dd of=flipped.ckpt bs=1 seek=$((size - 100)) conv=notrunc status=none
expect_error 125 'corrupted checkpoint (section PAGE fails its CRC check)' "$BIN/checkpoint" --run flipped.ckpt
cp "$good" version.ckpt
printf '\x09' | dd of=version.ckpt bs=1 seek=8 conv=notrunc status=none
expect_error 1 'corrupted checkpoint (header CRC' "$BIN/checkpoint" --info version.ckpt
# A well-formed header of another version: rewrite version and header CRC.
python3 - "$good" future.ckpt <<'PY' 2>/dev/null || cp version.ckpt future.ckpt
import sys, struct, zlib
data = bytearray(open(sys.argv[1], 'rb').read())
data[8:12] = struct.pack('<I', 2)
data[16:20] = struct.pack('<I', zlib.crc32(bytes(data[:16])) & 0xffffffff)
open(sys.argv[2], 'wb').write(data)
PY
if command -v python3 > /dev/null; then
    expect_error 1 'checkpoint format version 2, this build reads version 1' "$BIN/checkpoint" --info future.ckpt
fi
echo 'plain text' > text.ckpt
expect_error 125 'not a checkpoint file' "$BIN/checkpoint" --run text.ckpt
expect_error 125 'No such file' "$BIN/checkpoint" --run missing.ckpt

# A checkpoint used with a different program.
cp "$prog" copy.elf
printf 'x' >> copy.elf
expect_error 125 'was taken of a different program' "$BIN/checkpoint" --run "$good" --program copy.elf

# Bad plans.
printf '3 0\n7 1\n' > a.simpoints
printf '0.5 0\n0.5 1\n' > a.weights
printf '3 0\nseven 1\n' > bad.simpoints
printf '0.5 0\n0.5 2\n' > other.weights
expect_error 1 'bad.simpoints:2: expected' "$BIN/checkpoint" -o out --simpoints bad.simpoints --weights a.weights --interval 1M -- "$prog" 1
expect_error 1 'no weight for cluster 1' "$BIN/checkpoint" -o out --simpoints a.simpoints --weights other.weights --interval 1M -- "$prog" 1
expect_error 1 'needs --weights and --interval' "$BIN/checkpoint" -o out --simpoints a.simpoints -- "$prog" 1
expect_error 1 '--extra-per-cluster N and --labels F go together' "$BIN/checkpoint" -o out --simpoints a.simpoints \
    --weights a.weights --interval 1M --extra-per-cluster 2 -- "$prog" 1
printf '0 0\n1 0\n0 0\n' > wrong.labels
expect_error 1 'wrong.labels: interval 3 is not in cluster 0, as the simulation points say' "$BIN/checkpoint" -o out --simpoints a.simpoints \
    --weights a.weights --interval 1M --labels wrong.labels --extra-per-cluster 2 -- "$prog" 1
expect_error 1 'program ended after' "$BIN/checkpoint" -o late --at 5G -- "$prog" 1
expect_error 1 "unknown option '--frobnicate'" "$BIN/checkpoint" --frobnicate --at 1 -- "$prog" 1

# Simpoint plan: start = index*N - W, clamped at 0 with the warm-up shortened;
# the same start written once; names sort in start order.
printf '3 0\n0 1\n12 2\n' > b.simpoints
printf '0.25 0\n0.25 1\n0.5 2\n' > b.weights
"$BIN/checkpoint" -o sp --simpoints b.simpoints --weights b.weights --interval 1M --warmup 0,2M -- "$prog" 1 > /dev/null
expect_eq "checkpoint files" "0001-at-0.ckpt 0002-at-1000000.ckpt 0003-at-3000000.ckpt 0004-at-10000000.ckpt 0005-at-12000000.ckpt" \
    "$(cd sp && ls *.ckpt | tr '\n' ' ' | sed 's/ $//')"
"$BIN/checkpoint" --info sp/0001-at-0.ckpt --json > info.json
grep -c '"simpoint"' info.json | grep -qx 2 || fail "the checkpoint at 0 should carry two regions (simpoint 0 with and without warm-up)"
"$BIN/checkpoint" --info sp/0002-at-1000000.ckpt --json | grep -q '"warmup": 2000000' || fail "warm-up not recorded"

# Interrupted: no checkpoint or temporary file is left.
"$BIN/checkpoint" -o intr --at 4G -- "$RV/workloads/int_compute" 1000 > /dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM $pid 2> /dev/null || true
wait $pid 2> /dev/null || true
[ -z "$(ls intr 2> /dev/null)" ] || fail "interrupted run left: $(ls intr)"

# Nor the hidden staging directory beside the output (.stop.tmpXXXXXX), when
# stopped by Ctrl-C (SIGINT), SIGTERM or SIGHUP once a checkpoint is in it.
# Started with job control on, as from an interactive shell: a background
# command of a script ignores SIGINT otherwise.
staging() { ls -A | grep "^\.$1\.tmp" || true; }
# start_stopping OUT [OLD]: a checkpoint run into OUT, in the background
# (pid in $pid), once its first checkpoint is in its staging directory (not
# in OLD, a stale one it may still be about to remove).
start_stopping() {
    set -m
    # (A shell started in the background, job control off, ignores SIGINT
    # and passes that on: the run must take it as a terminal would.)
    env --default-signal=INT,TERM,HUP "$BIN/checkpoint" -o "$1" --at 1M,20G -- "$RV/workloads/int_compute" 1000 \
        > /dev/null 2> "$1.err" &
    pid=$!
    set +m
    for _ in $(seq 100); do
        [ -z "$(ls .$1.tmp*/*.ckpt 2> /dev/null | grep -v "^${2:-/}/")" ] || return 0
        sleep 0.1
    done
    fail "no checkpoint staged in 10 s: $(ls -A)"
}
for sig in INT TERM HUP; do
    start_stopping stop
    kill -s "$sig" "$pid"
    status=0
    wait "$pid" || status=$?
    expect_eq "status after SIG$sig" "$((128 + $(kill -l "$sig")))" "$status"
    [ -z "$(staging stop)" ] && [ ! -e stop ] || fail "SIG$sig left $(ls -A)"
done
# Killed outright, the run leaves its staging directory; a run of another
# output leaves it alone, the next run of the same output removes it, but not
# one that a living run is filling.
start_stopping stop
kill -KILL "$pid"
wait "$pid" || true
left=$(staging stop)
[ -n "$left" ] || fail "SIGKILL left no staging directory to test with"
"$BIN/checkpoint" -o other --at 1M -- "$prog" 1 > /dev/null
[ "$(staging stop)" == "$left" ] || fail "a run into another output touched $left"
start_stopping stop "$left"
[ -z "$(ls -A | grep -Fx "$left")" ] || fail "the rerun did not remove $left: $(ls -A)"
grep -q "removed .*$left, left by a run that was killed" stop.err || fail "the removal is not said: $(cat stop.err)"
live=$(staging stop)
"$BIN/checkpoint" -o stop --at 1M -- "$prog" 1 > /dev/null
[ "$(staging stop)" == "$live" ] || fail "a run removed the staging directory of a living one"
kill -TERM "$pid"
wait "$pid" || true
[ -z "$(staging stop)" ] || fail "SIGTERM left $(ls -A)"

# Out of space (file size limit): an error, and nothing half-written.
(
    ulimit -f 100 # 100 KiB: the checkpoint does not fit
    trap '' XFSZ
    set +e
    "$BIN/checkpoint" -o full --at 1000000 -- "$prog" 1 > /dev/null 2> full.err
    echo $? > full.status
)
[ "$(cat full.status)" -ne 0 ] || fail "writing past the file size limit did not fail"
grep -q 'cannot write .*0001-at-1000000.ckpt: File too large' full.err || fail "no clear error on a full disk: $(cat full.err)"
[ ! -e full ] && [ -z "$(ls -A | grep '^\.full\.tmp')" ] || fail "a run that filled the disk left $(ls -A)"
echo ok
