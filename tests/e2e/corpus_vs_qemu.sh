#!/usr/bin/env bash
# Every run of the corpus of real programs (tests/corpus/programs.txt: Debian
# packages cross-built by `make corpus`) under qemu-riscv64, the oracle, and
# under bbv, each in a fresh copy of the generated inputs: stdout, stderr, the
# exit status and every file left behind (by SHA-256) must be the same.
# ONLY=regex restricts the runs to the labels matching it.
source "$(dirname "$0")/lib.sh"
source "$TOP/tests/corpus/lib.sh"
command -v "$QEMU" > /dev/null || fail "$QEMU not found"
corpus_load
corpus_inputs
corpus_left_out

failures=()
for label in "${LABELS[@]}"; do
    [ -n "${ONLY:-}" ] && ! [[ $label =~ $ONLY ]] && continue
    corpus_fresh "$T/q"
    corpus_run "$label" "$T/q" "$T/qemu" "$QEMU"
    corpus_fresh "$T/b"
    corpus_run "$label" "$T/b" "$T/bbv" "$BIN/bbv" -o "$T/prof" --interval 10M "${GUEST_ENV_OPTS[@]}" --
    [ "$(cat "$T/qemu.status")" != 124 ] || fail "$label timed out under qemu"
    ok=1
    for what in status out err files; do
        if ! cmp -s "$T/qemu.$what" "$T/bbv.$what"; then
            echo "$label: $what differs (qemu < > bbv):"
            { diff "$T/qemu.$what" "$T/bbv.$what" || true; } | head -n 8 | cut -c1-200 | sed 's/^/    /'
            ok=0
        fi
    done
    insts=$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$T/prof.summary.json" 2>/dev/null || true)
    if [ $ok = 1 ]; then
        printf 'ok   %-16s status %3s, %s instructions\n' "$label" "$(cat "$T/qemu.status")" "$insts"
    else
        failures+=("$label")
    fi
done
[ ${#failures[@]} -eq 0 ] || fail "${#failures[@]} corpus runs differ from qemu: ${failures[*]}"
echo "corpus: every run agrees with qemu"
