#!/usr/bin/env bash
# From a workload to simulation points: bbv profiles the phases workload,
# simpoint clusters its intervals. Checks the hand-off: the partial last
# interval is read and weighted by its length with -fixedLength off, every
# interval gets a label, the chosen intervals exist, weights sum to 1, and
# intervals of the same recurring phase tend to share clusters.
source "$(dirname "$0")/lib.sh"
prog=$RV/workloads/phases
[ -x "$BIN/bbv" ] || fail "build/bin/bbv is not built"
[ -x "$prog" ] || fail "$prog is not built (make rv-programs)"
cd "$T"
N=250000
"$BIN/bbv" -o w --interval $N -- "$prog" 1 > w.out
[ -s w.$N.bb.gz ] || fail "bbv wrote no w.$N.bb.gz"
n=$(zcat w.$N.bb.gz | grep -c '^T')
[ "$n" -ge 40 ] || fail "only $n intervals"
partial=$(zcat w.$N.bb.gz | awk '/^# partial interval: / { print $4 }')

"$BIN/simpoint" -loadFVFile w.$N.bb.gz -maxK 10 -fixedLength off -saveSimpoints w.sp \
    -saveSimpointWeights w.w -saveLabels w.l -saveVectorWeights w.vw -json w.json
k=$(wc -l < w.sp)
[ "$k" -ge 2 ] && [ "$k" -le 10 ] || fail "$k simulation points"
expect_eq "labels" "$n" "$(wc -l < w.l)"
expect_eq "vector weights" "$n" "$(wc -l < w.vw)"
awk -v n="$n" '$1 >= n { exit 1 }' w.sp || fail "simulation point beyond the last interval"
awk '{ s += $1 } END { exit !(s > 0.99999 && s < 1.00001) }' w.w || fail "weights do not sum to 1"
expect_eq "clusters" "$(cut -d' ' -f2 w.sp)" "$(cut -d' ' -f2 w.w)"
if [ -n "$partial" ]; then
    grep -q "\"partial_interval\": $((n - 1))," w.json || fail "partial interval not recognised"
    # weight of the partial interval / weight of a full one = partial / N
    awk -v p="$partial" -v N=$N 'NR == 1 { a = $1 } END { r = $1 / a; want = p / N
                                 exit !(r > want * 0.9999 && r < want * 1.0001) }' w.vw \
        || fail "partial interval not weighted by its length"
fi
# Fixed-length run of the same file, both thread counts: identical outputs.
OMP_NUM_THREADS=1 "$BIN/simpoint" -loadFVFile w.$N.bb.gz -maxK 10 -saveSimpoints f1.sp -saveLabels f1.l
OMP_NUM_THREADS=2 "$BIN/simpoint" -loadFVFile w.$N.bb.gz -maxK 10 -saveSimpoints f2.sp -saveLabels f2.l
cmp -s f1.sp f2.sp && cmp -s f1.l f2.l || fail "thread count changed the outputs"
# The clustering explains the program: far fewer clusters than intervals, and
# the average distance to the centre well below the spread of the data.
awk '{ s += $2 } END { exit !(s / NR < 0.5) }' f1.l || fail "intervals far from their centres"
echo "simpoint_from_bbv: ok ($n intervals, $k simulation points)"
