#!/usr/bin/env bash
# Run every guest program (workloads at their test size, tests/progs, tests/asm)
# under qemu-riscv64 (the oracle) and under our emulator via
#     bbv -o "$T/bb" --interval 1M -- PROG ARGS
# (plus --env for each guest environment variable, see GUEST_ENV), each in
# its own fresh scratch directory as cwd, with the same environment and
# stdin, and compare stdout, stderr, the exit status (128+signal for a signal
# death) and the names of the files left in the scratch directory.
# Prints a short diff for each mismatch and fails at the end if any.
#
# QEMU_ONLY=1 runs only the qemu half (checks the table and the oracle runs).
# ONLY=regex restricts the run to the labels matching regex.
source "$(dirname "$0")/lib.sh"
ulimit -c 0                       # no core files from the signal-death tests

QEMU=${QEMU:-qemu-riscv64}
QEMU_ONLY=${QEMU_ONLY:-0}
ONLY=${ONLY:-}
TIMEOUT=${TIMEOUT:-300}

command -v "$QEMU" >/dev/null || fail "$QEMU not found"
if [ "$QEMU_ONLY" != 1 ]; then
    [ -x "$BIN/bbv" ] || fail "$BIN/bbv not built (make build)"
fi

# ---------------------------------------------------------------- inputs
# stdin for stdin_count: text with long and short lines, no final newline.
{
    for i in $(seq 1 2000); do printf 'line %d %*s\n' "$i" $((i % 97)) "x"; done
    printf 'last line without newline'
} >"$T/stdin.txt"
head -c 70000 /dev/zero | tr '\0' 'z' >"$T/stdin_noline.txt"
: >"$T/empty.txt"

# ---------------------------------------------------------------- table
# label | program (relative to $RV) | stdin (file in $T, or - for /dev/null) | args
# Args are split like a shell command line (quotes allowed).  Every program
# not listed here runs once with default arguments: workloads with "1"
# (their test size), test programs and asm programs with none.
TABLE='
exit_code_0      | progs/exit_code    | -                 | 0
exit_code_3      | progs/exit_code    | -                 | 3
exit_code_255    | progs/exit_code    | -                 | 255
exit_code_256    | progs/exit_code    | -                 | 256
exit_code__exit  | progs/exit_code    | -                 | 7 _exit
exit_code_usage  | progs/exit_code    | -                 |
argv_env         | progs/argv_env     | -                 | one "two words" "" "  lead" "tab	in" "q'"'"'uote" -x --long=val
argv_env_none    | progs/argv_env     | -                 |
stdin_count      | progs/stdin_count  | stdin.txt         |
stdin_count_big  | progs/stdin_count  | stdin_noline.txt  |
stdin_count_nul  | progs/stdin_count  | empty.txt         |
sig_alarm        | progs/sig_default  | -                 | alarm
sig_term         | progs/sig_default  | -                 | raise 15
sig_quit_core    | progs/sig_default  | -                 | raise 3
sig_usr1         | progs/sig_default  | -                 | raise 10
sig_urg_ignored  | progs/sig_default  | -                 | raise 23
sig_pipe         | progs/sig_default  | -                 | pipe
sig_pipe_ignored | progs/sig_default  | -                 | pipe-ignored
sig_blocked_segv | progs/sig_default  | -                 | blocked-segv
'

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
declare -A listed
entries=()
while IFS= read -r line; do
    [ -z "${line// /}" ] && continue
    IFS='|' read -r label prog stdin args <<<"$line"
    label=$(trim "$label"); prog=$(trim "$prog"); stdin=$(trim "$stdin")
    entries+=("$label|$prog|$stdin|$args")
    listed[$prog]=1
done <<<"$TABLE"

add_default() {   # add_default PROG ARGS
    [ -n "${listed[$1]:-}" ] || entries+=("$(basename "$1")|$1|-|$2")
}
for src in "$TOP"/workloads/*.c; do add_default "workloads/$(basename "$src" .c)" 1; done
for src in "$TOP"/tests/progs/*.c; do add_default "progs/$(basename "$src" .c)" ""; done
for src in "$TOP"/tests/asm/*.S; do add_default "asm/$(basename "$src" .S)" ""; done

# The guest's whole environment.  qemu passes its own environment to the
# guest, so it runs under `env -i` with exactly these; bbv gives the guest an
# empty environment plus its --env options (and runs under the same env -i).
GUEST_ENV=(PATH=/usr/bin:/bin LC_ALL=C E2E_ALPHA=alpha "E2E_BETA=b e t a")

# ---------------------------------------------------------------- running
# run_one WHICH LABEL PROG STDIN ARGS...: runs in $T/WHICH.LABEL/, leaves
# out, err, status and files (listing of the scratch directory) in $T/WHICH.LABEL.*
run_one() {
    local which=$1 label=$2 prog=$3 stdin=$4; shift 4
    local dir=$T/$which.$label
    mkdir "$dir"
    local cmd v
    if [ "$which" = qemu ]; then cmd=("$QEMU" "$prog"); else
        cmd=("$BIN/bbv" -o "$T/bb" --interval 1M)
        for v in "${GUEST_ENV[@]}"; do cmd+=(--env "$v"); done
        cmd+=(-- "$prog")
    fi
    set +e
    # The subshell (not exec'd) reports a signal death with its exit status
    # 128+N; its own "Aborted"/"Segmentation fault" notice goes to /dev/null.
    (cd "$dir" && env -i "${GUEST_ENV[@]}" \
        timeout "$TIMEOUT" "${cmd[@]}" "$@" <"$stdin" >"$dir.out" 2>"$dir.err") 2>/dev/null
    echo $? >"$dir.status"
    set -e
    local st; st=$(cat "$dir.status")
    if [ "$which" = qemu ]; then       # qemu's own report of a guest signal death
        grep -v '^qemu: uncaught target signal' "$dir.err" >"$dir.err2" || true
        mv "$dir.err2" "$dir.err"
    else
        # bbv says why the guest died by a signal: exactly one line, naming the
        # status; and nothing of its own otherwise. (Whether it was a signal
        # comes from bbv's summary; the status itself is compared with qemu's.)
        local want=0 got
        grep -q '"stopped_by": "signal"' "$T/bb.summary.json" && want=1
        got=$(grep -c "^bbv: guest .* (exit status $st)\$" "$dir.err" || true)
        [ "$got" = "$want" ] || echo "$label: expected $want line(s) from bbv about a signal death, got: $(cat "$dir.err")" >"$dir.report"
        grep -v "^bbv: guest .* (exit status $st)\$" "$dir.err" >"$dir.err2" || true
        mv "$dir.err2" "$dir.err"
    fi
    (cd "$dir" && find . -mindepth 1 | sort) >"$dir.files"
}

short_diff() {    # short_diff WHAT A B
    echo "  $1 differs (qemu vs bbv):"
    { diff "$2" "$3" || true; } | head -n 12 | sed "s/^/    /"
}

failures=()
n=0
for e in "${entries[@]}"; do
    IFS='|' read -r label prog stdin args <<<"$e"
    [ -n "$ONLY" ] && ! [[ $label =~ $ONLY ]] && continue
    path=$RV/$prog
    [ -x "$path" ] || fail "$path not built (make rv-programs)"
    if [ "$stdin" = - ]; then stdin=/dev/null; else stdin=$T/$stdin; fi
    argv=()
    eval "argv=($args)"           # shell-style splitting of the table's args
    n=$((n + 1))

    run_one qemu "$label" "$path" "$stdin" "${argv[@]}"
    qs=$(cat "$T/qemu.$label.status")
    if [ "$QEMU_ONLY" = 1 ]; then
        printf '%-18s qemu status %3s, stdout %5d lines, stderr %3d lines, files %d\n' "$label" \
            "$qs" "$(wc -l <"$T/qemu.$label.out")" "$(wc -l <"$T/qemu.$label.err")" \
            "$(wc -l <"$T/qemu.$label.files")"
        [ "$qs" = 124 ] && failures+=("$label (qemu timed out)")
        continue
    fi

    run_one bbv "$label" "$path" "$stdin" "${argv[@]}"
    bs=$(cat "$T/bbv.$label.status")
    ok=1
    if [ -e "$T/bbv.$label.report" ]; then
        cat "$T/bbv.$label.report"; ok=0
    fi
    if [ "$qs" != "$bs" ]; then
        echo "$label: exit status differs: qemu $qs, bbv $bs"; ok=0
    fi
    for what in out err files; do
        if ! cmp -s "$T/qemu.$label.$what" "$T/bbv.$label.$what"; then
            [ $ok = 1 ] && echo "$label: mismatch"
            short_diff "$what" "$T/qemu.$label.$what" "$T/bbv.$label.$what"; ok=0
        fi
    done
    if [ $ok = 1 ]; then echo "ok   $label (status $qs)"; else failures+=("$label"); fi
done

[ "$n" -gt 0 ] || fail "no program matched"
if [ "$QEMU_ONLY" = 1 ]; then
    [ ${#failures[@]} -eq 0 ] || fail "qemu: ${failures[*]}"
    echo "qemu half only: $n programs ran"
    exit 0
fi
if [ ${#failures[@]} -gt 0 ]; then
    fail "${#failures[@]} of $n programs differ: ${failures[*]}"
fi
echo "all $n programs agree"
