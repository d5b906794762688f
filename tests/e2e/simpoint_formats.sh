#!/usr/bin/env bash
# The same intervals written as our/SimPoint .bb, Valgrind exp-bbv, gem5 and
# QEMU's bbv plugin (0-based, unsorted ids), plain and gzip, give the same
# simulation points and weights.
source "$(dirname "$0")/lib.sh"
SP=$BIN/simpoint
gcc -std=c11 -D_GNU_SOURCE -O2 "$TOP/bench/gen_bb.c" -o "$T/gen_bb" -lz

for f in simpoint valgrind gem5 qemu; do
    "$T/gen_bb" -n 400 -b 2000 -p 5 -m 60 -l 100000 -f $f -o "$T/$f.bb"
    "$SP" -loadFVFile "$T/$f.bb" -maxK 8 -saveSimpoints "$T/$f.sp" -saveSimpointWeights "$T/$f.w" \
        -saveLabels "$T/$f.l" -json "$T/$f.json"
done
grep -q '^T:[0-9]*:[0-9]*   :' "$T/valgrind.bb" || fail "generator: no valgrind spacing"
grep -q '^# Thread 1' "$T/valgrind.bb" || fail "generator: no valgrind trailer"
grep -q '"zero_based_ids": true' "$T/qemu.json" || fail "QEMU ids not seen as 0-based"
for f in valgrind gem5 qemu; do
    cmp -s "$T/simpoint.sp" "$T/$f.sp" || fail "$f: different .simpoints"
    cmp -s "$T/simpoint.w" "$T/$f.w" || fail "$f: different .weights"
    expect_eq "$f labels" "$(cut -d' ' -f1 "$T/simpoint.l")" "$(cut -d' ' -f1 "$T/$f.l")"
done
# Same ids, same order (only spacing/comments differ): labels identical to the byte.
cmp -s "$T/simpoint.l" "$T/valgrind.l" || fail "valgrind: different .labels"

# gzip, detected by content; -inputVectorsGzipped is accepted either way
gzip -c "$T/simpoint.bb" > "$T/z.bb.gz"
"$SP" -loadFVFile "$T/z.bb.gz" -inputVectorsGzipped -maxK 8 -saveSimpoints "$T/z.sp" -saveLabels "$T/z.l"
cmp -s "$T/simpoint.sp" "$T/z.sp" || fail "gzip: different .simpoints"
cmp -s "$T/simpoint.l" "$T/z.l" || fail "gzip: different .labels"
cp "$T/z.bb.gz" "$T/zz"
"$SP" -loadFVFile "$T/zz" -maxK 8 -saveSimpoints "$T/zz.sp"
cmp -s "$T/simpoint.sp" "$T/zz.sp" || fail "gzip without .gz name"
# stdin
"$SP" -loadFVFile - -maxK 8 -saveSimpoints "$T/in.sp" < "$T/simpoint.bb"
cmp -s "$T/simpoint.sp" "$T/in.sp" || fail "stdin"

# PinPoints-style marker lines and comments are skipped; CRLF line ends are fine
awk 'NR == 1 { print "I: 0"; print "P: 0"; print "C: sum:dummy Command:prog" }
     { print "# Slice ending at " NR * 100000; print; print "S: 0x1000 1 img 0 + 0 # f.c:1" }' \
    "$T/simpoint.bb" > "$T/pin.bb"
sed 's/$/\r/' "$T/simpoint.bb" > "$T/crlf.bb"
for f in pin crlf; do
    "$SP" -loadFVFile "$T/$f.bb" -maxK 8 -saveSimpoints "$T/$f.sp" -saveLabels "$T/$f.l"
    cmp -s "$T/simpoint.sp" "$T/$f.sp" || fail "$f: different .simpoints"
    cmp -s "$T/simpoint.l" "$T/$f.l" || fail "$f: different .labels"
done
echo "simpoint_formats: ok"
