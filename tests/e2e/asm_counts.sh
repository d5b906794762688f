#!/usr/bin/env bash
# For every tests/asm/*.S program (hand-written, exactly known retired-
# instruction count): `bbv --count-only -- PROG` must print, as the last line
# of its stderr, exactly the count given on the "# expect-insts: N" line, and
# exit with the "# expect-status: S" status; qemu-riscv64 must give the same
# status.  QEMU_ONLY=1 checks only the qemu statuses.
source "$(dirname "$0")/lib.sh"

QEMU=${QEMU:-qemu-riscv64}
QEMU_ONLY=${QEMU_ONLY:-0}
if [ "$QEMU_ONLY" != 1 ]; then
    [ -x "$BIN/bbv" ] || fail "$BIN/bbv not built (make build)"
fi

n=0
for src in "$TOP"/tests/asm/*.S; do
    name=$(basename "$src" .S)
    prog=$RV/asm/$name
    [ -x "$prog" ] || fail "$prog not built (make rv-programs)"
    want_insts=$(sed -n 's/^# expect-insts: *\([0-9][0-9]*\) *$/\1/p' "$src")
    want_status=$(sed -n 's/^# expect-status: *\([0-9][0-9]*\) *$/\1/p' "$src")
    [ -n "$want_insts" ] || fail "$src: no '# expect-insts: N' line"
    [ -n "$want_status" ] || fail "$src: no '# expect-status: S' line"

    set +e
    (cd "$T" && "$QEMU" "$prog" >/dev/null 2>&1) 2>/dev/null
    qs=$?
    set -e
    expect_eq "$name: qemu exit status" "$want_status" "$qs"

    if [ "$QEMU_ONLY" != 1 ]; then
        set +e
        (cd "$T" && "$BIN/bbv" --count-only -- "$prog" >"$T/$name.out" 2>"$T/$name.err") 2>/dev/null
        bs=$?
        set -e
        expect_eq "$name: bbv exit status" "$want_status" "$bs"
        last=$(tail -n 1 "$T/$name.err")
        expect_eq "$name: bbv --count-only (last line of stderr)" "$want_insts" "$last"
    fi
    echo "ok   $name: $want_insts instructions, status $want_status"
    n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "expected at least 5 asm programs, found $n"
echo "all $n asm programs: counts and statuses as expected"
