#!/bin/bash
# Hostile file names through pipeline.sh and sweep.sh, on both engines
# (issue 35, D10 and D11): program names and output directories made, from a
# seed, of spaces, a leading '-', quotes, $(...), backquotes, ';', '|', '%',
# '*', '#', tabs and backslashes, each in every name. They work, as any other name, with the local
# engine, and in the Slurm dry run's job scripts, which run as sbatch would
# run them; nothing in a name is ever run (no PWNED file appears). Names with
# a newline are refused up front, leaving nothing behind; so are a backslash in
# the output directory of a Slurm run and a '/' in a -n name. The real Slurm
# runs are in slurm_sweep.sh. SCRIPT_NAMES_SEED=N picks other names.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

SEED=${SCRIPT_NAMES_SEED:-35}
RANDOM=$SEED
echo "script_names: seed $SEED"
PIPELINE=$TOP/scripts/pipeline.sh SWEEP=$TOP/scripts/sweep.sh
cd "$T"
cp "$RV/workloads/phases" ./plain

# Pieces of names, each a way a careless script breaks. The output
# directories of a Slurm run leave out the backslash (refused there: Slurm
# drops it from --output), sweep's the tab (its manifest is tab-separated).
PIECES=(' ' "'" '"' '$(touch PWNED)' '`touch PWNED`' ';touch PWNED;#' '|' '%' '%a' '*' '[x]' '&' '$HOME' $'\t' '\' '-')
# name VAR ALLOWED: in VAR, a name that starts with '-' and holds every piece
# matching the pattern ALLOWED, in an order drawn from the seed (in this
# shell: a subshell would draw from a new seed).
name() {
    local -n name_to=$1
    local pieces=() i j p
    for p in "${PIECES[@]}"; do [[ $p != $2 ]] || pieces+=("$p"); done
    for ((i = ${#pieces[@]} - 1; i > 0; i--)); do
        j=$((RANDOM % (i + 1)))
        p=${pieces[i]} pieces[i]=${pieces[j]} pieces[j]=$p
    done
    name_to='-'
    for i in "${!pieces[@]}"; do name_to+="n$i${pieces[i]}"; done
    name_to+=' x'
}
ANY='*' NO_BACKSLASH='[!\\]*' NO_TAB=$'[!\t]*' NO_BOTH=$'[!\t\\\\]*'
# The program's file name is pipeline.sh's default -n, which validate puts in
# its gnuplot titles, where gnuplot runs what is between backquotes even in
# double quotes: validate writes it there without them (gnuplot_text).
PROGRAM=$ANY

# run WHAT STATUS COMMAND...: COMMAND's output in $T/log.txt, its status STATUS.
run() {
    local what=$1 want=$2 st=0
    shift 2
    BIN=$BIN timeout 300 "$@" > "$T/log.txt" 2>&1 || st=$?
    [ "$st" -eq "$want" ] || { cat "$T/log.txt"; fail "$what: status $st, expected $want"; }
}
no_pwned() {
    local found
    found=$(find "$T" / -maxdepth 1 -name 'PWNED*' 2> /dev/null; find "$T" -name 'PWNED*')
    [ -z "$found" ] || fail "$1: a name ran as a command: $found"
}
# dry_job DRY-RUN-OUTPUT N: the N-th job script of a dry run (it ends at an
# empty line), run as Slurm would run it once submitted (DIR/.slurm made).
dry_job() {
    awk -v n="$2" '/^#!\/bin\/bash$/ { k++ } k == n { if ($0 == "") exit; print }' "$1" > "$T/job.sh"
    mkdir -p -- "$3/.slurm"
    (unset SLURM_CPUS_PER_TASK; bash "$T/job.sh") > "$T/job.out" 2>&1 || { cat "$T/job.sh" "$T/job.out"; fail "job $2 failed"; }
}

# ------------------------------------------------------------ local engine
name prog "$PROGRAM"
name out "$ANY"
cp plain "./$prog"
printf 'program %q, output %q\n' "$prog" "$out"
run "pipeline.sh on a hostile program and output directory" 0 "$PIPELINE" -i 1M -k 3 -o "$out" -- "$prog" 1
[ -s "$out/validate/report.md" ] && [ -s "$out/$prog.summary.json" ] || fail "pipeline.sh: reports missing in $out"
run "pipeline.sh again" 0 "$PIPELINE" -i 1M -k 3 -o "$out" -- "$prog" 1
expect_eq "stages up to date on the second run" 7 "$(grep -c ': up to date' "$T/log.txt")"
no_pwned "pipeline.sh, local"

name prog2 "$ANY"
name out "$NO_TAB"
cp plain "./$prog2"
printf 'sweep: programs %q %q, output %q\n' "$prog" "$prog2" "$out"
run "sweep.sh on hostile programs and output directory" 0 "$SWEEP" -i 1M -k 1..2 -M simpoint -r 1M:2 -o "$out" \
    -- "$prog" 1 -- "./$prog2" 1
[ -s "$out/report/sweep.md" ] || fail "sweep.sh: no report in $out"
expect_eq "programs in the manifest" 2 "$(cut -f1 < "$out/manifest.tsv" | sort -u | grep -vc '^program$')"
no_pwned "sweep.sh, local"

# ------------------------------------- Slurm dry run: the job scripts, run
name out "$NO_BACKSLASH"
printf 'dry run: output %q\n' "$out"
run "pipeline.sh --engine slurm --dry-run" 0 "$PIPELINE" --engine slurm --dry-run -i 1M -k 3 -o "$out" -- "$prog" 1
cp "$T/log.txt" "$T/dry.txt"
expect_eq "pipeline's dry-run job scripts" 8 "$(grep -c '^#!/bin/bash$' "$T/dry.txt")"
dry_job "$T/dry.txt" 1 "$out"
[ -s "$out/$prog.summary.json" ] && [ "$(cat -- "$out/.slurm/bbv.status")" == ok ] || fail "the bbv job did not write its outputs"
no_pwned "pipeline.sh's job scripts"

name out "$NO_BOTH"
printf 'sweep dry run: output %q\n' "$out"
run "sweep.sh --engine slurm --dry-run" 0 "$SWEEP" --engine slurm --dry-run -i 1M -k 1..2 -M simpoint -r none -o "$out" \
    -- "$prog" 1 -- "./$prog2" 1
cp "$T/log.txt" "$T/dry.txt"
dry_job "$T/dry.txt" 1 "$out/programs/$(printf '%s' "$prog-1" | tr -c 'A-Za-z0-9_.=-' '_')"
ls -- "$out"/programs/*/*.summary.json > /dev/null || fail "sweep's bbv job did not write its outputs"
no_pwned "sweep.sh's job scripts"

# -------------------------------------------------------- refused names
# refused WHAT PATTERN COMMAND...: status 1, a one-line reason matching PATTERN,
# and no output directory.
refused() {
    local what=$1 pattern=$2
    shift 2
    rm -rf "$T/refused"
    run "$what" 1 "$@"
    grep -q -- "$pattern" "$T/log.txt" || fail "$what: no reason matching '$pattern': $(cat "$T/log.txt")"
    [ ! -e "$T/refused" ] || fail "$what: left $(find "$T/refused")"
}
name nl "$ANY"
nl+=$'\n'"touch PWNED;#" nlprog=$'nl\ntouch PWNED;#'
cp plain "./$nlprog"
for engine in local "slurm --dry-run"; do
    # shellcheck disable=SC2086 # the engine's options
    set -- --engine $engine
    refused "pipeline.sh $*: a newline in -o" "newline" "$PIPELINE" "$@" -i 1M -k 3 -o "$T/refused/$nl" -- ./plain 1
    refused "pipeline.sh $*: a newline in the program" "newline" "$PIPELINE" "$@" -i 1M -k 3 -o "$T/refused" -- "./$nlprog" 1
    refused "sweep.sh $*: a newline in -o" "newline" "$SWEEP" "$@" -i 1M -k 1..2 -r none -o "$T/refused/$nl" -- ./plain 1
    refused "sweep.sh $*: a newline in a program" "newline" "$SWEEP" "$@" -i 1M -k 1..2 -r none -o "$T/refused" \
        -- ./plain 1 -- "./$nlprog" 1
done
refused "pipeline.sh: a tab in sweep's -o" "tab" "$SWEEP" -i 1M -k 1..2 -r none -o "$T/refused/a"$'\t'"b" -- ./plain 1
refused "pipeline.sh --engine slurm: a backslash in -o" "backslash" \
    "$PIPELINE" --engine slurm --dry-run -o "$T/refused/a\\b" -- ./plain 1
refused "sweep.sh --engine slurm: a backslash in -o" "backslash" \
    "$SWEEP" --engine slurm --dry-run -r none -o "$T/refused/a\\b" -- ./plain 1
refused "pipeline.sh -n with a '/'" "-n" "$PIPELINE" -n a/b -o "$T/refused" -- ./plain 1
no_pwned "refused names"
echo "script_names: ok"
