#!/usr/bin/env bash
# bbv --proxy and the simpoint methods that use it:
#  - bbv --proxy writes the same .bb files and block map as plain bbv, byte
#    for byte (phase-changing workloads, signal handlers, timers, faults,
#    code written at run time; small intervals put boundaries inside blocks),
#    and the same exit status;
#  - the .proxy file has one line per .bb line, each interval's length, and
#    per-interval counts that add up to the whole run's (counted in a separate
#    run with one interval longer than the program); with long intervals
#    (the warming thread) it is the same as with one thread;
#  - checkpoint --warm's manifest counts what the model met, as the .proxy
#    lines up to its last checkpoint do;
#  - the long-latency operations (multiply, divide, FP) a whole run counts
#    are those of its blocks as GNU objdump disassembles them, times the
#    blocks' executions in the .bb file; their exposed cycles add up across
#    intervals to the whole run's;
#  - --select-by proxy keeps every representative in its cluster, --stratify
#    writes consistent files within 1.2x the points, and validate accepts them;
#  - bad input: one line, non-zero status, no output.
source "$(dirname "$0")/lib.sh"
cd "$T"
CFG=$TOP/configs/boom-tip.ini

for run in "workloads/phases 1" "workloads/interp 1" "progs/sig_timers" "progs/sig_handlers" "progs/sig_faults" \
           "progs/segfault" "progs/self_modify" "progs/mprotect"; do
    set -- $run
    prog=$RV/$1
    shift
    name=$(basename "$prog")
    s1=0 s2=0
    "$BIN/bbv" -o f.$name -i 1000,100k -- "$prog" "$@" > f.$name.out 2>&1 || s1=$?
    "$BIN/bbv" -o p.$name -i 1000,100k --proxy "$CFG" -- "$prog" "$@" > p.$name.out 2>&1 || s2=$?
    expect_eq "$name: exit status with --proxy" "$s1" "$s2"
    for n in 1000 100000; do
        cmp <(zcat f.$name.$n.bb.gz) <(zcat p.$name.$n.bb.gz) || fail "$name: the .bb files differ at $n"
        # one proxy line per .bb line, each as long as its interval
        zcat p.$name.$n.bb.gz | awk '/^T/ { s = 0; for (i = 1; i <= NF; i++) { split($i, f, ":"); s += f[3] }; print s }' > bb.len
        awk -F'\t' '/^[0-9]/ { print $2 }' p.$name.$n.proxy > px.len
        cmp bb.len px.len || fail "$name: .proxy intervals do not match the .bb lines at $n"
    done
    cmp f.$name.bbmap p.$name.bbmap || fail "$name: the block maps differ"
    echo "ok   $name: .bb, .bbmap and exit status as the fast path's; .proxy lines match"
done

# Per-interval counts add up to the whole run's (a run with one interval).
"$BIN/bbv" -o whole -i 1G --proxy "$CFG" -- "$RV/workloads/phases" 1 > /dev/null
python3 - p.phases.100000.proxy p.phases.1000.proxy whole.1000000000.proxy <<'PY' || fail "per-interval sums"
import sys
def rows(path):
    lines = [l.rstrip("\n").split("\t") for l in open(path) if not l.startswith("#")]
    head, body = lines[0], lines[1:]
    return head, [dict(zip(head, r)) for r in body]
head, whole = rows(sys.argv[3])
assert len(whole) == 1
counts = head[1:10] + ["int_muls", "int_divs", "fp_ops", "fp_divs"]  # instructions .. mispredicts, operations
for path in sys.argv[1:3]:
    _, r = rows(path)
    for c in counts:
        s = sum(int(x[c]) for x in r)
        assert s == int(whole[0][c]), f"{path}: {c} sums to {s}, the whole run has {whole[0][c]}"
    assert all(float(x["proxy_cpi"]) >= 1 and float(x["long_cpi"]) >= 0 for x in r)
    # the exposure model runs on across intervals: their exposed cycles are the whole run's
    # (but for the 6-decimal rounding of each line)
    cyc = sum(float(x["exposed_cpi"]) * int(x["instructions"]) for x in r)
    whole_cyc = float(whole[0]["exposed_cpi"]) * int(whole[0]["instructions"])
    assert abs(cyc - whole_cyc) <= 1e-6 * int(whole[0]["instructions"]) + 0.5e-6 * sum(int(x["instructions"]) for x in r), \
        f"{path}: exposed cycles {cyc}, the whole run's {whole_cyc}"
print("ok   per-interval counts add up to the whole run's:",
      ", ".join(f"{c} {whole[0][c]}" for c in counts))
PY
# The long-latency operations of whole runs, against objdump's reading of
# the blocks they ran (the .bbmap's start and length, the .bb's instructions
# per block): an independent decoder for the classes.
for w in int_compute stencil fp_flags; do
    "$BIN/bbv" -o ops.$w -i 1G --proxy "$CFG" -- "$RV/workloads/$w" 1 > /dev/null
    riscv64-linux-gnu-objdump -d -M no-aliases "$RV/workloads/$w" > ops.$w.dis
    python3 - ops.$w <<'PY' || fail "$w: long-latency operations against objdump"
import gzip, re, sys
pre = sys.argv[1]
addrs, mnem = [], {}
for l in open(pre + ".dis"):
    m = re.match(r"\s+([0-9a-f]+):\t[0-9a-f ]+\t(\S+)", l)
    if m:
        a = int(m.group(1), 16)
        addrs.append(a)
        mnem[a] = m.group(2)
addrs.sort()
index = {a: i for i, a in enumerate(addrs)}
blocks = {}
for l in open(pre + ".bbmap"):
    if not l.startswith("#"):
        f = l.split()
        blocks[int(f[0])] = (int(f[1], 16), int(f[2]))
def group(m):
    if m in ("mul", "mulh", "mulhsu", "mulhu", "mulw"):
        return "int_muls"
    if re.match(r"(div|rem)u?w?$", m):
        return "int_divs"
    if m.startswith(("fdiv.", "fsqrt.")):
        return "fp_divs"
    if m.startswith("f") and not m.startswith("fence") and m not in ("fld", "flw", "fsd", "fsw", "flh", "fsh"):
        return "fp_ops"
    return None
want = dict.fromkeys(("int_muls", "int_divs", "fp_ops", "fp_divs"), 0)
line = [l for l in gzip.open(f"{pre}.1000000000.bb.gz", "rt") if l.startswith("T")]
assert len(line) == 1
for tok in line[0][1:].split():
    _, b, c = tok.split(":")
    start, n = blocks[int(b)]
    assert int(c) % n == 0, f"block {b}: {c} instructions, not whole runs of its {n}"
    i = index[start]
    for a in addrs[i:i + n]:
        g = group(mnem[a])
        if g:
            want[g] += int(c) // n
rows = [l.rstrip("\n").split("\t") for l in open(f"{pre}.1000000000.proxy") if not l.startswith("#")]
got = dict(zip(rows[0], rows[1]))
for g, v in want.items():
    assert int(got[g]) == v, f"{g}: bbv counts {got[g]}, objdump's blocks {v}"
assert float(got["long_cpi"]) > 0
assert float(got["exposed_cpi"]) > 0, "exposed_cpi: chains, the divider or flushes expose nothing"
print(f"ok   {pre[4:]}: the long-latency operations are objdump's:", ", ".join(f"{g} {v}" for g, v in want.items()))
PY
done
# When a run's shortest intervals are 100k instructions or more, the
# predictor, the TLBs, the L2 and the LLC train on a second thread, the model brought up to
# date at each interval's end; the file is the same as with one thread (and
# the whole run above, threaded, has the sums of the 1000,100k runs, which
# are not).
"$BIN/bbv" -o t2 -i 2M --proxy "$CFG" -- "$RV/workloads/phases" 1 > /dev/null
OMP_NUM_THREADS=1 "$BIN/bbv" -o t1 -i 2M --proxy "$CFG" -- "$RV/workloads/phases" 1 > /dev/null
cmp t1.2000000.proxy t2.2000000.proxy || fail "a .proxy file differs with and without the warming thread"
expect_eq "intervals of 2M" "$(grep -c '^[0-9]' t2.2000000.proxy)" 13
echo "ok   2M intervals: the same .proxy with and without the warming thread"
# checkpoint --warm reports what its model met over the prefix it warmed: the
# misses the 2M intervals above count up to its last checkpoint, translated
# and interpreted alike.
for mode in on off; do
    RVSAMPLE_JIT=$mode "$BIN/checkpoint" -o ck_$mode --warm "$CFG" --at 2M,6M --guest-output none -- \
        "$RV/workloads/phases" 1 > /dev/null || fail "checkpoint --warm (jit $mode)"
done
python3 - ck_on/checkpoints.json ck_off/checkpoints.json t2.2000000.proxy <<'PY' || fail "checkpoint's warming counts"
import json, sys
w = json.load(open(sys.argv[1]))["warming"]
assert w == json.load(open(sys.argv[2]))["warming"], "warming counts differ translated and interpreted"
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[3]) if not l.startswith("#")]
rows = [dict(zip(lines[0], r)) for r in lines[1:4]]  # the intervals before 6M
for c in ["instructions", "l1i_misses", "l1d_misses", "l2_misses", "llc_misses", "itlb_misses", "dtlb_misses",
          "walks", "mispredicts"]:
    s = sum(int(r[c]) for r in rows)
    assert w[c] == s, f"{c}: checkpoint counts {w[c]}, the 2M intervals {s}"
# every fetch block and data access is translated; each level below the L1s
# is asked for what the level above missed (and for the L1D's prefetches)
assert w["itlb_accesses"] == w["l1i_accesses"] > 0 and w["dtlb_accesses"] == w["l1d_accesses"] > 0
assert w["l1d_misses"] <= w["l1d_accesses"] and w["l1i_misses"] <= w["l1i_accesses"]
assert w["l2_accesses"] == w["l1i_misses"] + w["l1d_misses"] + w["prefetches"]
assert w["llc_accesses"] == w["l2_misses"] and w["llc_misses"] <= w["llc_accesses"]
assert 0 < w["conditional_branches"] <= w["branches"] and w["mispredicts"] <= w["branches"]
print("ok   checkpoint --warm counts what bbv --proxy counts up to its last checkpoint:", w["instructions"], "instructions,",
      w["l1d_misses"], "L1D misses,", w["mispredicts"], "mispredicts")
PY
# --drop-partial drops the partial line in both files
"$BIN/bbv" -o d -i 100k --drop-partial --proxy "$CFG" -- "$RV/workloads/phases" 1 > /dev/null
expect_eq "lines with --drop-partial" "$(zcat d.100000.bb.gz | grep -c '^T')" "$(grep -c '^[0-9]' d.100000.proxy)"

# simpoint methods
BB=p.phases.100000.bb.gz PX=p.phases.100000.proxy
sp() { "$BIN/simpoint" -loadFVFile "$BB" -maxK 30 -fixedLength off "$@"; }
sp -saveSimpoints plain.sp -saveSimpointWeights plain.w -saveLabels plain.l
sp --proxy "$PX" --select-by proxy --proxy-candidates 10 -saveSimpoints sel.sp -saveSimpointWeights sel.w \
    -saveLabels sel.l
cmp plain.w sel.w || fail "--select-by proxy changed the weights"
cmp plain.l sel.l || fail "--select-by proxy changed the labels"
# each representative is a member of its cluster
awk 'NR == FNR { label[NR - 1] = $1; next } { if (label[$1] != $2) { print "interval " $1 " is in cluster " label[$1] ", not " $2; bad = 1 } }
     END { exit bad }' sel.l sel.sp || fail "a representative outside its cluster"
[ "$(cmp -s plain.sp sel.sp && echo same)" != same ] || echo "note: --select-by proxy chose SimPoint's points here"
# --proxy-exposed W (with --proxy-long W too) reads format 3's exposed_cpi
sp --proxy "$PX" --points 1.5x --proxy-dims 1 --proxy-long 1 --proxy-exposed 1 -saveSimpoints ex.sp > /dev/null ||
    fail "--proxy-exposed on bbv's file"

sp --proxy "$PX" --stratify 0.2 -saveSimpoints st.sp -saveSimpointWeights st.w -saveLabels st.l
k=$(wc -l < plain.sp) ks=$(wc -l < st.sp)
[ "$ks" -gt "$k" ] && [ "$ks" -le $((k + k / 5)) ] || fail "--stratify 0.2: $ks points for $k clusters"
awk '{ s += $1 } END { exit !(s > 0.9999 && s < 1.0001) }' st.w || fail "--stratify weights do not sum to 1"
awk 'NR == FNR { label[NR - 1] = $1; n[$1]++; next } { if (label[$1] != $2) bad = 1; seen[$2] = 1 }
     END { for (c in n) if (!(c in seen)) bad = 1; exit bad }' st.l st.sp || fail "--stratify: labels and points disagree"
# validate takes the stratified points as any others
"$BIN/sim" --full -q -G 100k --interval-log full.csv -o full.json --guest-output none -- "$RV/workloads/phases" 1
"$BIN/validate" -q --simpoints st.sp --weights st.w --labels st.l -i 100k --full full.json -o st.report
grep -q 'sampling error' st.report/report.md || fail "validate on stratified points"
echo "ok   simpoint --select-by proxy ($k points) and --stratify ($ks points) outputs are consistent"

# bad input
expect_status 125 "$BIN/bbv" -o bad --proxy nothere.ini -- "$RV/workloads/phases" 1
expect_status 125 "$BIN/bbv" -o bad --set l1d.ways=4 -- "$RV/workloads/phases" 1
expect_status 125 "$BIN/bbv" --count-only --proxy "$CFG" -- "$RV/workloads/phases" 1
ls bad.* > /dev/null 2>&1 && fail "bbv left output after bad input"
head -n 20 "$PX" > short.proxy
cut -f 1-16 "$PX" > old.proxy  # format 1: no long_cpi
cut -f 1-21 "$PX" > old2.proxy  # format 2: no exposed_cpi
expect_status 1 sp --proxy old.proxy --proxy-dims 1 --proxy-long 1 -saveSimpoints bad.sp
expect_status 1 sp --proxy "$PX" --proxy-dims 1 --proxy-long -1 -saveSimpoints bad.sp
expect_status 1 sp --proxy old2.proxy --proxy-dims 1 --proxy-exposed 1 -saveSimpoints bad.sp
expect_status 1 sp --proxy "$PX" --proxy-dims 1 --proxy-exposed -1 -saveSimpoints bad.sp
expect_status 1 sp --proxy "$PX" --proxy-dims 1 --proxy-exposed 11 -saveSimpoints bad.sp
# without --proxy-exposed, a file of format 2 is read as before: as format 3's with a weight of 0
sp --proxy old2.proxy --stratify 0.5 -saveSimpoints f2.sp -saveLabels f2.l > /dev/null || fail "a format 2 file by default"
sp --proxy "$PX" --stratify 0.5 --proxy-exposed 0 -saveSimpoints f3.sp -saveLabels f3.l > /dev/null
cmp f2.sp f3.sp && cmp f2.l f3.l || fail "format 2 by default is not format 3 with --proxy-exposed 0"
expect_status 1 sp --proxy short.proxy --select-by proxy -saveSimpoints bad.sp
expect_status 1 sp --select-by proxy -saveSimpoints bad.sp
[ ! -e bad.sp ] || fail "simpoint wrote output after bad input"
# --proxy alone keeps SimPoint's choice and predicts its standard error.
sp -saveSimpoints plain.sp > /dev/null
sp --proxy "$PX" -saveSimpoints alone.sp --json alone.json > /dev/null
cmp -s plain.sp alone.sp || fail "--proxy alone changed SimPoint's choice"
python3 -c "
import json, sys
p = json.load(open('alone.json'))['predicted']
assert p['points'] == sum(1 for l in open('alone.sp') if l.strip()) and 0 < p['relative_se'] < 1, p" ||
    fail "--proxy alone: no predicted standard error"
echo "bbv_proxy: ok"
