#!/usr/bin/env bash
# The page store (checkpoint/FORMAT.md): the checkpoints of one run keep
# their pages once in DIR/pages.store; each restores alone, exactly as a
# self-contained one does; a store that is missing, damaged or not beside
# the checkpoint is refused with one line.
source "$(dirname "$0")/lib.sh"
cd "$T"
prog=$RV/workloads/sort

"$BIN/checkpoint" -o shared --at 2M,9M,15M -- "$prog" 1 > /dev/null
"$BIN/checkpoint" -o alone --self-contained --at 2M,9M,15M -- "$prog" 1 > /dev/null
[ -f shared/pages.store ] || fail "no page store"
[ ! -e alone/pages.store ] || fail "--self-contained made a page store"
for c in shared/*.ckpt; do
    a=alone/$(basename "$c")
    "$BIN/checkpoint" --run "$c" --guest-output s.out --summary s.json
    "$BIN/checkpoint" --run "$a" --guest-output a.out --summary a.json
    cmp -s s.out a.out || fail "$c: another output than the self-contained checkpoint's"
    expect_eq "$c: instructions" "$(grep '"end"' a.json)" "$(grep '"end"' s.json)"
    expect_eq "$c: --info" "$("$BIN/checkpoint" --info "$a" | grep memory:)" "$("$BIN/checkpoint" --info "$c" | grep memory:)"
done
shared=$(cat shared/*.ckpt shared/pages.store | wc -c) alone=$(cat alone/*.ckpt | wc -c)
[ "$shared" -lt "$alone" ] || fail "shared pages take $shared bytes, self-contained $alone"
echo "ok   3 checkpoints restore from the page store as self-contained ones do ($shared bytes against $alone)"

expect_error() { # expect_error PATTERN CKPT
    set +e; "$BIN/checkpoint" --run "$2" > /dev/null 2> err.txt; local got=$?; set -e
    [ "$got" -eq 125 ] || fail "$2: exited $got, expected 125 ($(cat err.txt))"
    grep -q -- "$1" err.txt || fail "$2: '$(cat err.txt)' lacks '$1'"
    [ "$(wc -l < err.txt)" -eq 1 ] || fail "$2: more than one line: $(cat err.txt)"
}
one=$(ls shared/*.ckpt | head -n 1)
mkdir moved && cp "$one" moved/
expect_error "it must stay beside the checkpoint" "moved/$(basename "$one")"
cp -r shared damaged
# The first record (after the magic number and its head) holds the first checkpoint's first page.
printf '\xff\xff\xff\xff' | dd of=damaged/pages.store bs=1 seek=20 conv=notrunc status=none
expect_error "page store pages.store: the page at offset [0-9]* is damaged" "damaged/$(basename "$one")"
cp -r shared short
truncate -s 12 short/pages.store
expect_error "outside the store" "short/$(basename "$one")"
cp -r shared foreign
printf 'not a page store\n' > foreign/pages.store
expect_error "not a page store" "foreign/$(basename "$one")"
echo "ok   refused: a checkpoint moved without its store, a damaged, truncated or foreign store"
