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
    if corpus_compare "$label" > "$T/diff.txt"; then
        printf 'ok   %-16s status %3s, %s instructions\n' "$label" "$(cat "$T/qemu.status")" \
            "$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$T/prof.summary.json")"
    else
        sed "s/^/$label: /" "$T/diff.txt"
        failures+=("$label")
    fi
done
[ ${#failures[@]} -eq 0 ] || fail "${#failures[@]} corpus runs differ from qemu: ${failures[*]}"
echo "corpus: every run agrees with qemu"
