# Sourced by the corpus tests and tests/corpus/results.sh (after tests/e2e/lib.sh):
# the table of runs (programs.txt), their inputs, and running one of them.
CORPUS=$TOP/tests/corpus
CORPUS_BIN=$TOP/build/corpus/bin
# The table of runs: programs.txt (make test's), or with CORPUS_LIST=eval.txt
# the evaluation set's (tests/corpus/SPLIT.md; built by build.sh --eval,
# inputs from make_inputs.py --eval), with CORPUS_LIST=tuning-extra.txt the
# tuning set's later additions' (build.sh and make_inputs.py --tuning-extra).
CORPUS_LIST=${CORPUS_LIST:-programs.txt}
QEMU=${QEMU:-qemu-riscv64}
TIMEOUT=${TIMEOUT:-300}
source "$CORPUS/guest_env.sh"

# corpus_setup_repeatable DIR: the table, the inputs, the runs left out
# listed, and PWD set for runs that must repeat exactly in DIR.
corpus_setup_repeatable() {
    corpus_load
    corpus_pwd "$1"
    corpus_inputs
    corpus_left_out
}

# corpus_load: LABELS (in table order) and PROG, STDIN, ARGS, PIPELINE by
# label; LEFT_OUT, "label: what it needs" for each row left out ("#-" rows,
# and "yes" in PIPELINE becomes "no" when the pipeline part is left out).
# With CORPUS_ALL=1 the rows left out are loaded too, and NEEDS says why.
# UNCOMPARED: by label, a file whose size but not bytes is compared with qemu's
# (a last column "bytes not compared: FILE (why)").
declare -A PROG STDIN ARGS PIPELINE NEEDS UNCOMPARED
LABELS=()
LEFT_OUT=()
corpus_load() {
    local line label prog stdin args pipe needs t
    while IFS= read -r line; do
        [[ $line =~ ^[[:space:]]*$ || $line =~ ^#[^-] || $line == "#" ]] && continue
        IFS='|' read -r label prog stdin args pipe needs <<< "${line#\#-}"
        for t in label prog stdin pipe needs; do
            printf -v "$t" '%s' "$(echo "${!t}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')"
        done
        if [[ $line == \#-* ]]; then
            LEFT_OUT+=("$label: ${needs:-?}")
            [ "${CORPUS_ALL:-}" = 1 ] || continue
            NEEDS[$label]=$needs
        fi
        if [[ $pipe == "left out:"* ]]; then
            LEFT_OUT+=("$label (pipeline): ${pipe#left out: }")
            NEEDS[$label]=${NEEDS[$label]:-${pipe#left out: }}
            pipe=no
        fi
        if [[ $line != \#-* && $needs == "bytes not compared: "* ]]; then
            needs=${needs#bytes not compared: }
            UNCOMPARED[$label]=${needs%% *}
        fi
        [ -x "$CORPUS_BIN/$prog" ] || fail "$CORPUS_BIN/$prog is not built (make corpus)"
        LABELS+=("$label")
        PROG[$label]=$prog STDIN[$label]=$stdin ARGS[$label]=$args PIPELINE[$label]=$pipe
    done < "$CORPUS/$CORPUS_LIST"
    [ ${#LABELS[@]} -gt 0 ] || fail "no runs in $CORPUS/$CORPUS_LIST"
}

# corpus_left_out: say which runs are left out and what they need.
corpus_left_out() {
    local l
    for l in "${LEFT_OUT[@]}"; do echo "left out: $l"; done
}

# corpus_inputs: the generated inputs, once, in $T/inputs.
corpus_inputs() {
    local opt=()
    case $CORPUS_LIST in
    eval.txt) opt=(--eval) ;;
    tuning-extra.txt) opt=(--tuning-extra) ;;
    esac
    [ -d "$T/inputs" ] || python3 "$CORPUS/make_inputs.py" "${opt[@]}" "$T/inputs"
}

# corpus_fresh DIR: DIR afresh, holding a copy of the inputs.
corpus_fresh() {
    rm -rf "$1"
    cp -a "$T/inputs" "$1"
}

# corpus_argv LABEL: ARGV, the run's arguments split as a shell would.
corpus_argv() {
    eval "ARGV=(${ARGS[$1]})"
}

# corpus_stdin_file LABEL: the file behind the run's stdin (/dev/null for none).
corpus_stdin_file() {
    local s=${STDIN[$1]#pipe:}
    if [ "$s" = - ]; then echo /dev/null; else echo "$T/inputs/$s"; fi
}

# corpus_run LABEL DIR OUT RUNNER...: run LABEL's program in DIR (its cwd)
# under RUNNER (e.g. qemu-riscv64, or bbv ... --), its stdin as the table
# says (a pipe for pipe:FILE). Leaves OUT.out, OUT.err, OUT.status, and
# OUT.files: every file left in DIR with its SHA-256 (FIFOs by name).
corpus_run() {
    local label=$1 dir=$2 out=$3
    shift 3
    local ARGV src
    corpus_argv "$label"
    src=$(corpus_stdin_file "$label")
    set +e
    if [[ ${STDIN[$label]} == pipe:* ]]; then
        (set +o pipefail; cd "$dir" && cat "$src" | env -i "${GUEST_ENV[@]}" timeout "$TIMEOUT" \
            "$@" "$CORPUS_BIN/${PROG[$label]}" "${ARGV[@]}" > "$out.out" 2> "$out.err") 2> /dev/null
    else
        (cd "$dir" && env -i "${GUEST_ENV[@]}" timeout "$TIMEOUT" \
            "$@" "$CORPUS_BIN/${PROG[$label]}" "${ARGV[@]}" < "$src" > "$out.out" 2> "$out.err") 2> /dev/null
    fi
    echo $? > "$out.status"
    set -e
    corpus_files "$dir" > "$out.files"
}

# corpus_files DIR: every file in DIR with its SHA-256 (FIFOs by name), sorted.
corpus_files() {
    (cd "$1" && find . -mindepth 1 -type p -printf '%p fifo\n' &&
        find . -mindepth 1 -type f -exec sha256sum {} + | awk '{ print $2, $1 }') | sort
}

# corpus_total LABEL DIR: the run's instruction count (bbv, in DIR afresh).
corpus_total() {
    local ARGV
    corpus_argv "$1"
    corpus_fresh "$2"
    (cd "$2" && "$BIN/bbv" --count-only -- "$CORPUS_BIN/${PROG[$1]}" "${ARGV[@]}" \
        < "$(corpus_stdin_file "$1")" 2>&1 > /dev/null | tail -n 1)
}

# corpus_interval TOTAL: the interval for a run of TOTAL instructions: about
# 50 intervals (a multiple of 100k), so that short programs have enough.
corpus_interval() {
    local n=$(($1 / 50 / 100000 * 100000))
    echo $((n < 100000 ? 100000 : n))
}

# corpus_pipeline LABEL DIR OUT: scripts/pipeline.sh on the run, at its
# defaults (MaxK 30, warm checkpoints, the default core) but for the interval
# (corpus_interval), stdin from its file, the program in DIR (a fresh copy of
# the inputs), the results in OUT, the full run kept in PIPELINE_CACHE if set
# (pipeline.sh --cache); prints the interval and the CPI error in percent.
# Fails when a stage fails.
corpus_pipeline() {
    local label=$1 dir=$2 out=$3 ARGV interval
    corpus_argv "$label"
    interval=$(corpus_interval "$(corpus_total "$label" "$dir")")
    corpus_fresh "$dir"
    (cd "$dir" && BIN=$BIN "$TOP/scripts/pipeline.sh" -o "$out" -n "$label" -i "$interval" \
        ${PIPELINE_CACHE:+--cache "$PIPELINE_CACHE"} --stdin "$(corpus_stdin_file "$label")" "${GUEST_ENV_OPTS[@]}" \
        -- "$CORPUS_BIN/${PROG[$label]}" "${ARGV[@]}") \
        > "$out.log" 2>&1 || { sed 's/^/    /' "$out.log" | tail -n 25 >&2; return 1; }
    awk -F, -v n="$interval" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "error_pct") c = i }
        NR == 2 { printf "%d %.2f\n", n, $c }' "$out/validate/summary.csv"
}

# corpus_compare LABEL: the run under qemu and under bbv, each in a fresh copy
# of the inputs; prints what differs (status, out, err, files: a short diff
# each) and fails, or prints nothing. Leaves $T/qemu.* and $T/bbv.* (and
# bbv's $T/prof.summary.json).
corpus_compare() {
    local label=$1 what ok=0
    rm -f "$T/prof.summary.json"
    corpus_fresh "$T/q"
    corpus_run "$label" "$T/q" "$T/qemu" "$QEMU"
    corpus_fresh "$T/b"
    corpus_run "$label" "$T/b" "$T/bbv" "$BIN/bbv" -o "$T/prof" --interval 10M "${GUEST_ENV_OPTS[@]}" --
    [ "$(cat "$T/qemu.status")" != 124 ] || { echo "timed out under qemu"; return 1; }
    # bbv's own note on how the guest ended is not the guest's output.
    sed -i '/^bbv: guest terminated by signal [0-9]* (.*) (exit status [0-9]*)$/d' "$T/bbv.err"
    local f=${UNCOMPARED[$label]:-}
    if [ -n "$f" ]; then  # its size instead of its bytes
        sed -i "s|^\./$f [0-9a-f]*\$|./$f size $(stat -c %s "$T/q/$f" 2>/dev/null)|" "$T/qemu.files"
        sed -i "s|^\./$f [0-9a-f]*\$|./$f size $(stat -c %s "$T/b/$f" 2>/dev/null)|" "$T/bbv.files"
    fi
    for what in status out err files; do
        if ! cmp -s "$T/qemu.$what" "$T/bbv.$what"; then
            echo "$what differs (qemu < > bbv):"
            { diff "$T/qemu.$what" "$T/bbv.$what" || true; } | head -n 8 | cut -c1-200 | sed 's/^/    /'
            ok=1
        fi
    done
    return $ok
}
