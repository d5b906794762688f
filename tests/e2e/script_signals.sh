#!/usr/bin/env bash
# INT (Ctrl-C), TERM and HUP stop pipeline.sh and sweep.sh with the stage
# they run: the script ends by the signal within seconds, no process of the
# run is left (sim went on as an orphan writing regions.json), no output or
# temporary file appears afterwards, no hidden checkpoint staging directory
# stays, and the log says which stage was stopped. The scripts are started
# with job control on, as from an interactive shell (a background command of
# a script ignores SIGINT otherwise), and signalled alone, as `kill` does.
source "$(dirname "$0")/lib.sh"
cd "$T"
cp "$RV/workloads/phases" .

# start OUT SCRIPT ARGS...: the script in the background, its pid in $pid,
# its output in OUT.txt.
start() {
    local out=$1
    shift
    set -m
    # (as from a terminal, even when make test itself runs in the background,
    # where SIGINT is ignored and that is inherited)
    BIN=$BIN env --default-signal=INT,TERM,HUP "$@" > "$out.txt" 2>&1 &
    pid=$!
    set +m
}
# running OUT STAGE: wait (20 s at most) until OUT.txt says STAGE is running.
running() {
    for _ in $(seq 400); do
        ! grep -q "$2: running" "$1.txt" || return 0
        sleep 0.05
    done
    fail "$2 did not start: $(tail -n 5 "$1.txt")"
}
# left DIR: the processes whose command line names DIR (none, or fail after
# killing them, by pid, so that the test leaves nothing behind).
left() {
    local pids
    pids=$(pgrep -f -- "$1/" || true)
    [ -z "$pids" ] || { ps -o pid,cmd -p "${pids//$'\n'/,}" >&2; kill -KILL $pids; fail "still running after the script ended"; }
}
# stopped OUT DIR SIG STAGE: the script was stopped by SIG in STAGE: its
# status, nothing left running, nothing written after it ended, no
# temporary file or staging directory, and the log says so.
stopped() {
    local out=$1 dir=$2 sig=$3 stage=$4 status=0
    timeout 30 tail --pid="$pid" -f /dev/null ||
        { ps -o pid,pgid,stat,cmd -g "$pid" >&2 || true; left "$dir"; kill -KILL "$pid"; fail "$out: still running 30 s after SIG$sig: $(tail -n 5 "$out.txt")"; }
    wait "$pid" || status=$?
    expect_eq "$out: exit status after SIG$sig" "$((128 + $(kill -l "$sig")))" "$status"
    touch "$T/ended"
    left "$dir"
    sleep 1.5 # an orphan would write meanwhile
    [ -z "$(find "$dir" -newer "$T/ended" -print -quit)" ] || fail "$out: written after the end: $(find "$dir" -newer "$T/ended")"
    [ -z "$(find "$dir" -name '*.tmp*' -print -quit)" ] || fail "$out: temporary files left: $(find "$dir" -name '*.tmp*')"
    grep -q "stopped by SIG$sig in stage $stage" "$out.txt" || fail "$out: the log does not say what stopped: $(tail -n 3 "$out.txt")"
    echo "ok   $out: SIG$sig in stage $stage stops it ($status), nothing left running or half-written"
}

# pipeline.sh: each stage that takes seconds, each signal; a rerun goes on
# from the stage stopped (the ones before are up to date).
run=(scripts/pipeline.sh -o "$T/p" -i 1M -k 30 -- ./phases 8)
start p1 "$TOP/${run[0]}" "${run[@]:1}"
running p1 checkpoint
kill -INT "$pid"
stopped p1 "$T/p" INT checkpoint
# Stopped before the checkpoint tool published its directory, there is none;
# on a loaded machine the signal may come in the tool's last moments, after
# it did: then the directory is whole (its manifest goes in last) and no
# stamp says the stage is done, so the rerun below takes it again.
if [ -e p/ckpt ]; then
    [ -e p/ckpt/checkpoints.json ] || fail "the stopped checkpoint stage left a partial p/ckpt: $(ls p/ckpt)"
    [ ! -e p/.stamps/checkpoint ] || fail "the stopped checkpoint stage is recorded as done"
fi
start p2 "$TOP/${run[0]}" "${run[@]:1}"
running p2 regions
grep -q "bbv: up to date" p2.txt && grep -q "checkpoint: done" p2.txt || fail "the rerun did not go on: $(cat p2.txt)"
kill -TERM "$pid"
stopped p2 "$T/p" TERM regions
[ ! -e p/regions.json ] || fail "the stopped regions stage left regions.json"
start p3 "$TOP/${run[0]}" "${run[@]:1}"
running p3 full
kill -HUP "$pid"
stopped p3 "$T/p" HUP full
[ ! -e p/full.json ] && [ ! -e p/full.csv ] || fail "the stopped full run left its outputs"

# sweep.sh: two programs side by side, each in its full run, stopped together.
start s1 "$TOP/scripts/sweep.sh" -o "$T/s" -i 1M -k 1..4 -r none -P 2 -- ./phases 8 -- ./phases 9
for _ in $(seq 600); do
    [ "$(cat s/programs/*/pipeline.log 2> /dev/null | grep -c 'full: running')" -lt 2 ] || break
    sleep 0.05
done
[ "$(cat s/programs/*/pipeline.log | grep -c 'full: running')" -eq 2 ] || fail "the full runs did not start: $(cat s1.txt)"
kill -INT "$pid"
stopped s1 "$T/s" INT full
for p in phases-8 phases-9; do
    grep -q "stopped by SIGINT in stage full" "s/programs/$p/pipeline.log" || fail "$p was not stopped in its full run"
done
echo "PASS script_signals"
