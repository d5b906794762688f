# shellcheck shell=bash
# Where the stages of pipeline.sh and sweep.sh run (sourced by pipeline.sh):
# here, one after the other (--engine local, the default), or as Slurm batch
# jobs (--engine slurm). run_stage (pipeline.sh) decides whether a stage must
# run with the same up-to-date test for both; for Slurm it then calls
# engine_submit instead of running it. A job script sources the stage helpers
# (pipeline.sh), sets the variables they use and defines the command's own
# functions (declare -p / -f), and runs stage_exec, the function that runs a
# stage locally, so a stage's command and outputs are the same on both engines. Jobs wait for the jobs that write their inputs
# (--dependency=afterok, --kill-on-invalid-dep=yes: the dependents of a failed
# job are cancelled, not left pending) and leave DIR/.slurm/NAME.status, "ok"
# or why they failed with the log's path. The regions are a job array (one
# task per --regions-per-task checkpoints) and a join job that puts the tasks'
# results into the stage's output file. A chunked full run (full_in_chunks)
# is a functional pass job, a job array of one task per chunk that starts
# with the pass (--dependency=after), each task waiting for its own chunk's
# checkpoint, and a job that stitches the chunks into the stage's outputs.
# Names in job scripts (README, Security): every string that comes from a name
# (paths, the program's arguments, stage names) is written with printf %q or
# declare -p, never bare, so that none can end a line or a word of the
# script; the job's name, output file and working directory go to sbatch as
# arguments, not as #SBATCH lines that sbatch would parse. Paths with a
# newline never get here (check_names).

ENGINE=local DRY_RUN='' WAIT='' REGIONS_PER_TASK=1
SLURM_OPTS=()
declare -A PRODUCER=() # output path -> the job of this run that writes it
SUBMITTED=()           # records "id dir name tasks tag deps" (printf %q, read back by eval), tasks 0 but for an array
DRY_ID=0 JOB_ID='' NODE_CPUS=''  # the most CPUs of a node (sinfo), the most a job asks for
CLUSTER_CPUS=''                  # every node's CPUs (sinfo): the tasks of --full-chunks auto
MAX_ARRAY=''                     # Slurm's MaxArraySize (scontrol): an array's task indices are below it

engine_usage() {
    cat << 'EOF'
  --engine E        where the stages run: local (here, now) or slurm (batch jobs) [local]
  --slurm-opts S    sbatch options for every job (they win over the defaults below),
                    e.g. "--partition=p --account=a --time=4:00:00 --mem=8G"
  --regions-per-task N  checkpoints simulated by one task of the regions job array [1]
  --wait            slurm: wait for the jobs, report the failed ones (exit status 1),
                    then print what a local run prints; without it the command returns
                    once the jobs are submitted
  --dry-run         slurm: print the job scripts and the dependency graph, submit nothing

With --engine slurm every stage that is not up to date (the same test as a local
run) becomes a job, after the jobs that write its inputs (afterok): per program bbv,
simpoint, checkpoint, the regions as a job array over the checkpoints (one task per
--regions-per-task, then a join into the usual file), the full run on its own or,
with --full-chunks, as a functional pass that checkpoints every chunk (full.pass),
a job array of one task per chunk (full.chunks: N tasks, or auto's one per CPU of
the cluster, at most Slurm's MaxArraySize, task indices 0 to MaxArraySize - 1
(scontrol show config; 1000 when it cannot be read); the nodes need not be the same) that starts once the pass has
started (after, not afterok), each task simulating its chunk as soon as the pass
has published its checkpoint (one chunk past it), and a job that stitches them
(full), and validate or the report after all of its inputs. The outputs are where a local run
puts them; job scripts, Slurm's output and a status file per job are in .slurm/ of
each output directory. Rerunning the command submits only what is missing and not
already queued, and says how the last job of each stage it submits again ended
(failed: its log's path); with --wait, the jobs that failed or did not run are
reported once all have ended.
Defaults for each job: 1 CPU and 2 GB; simpoint 2 CPUs and 4 GB; a region task 1
CPU a checkpoint (at most 8, and at most a node's CPUs); 2 CPUs for a stage that
warms caches and predictors (bbv --proxy, checkpoint --warm, a chunked run's pass:
the warming model runs on a second thread). --time, once bbv has counted the
program's I instructions (before that, the partition's default): 10 min + I / 5M s
for bbv, checkpoint, a region task and a chunked run's pass, 10 min + I / 2M s for
the full detailed run (a chunk task: its share of I, plus I / 5M s for waiting
for its checkpoint), 10 min + I / 50M s for
simpoint, 30 min for validate, the sweep report and a chunked run's stitch
(measured here: 2M-8M instructions/s for the detailed core, 80M-200M for bbv and
warm checkpoints).
EOF
}

# engine_set OPTION [VALUE]: one of the options above.
engine_set() {
    case $1 in
    --engine) ENGINE=$2 ;;
    --slurm-opts) read -ra SLURM_OPTS <<< "$2" ;;
    --regions-per-task) REGIONS_PER_TASK=$2 ;;
    --wait) WAIT=1 ;;
    --dry-run) DRY_RUN=1 ;;
    esac
}

# engine_check SCRIPT: refuse impossible combinations, with SCRIPT's name.
engine_check() {
    local me=$1
    case $ENGINE in local | slurm) ;; *) echo "$me: --engine local or slurm, not '$ENGINE'" >&2; exit 1 ;; esac
    [[ $REGIONS_PER_TASK =~ ^[1-9][0-9]*$ ]] || { echo "$me: --regions-per-task wants a positive number" >&2; exit 1; }
    if [ "$ENGINE" == local ] && [ -n "$DRY_RUN$WAIT" ]; then
        echo "$me: --dry-run and --wait are for --engine slurm" >&2
        exit 1
    fi
    if [ "$ENGINE" == slurm ] && [ -z "$DRY_RUN" ]; then
        if ! command -v sbatch > /dev/null || ! command -v squeue > /dev/null; then
            echo "$me: --engine slurm: no sbatch or squeue on PATH" >&2
            exit 1
        fi
        NODE_CPUS=$(sinfo -h -o %c 2> /dev/null | tr -dc '0-9\n' | sort -n | tail -n 1 || true)
        CLUSTER_CPUS=$(sinfo -h -o '%n %c' 2> /dev/null | sort -u | awk '{ n += $2 } END { print n + 0 }' || true)
        MAX_ARRAY=$(scontrol show config 2> /dev/null | sed -n 's/^MaxArraySize *= *\([0-9]*\).*/\1/p' || true)
    fi
}

# engine_check_dir SCRIPT DIR: refuse an output directory Slurm cannot take:
# it reads a backslash in --output as "no patterns" and drops it, so the jobs'
# output would go elsewhere and a job array's tasks to one file.
engine_check_dir() {
    [ "$ENGINE" != slurm ] || check_name "$1" "--engine slurm: the output directory" "$2" \
        '\' backslash "Slurm drops it from the jobs' output paths"
}

# The jobs (ids, ':'-separated) of this run that write any of INPUTS (a path list).
engine_deps() {
    local in ids=() ins
    list_paths ins "$1"
    for in in "${ins[@]}"; do
        [ -z "${PRODUCER[$in]:-}" ] || [[ " ${ids[*]} " == *" ${PRODUCER[$in]} "* ]] || ids+=("${PRODUCER[$in]}")
    done
    (IFS=:; echo "${ids[*]}")
}

# How the last job of stage NAME ended, when it did not succeed (the stage is
# to be submitted again, so it did not).
engine_last() {
    local d=$O/.slurm st
    [ -z "$DRY_RUN" ] && [ -f "$d/$1.jobid" ] || return 0
    st=$(cat "$d/$1.status" 2> /dev/null || true)
    [ "$st" != ok ] || return 0
    log "$1: its last job, $(cat "$d/$1.jobid"), ${st:-did not finish (cancelled after a job it depends on failed, or stopped by Slurm: see $d/$1.out)}"
}

# The job that an earlier run submitted for stage NAME, if still queued or running.
engine_queued() {
    local f=$O/.slurm/$1.jobid id
    [ -z "$DRY_RUN" ] && [ -f "$f" ] || return 0
    id=$(cat "$f")
    if squeue -h -j "$id" -o %T 2> /dev/null | grep -qE 'PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUE'; then
        echo "$id"
    fi
}

# engine_produces ID OUTPUTS: job ID writes OUTPUTS (a path list).
engine_produces() {
    local f outs
    list_paths outs "$2"
    for f in "${outs[@]}"; do PRODUCER[$f]=$1; done
}

# engine_resources NAME COMMAND...: #SBATCH lines for stage NAME: CPUs,
# memory and the time limit from the program's instruction count when bbv
# has counted it (see engine_usage). A stage that warms the core's caches and
# predictors (bbv --proxy, checkpoint --warm, a chunked run's pass) asks for
# the second CPU the warming model runs on.
engine_resources() {
    local name=$1 cpus=1 mem=2G per='' insts='' wait=0
    shift
    case $name in
    bbv* | checkpoint*) per=5000000 ;;
    *.tasks) per=5000000 cpus=$((REGIONS_PER_TASK < 8 ? REGIONS_PER_TASK : 8)) ;;
    full.pass) per=5000000 cpus=2 ;;
    full.chunks) per=$((2000000 * CHUNK_TASKS)) wait=5000000 ;; # a task waits for the pass, then simulates a chunk
    full) [ -n "${CHUNK_TASKS:-}" ] || per=2000000 ;; # chunked: the stitch (30 min)
    simpoint*) per=50000000 cpus=2 mem=4G ;;
    esac
    [[ $name != bbv* && $name != checkpoint* ]] || [[ " $* " != *" --proxy "* && " $* " != *" --warm "* ]] || cpus=2
    [ -z "$per" ] || [ -z "${P:-}" ] || [ ! -f "$P.summary.json" ] || insts=$(total_insts)
    [ -z "$NODE_CPUS" ] || [ "$cpus" -le "$NODE_CPUS" ] || cpus=$NODE_CPUS
    printf '#SBATCH --cpus-per-task=%s\n#SBATCH --mem=%s\n' "$cpus" "$mem"
    if [ -n "$insts" ]; then
        printf '#SBATCH --time=%s\n' "$((10 + (insts / per + (wait ? insts / wait : 0) + 59) / 60))"
    elif [ -z "$per" ]; then
        printf '#SBATCH --time=30\n'
    fi
}

# engine_script NAME FUNCTION ARGS...: the job script of stage NAME that
# calls FUNCTION ARGS, after sourcing the stage helpers (pipeline.sh, this
# file) and setting the variables they use. Every string from a name is
# %q-quoted or declare -p'd (see the top).
engine_script() {
    local name=$1
    shift
    printf '#!/bin/bash\n'
    engine_resources "$name" "$@"
    printf '# rvsample: stage %q of %q, made by %q\n' "$name" "$O" "${0##*/}"
    # shellcheck disable=SC2016 # expanded in the job
    printf 'set -euo pipefail\nexport OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}\n'
    printf 'cd -- %q\n' "$PWD" # as sbatch --chdir: the script also runs by hand, from anywhere
    printf '. %q\n' "$ROOT/scripts/pipeline.sh"
    declare -p B O REGIONS_PER_TASK
    [ -z "${P:-}" ] || declare -p P
    [ -z "${TAG:-}" ] || declare -p TAG
    [ -z "${STDIN:-}" ] || declare -p STDIN
    [ -z "${CHUNK_TASKS:-}" ] || declare -p CHUNK_TASKS
    # the command's own functions, those the helpers do not have (sweep.sh's)
    local a
    for a in "$@"; do
        if [[ $a =~ ^[a-z_]+$ ]] && [[ $ENGINE_HELPERS != *" $a "* ]] && declare -F "$a" > /dev/null; then
            declare -f "$a"
        fi
    done
    printf '%q ' "$@"
    printf '\n'
}

# The --output of stage NAME's job (its tasks' when TASKS is not 0), in
# O/.slurm, with '%' as '%%' (Slurm's patterns: %a is the task).
engine_output() {
    local out=$O/.slurm/$1
    out=${out//%/%%}
    if [ "$2" -eq 0 ]; then echo "$out.out"; else echo "$out.%a.out"; fi
}

# engine_sbatch NAME TASKS DEPS WHY FUNCTION ARGS...: submit (or with
# --dry-run print) a job, after the jobs DEPS (and the end of AFTER_ANY's);
# its id in JOB_ID.
engine_sbatch() {
    local name=$1 tasks=$2 deps=$3 why=$4 d=$O/.slurm
    shift 4
    local opts=(--parsable "--job-name=rv:${TAG:+$TAG:}$name" "--output=$(engine_output "$name" "$tasks")"
        "--chdir=$PWD") script
    # DEP_KIND=after: once DEPS have started (a chunked run's tasks and its pass);
    # AFTER_ANY: jobs to wait for the end of, whatever it was (an order, not an input)
    local dep=''
    [ -z "$deps" ] || dep="${DEP_KIND:-afterok}:$deps"
    [ -z "${AFTER_ANY:-}" ] || dep="${dep:+$dep,}afterany:$AFTER_ANY"
    [ -z "$dep" ] || opts+=("--dependency=$dep" --kill-on-invalid-dep=yes)
    [ "$tasks" -eq 0 ] || opts+=("--array=0-$((tasks - 1))")
    script=$(engine_script "$name" "$@")
    if [ -n "$DRY_RUN" ]; then
        DRY_ID=$((DRY_ID + 1)) JOB_ID=dry$DRY_ID
        printf '#### job %s: %s\n#### %s\n%s\n\n' "$JOB_ID" "${TAG:+$TAG: }$name ($why)" \
            "$(printf '%q ' sbatch "${opts[@]}" "${SLURM_OPTS[@]}" "$d/$name.sh")" "$script"
    else
        mkdir -p "$d"
        printf '%s\n' "$script" > "$d/$name.sh"
        rm -f "$d/$name.status" "$d/$name".[0-9]*.status
        JOB_ID=$(sbatch "${opts[@]}" "${SLURM_OPTS[@]}" "$d/$name.sh") ||
            { log "$name: sbatch refused the job ($d/$name.sh)"; exit 1; }
        JOB_ID=${JOB_ID%%;*}
        echo "$JOB_ID" > "$d/$name.jobid"
    fi
    engine_record "$JOB_ID" "$name" "$tasks" "${deps//:/ }"
    log "$name: submitted as job $JOB_ID$(array_of "$tasks")${deps:+ after ${deps//:/ }} ($why)"
}

# engine_record ID NAME TASKS DEPS: a job of stage NAME (of O and TAG) in SUBMITTED.
engine_record() {
    SUBMITTED+=("$(printf '%q ' "$1" "$O" "$2" "$3" "${TAG:-}" "$4")")
}

# engine_fields RECORD: a SUBMITTED record into id dir name tasks tag deps,
# the caller's local variables.
engine_fields() {
    local -a f
    eval "f=($1)"
    id=${f[0]} dir=${f[1]} name=${f[2]} tasks=${f[3]} tag=${f[4]} deps=${f[5]}
}

# " (array of N tasks)", or nothing for 0.
array_of() { [ "$1" -eq 0 ] || echo " (array of $1 tasks)"; }

# engine_submit KIND NAME OUTPUTS DEPS WHY COMMAND...: stage NAME as Slurm
# job(s), unless an earlier run's job for it is still queued or running.
# KIND regions: COMMAND is simulate_regions DIR OUT OPTIONS..., run as an
# array (REGIONS_MAX checkpoints at most, while DIR is still to be made) and a
# join job that writes OUT. A COMMAND full_in_chunks N|auto G SIM... (a
# chunked full run): the pass (NAME.pass), an array of a task per chunk
# (NAME.chunks: N, or auto's one per CPU of the cluster, at most the
# cluster's MaxArraySize: Slurm takes task indices below it; a run with
# fewer chunks leaves the rest idle) started with the pass, and the stitch
# (NAME), which writes OUTPUTS.
engine_submit() {
    local kind=$1 name=$2 outs=$3 deps=$4 why=$5
    shift 5
    local queued
    queued=$(engine_queued "$name")
    if [ -n "$queued" ]; then
        # submitted by an earlier run, not finished: waited for and reported as if submitted now
        log "$name: already queued or running as job $queued"
        engine_record "$queued" "$name" 0 ''
        engine_produces "$queued" "$outs"
        return 0
    fi
    engine_last "$name"
    if [ "$1" == full_in_chunks ]; then
        local CHUNK_TASKS=$2
        local max=${MAX_ARRAY:-1000} pass
        [ "$CHUNK_TASKS" != auto ] || CHUNK_TASKS=$((${CLUSTER_CPUS:-4} < max ? ${CLUSTER_CPUS:-4} : max))
        [ "$CHUNK_TASKS" -ge 1 ] || CHUNK_TASKS=1
        [ "$CHUNK_TASKS" -le "$max" ] || { log "$name: --full-chunks $CHUNK_TASKS: Slurm takes arrays of at most $max tasks (MaxArraySize)"; exit 1; }
        engine_sbatch "$name.pass" 0 "$deps" "$why" engine_job tool "$name.pass" "$O/logs/$name.pass.log" \
            "$O/full.chunks/chunks.json" "" chunks_pass "${@:2}"
        pass=$JOB_ID
        # (the pass waits for AFTER_ANY; the chunks and the stitch come after it)
        AFTER_ANY='' DEP_KIND=after engine_sbatch "$name.chunks" "$CHUNK_TASKS" "$pass" "a task per chunk, each from its checkpoint" \
            engine_chunk_task "$name" "$pass" "${@:2}"
        AFTER_ANY='' engine_sbatch "$name" 0 "$JOB_ID" "the stitch of its chunks" \
            engine_job "$kind" "$name" "$O/logs/$name.log" "$outs" "$*" chunks_stitch "${@:2}"
    elif [ "$kind" != regions ]; then
        engine_sbatch "$name" 0 "$deps" "$why" engine_job "$kind" "$name" "$O/logs/$name.log" "$outs" "$*" "$@"
    else
        local dir=$2 out=$3 n
        if [ -n "$deps" ]; then n=${REGIONS_MAX:?}; else n=$({ find "$dir" -maxdepth 1 -name '*.ckpt' || true; } | wc -l); fi
        local tasks=$(((n + REGIONS_PER_TASK - 1) / REGIONS_PER_TASK)) parts=$O/.slurm/$name.parts
        [ -n "$DRY_RUN" ] || { rm -rf "$parts"; mkdir -p "$parts"; }
        engine_sbatch "$name.tasks" "$((tasks > 0 ? tasks : 1))" "$deps" "$why" engine_task "$name" "$@"
        engine_sbatch "$name" 0 "$JOB_ID" "the join of its tasks" \
            engine_job tool "$name" "$O/logs/$name.log" "$outs" "$*" merge_regions "$out" "$parts"
    fi
    engine_produces "$JOB_ID" "$outs"
}

# In a job: stage_exec KIND NAME LOG OUTPUTS STAMP COMMAND..., then the status file.
engine_job() {
    if stage_exec "$@"; then
        echo ok > "$O/.slurm/$2.status"
    else
        echo "FAILED: see $3" > "$O/.slurm/$2.status"
        exit 1
    fi
}

# In a task of a regions array: simulate_regions on its share of the checkpoints.
engine_task() {
    local name=$1 i=$SLURM_ARRAY_TASK_ID parts=$O/.slurm/$1.parts
    shift
    REGION_CHUNK=$i:$REGIONS_PER_TASK REGION_PART=$parts/$i.json \
        engine_job tool "$name.tasks.$i" "$parts/$i.log" "" "" "$@"
}

# chunk_split N|auto G SIM --full OPTIONS... -- PROGRAM ARGS...: full_in_chunks's
# command as the three steps on Slurm use it: CHUNK_SIM (sim), CHUNK_OPTS (its
# options but --full, the outputs and the guest's: the core, sampling, -G),
# CHUNK_OUTS (-o, --interval-log), CHUNK_PASS (what the functional pass
# needs: the core's --config and --set, -G), CHUNK_GUEST (--guest-output,
# --env), CHUNK_PROG (the program and its arguments).
chunk_split() {
    CHUNK_SIM=$3 CHUNK_OPTS=() CHUNK_OUTS=() CHUNK_GUEST=() CHUNK_PROG=() CHUNK_PASS=()
    shift 3
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        case $1 in
        --full) shift ;;
        -o | --interval-log) CHUNK_OUTS+=("$1" "$2"); shift 2 ;;
        --guest-output | --env) CHUNK_GUEST+=("$1" "$2"); shift 2 ;;
        --config | --set | -G | --log-interval) CHUNK_PASS+=("$1" "$2") CHUNK_OPTS+=("$1" "$2"); shift 2 ;;
        *) CHUNK_OPTS+=("$1"); shift ;;
        esac
    done
    CHUNK_PROG=("${@:2}")
}

# chunks_pass N|auto G SIM...: the functional pass (sim --chunk-pass), each
# chunk's warm checkpoint published in O/full.chunks once ready, after
# O/full.chunks/pass.job names this job (the tasks, started with it, wait
# for that: no earlier run's checkpoints or parts are taken for this one's).
chunks_pass() {
    local c
    c=$(chunk_size "$1" "$2")
    chunk_split "$@"
    rm -rf -- "$O/full.chunks" "$O/full.parts"
    mkdir -p -- "$O/full.chunks" "$O/full.parts"
    echo "${SLURM_JOB_ID:-}" > "$O/full.chunks/pass.job"
    "$CHUNK_SIM" --full -q "${CHUNK_PASS[@]}" --chunk-insts "$c" --chunk-pass "$O/full.chunks" "${CHUNK_GUEST[@]}" \
        -- "${CHUNK_PROG[@]}"
}

# pass_alive JOB: the pass job is queued or running (no JOB: not a job).
pass_alive() {
    [ -n "$1" ] && squeue -h -j "$1" -o %T 2> /dev/null | grep -qE 'PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUE'
}

# chunks_task PASS N|auto G SIM...: chunk CHUNK_TASK (a job array's task)
# into O/full.parts as soon as the pass (job PASS) has published its
# checkpoint; none when the run has fewer chunks than the array has tasks.
# It waits (polling, 0.5 s doubling to 10 s: a chunk takes minutes, a stat
# on a shared file system is cheap) while the pass runs: a task
# started with the pass holds its CPU idle until its chunk is ready, which
# is the price of starting it without a job of its own (a compute node may
# not submit jobs, and one array keeps the stitch's dependency simple).
chunks_task() {
    local pass=$1 d=$O/full.chunks k=$CHUNK_TASK f nap=5 alive count t0=$EPOCHREALTIME
    shift
    chunk_split "$@"
    f=$d/$(printf 'chunk-%06d.ckpt' "$k")
    for (( ; ; )); do
        alive=0
        ! pass_alive "$pass" || alive=1 # before looking: a pass that ends meanwhile has written all it will
        if [ "$(cat "$d/pass.job" 2> /dev/null)" == "$pass" ]; then
            [ ! -e "$f" ] || break
            count=$(sed -n 's/^  "count": \([0-9]*\),$/\1/p' "$d/chunks.json" 2> /dev/null || true)
            if [ -n "$count" ] && [ "$k" -ge "$count" ]; then
                echo "no chunk $k: the run has $count"
                return 0
            fi
        fi
        [ "$alive" == 1 ] || { echo "the pass (job $pass) ended without publishing chunk $k ($f)" >&2; return 1; }
        sleep "$((nap / 10)).$((nap % 10))" # tenths of a second
        nap=$((nap < 50 ? 2 * nap : 100))
    done
    awk -v a="$t0" -v b="$EPOCHREALTIME" -v k="$k" 'BEGIN { printf "chunk %d: its checkpoint after %.2f s\n", k, b - a }'
    "$CHUNK_SIM" --stitch --part "$k" --part-out "$O/full.parts/$k.part" "${CHUNK_OPTS[@]}" "$d"
}

# chunks_stitch N|auto G SIM...: the parts into the full run's outputs; the
# checkpoints and parts removed once it is made.
chunks_stitch() {
    chunk_split "$@"
    local status=0
    "$CHUNK_SIM" --stitch "${CHUNK_OPTS[@]}" "${CHUNK_OUTS[@]}" "$O/full.parts"/*.part || status=$?
    [ "$status" -ge 125 ] || rm -rf -- "$O/full.chunks" "$O/full.parts"
    return "$status"
}

# In a task of a chunked full run's array: chunks_task PASS... on its chunk.
engine_chunk_task() {
    local name=$1 i=$SLURM_ARRAY_TASK_ID
    shift
    CHUNK_TASK=$i engine_job tool "$name.chunks.$i" "$O/logs/$name.chunks.$i.log" "" "" chunks_task "$@"
}

# merge_regions OUT DIR: the results of a regions array's tasks (DIR/I.json)
# as one file, in the checkpoints' order, and their reports (DIR/I.md) as
# OUT's .md; the tasks' logs on stdout. One task: its files as they are;
# several: their results, without the whole-program estimate ("combined")
# and the whole-program report, which need every region in one sim: the
# report then is the tasks' reports one after the other, saying so.
merge_regions() {
    local out=$1 dir=$2 f
    python3 - "$out" "$dir" << 'PY'
import json, os, shutil, sys
out, d = sys.argv[1:]
parts = sorted((f for f in os.listdir(d) if f.endswith(".json")), key=lambda f: int(f.split(".")[0]))
if not parts:
    sys.exit("no region results from the tasks")
tmp, report = out + ".tmp", out[: -len(".json")] + ".md"
reports = [os.path.join(d, f[: -len(".json")] + ".md") for f in parts]
if all(os.path.exists(r) for r in reports):
    with open(report + ".tmp", "w") as f:
        if len(reports) > 1:
            f.write(f"# The regions in {len(reports)} Slurm tasks\n\nEach task simulated its share of the regions "
                    "and wrote its own report; the whole program's report needs every region in one sim "
                    "(--regions-per-task at least the number of regions). The tasks' reports follow.\n\n")
        for r in reports:
            f.write(open(r).read())
    os.replace(report + ".tmp", report)
if len(parts) == 1:
    shutil.copyfile(os.path.join(d, parts[0]), tmp)
else:
    docs = [json.load(open(os.path.join(d, f))) for f in parts]
    merged = {k: v for k, v in docs[0].items() if k != "combined"}
    for doc in docs[1:]:
        for k in ("tool", "version", "mode", "config", "units_per_cycle"):
            if doc.get(k) != docs[0].get(k):
                sys.exit(f"the tasks disagree on {k}")
        merged["results"] += doc["results"]
    with open(tmp, "w") as f:
        json.dump(merged, f, indent=2)
os.replace(tmp, out)
print(f"{len(parts)} task result file(s) -> {out}")
PY
    for f in $(find "$dir" -maxdepth 1 -name '*.log' -printf '%f\n' | sort -n); do
        printf '== task %s\n' "${f%.log}"
        cat "$dir/$f"
    done
}

# After the stages: nothing for a local run, or when nothing was submitted.
# Otherwise print the dependency graph and stop (--dry-run, or no --wait), or
# wait for the jobs and report the failed ones (exit 1).
engine_finish() {
    [ "$ENGINE" == slurm ] && [ ${#SUBMITTED[@]} -gt 0 ] || return 0
    local rec id dir name tasks tag deps
    log "== dependency graph (${#SUBMITTED[@]} jobs; afterok):"
    for rec in "${SUBMITTED[@]}"; do
        engine_fields "$rec"
        log "   $id  ${tag:+$tag: }$name$(array_of "$tasks")${deps:+  <- $deps}"
    done
    if [ -n "$DRY_RUN" ]; then
        log "== dry run: nothing submitted"
        exit 0
    fi
    if [ -z "$WAIT" ]; then
        log "== submitted; the same command with --wait waits for the jobs, and once they are done it prints the results"
        exit 0
    fi
    engine_wait
    engine_report || exit 1
}

# Until none of the submitted jobs is queued or running, asking squeue after
# a tenth of the time waited so far (1 s to 1 min).
engine_wait() {
    local rec ids=() pause left stuck start=$SECONDS id dir name tasks tag deps
    for rec in "${SUBMITTED[@]}"; do
        engine_fields "$rec"
        ids+=("$id")
    done
    local re
    re="^($(IFS='|'; echo "${ids[*]}"))[_ ]"
    log "== waiting for ${#ids[@]} jobs"
    while :; do
        left=$(squeue --me -h -o '%i %r') || { log "squeue failed"; exit 1; }
        left=$(grep -E "$re" <<< "$left" || true)
        [ -n "$left" ] || break
        # reasons a pending job keeps until someone changes it or the cluster
        stuck=$(grep -E ' (PartitionConfig|PartitionNodeLimit|PartitionTimeLimit|BadConstraints|InvalidAccount|InvalidQOS|DependencyNeverSatisfied)$' <<< "$left" || true)
        if [ -n "$stuck" ]; then
            log "== jobs that cannot start as submitted (job, reason): $(tr '\n' ';' <<< "$stuck")"
            log "   the partition's limits refuse them: see --slurm-opts; they are still queued (scancel them)"
            exit 1
        fi
        pause=$(((SECONDS - start) / 10))
        sleep "$((pause < 1 ? 1 : pause > 60 ? 60 : pause))"
    done
}

# Every submitted job's status file: the failed ones and those that did not run.
engine_report() {
    local rec id dir name tasks tag deps bad=0 st i who
    for rec in "${SUBMITTED[@]}"; do
        engine_fields "$rec"
        who="${tag:+$tag: }$name (job $id"
        if [ "$tasks" -eq 0 ]; then
            st=$(cat "$dir/.slurm/$name.status" 2> /dev/null || true)
            [ "$st" == ok ] && continue
            bad=$((bad + 1))
            log "$who): ${st:-did not finish: cancelled after a job it depends on failed, or stopped by Slurm; see $dir/.slurm/$name.out}"
        else
            for ((i = 0; i < tasks; i++)); do
                st=$(cat "$dir/.slurm/$name.$i.status" 2> /dev/null || true)
                [ "$st" == ok ] && continue
                bad=$((bad + 1))
                log "$who""_$i): ${st:-did not finish: cancelled after a job it depends on failed, or stopped by Slurm; see $dir/.slurm/$name.$i.out}"
            done
        fi
    done
    if [ "$bad" -gt 0 ]; then
        log "== $bad job(s) failed or did not run; the same command again submits what is missing"
        return 1
    fi
    log "== all ${#SUBMITTED[@]} jobs completed"
}
