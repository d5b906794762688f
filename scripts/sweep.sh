#!/usr/bin/env bash
# Interval size x MaxK (x BIC threshold) over several programs (or a suite
# from a list file), as Paper C §6 sweeps SPEC CPU2017: per program one
# multi-interval bbv run, one SimPoint MaxK sweep per interval size and one
# detailed full run (in chunks with --full-chunks) logged at the smallest
# interval; every configuration is then validated by arithmetic on
# that log. A chosen subset of configurations also has its regions simulated
# from checkpoints, which measures the warm-up error too. One combined report
# (validate --sweep) with plots. Stages are reused when up to date, as in
# pipeline.sh, whose helpers this script sources.
set -euo pipefail
. "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")/pipeline.sh"
supervise "${BASH_SOURCE[0]}" "$@"

usage() {
    # The name it was run by (PREFIX/bin/rvsample-sweep once installed).
    printf 'Usage: %s [options] [-- PROGRAM [ARGS...] [-- PROGRAM [ARGS...]]...]\n' "$0"
    printf '       %s [options] --suite FILE\n' "$0"
    cat << 'EOF'

Sweep SimPoint's interval size and MaxK over programs and report, for every
configuration, the chosen k, the instructions simulated, the speedup and the
CPI error against a full detailed run; the Pareto front, heat maps and the
cheapest configuration within a target error. Without programs: every bundled
workload (build/rv/workloads/*) with argument SIZE.

  --suite FILE    the programs of a suite, one a line: NAME, COMMAND and (optional)
                  STDIN separated by tabs; NAME (A-Z a-z 0-9 _ . = -) names it in the
                  report and its directory, COMMAND is the program and its arguments
                  (split as the shell splits words, quotes kept, nothing expanded),
                  STDIN the file it reads as its standard input [/dev/null]; paths
                  are relative to the working directory, where the programs run; '#'
                  lines and empty ones are skipped

  -o DIR          output directory [out/sweep]
  -i LIST         interval sizes, comma-separated (k/M/G suffixes) [10k,100k,1M]
  -k A..B         MaxK values [1..30]
  -b LIST         BIC thresholds, comma-separated [0.9]
  -M LIST         ways of choosing the points, comma-separated, each compared on the
                  same full-run logs: simpoint (SimPoint 3.2's), or parts joined by
                  '+': select[:N], stratify[:F], dims[:S], long[:W], exposed[:W] (simpoint's
                  --select-by proxy, --stratify, --proxy-dims, --proxy-long, --proxy-exposed over
                  bbv --proxy's metrics, with the core configuration of -c; simpoint weighs the
                  exposed latency by 4 unless exposed:W says otherwise) [dims:1, as pipeline.sh's -M]
  -r LIST         configurations whose regions are simulated for real, as
                  INTERVAL:MAXK[:BIC][@METHOD] comma-separated; 'none' for none
                  [every interval size at the largest MaxK and the first BIC, first method]
  -m MODE         sim's warm-up for those regions: none, detailed, functional,
                  checkpoint [checkpoint]
  -w K            warm-up before each region, in intervals: K x the interval size
                  [1] (as pipeline.sh's -w)
  -c FILE         core configuration [configs/boom-tip.ini]
  -s SEC.KEY=V    a core parameter (sim --set); repeatable
  -S SIZE         the bundled workloads' argument [12]
  -P N            programs processed at the same time, by the local engine [number of cores]
  --target PCT    error target for the cheapest configuration: over the programs, the
                  mean of |CPI error| + the half-width of its 95% confidence interval [1%]
  --no-full       no full detailed runs and no validation: each simulated configuration's
                  whole-program estimate from its regions alone (DIR/estimates.md)
  --full-chunks N|auto  each full run in N chunks simulated in parallel from warm
                  checkpoints and stitched, as pipeline.sh's (with --engine slurm, a
                  job array of a task per chunk, at most Slurm's MaxArraySize,
                  started with the pass) [one serial run]
  -f              redo every stage
  -h              this help
EOF
    engine_usage
    cat << 'EOF'

EOF
    printf 'Tools come from %s (or $BIN), core configurations from %s.\n' "$B" "$(readlink -f -- "$ROOT/configs")"
    cat << 'EOF'
Outputs: DIR/report/sweep.md (and .json, .rows.csv, .configs.csv, plots/),
DIR/manifest.tsv, and per program DIR/programs/NAME/ with its profiles,
SimPoint sweeps, full run and regions. Exit status: 0, 1 when a stage failed.
The programs run on /dev/null as their standard input (--suite: on their
STDIN). INT (Ctrl-C), TERM or
HUP stop every running stage (nothing is left running or half-written) and the
script, which ends by that signal.
EOF
}

O_TOP=out/sweep INTERVALS=10k,100k,1M KRANGE=1..30 BICS=0.9 REAL= MODE=checkpoint WARM_INTERVALS=1
CONFIG=$ROOT/configs/boom-tip.ini SIZE=12 PAR=$(nproc) TARGET=1% FORCE= NO_FULL= METHODS=dims:1 SUITE= FULL_CHUNKS=
SETS=()
while [ $# -gt 0 ]; do
    case $1 in
    -o) O_TOP=$2; shift 2 ;;
    -i) INTERVALS=$2; shift 2 ;;
    -k) KRANGE=$2; shift 2 ;;
    -b) BICS=$2; shift 2 ;;
    -M) METHODS=$2; shift 2 ;;
    -r) REAL=$2; shift 2 ;;
    -m) MODE=$2; shift 2 ;;
    -w) WARM_INTERVALS=$2; shift 2 ;;
    -c) CONFIG=$2; shift 2 ;;
    -s) SETS+=(--set "$2"); shift 2 ;;
    -S) SIZE=$2; shift 2 ;;
    -P) PAR=$2; shift 2 ;;
    --target) TARGET=$2; shift 2 ;;
    --no-full) NO_FULL=1; shift ;;
    --suite) SUITE=$2; shift 2 ;;
    --full-chunks) FULL_CHUNKS=$2; shift 2 ;;
    -f) FORCE=1; shift ;;
    --engine | --slurm-opts | --regions-per-task) engine_set "$1" "$2"; shift 2 ;;
    --wait | --dry-run) engine_set "$1"; shift ;;
    -h | --help) usage; exit 0 ;;
    --) break ;;
    *) echo "sweep.sh: unknown option '$1' (see -h)" >&2; exit 1 ;;
    esac
done
case $MODE in none | detailed | functional | checkpoint) ;; *) echo "sweep.sh: -m $MODE?" >&2; exit 1 ;; esac
[ -z "$FULL_CHUNKS" ] || check_full_chunks sweep.sh "$FULL_CHUNKS"
[ -z "$FULL_CHUNKS" ] || [ -z "$NO_FULL" ] || { echo "sweep.sh: --full-chunks and --no-full: no full runs to chunk" >&2; exit 1; }
engine_check sweep.sh
# The whole-program estimates of --no-full need every region of a configuration in one sim.
[ -z "$NO_FULL" ] || REGIONS_PER_TASK=${KRANGE#*..}
[[ $KRANGE =~ ^[0-9]+\.\.[0-9]+$ ]] || { echo "sweep.sh: -k wants A..B, not '$KRANGE'" >&2; exit 1; }
[[ $WARM_INTERVALS =~ ^[0-9]+$ ]] || { echo "sweep.sh: -w wants a number of intervals (1: one interval of each size), not '$WARM_INTERVALS'" >&2; exit 1; }
[ -f "$CONFIG" ] || { echo "sweep.sh: no configuration $CONFIG" >&2; exit 1; }
# The names, before anything is made (check_name in pipeline.sh); the
# manifest is tab-separated.
check_names sweep.sh "-c" "$CONFIG" "the working directory" "$PWD" "the tools' directory" "$B"
check_name sweep.sh "the output directory" "$O_TOP" $'\t' tab "the manifest's columns are tab-separated"
engine_check_dir sweep.sh "$O_TOP"
for b in ${BICS//,/ }; do
    [[ $b =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "sweep.sh: -b wants numbers, not '$b'" >&2; exit 1; }
done
for t in bbv simpoint checkpoint sim validate; do
    [ -x "$B/$t" ] || { echo "sweep.sh: $B/$t is missing (make build)" >&2; exit 1; }
done
CONFIG=$(cd -- "$(dirname -- "$CONFIG")" && pwd)/$(basename -- "$CONFIG")
IFS=, read -r -a METHOD_LIST <<< "$METHODS"
NEED_PROXY=
for m in "${METHOD_LIST[@]}"; do
    method_options "$m" > /dev/null || exit 1
    [ "$m" == simpoint ] || NEED_PROXY=1
done

# Interval sizes as counts, smallest first; the full runs log at the smallest,
# which must divide the others.
mapfile -t SIZES < <(for i in ${INTERVALS//,/ }; do to_count "$i"; done | sort -n | uniq)
[ ${#SIZES[@]} -ge 1 ] || { echo "sweep.sh: no interval sizes" >&2; exit 1; }
G=${SIZES[0]}
for n in "${SIZES[@]}"; do
    [ $((n % G)) -eq 0 ] || { echo "sweep.sh: interval $n is not a multiple of the smallest, $G" >&2; exit 1; }
done
KMAX=${KRANGE#*..} BIC1=${BICS%%,*}
[ -n "$REAL" ] || REAL=$(for n in "${SIZES[@]}"; do printf '%s:%s:%s@%s,' "$n" "$KMAX" "$BIC1" "${METHODS%%,*}"; done)
REAL=${REAL%,}
[ "$REAL" != none ] || REAL=

# A program's name in the reports and its directory: its file name, then its
# arguments, '-'-separated, with every character but A-Z a-z 0-9 _ . = - as _.
program_name() {
    local -a cmd
    eval "cmd=($1)"
    local name
    name=$(basename -- "${cmd[0]}")
    [ ${#cmd[@]} -eq 1 ] || name+="-$(IFS=-; printf '%s' "${cmd[*]:1}")"
    printf '%s' "$name" | tr -c 'A-Za-z0-9_.=-' '_'
}

# suite_programs FILE: --suite's programs, checked, one a line: NAME, STDIN
# (absolute, or /dev/null) and the command %q-quoted, tab-separated; exit 1
# with the file, line and reason on the first that is wrong.
suite_programs() {
    python3 - "$1" << 'PY' || exit 1
import os, re, shlex, sys
path, names = sys.argv[1], set()
def bad(n, why):
    sys.exit(f"sweep.sh: --suite {path}:{n}: {why}")
try:
    lines = open(path).read().split("\n")
except (OSError, UnicodeDecodeError) as e:
    sys.exit(f"sweep.sh: --suite {path}: {getattr(e, 'strerror', None) or e}")
out = []
for n, line in enumerate(lines, 1):
    if not line.strip() or line.startswith("#"):
        continue
    f = line.split("\t")
    if len(f) not in (2, 3):
        bad(n, f"{len(f)} tab-separated fields, expected NAME, COMMAND and an optional STDIN")
    name, command, stdin = f[0], f[1], f[2] if len(f) == 3 else ""
    if not re.fullmatch(r"[A-Za-z0-9_.=-]+", name) or name in (".", ".."):
        bad(n, f"the name {name!r} is not made of A-Z a-z 0-9 _ . = - alone")
    if name in names:
        bad(n, f"a second program named {name}")
    names.add(name)
    try:
        words = shlex.split(command)
    except ValueError as e:
        bad(n, f"the command: {e}")
    if not words:
        bad(n, "no command")
    if not os.path.isfile(words[0]):
        bad(n, f"no program {words[0]}")
    if stdin in ("", "/dev/null"):
        stdin = "/dev/null"
    elif not os.path.isfile(stdin):
        bad(n, f"no standard input file {stdin}")
    else:
        stdin = os.path.abspath(stdin)
    out.append(f"{name}\t{stdin}\t{' '.join(shlex.quote(w) for w in words)}")
if not out:
    sys.exit(f"sweep.sh: --suite {path}: no programs")
print("\n".join(out))
PY
}

# Programs: "PROGRAM ARGS..." groups after each "--", a suite's, or the
# bundled workloads; NAMES and STDINS go with them.
PROGRAMS=() NAMES=() STDINS=()
if [ -n "$SUITE" ]; then
    [ $# -eq 0 ] || { echo "sweep.sh: --suite and programs after --: give one of them" >&2; exit 1; }
    suite=$(suite_programs "$SUITE") || exit 1
    while IFS=$'\t' read -r n i c; do NAMES+=("$n") STDINS+=("$i") PROGRAMS+=("$c"); done <<< "$suite"
elif [ $# -gt 0 ]; then
    group=()
    shift
    for a in "$@" --; do
        if [ "$a" == -- ]; then
            [ ${#group[@]} -eq 0 ] || check_name sweep.sh "the program" "${group[0]}"
            [ ${#group[@]} -eq 0 ] || PROGRAMS+=("$(printf '%q ' "${group[@]}")")
            group=()
        else
            group+=("$a")
        fi
    done
else
    for w in "$ROOT"/build/rv/workloads/*; do PROGRAMS+=("$(printf '%q %q' "$w" "$SIZE")"); done
fi
[ ${#PROGRAMS[@]} -ge 1 ] || { echo "sweep.sh: no programs (make rv-programs?)" >&2; exit 1; }
if [ -z "$SUITE" ]; then
    declare -A NAMED=()
    for p in "${PROGRAMS[@]}"; do
        n=$(program_name "$p")
        [ -z "${NAMED[$n]:-}" ] || { echo "sweep.sh: two programs named $n (program_name): give them apart" >&2; exit 1; }
        NAMED[$n]=1 NAMES+=("$n") STDINS+=(/dev/null)
    done
fi

mkdir -p -- "$O_TOP"
O_TOP=$(cd -- "$O_TOP" && pwd)
O=$O_TOP
: > "$O_TOP/pipeline.log"
trap_signals
# Several programs, each run several times: none gets this script's input.
if [ ! -t 0 ] && { [ -p /dev/stdin ] || [ -s /dev/stdin ]; }; then
    log "note: the programs run on /dev/null as their standard input, not on this script's (a pipe or a file)"
fi
CORE=(--config "$CONFIG" "${SETS[@]}")

# The simulated subset's configurations, "N:K:T" with N a count.
REAL_CONFIGS=()
for r in ${REAL//,/ }; do
    rm_=${METHODS%%,*}
    [[ $r != *@* ]] || rm_=${r#*@}
    [[ ",$METHODS," == *",$rm_,"* ]] || { echo "sweep.sh: -r $r: method $rm_ is not compared (-M $METHODS)" >&2; exit 1; }
    IFS=: read -r rn rk rb <<< "${r%%@*}"
    [[ ${rk:-} =~ ^[0-9]+$ ]] || { echo "sweep.sh: -r wants INTERVAL:MAXK[:BIC], not '$r'" >&2; exit 1; }
    rn=$(to_count "$rn") rb=${rb:-$BIC1}
    [[ " ${SIZES[*]} " == *" $rn "* ]] || { echo "sweep.sh: -r $r: $rn is not one of the interval sizes" >&2; exit 1; }
    [ "$rk" -ge "${KRANGE%..*}" ] && [ "$rk" -le "$KMAX" ] || { echo "sweep.sh: -r $r: MaxK outside $KRANGE" >&2; exit 1; }
    [[ ",$BICS," == *",$rb,"* ]] || { echo "sweep.sh: -r $r: BIC threshold $rb is not swept (-b $BICS)" >&2; exit 1; }
    REAL_CONFIGS+=("$rn:$rk:$rb@$rm_")
done


# ------------------------------------------------------------- one program
# The stages of program I (of PROGRAMS), in DIR/programs/NAME.

sweep_program() {
    local -a cmd
    eval "cmd=(${PROGRAMS[$1]})"
    local prog=${cmd[0]} name=${NAMES[$1]} STDIN=${STDINS[$1]} STDIN_DEP=
    [ "$STDIN" == /dev/null ] || STDIN_DEP=$STDIN
    O=$O_TOP/programs/$name TAG=$name
    mkdir -p -- "$O"
    : > "$O/pipeline.log"
    local P=$O/$name sizes_csv
    sizes_csv=$(IFS=,; echo "${SIZES[*]}")
    local bbs=() n
    for n in "${SIZES[@]}"; do bbs+=("$P.$n.bb.gz"); done
    log "== $name: ${cmd[*]}"
    run_stage guest bbv "$(path_list "${bbs[@]}" "$P.summary.json")" "$(path_list "$prog" "$B/bbv" "$STDIN_DEP")" \
        "$B/bbv" --interval "$sizes_csv" -o "$P" -- "${cmd[@]}"
    # The proxy metrics come from a second pass (its .bb files are the same),
    # so that each method is charged its own profiling time.
    local pxs=() m r rn rk rb outs
    for n in "${SIZES[@]}"; do pxs+=("$P.px.$n.bb.gz" "$P.px.$n.proxy"); done
    [ -z "$NEED_PROXY" ] || run_stage guest bbv-proxy "$(path_list "${pxs[@]}" "$P.px.summary.json")" \
        "$(path_list "$prog" "$B/bbv" "$CONFIG" "$STDIN_DEP")" \
        "$B/bbv" --interval "$sizes_csv" --proxy "$CONFIG" "${SETS[@]}" -o "$P.px" -- "${cmd[@]}"
    for m in "${METHOD_LIST[@]}"; do
        local sp opts=() px=() in
        sp=$(method_prefix "$m")
        mapfile -t opts < <(method_options "$m")
        for n in "${SIZES[@]}"; do
            in=$P.$n.bb.gz px=()
            [ "$m" == simpoint ] || { in=$P.px.$n.bb.gz px=(--proxy "$P.px.$n.proxy"); }
            # the table, and the files of the configurations simulated for real
            outs=("$O/$sp.$n.csv" "$O/$sp.$n.json")
            for r in "${REAL_CONFIGS[@]}"; do
                IFS=: read -r rn rk rb <<< "${r%@*}"
                [ "$rn" != "$n" ] || [ "${r#*@}" != "$m" ] ||
                    outs+=("$O/$sp.$n.simpoints.maxk_$rk.bic_$rb" "$O/$sp.$n.weights.maxk_$rk.bic_$rb")
            done
            local stage=simpoint-$n # SimPoint's keeps its name: earlier runs' stamps
            [ "$m" == simpoint ] || stage=$sp-$n
            run_stage tool "$stage" "$(path_list "${outs[@]}")" "$(path_list "$in" "$B/simpoint")" \
                "$B/simpoint" -loadFVFile "$in" -fixedLength off --sweep-max-k "$KRANGE" --sweep-bic "$BICS" \
                "${opts[@]}" "${px[@]}" -saveSimpoints "$O/$sp.$n.simpoints" -saveSimpointWeights "$O/$sp.$n.weights" \
                -saveLabels "$O/$sp.$n.labels" --sweep-table "$O/$sp.$n.csv" --json "$O/$sp.$n.json"
        done
    done
    local full=("$B/sim" --full "${CORE[@]}" -G "$G" --interval-log "$O/full.csv" -o "$O/full.json" --guest-output none
        -- "${cmd[@]}") full_ins
    full_ins=$(path_list "$prog" "$B/sim" "$CONFIG" "$STDIN_DEP")
    if [ -n "$FULL_CHUNKS" ]; then
        full=(full_in_chunks "$FULL_CHUNKS" "$G" "${full[@]}")
        # the chunks' size comes from bbv's count: on Slurm, a job after bbv's
        [ "$ENGINE" != slurm ] || full_ins+=$'\n'$P.summary.json
    fi
    [ -n "$NO_FULL" ] || run_stage guest full "$(path_list "$O/full.json" "$O/full.csv")" "$full_ins" "${full[@]}"
    local tag sp
    for r in "${REAL_CONFIGS[@]}"; do
        IFS=: read -r rn rk rb <<< "${r%@*}"
        sp=$(method_prefix "${r#*@}")
        tag=$rn.maxk_$rk.bic_$rb
        [ "$sp" == sp ] || tag=${sp#sp-}.$tag
        local warm=()
        [ "$MODE" != checkpoint ] || warm=(--warm "$CONFIG" "${SETS[@]}")
        run_stage guest "checkpoint-$tag" "$O/ckpt.$tag/checkpoints.json" \
            "$(path_list "$O/$sp.$rn.simpoints.maxk_$rk.bic_$rb" "$prog" "$B/checkpoint" "$CONFIG" "$STDIN_DEP")" \
            take_checkpoints "$O/ckpt.$tag" "$rn" "$((rn * WARM_INTERVALS))" \
            "$O/$sp.$rn.simpoints.maxk_$rk.bic_$rb" "$O/$sp.$rn.weights.maxk_$rk.bic_$rb" "${warm[@]}" -- "${cmd[@]}"
        REGIONS_MAX=$rk run_stage regions "regions-$tag" "$O/regions.$tag.json" \
            "$(path_list "$O/ckpt.$tag/checkpoints.json" "$B/sim" "$CONFIG")" \
            simulate_regions "$O/ckpt.$tag" "$O/regions.$tag.json" -q "${CORE[@]}" --warmup "$MODE" -j 1
    done
    log "== $name: done"
}

# sweep_report OUT TARGET MAXK,BIC WARM-INTERVALS SIZES METHODS PROGRAM-DIR...:
# the manifest of every program x method x configuration (OUT/manifest.tsv;
# SIZES, the interval sizes, and METHODS, comma-separated) and the report of
# validate --sweep (OUT/report). seconds: the profiling pass (every interval
# size at once) plus that size's SimPoint sweep.
sweep_report() {
    local out=$1 target=$2 baseline=$3 warm_ivals=$4 dir name n k b sp regions m pre profile secs tag
    local -a sizes methods
    IFS=, read -ra sizes <<< "$5"
    IFS=, read -ra methods <<< "$6"
    shift 6
    {
        printf 'program\tinterval\tmax_k\tbic\tsimpoints\tweights\tlabels\tfull\tregions\tmethod\tseconds\n'
        for dir in "$@"; do
            name=$(basename -- "$dir")
            for m in "${methods[@]}"; do
                pre=$(method_prefix "$m") profile=$dir/$name.summary.json
                [ "$m" == simpoint ] || profile=$dir/$name.px.summary.json
                for n in "${sizes[@]}"; do
                    secs=$(awk -v a="$(json_number "$profile" wall_seconds)" \
                        -v b="$(json_number "$dir/$pre.$n.json" total_seconds)" 'BEGIN { printf "%.3f", a + b }')
                    for sp in "$dir/$pre.$n".simpoints.maxk_*; do
                        k=${sp##*.maxk_}; k=${k%%.bic_*}; b=${sp##*.bic_}
                        tag=$n.maxk_$k.bic_$b
                        [ "$pre" == sp ] || tag=${pre#sp-}.$tag
                        regions=-
                        [ ! -f "$dir/regions.$tag.json" ] || regions=$dir/regions.$tag.json
                        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$n" "$k" "$b" "$sp" \
                            "$dir/$pre.$n.weights.maxk_$k.bic_$b" "$dir/$pre.$n.labels.maxk_$k.bic_$b" "$dir/full.json" \
                            "$regions" "$m" "$secs"
                    done
                done
            done
        done
    } > "$out/manifest.tsv.tmp"
    mv "$out/manifest.tsv.tmp" "$out/manifest.tsv"
    echo "validate --sweep: $(($(wc -l < "$out/manifest.tsv") - 1)) configurations x programs"
    rm -rf "$out/report"
    "$B/validate" -q --sweep "$out/manifest.tsv" --target "$target" --baseline "$baseline" \
        --warmup-intervals "$warm_ivals" -o "$out/report"
}

# sweep_estimates OUT REGIONS...: without full runs, each simulated
# configuration's whole-program estimate from its regions alone (OUT/estimates.md).
sweep_estimates() {
    local out=$1 f
    shift
    {
        printf '| program | method | interval | MaxK | BIC | regions | CPI estimate | projected cycles |\n|---|---|--:|--:|--:|--:|--:|--:|\n'
        for f in "$@"; do
            python3 - "$f" <<'PY'
import json, os, re, sys
path = sys.argv[1]
c = json.load(open(path)).get("combined") or {}
m, n, k, b = re.match(r"regions\.(?:(.*)\.)?(\d+)\.maxk_(\d+)\.bic_([0-9.]+)\.json", os.path.basename(path)).groups()
proj = c.get("projected", {}).get("cycles")
print(f"| {os.path.basename(os.path.dirname(path))} | {m or 'simpoint'} | {n} | {k} | {b} | {c.get('regions', '-')} | "
      f"{c.get('cpi', float('nan')):.4f} | {proj:.0f} |" if proj else "-")
PY
        done
    } > "$out/estimates.md.tmp"
    mv "$out/estimates.md.tmp" "$out/estimates.md"
    cat "$out/estimates.md"
}

O=$O_TOP
log "== sweep: ${#PROGRAMS[@]} programs; intervals ${SIZES[*]}; MaxK $KRANGE; BIC $BICS; methods $METHODS; simulated: ${REAL:-none} ($MODE, warm-up $WARM_INTERVALS interval(s)); into $O_TOP"
start=$EPOCHREALTIME
if [ "$ENGINE" == slurm ]; then
    # Submitting is quick: one program after the other, in this shell, which
    # keeps the ids of the jobs that the report waits for.
    for i in "${!PROGRAMS[@]}"; do sweep_program "$i"; done
    TAG=
else
    # program_job I: sweep_program I in the background, stopped with its
    # stages by the signals that stop this script (spawn, on_signal).
    program_job() {
        trap_signals
        sweep_program "$1"
    }
    pids=()
    for i in "${!PROGRAMS[@]}"; do
        while [ "$(jobs -rp | wc -l)" -ge "$PAR" ]; do wait -n || true; done
        spawn program_job "$i" < /dev/null
        pids+=("$SPAWNED")
    done
    failed=0
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    O=$O_TOP
    [ "$failed" -eq 0 ] || { log "a program's stages failed (see its pipeline.log above)"; exit 1; }
fi

# The report, from every program's outputs (its stage is up to date when none is newer).
O=$O_TOP
# The regions file of a configuration simulated for real: real_regions DIR INTERVAL:MAXK:BIC@METHOD
real_regions() {
    local rn rk rb sp tag
    IFS=: read -r rn rk rb <<< "${2%@*}"
    sp=$(method_prefix "${2#*@}")
    tag=$rn.maxk_$rk.bic_$rb
    [ "$sp" == sp ] || tag=${sp#sp-}.$tag
    echo "$1/regions.$tag.json"
}
dirs=() ins=() regions=()
for n in "${NAMES[@]}"; do
    d=$O_TOP/programs/$n
    dirs+=("$d")
    [ -n "$NO_FULL" ] || ins+=("$d/full.json")
    for m in "${METHOD_LIST[@]}"; do
        for n in "${SIZES[@]}"; do ins+=("$d/$(method_prefix "$m").$n.csv"); done
    done
    for r in "${REAL_CONFIGS[@]}"; do regions+=("$(real_regions "$d" "$r")"); done
done
ins+=("${regions[@]}")
if [ -n "$NO_FULL" ]; then
    run_stage tool estimates "$O_TOP/estimates.md" "$(path_list "${ins[@]}" "$B/sim")" sweep_estimates "$O_TOP" "${regions[@]}"
    engine_finish
    log "== sweep done in $(since "$start") s without full runs (--no-full); estimates: $O_TOP/estimates.md"
    tee -a "$O_TOP/pipeline.log" < "$O_TOP/estimates.md"
    exit 0
fi
run_stage tool report "$(path_list "$O_TOP/report/sweep.json" "$O_TOP/manifest.tsv")" "$(path_list "${ins[@]}" "$B/validate")" \
    sweep_report "$O_TOP" "$TARGET" "$KMAX,$BIC1" "$WARM_INTERVALS" "$(IFS=,; echo "${SIZES[*]}")" "$METHODS" "${dirs[@]}"
engine_finish
log "== sweep done in $(since "$start") s; report: $O_TOP/report/sweep.md"
