#!/usr/bin/env bash
# The corpus results table, in Markdown on stdout (make corpus-results writes
# tests/corpus/RESULTS.md): every run of tests/corpus/programs.txt, those left
# out included, against qemu-riscv64 and, for the runs marked for it, through
# scripts/pipeline.sh; then what is unsupported and which runs need it.
# Needs `make build corpus`. Takes a few minutes.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
source "$TOP/tests/e2e/lib.sh"
CORPUS_ALL=1
source "$TOP/tests/corpus/lib.sh"
command -v "$QEMU" > /dev/null || fail "$QEMU not found"
corpus_load
corpus_pwd "$T/run"
corpus_inputs

# "srcpkg version" of each program, from the recipes and the build's list.
declare -A PACKAGE
for r in "$CORPUS"/recipes/*.sh; do
    # shellcheck disable=SC1090
    eval "$(source "$r"; echo "srcpkg=$SRCPKG programs='$PROGRAMS'")"
    version=$(awk -v p="$srcpkg" '$2 == p { print $3 }' "$TOP/build/corpus/versions.txt")
    for p in $programs; do PACKAGE[$p]="$srcpkg $version"; done
done

cell() { sed 's/|/\\|/g' <<< "$*" | tr '\n' ' ' | sed 's/ *$//'; }

echo "# Corpus results"
echo
echo "Made by \`tests/corpus/results.sh\` ($(date -u +%Y-%m-%d)) from \`tests/corpus/programs.txt\`:"
echo "Debian bookworm source packages cross-built static for riscv64 by \`make corpus\`, run on"
echo "the inputs of \`tests/corpus/make_inputs.py\`. *Against qemu*: stdout, stderr, exit status"
echo "and the files left behind, qemu-riscv64 against \`bbv\`. *Pipeline*: \`scripts/pipeline.sh\`"
echo "(bbv, simpoint MaxK 30, warm checkpoints, sim over the regions at the default core"
echo "configuration, the full detailed run, validate) with about 50 intervals; the error is the"
echo "extrapolated CPI against the full run's. Runs in *italics* are left out of \`make test\`, whole or in part (see *needs*)."
echo
echo "| run | program (package version) | instructions | against qemu | pipeline: interval, CPI error | needs |"
echo "|---|---|---:|---|---|---|"
for label in "${LABELS[@]}"; do
    prog=${PROG[$label]}
    if corpus_compare "$label" > "$T/diff.txt" 2>&1; then
        vs="agrees (status $(cat "$T/qemu.status"))"
    else
        why=$(grep -h '^bbv: ' "$T/bbv.err" | head -n 1 || true)
        vs="differs: $(grep -o '^[a-z]* differs' "$T/diff.txt" | sed 's/ differs//' | paste -sd, -)${why:+ ($why)}"
    fi
    insts=$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' "$T/prof.summary.json" 2>/dev/null | head -n 1)
    pipe=-
    if [ "${PIPELINE[$label]}" = yes ] && [ -z "${NEEDS[$label]:-}" ]; then
        if r=$(corpus_pipeline "$label" "$T/run" "$T/pl.$label" 2> /dev/null); then
            read -r interval err <<< "$r"
            pipe="$interval, $err%"
        else
            pipe="failed: $(grep -h 'FAILED\|cannot\|error' "$T/pl.$label.log" | head -n 1 | cut -c1-160)"
        fi
    fi
    name="$label"
    [ -z "${NEEDS[$label]:-}" ] || name="*$label*"
    echo "| $name | $prog (${PACKAGE[$prog]}) | ${insts:-?} | $(cell "$vs") | $(cell "$pipe") | $(cell "${NEEDS[$label]:-}") |"
done
echo
echo "## Unsupported, and the runs that need it"
echo
declare -A BY_NEED
for l in "${LEFT_OUT[@]}"; do
    need=${l#*: }
    BY_NEED[$need]="${BY_NEED[$need]:+${BY_NEED[$need]}, }${l%%: *}"
done
for need in "${!BY_NEED[@]}"; do echo "- $(cell "$need"): ${BY_NEED[$need]}"; done | sort
