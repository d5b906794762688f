#!/usr/bin/env bash
# BBV format invariants on a phase-changing workload: exact interval sums,
# dense 1-based ids, totals equal to --count-only, determinism, 10 x 1M = 10M,
# the partial interval, --max-insts and the block map.
source "$(dirname "$0")/lib.sh"
prog=$RV/workloads/phases
cd "$T"

"$BIN/bbv" -o a --interval 1M,10M -- "$prog" 1 > a.out
"$BIN/bbv" -o b --interval 1M,10M -- "$prog" 1 > b.out
"$BIN/bbv" --count-only -- "$prog" 1 > /dev/null 2> count.err
total=$(tail -n 1 count.err)
[ "$total" -gt 20000000 ] || fail "workload too short ($total instructions)"

# Determinism: identical files from two runs.
for n in 1000000 10000000; do
    cmp <(zcat a.$n.bb.gz) <(zcat b.$n.bb.gz) || fail "two runs differ for interval $n"
done
cmp a.bbmap b.bbmap || fail "block maps differ"

for n in 1000000 10000000; do
    zcat a.$n.bb.gz > a.$n.bb
    # Every full line sums to N; the partial one (after its comment) to its stated length.
    awk -v n=$n -v total=$total '
        /^# partial interval: / { partial = $4; next }
        /^T/ { s = 0; for (i = 1; i <= NF; i++) { split($i, f, ":"); s += f[3] }
               lines++; sum += s
               if (partial != "") { if (s != partial) { print "partial line sums to " s ", comment says " partial; exit 1 } }
               else if (s != n) { print "line " lines " sums to " s; exit 1 } }
        END { if (sum != total) { print "lines sum to " sum ", count-only says " total; exit 1 }
              if (partial != total % n) { print "partial " partial " != " total % n; exit 1 }
              if (lines != int(total / n) + 1) { print "expected " int(total / n) + 1 " lines, got " lines; exit 1 } }
    ' a.$n.bb || fail "interval sums wrong for N=$n"
done

# Ids: dense 1..max, 1-based, first-execution order (each new id is max seen so far + 1).
awk '/^T/ { for (i = 1; i <= NF; i++) { split($i, f, ":"); id = f[2] + 0
                if (id < 1) { print "id " id " < 1"; exit 1 }
                if (!(id in seen)) { seen[id] = 1; if (id > max) max = id } } }
     END { for (i = 1; i <= max; i++) if (!(i in seen)) { print "id " i " missing"; exit 1 }
           print max }' a.1000000.bb > ids.txt || fail "ids not dense: $(cat ids.txt)"
blocks=$(grep -vc '^#' a.bbmap)
expect_eq "blocks in bbmap vs max id" "$blocks" "$(cat ids.txt)"
# The label is symbol+offset, or the bare start pc outside every symbol
# (e.g. crt1's load_gp, an untyped label past _start's end: lib/symbols.c).
awk 'NR > 1 && ($1 != NR - 1 || $2 !~ /^0x[0-9a-f]+$/ || $3 < 1 || ($4 !~ /\+0x/ && $4 != $2)) { print "bad bbmap line " NR ": " $0; exit 1 }' a.bbmap \
    || fail "malformed bbmap"
grep -q ' main+0x' a.bbmap || fail "bbmap has no block in main"

# Ten consecutive 1M lines add up to the matching 10M line.
awk '/^T/ { line++; for (i = 1; i <= NF; i++) { split($i, f, ":"); c[int((line - 1) / 10), f[2]] += f[3] } }
     END { for (k in c) print k, c[k] }' a.1000000.bb | sed 's/\x1c/ /' | sort > from1m.txt
awk '/^T/ { line++; for (i = 1; i <= NF; i++) { split($i, f, ":"); print line - 1, f[2], f[3] } }' a.10000000.bb \
    | sort > from10m.txt
# Only compare the complete 10M intervals.
full10=$(( total / 10000000 ))
awk -v k=$full10 '$1 < k' from1m.txt > a.txt
awk -v k=$full10 '$1 < k' from10m.txt > b.txt
cmp a.txt b.txt || fail "ten 1M intervals do not add up to the 10M interval"

# --drop-partial, --max-insts and the summary.
"$BIN/bbv" -o d --interval 1M --drop-partial --no-gzip -- "$prog" 1 > /dev/null
grep -q '^# partial' d.1000000.bb && fail "--drop-partial left the partial interval"
expect_eq "lines with --drop-partial" $(( total / 1000000 )) "$(grep -c '^T' d.1000000.bb)"
"$BIN/bbv" -o m --interval 1M --max-insts 5500000 --no-gzip -- "$prog" 1 > /dev/null
sum=$(awk '/^T/ { for (i = 1; i <= NF; i++) { split($i, f, ":"); s += f[3] } } END { print s }' m.1000000.bb)
expect_eq "instructions with --max-insts" 5500000 "$sum"
expect_eq "summary instructions" 5500000 "$(sed -n 's/.*"instructions": \([0-9]*\).*/\1/p' m.summary.json)"
grep -q '"stopped_by": "max-insts"' m.summary.json || fail "summary does not say max-insts"
grep -q "\"instructions\": $total" a.summary.json || fail "summary instruction count"
echo "ok: $total instructions, $(cat ids.txt) blocks"
