#!/usr/bin/env bash
# Checkpoints of the corpus programs (the runs marked for the pipeline in
# tests/corpus/programs.txt) restore exactly: taken at three points of the
# run, each restored and run to the end gives the uninterrupted run's exit
# status, instruction total, the tail of its output and the same files.
# A checkpoint reopens the guest's files by path, so before each restore the
# directory is brought to its state at that point (a fresh copy of the
# inputs, the program run up to it with bbv --max-insts).
source "$(dirname "$0")/lib.sh"
source "$TOP/tests/corpus/lib.sh"
corpus_setup_repeatable "$T/run"

# in_dir CMD...: CMD in $T/run with the run's stdin (sets ARGV, src).
in_dir() { (cd "$T/run" && "$@" < "$src"); }

n=0
for label in "${LABELS[@]}"; do
    [ "${PIPELINE[$label]}" = yes ] || continue
    [ -n "${ONLY:-}" ] && ! [[ $label =~ $ONLY ]] && continue
    corpus_argv "$label"
    src=$(corpus_stdin_file "$label")
    prog=("$CORPUS_BIN/${PROG[$label]}" "${ARGV[@]}")

    corpus_fresh "$T/run"
    set +e
    in_dir "$BIN/bbv" -o "$T/full" --interval 100M "${GUEST_ENV_OPTS[@]}" -- "${prog[@]}" > "$T/full.out" 2>&1
    status=$?
    set -e
    [ "$status" -lt 125 ] || fail "$label: bbv failed: $(tail -n 3 "$T/full.out")"
    total=$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$T/full.summary.json" | head -n 1)
    corpus_files "$T/run" > "$T/full.files"
    points=($((total / 5)) $((total / 2 + 17)) $((total - total / 5)))

    corpus_fresh "$T/run"
    rm -rf "$T/ck"
    in_dir "$BIN/checkpoint" -o "$T/ck" --at "$(IFS=,; echo "${points[*]}")" --guest-output none \
        "${GUEST_ENV_OPTS[@]}" -- "${prog[@]}" || fail "$label: taking checkpoints failed"
    for p in "${points[@]}"; do
        ck=$(ls "$T"/ck/*-at-"$p".ckpt) || fail "$label: no checkpoint at $p"
        corpus_fresh "$T/run"
        in_dir "$BIN/bbv" --count-only --max-insts "$p" "${GUEST_ENV_OPTS[@]}" -- "${prog[@]}" > /dev/null 2>&1 || true
        set +e
        in_dir "$BIN/checkpoint" --run "$ck" --guest-output "$T/run.out" --summary "$T/run.json"
        got=$?
        set -e
        expect_eq "$label from $p: exit status" "$status" "$got"
        grep -q "\"end\": $total," "$T/run.json" ||
            fail "$label from $p: ended at $(grep -o '"end": [0-9]*' "$T/run.json"), not $total"
        size=$(stat -c %s "$T/run.out")
        tail -c "$size" "$T/full.out" | cmp -s - "$T/run.out" ||
            fail "$label from $p: the output is not the tail of the full run's"
        corpus_files "$T/run" | cmp -s "$T/full.files" - || fail "$label from $p: the files differ: $(corpus_files "$T/run" | diff "$T/full.files" - | head -n 4)"
    done
    printf 'ok   %-14s restored exactly from %s of %s instructions\n' "$label" "${points[*]}" "$total"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no corpus run was checked"
echo "corpus: checkpoints of $n programs restore exactly"
