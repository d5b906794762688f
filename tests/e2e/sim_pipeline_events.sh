#!/bin/bash
# The pipeline events with exact answers: memory-ordering violations flush and
# replay each offending load once; fences and AMOs serialise; every access to
# the FP status register flushes after commit (BOOM, the Imagick/nab case).
. "$(dirname "$0")/lib.sh"

json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(eval(sys.argv[2]))" "$@"; }

# ordering_violation: 1000 iterations, each store's address waits on a divide
# while the load of the same doubleword issues at once.
"$BIN/sim" --full -q -o "$T/ov.json" -- "$RV/sim/ordering_violation"
expect_eq "ordering violations" 1000 "$(json "$T/ov.json" "r['events']['ordering_violations']")"
expect_eq "instructions (la = 2, li, li; 7 x 1000; li, li, ecall)" 7007 "$(json "$T/ov.json" "r['instructions']")"
# Each replay leaves the ROB empty for at least the flush penalty plus the
# fetch pipeline (4 + 1 + 3 cycles with the defaults): charged to the load.
flushed=$(json "$T/ov.json" "r['stack']['flushed_ordering']")
[ "$flushed" -ge 8000 ] || fail "flushed_ordering $flushed < 8000"
# The replayed loads own that time in the golden profile.
"$BIN/sim" --full -q --profile "$T/ov.csv" -- "$RV/sim/ordering_violation"
load_flushed=$(python3 -c "import csv,sys; print([int(float(r['flushed'])) for r in csv.DictReader(open(sys.argv[1])) if r['disasm'].startswith('ld t4')][0])" "$T/ov.csv")
expect_eq "flushed cycles charged to the load" "$flushed" "$load_flushed"

# serialising: 500 iterations of amoadd, fence, frflags, fsflags + 5 others.
"$BIN/sim" --full -q -o "$T/ser.json" -- "$RV/sim/serialising"
expect_eq "CSR flushes (frflags and fsflags)" 1000 "$(json "$T/ser.json" "r['events']['flushes_csr']")"
csr=$(json "$T/ser.json" "r['stack']['flushed_csr']")
[ "$csr" -ge 8000 ] || fail "flushed_csr $csr < 8000 (8 cycles per flush at least)"
serial=$(json "$T/ser.json" "r['stack']['stalled_serial']")
[ "$serial" -ge 1000 ] || fail "stalled_serial $serial: the AMO and the fence should wait at the head"
# With flushes made free of charge by a zero penalty, the run gets faster.
"$BIN/sim" --full -q -o "$T/ser0.json" --set frontend.flush_penalty=0 -- "$RV/sim/serialising"
c4=$(json "$T/ser.json" "r['cycles']"); c0=$(json "$T/ser0.json" "r['cycles']")
# 1000 flushes x 4 cycles of penalty
expect_eq "cycles saved by a zero flush penalty" 4000 $((c4 - c0))
echo "sim pipeline events: ok"
