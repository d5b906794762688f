#!/usr/bin/env bash
# One program through the whole toolkit, into one directory:
#   bbv -> simpoint -> checkpoint -> sim (regions) -> sim --full -> validate
# A stage runs only when one of its outputs is missing or older than one of
# its inputs (programs and tools included), or its command changed; each
# stage's output goes to DIR/logs/STAGE.log and its time to DIR/pipeline.log.
# With --cache, the full run is reused from any earlier run of the same key.
# INT, TERM or HUP stop the running stage and the script (on_signal).
# Sourced (by sweep.sh), it only defines the stage helpers.
set -euo pipefail

# The source tree (tools in build/bin), or an installed copy (make install:
# PREFIX/lib/rvsample with bin/, scripts/ and configs/), found through any
# symbolic link to this script (PREFIX/bin/rvsample-pipeline).
ROOT=$(cd -- "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/.." && pwd)
if [ -n "${BIN:-}" ]; then B=$(realpath -m -- "$BIN"); elif [ -d "$ROOT/build/bin" ]; then B=$ROOT/build/bin; else B=$ROOT/bin; fi

# shellcheck source=engine.sh
. "$ROOT/scripts/engine.sh"

# ------------------------------------------------------------ stage helpers
# Callers set O (output directory), FORCE (non-empty: redo everything),
# STDIN (the guest's standard input) and CACHE (a directory, or empty: see
# cache_get).

log() {
    printf '%s %s%s\n' "$(date +%H:%M:%S)" "${TAG:+$TAG: }" "$*" | tee -a "$O/pipeline.log"
}

# "1M" -> 1000000, as the tools' k/M/G/T suffixes
to_count() {
    local v=$1 m=1
    case $v in
    *k | *K) m=1000 ;;
    *m | *M) m=1000000 ;;
    *g | *G) m=1000000000 ;;
    *t | *T) m=1000000000000 ;;
    esac
    [ "$m" -eq 1 ] || v=${v%?}
    [[ $v =~ ^[0-9]+$ ]] || { echo "not a count: $1" >&2; return 1; }
    echo $((v * m))
}

# ------------------------------------------------------------------- names
# The rule for names (README, Security): a path (the program, the output
# directory, the tools', the working directory, --stdin, -c, --cache) may hold
# any character but a newline. Lists of paths (a stage's outputs and inputs)
# are one path a line, a name never becomes a word split or a glob, and a job
# script carries names %q-quoted (engine.sh); a name with a newline is refused
# before anything is made. A path the scripts give a command never starts
# with '-' (absolute, or after --).

# check_name SCRIPT WHAT PATH [CHAR CHAR-NAME WHY]...: exit 1 with a one-line
# reason when PATH holds a newline or one of the CHARs.
check_name() {
    local me=$1 what=$2 path=$3
    shift 3
    set -- $'\n' newline "lists of paths, logs and job scripts are one entry a line" "$@"
    while [ $# -ge 3 ]; do
        if [[ $path == *"$1"* ]]; then
            echo "$me: $what $(printf %q "$path") holds a $2, refused: $3 (README, Security)" >&2
            exit 1
        fi
        shift 3
    done
}

# check_names SCRIPT WHAT PATH [WHAT PATH]...: check_name on each PATH given.
check_names() {
    local me=$1
    shift
    while [ $# -ge 2 ]; do
        [ -z "$2" ] || check_name "$me" "$1" "$2"
        shift 2
    done
}

# path_list PATH...: the list of the non-empty PATHs, one a line.
path_list() {
    local p
    for p in "$@"; do [ -z "$p" ] || printf '%s\n' "$p"; done
}

# list_paths ARRAY LIST: the paths of LIST (one a line) into the array named ARRAY.
list_paths() {
    local -n paths_to=$1
    local p
    paths_to=()
    while IFS= read -r p; do [ -z "$p" ] || paths_to+=("$p"); done <<< "$2"
}

# Seconds since START (an $EPOCHREALTIME), to 0.01 s.
since() {
    awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}

# Why stage NAME with OUTPUTS and INPUTS (path lists) and command CMD
# must run, or nothing when it is up to date.
stale() {
    local name=$1 cmd=$4 stamp=$O/.stamps/$1 outs ins
    if [ -n "${FORCE:-}" ]; then echo "forced"; return; fi
    if [ ! -f "$stamp" ]; then echo "never run"; return; fi
    if [ "$(cat "$stamp")" != "$cmd" ]; then echo "its command changed"; return; fi
    list_paths outs "$2"
    list_paths ins "$3"
    local out in
    for out in "${outs[@]}"; do
        [ -e "$out" ] || { echo "${out#"$O"/} is missing"; return; }
        for in in "${ins[@]}"; do
            [ "$in" -nt "$out" ] && { echo "${in#"$O"/} is newer than ${out#"$O"/}"; return; }
        done
    done
    return 0
}

# run_stage KIND NAME OUTPUTS INPUTS COMMAND...: run a stage unless it is
# up to date, here (--engine local) or as Slurm job(s) after the jobs that
# write its inputs (engine.sh). KIND 'tool' fails on any non-zero status;
# 'guest' (a run of the program) only on the tool's own failures (125 and up),
# as the tools mirror the guest's exit status; 'regions' is a tool whose
# command is simulate_regions (a job array on Slurm). With CACHED=1 in its
# environment, the stage is kept in and taken from the cache (cache_get),
# its INPUTS in the key. AFTER (paths) in its environment: on Slurm, the job
# starts once the jobs that write them have ended, an order that is not an
# input (neither staleness nor the cache key).
run_stage() {
    local kind=$1 name=$2 outs=$3 ins=$4
    shift 4
    local why deps='' stamp AFTER_ANY=''
    [ "$ENGINE" == local ] || [ -z "${AFTER:-}" ] || AFTER_ANY=$(engine_deps "$AFTER")
    stamp=$(stamp_of "$ins" "$@")
    [ "$ENGINE" == local ] || deps=$(engine_deps "$ins")
    why=${deps:+"its inputs are being made by job(s) ${deps//:/ }"}
    [ -n "$why" ] || why=$(stale "$name" "$outs" "$ins" "$stamp")
    if [ -z "$why" ]; then
        log "$name: up to date"
        return 0
    fi
    if [ "$ENGINE" == slurm ]; then
        engine_submit "$kind" "$name" "$outs" "$deps" "$why" "$@"
        return 0
    fi
    ! cache_get "$name" "$outs" "${CACHED:+$ins}" "$why" "$stamp" "$@" || return 0
    STAGE_NOW=$name
    log "$name: running ($why)"
    stage_exec "$kind" "$name" "$O/logs/$name.log" "$outs" "$stamp" "$@" || exit 1
    cache_put "$name" "$outs"
}

# stamp_of INPUTS COMMAND...: what decides, with the inputs' times, whether
# a stage is up to date: its command, and the program's standard input for a
# stage that reads it (STDIN_DEP among its inputs), so that another file
# reruns it, not only a newer one.
stamp_of() {
    local ins=$1
    shift
    if [ -n "${STDIN_DEP:-}" ] && [[ $'\n'$ins$'\n' == *$'\n'"$STDIN_DEP"$'\n'* ]]; then printf '%s < %s\n' "$*" "$STDIN_DEP"; else printf '%s\n' "$*"; fi
}

# stage_exec KIND NAME LOG OUTPUTS STAMP COMMAND...: run a stage's command
# (a tool or a function here) into LOG, check its status and outputs, and
# record STAMP (the command that decides reuse; none when empty). The same
# for both engines: a Slurm job script calls it too.
stage_exec() {
    local kind=$1 name=$2 logf=$3 outs=$4 stamp=$5
    shift 5
    mkdir -p -- "$O/.stamps" "$(dirname -- "$logf")"
    [ -z "$stamp" ] || rm -f "$O/.stamps/$name"
    local start=$EPOCHREALTIME status=0 f files
    STAGE_NOW=$name STAGE_OUTS=$outs
    spawn "$@" < "${STDIN:-/dev/null}" > "$logf" 2>&1
    wait "$SPAWNED" || status=$?
    STAGE_NOW='' STAGE_OUTS=''
    if [ "$status" -ne 0 ] && { [ "$kind" != guest ] || [ "$status" -ge 125 ]; }; then
        stage_failed "$name" "with status $status after $(since "$start") s" "$logf"
        return 1
    fi
    STAGE_STATUS=$status
    [ "$status" -eq 0 ] || log "$name: the program exited with status $status"
    list_paths files "$outs"
    for f in "${files[@]}"; do
        [ -e "$f" ] || { stage_failed "$name" "it did not write $f" "$logf"; return 1; }
    done
    [ -z "$stamp" ] || echo "$stamp" > "$O/.stamps/$name"
    log "$name: done in $(since "$start") s"
}

# stage_failed NAME WHY LOG: say so, with the end of the log.
stage_failed() {
    log "$1: FAILED $2; the end of $3:"
    tail -n 15 "$3" | sed 's/^/    /' | tee -a "$O/pipeline.log"
}

# ------------------------------------------------------------ interruptions
# A stage runs in the background, in a process group of its own, and the
# script waits for it: bash runs a trap only between commands, so with the
# stage in the foreground INT and TERM would wait for the stage to end, and
# killing the script would leave the stage running, writing its outputs.
# On INT, TERM or HUP (trap_signals) the script stops every stage it runs and
# ends by the same signal (on_signal).
STAGE_NOW='' STAGE_OUTS='' SPAWNED=''
SCRATCH=() # files and directories of this script's own to remove when it is stopped

# spawn COMMAND...: COMMAND in the background, in a new process group (job
# control on for the fork alone: the group is the one thing to signal, and
# its SIGINT is not ignored as a background command's would be); its pid in
# SPAWNED. Redirections given to spawn apply to COMMAND.
spawn() {
    local had_m=${-//[^m]/}
    set -m
    "$@" &
    SPAWNED=$!
    [ -n "$had_m" ] || set +m
}

# on_signal SIG: the trap of SIG: the signal to every stage (and, in sweep.sh,
# every program) this shell runs, wait for them to end (the tools remove
# their temporary files as they die), remove SCRATCH and the temporary files
# of the stage's own functions (OUTPUT.tmp), say so, and end by SIG, so that
# whoever started the script sees how it ended.
on_signal() {
    local sig=$1 p pids f outs
    trap '' INT TERM HUP
    pids=$(jobs -p)
    for p in $pids; do kill -s "$sig" -- "-$p" 2> /dev/null || kill -s "$sig" "$p" 2> /dev/null || true; done
    for p in $pids; do wait "$p" 2> /dev/null || true; done
    list_paths outs "$STAGE_OUTS"
    for f in "${outs[@]}"; do rm -f "$f.tmp"; done
    [ ${#SCRATCH[@]} -eq 0 ] || rm -rf "${SCRATCH[@]}"
    if [ -n "${O:-}" ] && [ -d "$O" ]; then
        log "stopped by SIG$sig${STAGE_NOW:+ in stage $STAGE_NOW}, which a rerun starts again; nothing is left running" || true
    fi
    trap - "$sig"
    kill -s "$sig" "$BASHPID"
}

# supervise SCRIPT ARGS...: unless this process is the run itself, run
# SCRIPT ARGS... (this script again) in a process group of its own, pass INT,
# TERM and HUP on to the whole group, and end as it ends (by the signal, when
# one came). bash does nothing on an INT sent to it alone while a command runs
# in the foreground (it takes the command to have handled it), and between two
# stages `kill -INT PID` finds it so; sent to the group, the INT stops that
# command too, and the run's trap (on_signal) runs.
supervise() {
    if [ -n "${_RVSAMPLE_RUN:-}" ]; then
        unset _RVSAMPLE_RUN
        return 0
    fi
    local sig='' s status
    if [ -t 0 ]; then # a background group reading the terminal would stop
        spawn env _RVSAMPLE_RUN=1 "$BASH" "$@" < /dev/null
    else
        spawn env _RVSAMPLE_RUN=1 "$BASH" "$@"
    fi
    for s in INT TERM HUP; do
        # shellcheck disable=SC2064 # the signal's name and the group now
        trap "sig=$s; kill -s $s -- -$SPAWNED 2> /dev/null || true" "$s"
    done
    while :; do
        status=0
        wait "$SPAWNED" || status=$?
        # a signal ends the wait, not the run: wait again
        if [ -z "$sig" ] || [ "$status" -le 128 ] || ! kill -0 "$SPAWNED" 2> /dev/null; then break; fi
    done
    if [ -n "$sig" ]; then
        trap - "$sig"
        kill -s "$sig" "$BASHPID"
    fi
    exit "$status"
}

# trap_signals: on_signal on INT, TERM and HUP.
trap_signals() {
    local s
    for s in INT TERM HUP; do
        # shellcheck disable=SC2064 # the signal's name now
        trap "on_signal $s" "$s"
    done
}

# ---------------------------------------------------------------- the cache
# With CACHE set (--cache DIR), the stages run with CACHED=1 (the full
# detailed run: deterministic, and the longest) are kept in DIR and taken from
# there instead of running when everything that determines them is the same,
# whatever the output directory: DIR/KEY/G<LOG INTERVAL>/ holds the outputs,
# log, exit status and key of the run. The key digests the command but for
# its output paths and its log interval (-G), the working directory's path and
# every file under it (type, mode, links, contents; but for the output
# directory and DIR), the standard input's contents, the files of the stage's
# INPUTS (program, tool, configuration) and the shared libraries of the
# executables among them, the files the program's arguments name, the
# RVSAMPLE_, OMP_ and GOMP_ variables, and the program's run as this
# pipeline's bbv saw it, whatever the interval size (the blocks and the
# instructions run in each, instruction count, exit status). Other files the program
# reads (/etc/passwd, time zones) and the inode numbers it sees are not in the
# key; a change in them that changes what the program does changes that run.
# The log interval only has to divide the interval size: without -G, a cached
# run logged at a divisor of it serves (cache_pick_g).
CACHE='' CACHE_KEY='' CACHE_SLOT='' CACHED='' CACHE_KEY_OF=''

# cache_command COMMAND...: the command as the key sees it, NUL-separated:
# the output directory's paths as @OUT@, and no -G (the entry's, not the key's).
cache_command() {
    local a skip='' guest=''
    for a in "$@"; do
        if [ -n "$guest" ]; then printf '%s\0' "$a"; continue; fi
        [ "$a" != -- ] || guest=1
        if [ -n "$skip" ]; then skip=''; continue; fi
        [ "$a" != -G ] || { skip=1; continue; }
        [[ $a != "$O"/* ]] || a=@OUT@/${a#"$O"/}
        printf '%s\0' "$a"
    done
}

# PATH with find's pattern characters (* ? [ ] \\) escaped: the path itself.
glob_quote() {
    printf '%s' "$1" | sed 's/[][*?\\]/\\&/g'
}

# The working directory's entries and files (cache_key), but for the output
# directory and the cache, which are not the program's inputs.
cache_tree() {
    local here d prune=()
    here=$(pwd -P)
    for d in "$O" "$CACHE"; do
        d=$(cd -- "$d" && pwd -P)
        [[ $d != "$here"/* ]] || prune+=(-path "./$(glob_quote "${d#"$here"/}")" -prune -o)
    done
    find . "${prune[@]}" \( -type d -printf '%y %m %p\n' \) -o -printf '%y %m %n %p %l\n' | LC_ALL=C sort
    find . "${prune[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum --
}

# block_totals BBMAP BB.GZ: each block (start pc, length) and the
# instructions run in it over the whole program: the same for every interval
# size (unlike the block ids, whose order can change with it).
block_totals() {
    gzip -dc "$2" | awk 'FNR == NR { if (!/^#/) block[$1] = $2 " " $3; next }
        !/^#/ { for (i = 1; i <= NF; i++) { split($i, f, ":"); n[f[2]] += f[3] } }
        END { for (b in n) printf "%s %.0f\n", block[b], n[b] }' "$1" - | LC_ALL=C sort
}

# cache_key INPUTS COMMAND...: the key; fails when the run cannot be cached
# (its standard input is not a file, or something it reads cannot be read).
cache_key() {
    local ins a guest=()
    list_paths ins "$1"
    shift
    [ -f "$STDIN" ] || [ "$STDIN" == /dev/null ] || return 1
    # The program and its arguments: what follows the command's first --.
    for a in "$@"; do
        if [ ${#guest[@]} -gt 0 ] || [ "$a" == -- ]; then guest+=("$a"); fi
    done
    {
        cache_command "$@"
        printf '\n%s\n' "$(pwd -P)"
        env | grep -E '^(RVSAMPLE|OMP|GOMP)_' | LC_ALL=C sort
        sha256sum -- "${ins[@]}" || exit 1
        sha256sum < "$STDIN" || exit 1
        for a in "${ins[@]}"; do [ ! -x "$a" ] || ldd -- "$a" 2> /dev/null || true; done |
            awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' | LC_ALL=C sort -u |
            xargs -r sha256sum -- || exit 1
        for a in "${guest[@]:1}"; do [ ! -f "$a" ] || sha256sum -- "$a" || exit 1; done
        # The run as bbv saw it, from the main part below (P, N).
        grep -E '^  "(instructions|stopped_by|exit_status)":' "$P.summary.json" || exit 1
        block_totals "$P.bbmap" "$P.$N.bb.gz" || exit 1
        cache_tree || exit 1
    } | sha256sum | cut -d' ' -f1
}

# cache_key_once INPUTS COMMAND...: the key in CACHE_KEY, computed once per
# command and inputs (cache_pick_g, then cache_get); fails as cache_key.
cache_key_once() {
    local of
    of="$1 $(cache_command "${@:2}" | sha256sum)"
    [ "$of" != "$CACHE_KEY_OF" ] || [ -z "$CACHE_KEY" ] || return 0
    CACHE_KEY_OF=$of
    CACHE_KEY=$(cache_key "$@") || { CACHE_KEY=''; return 1; }
}

# cache_pick_g INPUTS N G COMMAND...: the log interval for the full run:
# G, or a coarser one of a cached run (the coarsest, a divisor of N), whose
# log validate reads as well.
cache_pick_g() {
    local ins=$1 n=$2 g=$3 slot best=$3
    shift 3
    if [ -z "$CACHE" ] || [ -n "${FORCE:-}" ] || ! cache_key_once "$ins" "$@" ||
        [ -f "$CACHE/${CACHE_KEY:0:32}/G$g/key" ]; then
        echo "$g"
        return
    fi
    for slot in "$CACHE/${CACHE_KEY:0:32}"/G*; do
        local c=${slot##*/G}
        if [[ $c =~ ^[0-9]+$ ]] && [ $((n % c)) -eq 0 ] && [ "$(cat "$slot/key" 2> /dev/null)" == "$CACHE_KEY" ] &&
            { [ "$best" == "$g" ] || [ "$c" -gt "$best" ]; }; then
            best=$c
        fi
    done
    echo "$best"
}

# cache_get NAME OUTPUTS INPUTS WHY STAMP COMMAND...: the stage's outputs,
# log and stamp from the cache, if it holds this run at this log interval;
# sets CACHE_SLOT for cache_put (empty: not to be cached). -f does not read it.
cache_get() {
    local name=$1 outs ins=$3 why=$4 stamp=$5 start=$EPOCHREALTIME f sums from
    list_paths outs "$2"
    shift 5
    CACHE_SLOT=''
    [ -n "$CACHE" ] && [ -n "$ins" ] || return 1
    if ! cache_key_once "$ins" "$@"; then
        log "$name: not cached (its standard input is not a file, or an input cannot be read)"
        return 1
    fi
    CACHE_SLOT=$CACHE/${CACHE_KEY:0:32}/G$(cache_log_interval "$@")
    [ -z "${FORCE:-}" ] && [ "$(cat "$CACHE_SLOT/key" 2> /dev/null)" == "$CACHE_KEY" ] || return 1
    mkdir -p "$O/.stamps" "$O/logs"
    rm -f "$O/.stamps/$name"
    local i=0
    for f in "${outs[@]}"; do
        cp -- "$CACHE_SLOT/out.$i" "$f" || return 1
        i=$((i + 1))
    done
    sums=$(sha256sum -- "${outs[@]}" | cut -d' ' -f1)
    [ "$sums" == "$(cat "$CACHE_SLOT/sums")" ] || { log "$name: the cache's copy in $CACHE_SLOT is damaged"; return 1; }
    from=$(cat "$CACHE_SLOT/dir")
    [ "$from" == "$O" ] || cache_move_paths "$from" "$O" "${outs[@]}"
    cp "$CACHE_SLOT/log" "$O/logs/$name.log"
    STAGE_STATUS=$(cat "$CACHE_SLOT/status")
    [ "$STAGE_STATUS" -eq 0 ] || log "$name: the program exited with status $STAGE_STATUS"
    echo "$stamp" > "$O/.stamps/$name"
    if [ "$from" == "$O" ]; then from=''; else from=", made for $from"; fi
    log "$name: from the cache in $(since "$start") s ($why; the same run is in $CACHE_SLOT$from)"
}

# The -G of a command (cache_get): its log interval.
cache_log_interval() {
    while [ $# -gt 1 ] && [ "$1" != -- ]; do
        [ "$1" != -G ] || { echo "$2"; return; }
        shift
    done
}

# cache_move_paths FROM TO FILES...: in the JSON FILES, the paths under
# directory FROM (the output directory of the cached run: the full run's
# interval log) now under TO.
cache_move_paths() {
    python3 - "$@" << 'PY'
import json, os, sys
# as JSON strings, that begin with the directory: the rest of the text as it was
old, new = ('"' + json.dumps(d + "/")[1:-1] for d in sys.argv[1:3])
for f in sys.argv[3:]:
    if f.endswith(".json"):
        with open(f + ".tmp", "w") as out:
            out.write(open(f).read().replace(old, new))
        os.replace(f + ".tmp", f)
PY
}

# cache_put NAME OUTPUTS: keep the stage just run in the cache, in place of
# an entry of the same key and log interval.
cache_put() {
    local name=$1 outs f i=0
    list_paths outs "$2"
    [ -n "$CACHE_SLOT" ] || return 0
    local tmp=$CACHE_SLOT.tmp.$$
    SCRATCH+=("$tmp")
    rm -rf "$tmp"
    mkdir -p "$tmp"
    for f in "${outs[@]}"; do
        cp -- "$f" "$tmp/out.$i"
        i=$((i + 1))
    done
    sha256sum -- "${outs[@]}" | cut -d' ' -f1 > "$tmp/sums"
    cp "$O/logs/$name.log" "$tmp/log"
    echo "$STAGE_STATUS" > "$tmp/status"
    echo "$O" > "$tmp/dir"
    echo "$CACHE_KEY" > "$tmp/key"
    rm -rf "$CACHE_SLOT"
    mv -T "$tmp" "$CACHE_SLOT" 2> /dev/null || rm -rf "$tmp" # another run's, just put there
}

# take_checkpoints DIR INTERVAL WARMUP SIMPOINTS WEIGHTS [CHECKPOINT OPTIONS...]
# -- PROGRAM ARGS: the checkpoints of a sampling, in a directory made afresh.
take_checkpoints() {
    local dir=$1 n=$2 w=$3 sp=$4 wt=$5
    shift 5
    local opts=()
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    rm -rf "$dir"
    "$B/checkpoint" -o "$dir" --simpoints "$sp" --weights "$wt" --interval "$n" --warmup "$w" \
        "${opts[@]}" --guest-output none -- "$@"
}

# method_options METHOD: simpoint's options for a way of choosing the points,
# one a line. METHOD is simpoint (SimPoint 3.2's choice) or parts joined by
# '+': select[:N] (--select-by proxy among the N nearest the centre [5]),
# stratify[:F] (--stratify F [0.2]), dims[:S] (--proxy-dims S [1]), long[:W]
# (--proxy-long W [1]: the long-latency operations in the proxy CPI),
# exposed[:W] (--proxy-exposed W [4, simpoint's default without it: their
# latency left exposed; exposed:0 for none, the design before it); all but
# simpoint need bbv --proxy's metrics (simpoint --proxy FILE, added by the caller).
method_options() {
    [ "$1" != simpoint ] || return 0
    local part arg
    for part in ${1//+/ }; do
        arg=${part#*:}
        [ "$arg" != "$part" ] || arg=
        [ -z "$arg" ] || [[ $arg =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "method $1: '$arg' is not a number" >&2; return 1; }
        case ${part%%:*} in
        select) printf '%s\n' --select-by proxy --proxy-candidates "${arg:-5}" ;;
        stratify) printf '%s\n' --stratify "${arg:-0.2}" ;;
        dims) printf '%s\n' --proxy-dims "${arg:-1}" ;;
        long) printf '%s\n' --proxy-long "${arg:-1}" ;;
        exposed) printf '%s\n' --proxy-exposed "${arg:-4}" ;;
        *) echo "unknown method '$1' (simpoint, or select[:N], stratify[:F], dims[:S], long[:W], exposed[:W] joined by +)" >&2; return 1 ;;
        esac
    done
}

# The program's instruction count, from bbv's summary ($P.summary.json).
total_insts() { sed -n 's/^  "instructions": \([0-9]*\),$/\1/p' "$P.summary.json"; }

# check_full_chunks SCRIPT N|auto: exit 1 with a one-line reason unless
# --full-chunks's value is a number of chunks or auto.
check_full_chunks() {
    [[ $2 == auto || $2 =~ ^[1-9][0-9]*$ ]] ||
        { echo "$1: --full-chunks wants a number of chunks or auto, not '$2'" >&2; exit 1; }
}

# chunk_size N|auto G: the instructions of a chunk when the program (bbv's
# count) runs in N chunks, rounded up to a multiple of G, as sim --chunks N
# rounds them (so the run may have fewer than N). auto: one chunk per CPU
# this process may use, or CHUNK_TASKS (a Slurm job array's tasks), each at
# least ten log intervals of G.
chunk_size() {
    local n=$1 g=$2 total
    total=$(total_insts)
    if [ "$n" == auto ]; then
        n=${CHUNK_TASKS:-$(nproc)}
        [ "$n" -le $((total / (10 * g))) ] || n=$((total / (10 * g)))
        [ "$n" -ge 1 ] || n=1
    fi
    echo $((((total + n - 1) / n + g - 1) / g * g))
}

# full_in_chunks N|auto G SIM OPTIONS... -- PROGRAM ARGS...: the full run in
# chunks of chunk_size (sim --full --chunk-insts), here. On Slurm the same
# command is a pass job, a job array and a stitch job (engine.sh: chunks_pass,
# chunks_task and chunks_stitch).
full_in_chunks() {
    local c opts=()
    c=$(chunk_size "$1" "$2")
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
    "${opts[@]}" --chunk-insts "$c" --total-insts "$(total_insts)" "$@"
}

# simulate_regions DIR OUT [SIM OPTIONS...]: sim on the checkpoints in DIR
# into OUT. In a task of a Slurm job array (REGION_CHUNK=I:C), on the I-th C
# of them only (none: nothing to do), into REGION_PART.
simulate_regions() {
    local dir=$1 out=$2
    shift 2
    local ckpts=("$dir"/*.ckpt)
    if [ -n "${REGION_CHUNK:-}" ]; then
        local i=${REGION_CHUNK%:*} c=${REGION_CHUNK#*:}
        ckpts=("${ckpts[@]:i*c:c}") out=$REGION_PART
        [ ${#ckpts[@]} -gt 0 ] || { echo "no checkpoints for task $i"; return 0; }
    fi
    "$B/sim" "$@" --total-insts "$(total_insts)" --report "${out%.json}.md" -o "$out" "${ckpts[@]}"
}

# The file prefix of a method's SimPoint outputs: sp (SimPoint's), sp-METHOD.
method_prefix() {
    if [ "$1" == simpoint ]; then echo sp; else echo "sp-$1"; fi
}

# A number from a tool's JSON summary: json_number FILE KEY (the first one).
json_number() {
    sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1" | head -n 1
}

# predicted_se: the standard error of the estimate that simpoint predicts
# from the proxy CPI before anything is simulated (methods that read it). The
# proxy sees only part of the CPI's spread: bench/results/accuracy_eval.md
# measured the error's 95% bound at about 2.1-2.4x 1.96 SE on the tuning set;
# the interval from the simulated regions (estimate_summary) measures it.
predicted_se() {
    [ -f "$P.simpoint.json" ] && grep -q '"predicted"' "$P.simpoint.json" || return 0
    local rel points
    rel=$(json_number "$P.simpoint.json" relative_se) points=$(json_number "$P.simpoint.json" points)
    log "simpoint: $points points; predicted standard error of the CPI estimate from the proxy CPI, before simulating: $(awk -v r="$rel" 'BEGIN { printf "%.2f%%", 100 * r }') (the proxy sees part of the spread: on the tuning set 95% of errors fell within 2.1-2.6x 1.96 x it, bench/results/accuracy_eval.md; the interval from the regions measures it)"
}

# sampling_cost: when the regions (every point, and every extra member of
# each cluster, each with its warm-up) come to half the program or more,
# sampling saves little over the full run: say so, and which interval size
# would simulate about a tenth of the program with as many points.
sampling_cost() {
    local points total
    [ -f "$P.simpoints" ] && [ -f "$P.summary.json" ] || return 0 # not made yet (a Slurm job, a dry run)
    points=$(grep -c . "$P.simpoints") total=$(total_insts)
    [ -n "$total" ] && [ "$points" -gt 0 ] || return 0
    awk -v k="$((points * (1 + ${EXTRA[3]:-0})))" -v n="$N" -v w="$W" -v total="$total" 'BEGIN {
        sim = k * (n + w)
        if (sim * 2 < total) exit
        best = n; while (best > 1000 && k * best * (1 + w / n) > total / 10) best /= 10
        unit = best >= 1e6 ? "M" : best >= 1e3 ? "k" : ""; div = unit == "M" ? 1e6 : unit == "k" ? 1e3 : 1
        printf "sampling saves little: the %d regions simulate %.0f instructions, warm-ups included, ", k, sim
        printf "%.0f%% of the %.0f the full run simulates; ", 100 * sim / total, total
        printf "-i %g%s would simulate about %.0f%%\n", best / div, unit, 100 * k * best * (1 + w / n) / total }' |
        while IFS= read -r line; do log "$line"; done
}

# regions_summary REGIONS INTERVAL: the whole-program estimate of sim's
# "combined" in REGIONS (--no-full), which CPI to use and what the
# confidence interval says; fails, saying why, when there is no estimate.
regions_summary() {
    python3 - "$@" << 'PY'
import json, math, sys
doc, interval = json.load(open(sys.argv[1])), int(sys.argv[2])
c, n = doc.get("combined") or {}, len(doc["results"])
cpi = c.get("cpi")
if not isinstance(cpi, (int, float)) or not math.isfinite(cpi):
    why = "sim combines two regions or more" if n < 2 else "a region ran no instructions"
    sys.exit(f"no whole-program estimate from the regions: {why}, and this run has {n} "
             f"(a program shorter than two intervals of {interval} instructions has nothing to sample: "
             f"a smaller -i, or the full run without --no-full)")
print(f" Whole program from {c['regions']} regions (weights summing to {c['weight']:.4f}): CPI {cpi:.4f}, "
      f"IPC {1 / cpi:.4f} (the representatives, weighted, as validate extrapolates them)")
ci = c.get("confidence_interval") or {}
if ci.get("interval", 0) is None:
    print(f"   no confidence interval: {ci.get('why', '?')} (--extra-per-cluster N simulates N more members of each cluster)")
elif ci:
    # The interval is the stratified mean's, over every member simulated. When
    # the representatives' CPI lies in it, the two agree and the estimate stands
    # with that uncertainty; outside it, a representative misses its cluster by
    # more than the members' spread explains, and their mean is the better figure.
    mean, half = ci["cpi"], (ci["high"] - ci["low"]) / 2
    print(f"   95% interval {ci['low']:.4f} .. {ci['high']:.4f} (±{100 * half / mean:.2f}%) around the members' "
          f"stratified mean, CPI {mean:.4f}: the spread of CPI within the {ci['clusters']} clusters over the "
          f"{ci['members_simulated']} members simulated")
    if abs(cpi - mean) <= half:
        print(f"   which to use: CPI {cpi:.4f} ± {100 * half / cpi:.2f}%, the representatives' (the members' mean "
              f"agrees: {100 * (mean - cpi) / cpi:+.2f}%, within the interval)")
    else:
        print(f"   which to use: CPI {mean:.4f} ± {100 * half / mean:.2f}%, the members' mean: the representatives' "
              f"CPI is {100 * (cpi - mean) / mean:+.2f}% from it, outside the interval, so a representative does not "
              f"stand for its cluster (more members, or a smaller -i, tell more)")
proj = c.get("projected") or {}
if proj.get("cycles"):
    print(f"   projected at the representatives' CPI: {proj['cycles']:.0f} cycles for {proj['instructions']} instructions")
stack = ", ".join(f"{k} {100 * v['share']:.1f}%" for k, v in c.get("cycle_stack", {}).items() if v["share"] >= 0.001)
print(f"   cycle stack: {stack}")
events = ", ".join(f"{k} {v:.3f}" for k, v in c.get("events_per_1000_instructions", {}).items() if v > 0)
print(f"   per 1000 instructions: {events}")
PY
}

# take_new_checkpoints DIR N W FIRST.simpoints SIMPOINTS WEIGHTS [CHECKPOINT
# OPTIONS...] -- PROGRAM ARGS: the checkpoints of the points of SIMPOINTS
# (the second stage's design) that FIRST.simpoints (the first stage's) does
# not have, in DIR.new.simpoints and .weights; none: an empty DIR.
take_new_checkpoints() {
    local dir=$1 n=$2 w=$3 first=$4 sp=$5 wt=$6
    shift 6
    awk 'FNR == NR { old[$1] = 1; next } !($1 in old)' "$first" "$sp" > "$dir.new.simpoints"
    awk 'FNR == NR { keep[$2] = 1; next } $2 in keep' "$dir.new.simpoints" "$wt" > "$dir.new.weights"
    if [ ! -s "$dir.new.simpoints" ]; then
        rm -rf -- "$dir"
        mkdir -p -- "$dir"
        echo '{"checkpoints": []}' > "$dir/checkpoints.json"
        echo "no points to add"
        return 0
    fi
    take_checkpoints "$dir" "$n" "$w" "$dir.new.simpoints" "$dir.new.weights" "$@"
}

# simulate_new_regions DIR OUT [SIM OPTIONS...]: simulate_regions, or
# region results with none when DIR has no checkpoints.
simulate_new_regions() {
    if compgen -G "$1/*.ckpt" > /dev/null; then
        simulate_regions "$@"
    else
        echo '{"tool": "sim", "version": 1, "mode": "regions", "results": []}' > "$2"
    fi
}

# validate_with REGIONS2 VALIDATE ARGS...: validate, taking the second
# stage's region results (REGIONS2) too when it simulated any: known only once
# that stage ran (on Slurm, in the job).
validate_with() {
    local r2=$1
    shift
    if [ -n "$r2" ] && grep -q '"region"' "$r2"; then "$@" "--regions=$r2"; else "$@"; fi
}

# estimate_summary JSON: the estimate and its 95% interval from the points'
# CPIs (simpoint --measured), with the budget and, in two stages, what the
# second added.
estimate_summary() {
    python3 - "$1" << 'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
m, b = doc.get("measured") or {}, doc.get("budget") or {}
if not m.get("complete"):
    sys.exit(0)
line = (f"estimate from the {m['points']} regions (simpoint --measured): CPI {m['cpi']:.4f} "
        f"± {100 * m['ci95_relative']:.2f}% (95%: {m['low']:.4f} .. {m['high']:.4f}; t {m['t']:.2f} at {m['df']:.1f} "
        f"degrees of freedom, {m['pairs']:.0f} of them from points that share a cluster)")
if b.get("simpoint_points"):
    line += f"; the budget: {b['points']} points, {b['points'] / b['simpoint_points']:.2f} x SimPoint's {b['simpoint_points']}"
print(line)
if "first_stage" in m:
    f = m["first_stage"]
    met = "within" if m["ci95_relative"] <= m["target_ci"] else "not within"
    print(f"two stages: the first's {f['points']} points gave ± {100 * f['ci95_relative']:.2f}%, the second added "
          f"{len(m['added'])} where the points disagree most: ± {100 * m['ci95_relative']:.2f}%, {met} the target "
          f"± {100 * m['target_ci']:g}%")
PY
}

# The functions above, which a Slurm job script gets by sourcing this file.
ENGINE_HELPERS=" $(compgen -A function | tr '\n' ' ')"

[[ "${BASH_SOURCE[0]}" != "$0" ]] && return 0
supervise "${BASH_SOURCE[0]}" "$@"

# ------------------------------------------------------ the standard input
# The program's standard input must be the same for every stage that runs it
# (bbv, checkpoint, the full run), so one piped into this script is kept in
# a file: read once, it would reach the first stage only.

# The --stdin default: '-' (read it) when a pipe or a file is this script's
# standard input, /dev/null for a terminal or a device.
default_stdin() {
    if stdin_readable; then echo -; else echo /dev/null; fi
}

# Whether this script's standard input is a pipe or a file (not a terminal,
# nor /dev/null: supervise gives a terminal's run /dev/null).
stdin_readable() {
    [ ! -t 0 ] && { [ -p /dev/stdin ] || [ -f /dev/stdin ]; }
}

# This script's standard input into DIR/stdin (kept as it is when the same,
# so that the stages reading it stay up to date), now STDIN.
capture_stdin() {
    local tmp=$O/stdin.tmp.$$
    log "reading the program's standard input from this script's into $O/stdin (--stdin FILE, or < /dev/null, to give another)"
    SCRATCH+=("$tmp")
    cat > "$tmp"
    if cmp -s "$tmp" "$O/stdin"; then rm -f "$tmp"; else mv -f "$tmp" "$O/stdin"; fi
    STDIN=$O/stdin
    log "the program's standard input: $(wc -c < "$STDIN") bytes, in $STDIN"
}

# ------------------------------------------------------------------ options
usage() {
    # The name it was run by (PREFIX/bin/rvsample-pipeline once installed).
    printf 'Usage: %s [options] [-o DIR] -- PROGRAM [ARGS...]\n' "$0"
    cat << 'EOF'

Run one program through bbv, simpoint, checkpoint, sim (the regions and the
full run) and validate, into DIR, reusing the results of an earlier run that
are up to date. Prints the validation summary; the reports are in DIR/validate.

  -o DIR            output directory (default: out/pipeline/NAME)
  -n NAME           name in the reports (default: the program's file name)
  -i N              interval size (k/M/G suffixes) [1M]
  -G N              the full run's log interval; divides N [N/10; with --cache, a
                    cached run's log interval that divides N]
  -k K              SimPoint's MaxK [30]
  -M METHOD         how the points are chosen: simpoint (SimPoint 3.2's choice), or
                    select[:N], stratify[:F], dims[:S], long[:W], exposed[:W] joined by +
                    (simpoint's --select-by proxy, --stratify, --proxy-dims, --proxy-long,
                    --proxy-exposed over the metrics of
                    bbv --proxy with the core configuration; simpoint weighs the exposed
                    latency by 4 unless exposed:W says otherwise) [dims:1, the most accurate
                    over bench/results/proxy_methods.md and tests/corpus/RESULTS.md;
                    sweep.sh's default too]
  -w K              warm-up before each region, in intervals: K x N instructions [1]
                    (as sweep.sh's -w)
  -m MODE           sim's warm-up: none, detailed, functional, checkpoint (warm
                    checkpoints: caches, TLBs and predictors warmed over the whole prefix) [checkpoint]
  -c FILE           core configuration for sim and warm checkpoints [sim's built-in]
  -s SEC.KEY=V      a core parameter (sim --set); repeatable
  -j N              regions simulated in parallel [sim's default: all cores]
  --sample LIST     sampled profilers in the regions and the full run (sim --sample),
                    scored by validate against the full run's golden profile [none]
  --sample-hz HZ    their sampling frequency [sim's: 4000, faster in a region so that it
                    gets at least 1000 samples, at a random cycle of each period]
  --stdin FILE      the program's standard input, the same for every stage; '-' reads
                    this script's (a pipe or a file) into DIR/stdin [what is piped or
                    redirected into this script, read into DIR/stdin; /dev/null when it
                    is a terminal]
  -e, --env N=V     a variable of the program's environment (empty by default); repeatable
  --max-error PCT   exit with status 2 when |CPI error| > PCT
  --extra-per-cluster N  also simulate N more random members of each cluster (seeded):
                    a 95% confidence interval for the estimate without a full run, and
                    which CPI to use: the representatives', or the members' stratified
                    mean when the representatives' lies outside its interval
  --budget N|Fx|none  the most simulation points, or F x SimPoint 3.2's on the same
                    profile (simpoint --points; clusters above it are clustered again at
                    k = budget); for the methods over the proxy metrics but stratify[:F],
                    whose F sets them [1.5x]
  --target-ci PCT   two-stage sampling: simulate part of the budget (the clusters and a
                    few strata), then add points where the simulated points disagree most
                    until the 95% interval of the estimate is within +-PCT or the budget
                    is spent, simulating only the new ones (simpoint --pilot 1x, then
                    --measured --target-ci) [one stage: the whole budget at once]
  --no-full         stop after the regions: the whole-program estimate from them alone
                    (CPI, cycle stack, event rates, total cycles), no full run, no validation
  --full-chunks N|auto  the full run in N chunks simulated in parallel from warm checkpoints
                    and stitched (sim --full --chunk-insts; auto: one per CPU, each at least
                    ten log intervals; sampled profiles too, their periods going on across
                    chunks); each chunk starts once the pass has gone one chunk past its
                    checkpoint; with --engine slurm, a job array of a task per chunk that
                    starts with the pass, each task waiting for its own checkpoint (auto:
                    one per CPU of the cluster, at most Slurm's MaxArraySize; a larger
                    N is refused) [one serial run]
  --cache DIR       keep the full detailed run in DIR, and take it from there when an
                    earlier run, into any -o and at any -i, had the same key: the
                    program, its arguments, the files they name and the files under
                    the working directory (but for DIR and -o), the working directory's
                    path, the standard input, sim and its shared libraries, the core
                    configuration and sim's options, the RVSAMPLE_, OMP_ and GOMP_
                    variables, and the program's run as bbv saw it (blocks, their
                    counts, instructions, exit status) [none]
  -f                redo every stage (and do not read --cache)
  -h                this help
EOF
    engine_usage
    printf '\nTools come from %s (or $BIN), core configurations from %s.\n' "$B" "$(readlink -f -- "$ROOT/configs")"
    cat << 'EOF'
Exit status: 0, 1 when a stage failed, 2 over --max-error. INT (Ctrl-C), TERM or
HUP stop the running stage (nothing is left running or half-written) and the
script, which ends by that signal.
EOF
}

O= NAME= INTERVAL=1M G= MAXK=30 METHOD=dims:1 WARM_K=1 MODE=checkpoint CONFIG= JOBS= STDIN= MAXERR= FORCE= NO_FULL=
FULL_CHUNKS=
BUDGET=1.5x TARGET_CI=
SETS=() SAMPLE=() SAMPLE_HZ= GUEST=() EXTRA=()
while [ $# -gt 0 ]; do
    case $1 in
    -o) O=$2; shift 2 ;;
    -n) NAME=$2; shift 2 ;;
    -i) INTERVAL=$2; shift 2 ;;
    -G) G=$2; shift 2 ;;
    -k) MAXK=$2; shift 2 ;;
    -M) METHOD=$2; shift 2 ;;
    -w) WARM_K=$2; shift 2 ;;
    -m) MODE=$2; shift 2 ;;
    -c) CONFIG=$2; shift 2 ;;
    -s) SETS+=(--set "$2"); shift 2 ;;
    -j) JOBS=$2; shift 2 ;;
    --sample) SAMPLE=(--sample "$2"); shift 2 ;;
    --sample-hz) SAMPLE_HZ=$2; shift 2 ;;
    --stdin) STDIN=$2; shift 2 ;;
    -e | --env) GUEST+=(--env "$2"); shift 2 ;;
    --max-error) MAXERR=$2; shift 2 ;;
    --no-full) NO_FULL=1; shift ;;
    --full-chunks) FULL_CHUNKS=$2; shift 2 ;;
    --budget) BUDGET=$2; shift 2 ;;
    --target-ci) TARGET_CI=${2%\%}; shift 2 ;;
    --extra-per-cluster) EXTRA=(--labels "__LABELS__" --extra-per-cluster "$2"); shift 2 ;;
    --cache) CACHE=$2; shift 2 ;;
    -f) FORCE=1; shift ;;
    --engine | --slurm-opts | --regions-per-task) engine_set "$1" "$2"; shift 2 ;;
    --wait | --dry-run) engine_set "$1"; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "pipeline.sh: unknown option '$1' (see -h)" >&2; exit 1 ;;
    esac
done
[ $# -ge 1 ] || { echo "pipeline.sh: no program (see -h)" >&2; exit 1; }
PROG=$1
shift
[ -f "$PROG" ] || { echo "pipeline.sh: no program $PROG" >&2; exit 1; }
NAME=${NAME:-$(basename -- "$PROG")}
O=${O:-out/pipeline/$NAME}
# The names, before anything is made (check_name).
check_names pipeline.sh "the program" "$PROG" "the output directory" "$O" "the working directory" "$PWD" \
    "the tools' directory" "$B" "-c" "$CONFIG" "--stdin" "$STDIN" "--cache" "$CACHE"
check_name pipeline.sh "the name (-n, or the program's file name)" "$NAME" / slash "it names files in the output directory"
[[ $NAME != . && $NAME != .. ]] || { echo "pipeline.sh: -n $NAME: not a file name" >&2; exit 1; }
N=$(to_count "$INTERVAL")
G_GIVEN=$G
G=$(to_count "${G:-$((N >= 10 && N % 10 == 0 ? N / 10 : N))}")
[ $((N % G)) -eq 0 ] || { echo "pipeline.sh: the log interval $G does not divide the interval $N" >&2; exit 1; }
[[ $WARM_K =~ ^[0-9]+$ ]] ||
    { echo "pipeline.sh: -w wants a number of intervals (1: $N instructions), not '$WARM_K'" >&2; exit 1; }
W=$((N * WARM_K))
case $MODE in none | detailed | functional | checkpoint) ;; *) echo "pipeline.sh: -m $MODE?" >&2; exit 1 ;; esac
engine_check pipeline.sh
engine_check_dir pipeline.sh "$O"
[ -z "$FULL_CHUNKS" ] || check_full_chunks pipeline.sh "$FULL_CHUNKS"
[ -z "$CACHE" ] || [ "$ENGINE" == local ] || { echo "pipeline.sh: --cache is for --engine local" >&2; exit 1; }
# The most checkpoints (a bound for the regions job array while simpoint has
# not chosen them); the whole-program estimate of --no-full needs them in one sim.
REGIONS_MAX=$((MAXK * (1 + ${EXTRA[3]:-0})))
method_options "$METHOD" > /dev/null || { echo "pipeline.sh: -M $METHOD?" >&2; exit 1; }
mapfile -t METHOD_OPTS < <(method_options "$METHOD")
# The budget of points (simpoint --points) and two-stage sampling (--target-ci).
if [ "$METHOD" == simpoint ] || [[ $METHOD == *stratify* ]]; then
    [ "$BUDGET" == 1.5x ] || [ "$BUDGET" == none ] ||
        { echo "pipeline.sh: --budget is for the methods over the proxy metrics, not -M $METHOD" >&2; exit 1; }
    BUDGET=none
fi
if [ "$BUDGET" != none ]; then
    [[ $BUDGET =~ ^[1-9][0-9]*$ ]] || { [[ $BUDGET =~ ^[0-9]+(\.[0-9]+)?x$ ]] && awk -v f="${BUDGET%x}" 'BEGIN { exit !(f >= 1) }'; } ||
        { echo "pipeline.sh: --budget wants a number of points, Fx (F >= 1: F x SimPoint's) or none, not '$BUDGET'" >&2; exit 1; }
    # the most points: SimPoint's are at most MaxK
    REGIONS_MAX=$(awk -v b="$BUDGET" -v k="$MAXK" -v e="${EXTRA[3]:-0}" 'BEGIN {
        n = b ~ /x$/ ? int(substr(b, 1, length(b) - 1) * k + 1e-9) : b; if (n < k) n = k; print n * (1 + e) }')
fi
if [ -n "$TARGET_CI" ]; then
    awk -v t="$TARGET_CI" 'BEGIN { exit !(t + 0 == t && t > 0 && t <= 100) }' ||
        { echo "pipeline.sh: --target-ci wants a percentage, not '$TARGET_CI'" >&2; exit 1; }
    [ "$BUDGET" != none ] || { echo "pipeline.sh: --target-ci adds points within a budget: not with -M $METHOD or --budget none" >&2; exit 1; }
    [ ${#EXTRA[@]} -eq 0 ] || { echo "pipeline.sh: --target-ci and --extra-per-cluster: one way of measuring the spread at a time" >&2; exit 1; }
fi
[ -z "$NO_FULL" ] || REGIONS_PER_TASK=$REGIONS_MAX
for t in bbv simpoint checkpoint sim validate; do
    [ -x "$B/$t" ] || { echo "pipeline.sh: $B/$t is missing (make build)" >&2; exit 1; }
done
mkdir -p -- "$O" ${CACHE:+"$CACHE"}
O=$(cd -- "$O" && pwd)
[ -z "$CACHE" ] || CACHE=$(cd -- "$CACHE" && pwd)
trap_signals
[ -n "$STDIN" ] || STDIN=$(default_stdin)
if [ "$STDIN" == - ]; then
    stdin_readable || { echo "pipeline.sh: --stdin -: this script's standard input is not a pipe or a file" >&2; exit 1; }
    capture_stdin
else
    [ -e "$STDIN" ] || { echo "pipeline.sh: no --stdin file $STDIN" >&2; exit 1; }
    STDIN=$(cd -- "$(dirname -- "$STDIN")" && pwd)/$(basename -- "$STDIN")
fi
# The stages that read it rerun when it changes (run_stage).
STDIN_DEP=
[ ! -f "$STDIN" ] || STDIN_DEP=$STDIN

CORE=()
[ -z "$CONFIG" ] || CORE=(--config "$CONFIG")
CORE+=("${SETS[@]}")
# Complete profiles, so that validate can score the rebuilt one.
PROFILE=(--profile-top 0)
[ ${#SAMPLE[@]} -eq 0 ] || PROFILE+=("${SAMPLE[@]}" ${SAMPLE_HZ:+--sample-hz "$SAMPLE_HZ"})
CONFIG_DEP=${CONFIG:-}
WARM=()
[ "$MODE" != checkpoint ] || WARM=(--warm "${CONFIG:-$ROOT/configs/boom-tip.ini}" "${SETS[@]}")
P=$O/$NAME

# --------------------------------------------------------------- the stages
# |CPI error| of the validation, in percent, above PCT ("1%" or "1")?
over_error() {
    awk -F, -v max="${1%\%}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "error_pct") c = i }
        NR == 2 { e = $c < 0 ? -$c : $c; exit !(e > max) }' "$O/validate/summary.csv"
}

# Methods other than SimPoint's read the proxy metrics of the core's warming
# model, collected by bbv in the same pass as the BBVs.
PROXY=() PROXY_OUT=
if [ "$METHOD" != simpoint ]; then
    PROXY=(--proxy "${CONFIG:-$ROOT/configs/boom-tip.ini}" "${SETS[@]}")
    PROXY_OUT=$P.$N.proxy
    METHOD_OPTS+=(--proxy "$PROXY_OUT")
fi
[ "$BUDGET" == none ] || METHOD_OPTS+=(--points "$BUDGET")
[ -z "$TARGET_CI" ] || METHOD_OPTS+=(--pilot 1x)
SP_CMD=("$B/simpoint" -loadFVFile "$P.$N.bb.gz" -fixedLength off -maxK "$MAXK" "${METHOD_OPTS[@]}")

log "== $NAME: $PROG $*; interval $N, log every $G, MaxK $MAXK, method $METHOD, warm-up $W ($MODE), into $O"
run_stage guest bbv "$(path_list "$P.$N.bb.gz" "$P.summary.json" "$PROXY_OUT")" \
    "$(path_list "$PROG" "$B/bbv" "$CONFIG_DEP" "$STDIN_DEP")" \
    "$B/bbv" --interval "$N" -o "$P" "${PROXY[@]}" "${GUEST[@]}" -- "$PROG" "$@"
run_stage tool simpoint "$(path_list "$P.simpoints" "$P.weights" "$P.labels")" \
    "$(path_list "$P.$N.bb.gz" "$PROXY_OUT" "$B/simpoint")" \
    "${SP_CMD[@]}" -saveSimpoints "$P.simpoints" -saveSimpointWeights "$P.weights" -saveLabels "$P.labels" --json "$P.simpoint.json"
predicted_se
sampling_cost
run_stage tool checkpoint "$O/ckpt/checkpoints.json" \
    "$(path_list "$P.simpoints" "$P.weights" "$PROG" "$B/checkpoint" "$CONFIG_DEP" "$STDIN_DEP")" \
    take_checkpoints "$O/ckpt" "$N" "$W" "$P.simpoints" "$P.weights" -v "${WARM[@]}" "${EXTRA[@]/__LABELS__/$P.labels}" "${GUEST[@]}" -- "$PROG" "$@"
SIM_JOBS=()
[ -z "$JOBS" ] || SIM_JOBS=(-j "$JOBS")
run_stage regions regions "$O/regions.json" "$(path_list "$O/ckpt/checkpoints.json" "$B/sim" "$CONFIG_DEP")" \
    simulate_regions "$O/ckpt" "$O/regions.json" "${CORE[@]}" "${PROFILE[@]}" --warmup "$MODE" "${SIM_JOBS[@]}"
# The points, the regions and what validate makes of them: with --target-ci,
# the second stage's design (P.2) and both stages' regions.
FINAL=$P REGION_FILES=("$O/regions.json") REGIONS2= MEASURED=(--measured "$O/regions.json")
VALIDATE_MORE=(--checkpoints "$O/ckpt/checkpoints.json")
if [ -n "$TARGET_CI" ]; then
    run_stage tool simpoint2 "$(path_list "$P.2.simpoints" "$P.2.weights" "$P.2.labels")" \
        "$(path_list "$P.$N.bb.gz" "$PROXY_OUT" "$B/simpoint" "$O/regions.json")" \
        "${SP_CMD[@]}" "${MEASURED[@]}" --target-ci "$TARGET_CI" \
        -saveSimpoints "$P.2.simpoints" -saveSimpointWeights "$P.2.weights" -saveLabels "$P.2.labels" --json "$P.2.simpoint.json"
    run_stage tool checkpoint2 "$O/ckpt2/checkpoints.json" \
        "$(path_list "$P.simpoints" "$P.2.simpoints" "$P.2.weights" "$PROG" "$B/checkpoint" "$CONFIG_DEP" "$STDIN_DEP")" \
        take_new_checkpoints "$O/ckpt2" "$N" "$W" "$P.simpoints" "$P.2.simpoints" "$P.2.weights" -v "${WARM[@]}" "${GUEST[@]}" -- "$PROG" "$@"
    run_stage tool regions2 "$O/regions2.json" "$(path_list "$O/ckpt2/checkpoints.json" "$B/sim" "$CONFIG_DEP")" \
        simulate_new_regions "$O/ckpt2" "$O/regions2.json" "${CORE[@]}" "${PROFILE[@]}" --warmup "$MODE" "${SIM_JOBS[@]}"
    FINAL=$P.2 VALIDATE_MORE=(--reweighted) MEASURED+=(--measured "$O/regions2.json" --target-ci "$TARGET_CI")
    # validate takes results of one region or more: none when the first stage met the target (validate_with)
    REGIONS2=$O/regions2.json
fi
# The estimate and its 95% interval from the regions alone (simpoint
# --measured), for the methods over the proxy metrics; said once made.
estimate_stage() {
    [ -n "$PROXY_OUT" ] || return 0
    run_stage tool estimate "$P.estimate.json" \
        "$(path_list "$P.$N.bb.gz" "$PROXY_OUT" "$B/simpoint" "$O/regions.json" ${TARGET_CI:+"$O/regions2.json"})" \
        "${SP_CMD[@]}" "${MEASURED[@]}" --json "$P.estimate.json"
}
say_estimate() {
    [ -z "$PROXY_OUT" ] || [ ! -f "$P.estimate.json" ] ||
        estimate_summary "$P.estimate.json" | while IFS= read -r line; do log "$line"; done
}
# Before the full run when it decides what comes next; else after validate (a Slurm job after the others).
[ -z "$TARGET_CI" ] && [ -z "$NO_FULL" ] || { estimate_stage; [ "$ENGINE" != local ] || say_estimate; }
if [ -n "$NO_FULL" ]; then
    engine_finish
    [ "$ENGINE" == local ] || say_estimate
    if [ -n "$TARGET_CI" ]; then
        log "== the estimate from both stages' regions is the one above ($P.estimate.json); $O/regions.json and $O/regions2.json hold each stage's (no full run: --no-full)"
        exit 0
    fi
    regions_summary "$O/regions.json" "$N" 2>&1 | tee -a "$O/pipeline.log" ||
        { log "== no estimate (--no-full): see $O/regions.json and $O/logs/regions.log"; exit 1; }
    log "== the estimate from the regions alone is combined in $O/regions.json (no full run: --no-full)"
    exit 0
fi
# full_command G ARGS...: the full run's command, logging every G
# instructions, with the program's ARGS, in FULL_CMD.
full_command() {
    local g=$1
    shift
    FULL_CMD=("$B/sim" --full "${CORE[@]}" "${PROFILE[@]}" -G "$g" --interval-log "$O/full.csv" -o "$O/full.json"
        --guest-output none "${GUEST[@]}" -- "$PROG" "$@")
    [ -z "$FULL_CHUNKS" ] || FULL_CMD=(full_in_chunks "$FULL_CHUNKS" "$g" "${FULL_CMD[@]}")
}
FULL_INS=$(path_list "$PROG" "$B/sim" "$CONFIG_DEP" "$STDIN_DEP") FULL_OUTS=$(path_list "$O/full.json" "$O/full.csv")
# In chunks, the chunks' size comes from bbv's count: on Slurm, a job after bbv's.
[ -z "$FULL_CHUNKS" ] || [ "$ENGINE" != slurm ] || FULL_INS+=$'\n'$P.summary.json
full_command "$G" "$@"
# Another log interval from the cache only when the full run is to be made.
if [ -z "$G_GIVEN" ] && [ -n "$CACHE" ] && [ -n "$(stale full "$FULL_OUTS" "$FULL_INS" "$(stamp_of "$FULL_INS" "${FULL_CMD[@]}")")" ]; then
    cache_key_once "$FULL_INS" "${FULL_CMD[@]}" || true # here, for cache_get after
    g=$(cache_pick_g "$FULL_INS" "$N" "$G" "${FULL_CMD[@]}")
    [ "$g" == "$G" ] || log "full: the cache has this run logged every $g instructions, which divides $N: taken instead of logging every $G"
    G=$g
fi
full_command "$G" "$@"
# After checkpoint's pass (on Slurm too, where nothing else orders them): it
# runs the program part-way on the same files, and puts them back at its end.
AFTER=$O/ckpt/checkpoints.json CACHED=1 run_stage guest full "$FULL_OUTS" "$FULL_INS" "${FULL_CMD[@]}"
run_stage tool validate "$O/validate/report.json" \
    "$(path_list "$FINAL.simpoints" "$FINAL.weights" "$FINAL.labels" "$P.summary.json" "$O/full.json" "$O/full.csv" \
        "${REGION_FILES[@]}" ${REGIONS2:+"$REGIONS2"} "$B/validate")" \
    validate_with "$REGIONS2" "$B/validate" --simpoints "$FINAL.simpoints" --weights "$FINAL.weights" --labels "$FINAL.labels" --interval "$N" \
    --full "$O/full.json" "${REGION_FILES[@]/#/--regions=}" --profile-summary "$P.summary.json" \
    "${VALIDATE_MORE[@]}" --name "$NAME" \
    -o "$O/validate"
[ -n "$TARGET_CI" ] || estimate_stage
engine_finish

sed -n '/^## Summary/,/^## Metrics/p' "$O/validate/report.md" | grep -v '^## Metrics' | tee -a "$O/pipeline.log"
sed -n '/^## Warnings/,$p' "$O/validate/report.md" | tee -a "$O/pipeline.log"
[ -n "$TARGET_CI" ] && [ "$ENGINE" == local ] || say_estimate
log "== reports in $O/validate (report.md, report.json, *.csv, plots/); where the time goes: $O/regions.md"
if [ -n "$MAXERR" ] && over_error "$MAXERR"; then
    log "the CPI error is over $MAXERR"
    exit 2
fi
