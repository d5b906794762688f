#!/usr/bin/env bash
# simpoint on generated BBVs with a known phase structure: the right k, the
# right labels (up to renaming), and well-formed SimPoint 3.2 output files.
source "$(dirname "$0")/lib.sh"
SP=$BIN/simpoint
gcc -std=c11 -D_GNU_SOURCE -O2 "$TOP/bench/gen_bb.c" -o "$T/gen_bb" -lz

# same_partition TRUTH LABELS: every true phase maps to one label and back
same_partition() {
    paste -d' ' "$1" "$2" | awk '{ if (($1 in f) && f[$1] != $2) bad = 1; if (($2 in b) && b[$2] != $1) bad = 1;
                                   f[$1] = $2; b[$2] = $1 } END { exit bad }'
}

for phases in 3 7; do
    "$T/gen_bb" -n 1200 -b 6000 -p $phases -m 80 -l 1000000 -s $phases -t "$T/truth" -o "$T/p.bb"
    n=$(wc -l < "$T/truth")
    "$SP" -loadFVFile "$T/p.bb" -maxK 15 -initkm ff -saveSimpoints "$T/p.sp" \
        -saveSimpointWeights "$T/p.w" -saveLabels "$T/p.l" -json "$T/p.json"
    expect_eq "clusters for $phases phases" "$phases" "$(wc -l < "$T/p.sp")"
    expect_eq "labels lines" "$n" "$(wc -l < "$T/p.l")"
    cut -d' ' -f1 "$T/p.l" > "$T/labels"
    same_partition "$T/truth" "$T/labels" || fail "$phases phases: labels do not match the phases"
    # .simpoints: "<interval> <cluster>", intervals in range, clusters ascending
    awk -v n="$n" 'NF != 2 || $1 !~ /^[0-9]+$/ || $1 >= n || $2 !~ /^[0-9]+$/ || (NR > 1 && $2 <= prev) { exit 1 } { prev = $2 }' \
        "$T/p.sp" || fail "bad .simpoints shape"
    # each simulation point's label is its cluster
    while read -r iv cl; do
        expect_eq "label of interval $iv" "$cl" "$(sed -n "$((iv + 1))p" "$T/labels")"
    done < "$T/p.sp"
    # .weights: "<weight> <cluster>", same clusters, sum 1 within 1e-5; weight = share of intervals
    expect_eq "weights clusters" "$(cut -d' ' -f2 "$T/p.sp")" "$(cut -d' ' -f2 "$T/p.w")"
    awk '{ s += $1 } END { exit !(s > 0.99999 && s < 1.00001) }' "$T/p.w" || fail "weights do not sum to 1"
    while read -r w cl; do
        share=$(awk -v c="$cl" -v n="$n" '$1 == c { m++ } END { printf "%g", m / n }' "$T/labels")
        expect_eq "weight of cluster $cl" "$share" "$w"
    done < "$T/p.w"
    grep -q "\"chosen_k\": $phases," "$T/p.json" || fail "JSON chosen_k"
done

# The default initialisation (samp, 5 restarts) on 3 clear phases.
"$T/gen_bb" -n 600 -b 3000 -p 3 -m 60 -s 9 -t "$T/truth" -o "$T/q.bb"
"$SP" -loadFVFile "$T/q.bb" -maxK 10 -saveSimpoints "$T/q.sp" -saveLabels "$T/q.l"
expect_eq "samp clusters" 3 "$(wc -l < "$T/q.sp")"
cut -d' ' -f1 "$T/q.l" > "$T/labels"
same_partition "$T/truth" "$T/labels" || fail "samp: labels do not match the phases"
echo "simpoint_known: ok"
