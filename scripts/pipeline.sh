#!/usr/bin/env bash
# One program through the whole toolkit, into one directory:
#   bbv -> simpoint -> checkpoint -> sim (regions) -> sim --full -> validate
# A stage runs only when one of its outputs is missing or older than one of
# its inputs (programs and tools included), or its command changed; each
# stage's output goes to DIR/logs/STAGE.log and its time to DIR/pipeline.log.
# With --cache, the full run is reused from any earlier run of the same key.
# Sourced (by sweep.sh), it only defines the stage helpers.
set -euo pipefail

# The source tree (tools in build/bin), or an installed copy (make install:
# PREFIX/lib/rvsample with bin/, scripts/ and configs/), found through any
# symbolic link to this script (PREFIX/bin/rvsample-pipeline).
ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
if [ -n "${BIN:-}" ]; then B=$(realpath -m "$BIN"); elif [ -d "$ROOT/build/bin" ]; then B=$ROOT/build/bin; else B=$ROOT/bin; fi

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

# Seconds since START (an $EPOCHREALTIME), to 0.01 s.
since() {
    awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}

# Why stage NAME with OUTPUTS and INPUTS (space-separated) and command CMD
# must run, or nothing when it is up to date.
stale() {
    local name=$1 outs=$2 ins=$3 cmd=$4 stamp=$O/.stamps/$1
    if [ -n "${FORCE:-}" ]; then echo "forced"; return; fi
    if [ ! -f "$stamp" ]; then echo "never run"; return; fi
    if [ "$(cat "$stamp")" != "$cmd" ]; then echo "its command changed"; return; fi
    local out in
    for out in $outs; do
        [ -e "$out" ] || { echo "${out#"$O"/} is missing"; return; }
        for in in $ins; do
            [ "$in" -nt "$out" ] && { echo "${in#"$O"/} is newer than ${out#"$O"/}"; return; }
        done
    done
    return 0
}

# run_stage KIND NAME "OUTPUTS" "INPUTS" COMMAND...: run a stage unless it is
# up to date, here (--engine local) or as Slurm job(s) after the jobs that
# write its inputs (engine.sh). KIND 'tool' fails on any non-zero status;
# 'guest' (a run of the program) only on the tool's own failures (125 and up),
# as the tools mirror the guest's exit status; 'regions' is a tool whose
# command is simulate_regions (a job array on Slurm). With CACHED=1 in its
# environment, the stage is kept in and taken from the cache (cache_get),
# its INPUTS in the key.
run_stage() {
    local kind=$1 name=$2 outs=$3 ins=$4
    shift 4
    local why deps=''
    [ "$ENGINE" == local ] || deps=$(engine_deps "$ins")
    why=${deps:+"its inputs are being made by job(s) ${deps//:/ }"}
    [ -n "$why" ] || why=$(stale "$name" "$outs" "$ins" "$*")
    if [ -z "$why" ]; then
        log "$name: up to date"
        return 0
    fi
    if [ "$ENGINE" == slurm ]; then
        engine_submit "$kind" "$name" "$outs" "$deps" "$why" "$@"
        return 0
    fi
    ! cache_get "$name" "$outs" "${CACHED:+$ins}" "$why" "$@" || return 0
    log "$name: running ($why)"
    stage_exec "$kind" "$name" "$O/logs/$name.log" "$outs" "$*" "$@" || exit 1
    cache_put "$name" "$outs"
}

# stage_exec KIND NAME LOG "OUTPUTS" STAMP COMMAND...: run a stage's command
# (a tool or a function here) into LOG, check its status and outputs, and
# record STAMP (the command that decides reuse; none when empty). The same
# for both engines: a Slurm job script calls it too.
stage_exec() {
    local kind=$1 name=$2 logf=$3 outs=$4 stamp=$5
    shift 5
    mkdir -p "$O/.stamps" "$(dirname "$logf")"
    [ -z "$stamp" ] || rm -f "$O/.stamps/$name"
    local start=$EPOCHREALTIME status=0 f
    "$@" < "${STDIN:-/dev/null}" > "$logf" 2>&1 || status=$?
    if [ "$status" -ne 0 ] && { [ "$kind" != guest ] || [ "$status" -ge 125 ]; }; then
        stage_failed "$name" "with status $status after $(since "$start") s" "$logf"
        return 1
    fi
    STAGE_STATUS=$status
    [ "$status" -eq 0 ] || log "$name: the program exited with status $status"
    for f in $outs; do
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

# ---------------------------------------------------------------- the cache
# With CACHE set (--cache DIR), the stages run with CACHED=1 (the full
# detailed run: deterministic, and the longest) are kept in DIR and taken from
# there instead of running when everything they read is the same: DIR has one
# entry per command and working directory, the last run's outputs, log, exit
# status and key. The key digests the command, the working directory's path
# and every file under it (type, mode, links, contents), the standard input's
# contents, the files of the stage's INPUTS (program, tool, configuration) and the
# shared libraries of the executables among them, the files the program's
# arguments name, the RVSAMPLE_, OMP_ and GOMP_ variables, and the program's
# run as this pipeline's bbv saw it (block vectors, block map, proxy metrics,
# instruction count, exit status). Other files the program reads
# (/etc/passwd, time zones) and the inode numbers it sees are not in the key;
# a change in them that changes what the program does changes that run.
CACHE='' CACHE_KEY='' CACHE_SLOT='' CACHED=''

# cache_key "INPUTS" COMMAND...: the key; fails when the run cannot be cached
# (its standard input is not a file, or something it reads cannot be read).
cache_key() {
    local ins=$1 a guest=()
    shift
    [ -f "$STDIN" ] || [ "$STDIN" == /dev/null ] || return 1
    # The program and its arguments: what follows the command's first --.
    for a in "$@"; do
        if [ ${#guest[@]} -gt 0 ] || [ "$a" == -- ]; then guest+=("$a"); fi
    done
    {
        printf '%s\0' "$@"
        printf '\n%s\n' "$(pwd -P)"
        env | grep -E '^(RVSAMPLE|OMP|GOMP)_' | LC_ALL=C sort
        # shellcheck disable=SC2086 # a list
        sha256sum -- $ins || exit 1
        sha256sum < "$STDIN" || exit 1
        # shellcheck disable=SC2086 # the same list
        for a in $ins; do [ ! -x "$a" ] || ldd "$a" 2> /dev/null || true; done |
            awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' | LC_ALL=C sort -u |
            xargs -r sha256sum -- || exit 1
        for a in "${guest[@]:1}"; do [ ! -f "$a" ] || sha256sum -- "$a" || exit 1; done
        # The run as bbv saw it, from the main part below (P, N, PROXY_OUT).
        # shellcheck disable=SC2086 # PROXY_OUT is empty or one file
        sha256sum -- "$P.$N.bb.gz" "$P.bbmap" $PROXY_OUT || exit 1
        grep -v '"wall_seconds"\|"mips"' "$P.summary.json" || exit 1
        find . \( -type d -printf '%y %m %p\n' \) -o -printf '%y %m %n %p %l\n' | LC_ALL=C sort || exit 1
        find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum -- || exit 1
    } | sha256sum | cut -d' ' -f1
}

# cache_get NAME "OUTPUTS" "INPUTS" WHY COMMAND...: the stage's outputs,
# log and stamp from the cache, if it holds this run; sets CACHE_KEY and
# CACHE_SLOT for cache_put (empty: not to be cached). -f does not read it.
cache_get() {
    local name=$1 outs=$2 ins=$3 why=$4 start=$EPOCHREALTIME f sums
    shift 4
    CACHE_KEY='' CACHE_SLOT=''
    [ -n "$CACHE" ] && [ -n "$ins" ] || return 1
    if ! CACHE_KEY=$(cache_key "$ins" "$@"); then
        CACHE_KEY=''
        log "$name: not cached (its standard input is not a file, or an input cannot be read)"
        return 1
    fi
    CACHE_SLOT=$CACHE/$({ pwd -P; printf '%s\0' "$@"; } | sha256sum | cut -c1-16)
    [ -z "${FORCE:-}" ] && [ "$(cat "$CACHE_SLOT/key" 2> /dev/null)" == "$CACHE_KEY" ] || return 1
    mkdir -p "$O/.stamps" "$O/logs"
    rm -f "$O/.stamps/$name"
    local i=0
    for f in $outs; do
        cp "$CACHE_SLOT/out.$i" "$f" || return 1
        i=$((i + 1))
    done
    # shellcheck disable=SC2086 # OUTPUTS is a list
    sums=$(sha256sum $outs | cut -d' ' -f1)
    [ "$sums" == "$(cat "$CACHE_SLOT/sums")" ] || { log "$name: the cache's copy in $CACHE_SLOT is damaged"; return 1; }
    cp "$CACHE_SLOT/log" "$O/logs/$name.log"
    STAGE_STATUS=$(cat "$CACHE_SLOT/status")
    [ "$STAGE_STATUS" -eq 0 ] || log "$name: the program exited with status $STAGE_STATUS"
    echo "$*" > "$O/.stamps/$name"
    log "$name: from the cache in $(since "$start") s ($why; the same run is in $CACHE_SLOT)"
}

# cache_put NAME "OUTPUTS": keep the stage just run in the cache, in place of
# the entry's last run.
cache_put() {
    local name=$1 outs=$2 f i=0
    [ -n "$CACHE_KEY" ] || return 0
    local tmp=$CACHE_SLOT.tmp.$$
    rm -rf "$tmp"
    mkdir -p "$tmp"
    for f in $outs; do
        cp "$f" "$tmp/out.$i"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086 # OUTPUTS is a list
    sha256sum $outs | cut -d' ' -f1 > "$tmp/sums"
    cp "$O/logs/$name.log" "$tmp/log"
    echo "$STAGE_STATUS" > "$tmp/status"
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
# stratify[:F] (--stratify F [0.2]), dims[:S] (--proxy-dims S [1]); all but
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
        *) echo "unknown method '$1' (simpoint, or select[:N], stratify[:F], dims[:S] joined by +)" >&2; return 1 ;;
        esac
    done
}

# The program's instruction count, from bbv's summary ($P.summary.json).
total_insts() { sed -n 's/^  "instructions": \([0-9]*\),$/\1/p' "$P.summary.json"; }

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
    "$B/sim" "$@" --total-insts "$(total_insts)" -o "$out" "${ckpts[@]}"
}

# The file prefix of a method's SimPoint outputs: sp (SimPoint's), sp-METHOD.
method_prefix() {
    if [ "$1" == simpoint ]; then echo sp; else echo "sp-$1"; fi
}

# A number from a tool's JSON summary: json_number FILE KEY (the first one).
json_number() {
    sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1" | head -n 1
}

# The functions above, which a Slurm job script gets by sourcing this file.
ENGINE_HELPERS=" $(compgen -A function | tr '\n' ' ')"

[[ "${BASH_SOURCE[0]}" != "$0" ]] && return 0

# ------------------------------------------------------------------ options
usage() {
    cat << 'EOF'
Usage: scripts/pipeline.sh [options] [-o DIR] -- PROGRAM [ARGS...]

Run one program through bbv, simpoint, checkpoint, sim (the regions and the
full run) and validate, into DIR, reusing the results of an earlier run that
are up to date. Prints the validation summary; the reports are in DIR/validate.

  -o DIR            output directory (default: out/pipeline/NAME)
  -n NAME           name in the reports (default: the program's file name)
  -i N              interval size (k/M/G suffixes) [1M]
  -G N              the full run's log interval; divides N [N/10]
  -k K              SimPoint's MaxK [30]
  -M METHOD         how the points are chosen: simpoint (SimPoint 3.2's choice), or
                    select[:N], stratify[:F], dims[:S] joined by + (simpoint's
                    --select-by proxy, --stratify, --proxy-dims over the metrics of
                    bbv --proxy with the core configuration) [dims:1, the most accurate
                    over bench/results/proxy_methods.md and tests/corpus/RESULTS.md]
  -w W              warm-up instructions before each region [N]
  -m MODE           sim's warm-up: none, detailed, functional, checkpoint (warm
                    checkpoints: caches, TLBs and predictors warmed over the whole prefix) [checkpoint]
  -c FILE           core configuration for sim and warm checkpoints [sim's built-in]
  -s SEC.KEY=V      a core parameter (sim --set); repeatable
  -j N              regions simulated in parallel [sim's default: all cores]
  --sample LIST     sampled profilers in the regions and the full run (sim --sample),
                    scored by validate against the full run's golden profile [none]
  --sample-hz HZ    their sampling frequency [4000]
  --stdin FILE      the program's standard input [/dev/null]
  -e, --env N=V     a variable of the program's environment (empty by default); repeatable
  --max-error PCT   exit with status 2 when |CPI error| > PCT
  --extra-per-cluster N  also simulate N more random members of each cluster (seeded):
                    a 95% confidence interval for the estimate without a full run
  --no-full         stop after the regions: the whole-program estimate from them alone
                    (CPI, cycle stack, event rates, total cycles), no full run, no validation
  --cache DIR       keep the full detailed run in DIR, and take it from there when
                    an earlier run had the same key: the command, the working
                    directory's path and every file under it (so keep DIR and -o
                    outside it), the standard input, the program, sim and its shared
                    libraries, the configuration, the files the program's arguments
                    name, the RVSAMPLE_, OMP_ and GOMP_ variables, and the program's
                    run as bbv saw it here (block vectors, proxy metrics, count, exit
                    status); one entry per command and working directory [none]
  -f                redo every stage (and do not read --cache)
  -h                this help
EOF
    engine_usage
    cat << 'EOF'

Tools come from build/bin (or $BIN). Exit status: 0, 1 when a stage failed,
2 over --max-error.
EOF
}

O= NAME= INTERVAL=1M G= MAXK=30 METHOD=dims:1 WARMUP= MODE=checkpoint CONFIG= JOBS= STDIN=/dev/null MAXERR= FORCE= NO_FULL=
SETS=() SAMPLE=() SAMPLE_HZ=4000 GUEST=() EXTRA=()
while [ $# -gt 0 ]; do
    case $1 in
    -o) O=$2; shift 2 ;;
    -n) NAME=$2; shift 2 ;;
    -i) INTERVAL=$2; shift 2 ;;
    -G) G=$2; shift 2 ;;
    -k) MAXK=$2; shift 2 ;;
    -M) METHOD=$2; shift 2 ;;
    -w) WARMUP=$2; shift 2 ;;
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
NAME=${NAME:-$(basename "$PROG")}
O=${O:-out/pipeline/$NAME}
N=$(to_count "$INTERVAL")
G=$(to_count "${G:-$((N >= 10 && N % 10 == 0 ? N / 10 : N))}")
W=$(to_count "${WARMUP:-$N}")
[ $((N % G)) -eq 0 ] || { echo "pipeline.sh: the log interval $G does not divide the interval $N" >&2; exit 1; }
case $MODE in none | detailed | functional | checkpoint) ;; *) echo "pipeline.sh: -m $MODE?" >&2; exit 1 ;; esac
engine_check pipeline.sh
[ -z "$CACHE" ] || [ "$ENGINE" == local ] || { echo "pipeline.sh: --cache is for --engine local" >&2; exit 1; }
# The most checkpoints (a bound for the regions job array while simpoint has
# not chosen them); the whole-program estimate of --no-full needs them in one sim.
REGIONS_MAX=$((MAXK * (1 + ${EXTRA[3]:-0})))
[ -z "$NO_FULL" ] || REGIONS_PER_TASK=$REGIONS_MAX
method_options "$METHOD" > /dev/null || { echo "pipeline.sh: -M $METHOD?" >&2; exit 1; }
mapfile -t METHOD_OPTS < <(method_options "$METHOD")
for t in bbv simpoint checkpoint sim validate; do
    [ -x "$B/$t" ] || { echo "pipeline.sh: $B/$t is missing (make build)" >&2; exit 1; }
done
mkdir -p "$O" ${CACHE:+"$CACHE"}
O=$(cd "$O" && pwd)
[ -z "$CACHE" ] || CACHE=$(cd "$CACHE" && pwd)
STDIN=$(cd "$(dirname "$STDIN")" && pwd)/$(basename "$STDIN")

CORE=()
[ -z "$CONFIG" ] || CORE=(--config "$CONFIG")
CORE+=("${SETS[@]}")
# Complete profiles, so that validate can score the rebuilt one.
PROFILE=(--profile-top 0)
[ ${#SAMPLE[@]} -eq 0 ] || PROFILE+=("${SAMPLE[@]}" --sample-hz "$SAMPLE_HZ")
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

log "== $NAME: $PROG $*; interval $N, log every $G, MaxK $MAXK, method $METHOD, warm-up $W ($MODE), into $O"
run_stage guest bbv "$P.$N.bb.gz $P.summary.json $PROXY_OUT" "$PROG $B/bbv $CONFIG_DEP" \
    "$B/bbv" --interval "$N" -o "$P" "${PROXY[@]}" "${GUEST[@]}" -- "$PROG" "$@"
run_stage tool simpoint "$P.simpoints $P.weights $P.labels" "$P.$N.bb.gz $PROXY_OUT $B/simpoint" \
    "$B/simpoint" -loadFVFile "$P.$N.bb.gz" -fixedLength off -maxK "$MAXK" "${METHOD_OPTS[@]}" \
    -saveSimpoints "$P.simpoints" -saveSimpointWeights "$P.weights" -saveLabels "$P.labels" --json "$P.simpoint.json"
run_stage tool checkpoint "$O/ckpt/checkpoints.json" "$P.simpoints $P.weights $PROG $B/checkpoint $CONFIG_DEP" \
    take_checkpoints "$O/ckpt" "$N" "$W" "$P.simpoints" "$P.weights" -v "${WARM[@]}" "${EXTRA[@]/__LABELS__/$P.labels}" "${GUEST[@]}" -- "$PROG" "$@"
SIM_JOBS=()
[ -z "$JOBS" ] || SIM_JOBS=(-j "$JOBS")
run_stage regions regions "$O/regions.json" "$O/ckpt/checkpoints.json $B/sim $CONFIG_DEP" \
    simulate_regions "$O/ckpt" "$O/regions.json" "${CORE[@]}" "${PROFILE[@]}" --warmup "$MODE" "${SIM_JOBS[@]}"
if [ -n "$NO_FULL" ]; then
    engine_finish
    sed -n '/^ Whole program from/,$p' "$O/logs/regions.log" | tee -a "$O/pipeline.log"
    log "== the estimate from the regions alone is combined in $O/regions.json (no full run: --no-full)"
    exit 0
fi
CACHED=1 run_stage guest full "$O/full.json $O/full.csv" "$PROG $B/sim $CONFIG_DEP" \
    "$B/sim" --full "${CORE[@]}" "${PROFILE[@]}" -G "$G" --interval-log "$O/full.csv" -o "$O/full.json" --guest-output none \
    "${GUEST[@]}" -- "$PROG" "$@"
run_stage tool validate "$O/validate/report.json" \
    "$P.simpoints $P.weights $P.labels $P.summary.json $O/full.json $O/full.csv $O/regions.json $B/validate" \
    "$B/validate" --simpoints "$P.simpoints" --weights "$P.weights" --labels "$P.labels" --interval "$N" \
    --full "$O/full.json" --regions "$O/regions.json" --profile-summary "$P.summary.json" \
    --checkpoints "$O/ckpt/checkpoints.json" --name "$NAME" \
    -o "$O/validate"
engine_finish

sed -n '/^## Summary/,/^## Metrics/p' "$O/validate/report.md" | grep -v '^## Metrics' | tee -a "$O/pipeline.log"
sed -n '/^## Warnings/,$p' "$O/validate/report.md" | tee -a "$O/pipeline.log"
log "== reports in $O/validate (report.md, report.json, *.csv, plots/)"
if [ -n "$MAXERR" ] && over_error "$MAXERR"; then
    log "the CPI error is over $MAXERR"
    exit 2
fi
