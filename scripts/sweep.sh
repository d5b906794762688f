#!/usr/bin/env bash
# Interval size x MaxK (x BIC threshold) over several programs, as Paper C §6
# sweeps SPEC CPU2017: per program one multi-interval bbv run, one SimPoint
# MaxK sweep per interval size and one detailed full run logged at the
# smallest interval; every configuration is then validated by arithmetic on
# that log. A chosen subset of configurations also has its regions simulated
# from checkpoints, which measures the warm-up error too. One combined report
# (validate --sweep) with plots. Stages are reused when up to date, as in
# pipeline.sh, whose helpers this script sources.
set -euo pipefail
. "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/pipeline.sh"

usage() {
    cat << 'EOF'
Usage: scripts/sweep.sh [options] [-- PROGRAM [ARGS...] [-- PROGRAM [ARGS...]]...]

Sweep SimPoint's interval size and MaxK over programs and report, for every
configuration, the chosen k, the instructions simulated, the speedup and the
CPI error against a full detailed run; the Pareto front, heat maps and the
cheapest configuration within a target error. Without programs: every bundled
workload (build/rv/workloads/*) with argument SIZE.

  -o DIR          output directory [out/sweep]
  -i LIST         interval sizes, comma-separated (k/M/G suffixes) [10k,100k,1M]
  -k A..B         MaxK values [1..30]
  -b LIST         BIC thresholds, comma-separated [0.9]
  -M LIST         ways of choosing the points, comma-separated, each compared on the
                  same full-run logs: simpoint (SimPoint 3.2's), or parts joined by
                  '+': select[:N], stratify[:F], dims[:S] (simpoint's --select-by proxy,
                  --stratify, --proxy-dims over bbv --proxy's metrics, with the core
                  configuration of -c) [simpoint]
  -r LIST         configurations whose regions are simulated for real, as
                  INTERVAL:MAXK[:BIC][@METHOD] comma-separated; 'none' for none
                  [every interval size at the largest MaxK and the first BIC, first method]
  -m MODE         sim's warm-up for those regions: none, detailed, functional,
                  checkpoint [checkpoint]
  -w K            warm-up before each region, in intervals [1]
  -c FILE         core configuration [configs/boom-tip.ini]
  -s SEC.KEY=V    a core parameter (sim --set); repeatable
  -S SIZE         the bundled workloads' argument [12]
  -P N            programs processed at the same time [number of cores]
  --target PCT    error target for the cheapest configuration [1%]
  --no-full       no full detailed runs and no validation: each simulated configuration's
                  whole-program estimate from its regions alone (DIR/estimates.md)
  -f              redo every stage
  -h              this help

Outputs: DIR/report/sweep.md (and .json, .rows.csv, .configs.csv, plots/),
DIR/manifest.tsv, and per program DIR/programs/NAME/ with its profiles,
SimPoint sweeps, full run and regions. Exit status: 0, 1 when a stage failed.
EOF
}

O_TOP=out/sweep INTERVALS=10k,100k,1M KRANGE=1..30 BICS=0.9 REAL= MODE=checkpoint WARM_INTERVALS=1
CONFIG=$ROOT/configs/boom-tip.ini SIZE=12 PAR=$(nproc) TARGET=1% FORCE= NO_FULL= METHODS=simpoint
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
    -f) FORCE=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) break ;;
    *) echo "sweep.sh: unknown option '$1' (see -h)" >&2; exit 1 ;;
    esac
done
case $MODE in none | detailed | functional | checkpoint) ;; *) echo "sweep.sh: -m $MODE?" >&2; exit 1 ;; esac
[[ $KRANGE =~ ^[0-9]+\.\.[0-9]+$ ]] || { echo "sweep.sh: -k wants A..B, not '$KRANGE'" >&2; exit 1; }
[[ $WARM_INTERVALS =~ ^[0-9]+$ ]] || { echo "sweep.sh: -w wants a number of intervals" >&2; exit 1; }
[ -f "$CONFIG" ] || { echo "sweep.sh: no configuration $CONFIG" >&2; exit 1; }
for t in bbv simpoint checkpoint sim validate; do
    [ -x "$B/$t" ] || { echo "sweep.sh: $B/$t is missing (make build)" >&2; exit 1; }
done
CONFIG=$(cd "$(dirname "$CONFIG")" && pwd)/$(basename "$CONFIG")
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

# Programs: "PROGRAM ARGS..." groups after each "--", or the bundled workloads.
PROGRAMS=()
if [ $# -gt 0 ]; then
    group=()
    shift
    for a in "$@" --; do
        if [ "$a" == -- ]; then
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

mkdir -p "$O_TOP"
O_TOP=$(cd "$O_TOP" && pwd)
O=$O_TOP
: > "$O_TOP/pipeline.log"
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

# The file prefix of a method's SimPoint outputs: sp (SimPoint's), sp-METHOD.
method_prefix() {
    if [ "$1" == simpoint ]; then echo sp; else echo "sp-$1"; fi
}

# ------------------------------------------------------------- one program
# The stages of one program, in DIR/programs/NAME; prints its manifest rows.
# A program's name in the reports: its file name, then its arguments.
program_name() {
    local -a cmd
    eval "cmd=($1)"
    local name
    name=$(basename "${cmd[0]}")
    [ ${#cmd[@]} -eq 1 ] || name+="-$(IFS=-; printf '%s' "${cmd[*]:1}" | tr -c 'A-Za-z0-9_.=-' '_')"
    echo "$name"
}

sweep_program() {
    local -a cmd
    eval "cmd=($1)"
    local prog=${cmd[0]} name
    name=$(program_name "$1")
    O=$O_TOP/programs/$name TAG=$name
    mkdir -p "$O"
    : > "$O/pipeline.log"
    local P=$O/$name sizes_csv
    sizes_csv=$(IFS=,; echo "${SIZES[*]}")
    local bbs="" n
    for n in "${SIZES[@]}"; do bbs+=" $P.$n.bb.gz"; done
    log "== $name: ${cmd[*]}"
    run_stage guest bbv "$bbs $P.summary.json" "$prog $B/bbv" \
        "$B/bbv" --interval "$sizes_csv" -o "$P" -- "${cmd[@]}"
    # The proxy metrics come from a second, stepping pass (its .bb files are
    # the same), so that each method is charged its own profiling time.
    local pxs="" m
    for n in "${SIZES[@]}"; do pxs+=" $P.px.$n.bb.gz $P.px.$n.proxy"; done
    [ -z "$NEED_PROXY" ] || run_stage guest bbv-proxy "$pxs $P.px.summary.json" "$prog $B/bbv $CONFIG" \
        "$B/bbv" --interval "$sizes_csv" --proxy "$CONFIG" "${SETS[@]}" -o "$P.px" -- "${cmd[@]}"
    for m in "${METHOD_LIST[@]}"; do
        local sp opts=() px=() in
        sp=$(method_prefix "$m")
        mapfile -t opts < <(method_options "$m")
        for n in "${SIZES[@]}"; do
            in=$P.$n.bb.gz px=()
            [ "$m" == simpoint ] || { in=$P.px.$n.bb.gz px=(--proxy "$P.px.$n.proxy"); }
            run_stage tool "$sp-$n" "$O/$sp.$n.csv $O/$sp.$n.json" "$in $B/simpoint" \
                "$B/simpoint" -loadFVFile "$in" -fixedLength off --sweep-max-k "$KRANGE" --sweep-bic "$BICS" \
                "${opts[@]}" "${px[@]}" -saveSimpoints "$O/$sp.$n.simpoints" -saveSimpointWeights "$O/$sp.$n.weights" \
                -saveLabels "$O/$sp.$n.labels" --sweep-table "$O/$sp.$n.csv" --json "$O/$sp.$n.json"
        done
    done
    [ -n "$NO_FULL" ] || run_stage guest full "$O/full.json $O/full.csv" "$prog $B/sim $CONFIG" \
        "$B/sim" --full "${CORE[@]}" -G "$G" --interval-log "$O/full.csv" -o "$O/full.json" \
        --guest-output none -- "${cmd[@]}"
    local r rn rk rb tag sp
    for r in "${REAL_CONFIGS[@]}"; do
        IFS=: read -r rn rk rb <<< "${r%@*}"
        sp=$(method_prefix "${r#*@}")
        tag=$rn.maxk_$rk.bic_$rb
        [ "$sp" == sp ] || tag=${sp#sp-}.$tag
        [ -f "$O/$sp.$rn.simpoints.maxk_$rk.bic_$rb" ] || { log "no SimPoint sweep output for $tag"; exit 1; }
        local warm=()
        [ "$MODE" != checkpoint ] || warm=(--warm "$CONFIG" "${SETS[@]}")
        run_stage guest "checkpoint-$tag" "$O/ckpt.$tag/checkpoints.json" \
            "$O/$sp.$rn.simpoints.maxk_$rk.bic_$rb $prog $B/checkpoint $CONFIG" \
            take_checkpoints "$O/ckpt.$tag" "$rn" "$((rn * WARM_INTERVALS))" \
            "$O/$sp.$rn.simpoints.maxk_$rk.bic_$rb" "$O/$sp.$rn.weights.maxk_$rk.bic_$rb" "${warm[@]}" -- "${cmd[@]}"
        run_stage tool "regions-$tag" "$O/regions.$tag.json" "$O/ckpt.$tag/checkpoints.json $B/sim $CONFIG" \
            "$B/sim" -q "${CORE[@]}" --warmup "$MODE" -j 1 --total-insts "$(total_insts)" -o "$O/regions.$tag.json" \
            "$O/ckpt.$tag"/*.ckpt
    done
    log "== $name: done"
}

# A number from a tool's JSON summary: json_number FILE KEY (the first one).
json_number() {
    sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1" | head -n 1
}

# The manifest rows of one program (after its stages ran). seconds: the
# profiling pass (every interval size at once) plus that size's SimPoint sweep.
manifest_rows() {
    local dir=$1 name n k b sp regions m pre profile
    name=$(basename "$dir")
    for m in "${METHOD_LIST[@]}"; do
        pre=$(method_prefix "$m") profile=$dir/$name.summary.json
        [ "$m" == simpoint ] || profile=$dir/$name.px.summary.json
        for n in "${SIZES[@]}"; do
            local secs
            secs=$(awk -v a="$(json_number "$profile" wall_seconds)" -v b="$(json_number "$dir/$pre.$n.json" total_seconds)" \
                'BEGIN { printf "%.3f", a + b }')
            for sp in "$dir/$pre.$n".simpoints.maxk_*; do
                k=${sp##*.maxk_}; k=${k%%.bic_*}; b=${sp##*.bic_}
                local tag=$n.maxk_$k.bic_$b
                [ "$pre" == sp ] || tag=${pre#sp-}.$tag
                regions=-
                [ ! -f "$dir/regions.$tag.json" ] || regions=$dir/regions.$tag.json
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$n" "$k" "$b" "$sp" \
                    "$dir/$pre.$n.weights.maxk_$k.bic_$b" "$dir/$pre.$n.labels.maxk_$k.bic_$b" "$dir/full.json" \
                    "$regions" "$m" "$secs"
            done
        done
    done
}

O=$O_TOP
log "== sweep: ${#PROGRAMS[@]} programs; intervals ${SIZES[*]}; MaxK $KRANGE; BIC $BICS; methods $METHODS; simulated: ${REAL:-none} ($MODE, warm-up $WARM_INTERVALS interval(s)); into $O_TOP"
start=$EPOCHREALTIME
pids=()
for p in "${PROGRAMS[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$PAR" ]; do wait -n || true; done
    (sweep_program "$p") &
    pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
O=$O_TOP
[ "$failed" -eq 0 ] || { log "a program's stages failed (see its pipeline.log above)"; exit 1; }

if [ -n "$NO_FULL" ]; then
    # No full runs: each simulated configuration's whole-program estimate from its regions alone.
    {
        printf '| program | method | interval | MaxK | BIC | regions | CPI estimate | projected cycles |\n|---|---|--:|--:|--:|--:|--:|--:|\n'
        for f in "$O_TOP"/programs/*/regions.*.json; do
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
    } > "$O_TOP/estimates.md"
    log "== sweep done in $(since "$start") s without full runs (--no-full); estimates: $O_TOP/estimates.md"
    cat "$O_TOP/estimates.md" | tee -a "$O_TOP/pipeline.log"
    exit 0
fi
{
    printf 'program\tinterval\tmax_k\tbic\tsimpoints\tweights\tlabels\tfull\tregions\tmethod\tseconds\n'
    for p in "${PROGRAMS[@]}"; do manifest_rows "$O_TOP/programs/$(program_name "$p")"; done
} > "$O_TOP/manifest.tsv"
log "validate --sweep: $(($(wc -l < "$O_TOP/manifest.tsv") - 1)) configurations x programs"
rm -rf "$O_TOP/report"
"$B/validate" -q --sweep "$O_TOP/manifest.tsv" --target "$TARGET" --baseline "$KMAX,$BIC1" --warmup-intervals "$WARM_INTERVALS" \
    -o "$O_TOP/report" > "$O_TOP/logs.validate.txt" 2>&1 || {
    log "validate --sweep failed:"; sed 's/^/    /' "$O_TOP/logs.validate.txt"; exit 1; }
log "== sweep done in $(since "$start") s; report: $O_TOP/report/sweep.md"
