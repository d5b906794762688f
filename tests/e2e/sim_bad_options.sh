#!/usr/bin/env bash
# sim's option values that used to run with wrong results (issue 35): a
# sampling frequency whose period overflows or is under a cycle (D5), a
# ProfileMe interval whose 2S-1 wraps (D6), malformed or repeated
# --sensitivity resources and factors, and lists with empty names (D7). Each
# is refused before the run with a one-line reason, status 1 and no output;
# the values at the edges of the ranges still run.
source "$(dirname "$0")/lib.sh"
cd "$T"
W=$RV/workloads/phases
sim() { "$BIN/sim" --full --max-insts 50k -q -o r.json "$@" -- "$W" 1; }
# refused REASON OPTIONS...: status 1, REASON in the message, no r.json.
refused() {
    local reason=$1 st=0
    shift
    sim "$@" > /dev/null 2> err.txt || st=$?
    [ "$st" -eq 1 ] && grep -qF -- "$reason" err.txt || fail "sim $*: status $st, expected 1 and '$reason': $(cat err.txt)"
    [ "$(wc -l < err.txt)" -eq 1 ] || fail "sim $*: more than one line: $(cat err.txt)"
    [ ! -e r.json ] || fail "sim $*: wrote r.json"
}

# D5: the period of a frequency at the core's clock, 1 cycle to 2^63.
refused "expected 1 cycle to 2^63" --sample tip --sample-hz 1e-10
refused "expected 1 cycle to 2^63" --sample tip --sample-hz 3e-10
refused "expected 1 cycle to 2^63" --sample tip --sample-sweep-hz 4000,1e-12
refused "a period of 0.1 cycles at the core's 100 MHz" --sample tip --set core.freq_mhz=100 --sample-hz 1e9
sim --sample tip --sample-hz 1e-9 || fail "--sample-hz 1e-9 (a period of 3.2e18 cycles) refused"
python3 -c "import json,sys; s=json.load(open('r.json'))['results'][0]['sampled']; sys.exit(s['period'] != 3200000000000000000)" ||
    fail "--sample-hz 1e-9: not a period of 3.2e18 cycles"
rm r.json
echo "ok   D5: sampling frequencies whose period is under a cycle or over 2^63 are refused"

# D6: ProfileMe's interval, at most 10^18.
for s in 9223372036854775809 9223372036854775808 18446744073709551615 1000000000000000001; do
    refused "--profileme-interval: at most 10^18" --sample profileme --profileme-interval "$s"
done
sim --sample profileme --profileme-interval 1000000000000000000 || fail "--profileme-interval 10^18 refused"
python3 -c "import json,sys; p=json.load(open('r.json'))['results'][0]['profileme']; sys.exit(p['interval'] != 10**18 or p['samples'] != 0)" ||
    fail "--profileme-interval 10^18: not that interval with no sample"
rm r.json
echo "ok   D6: ProfileMe intervals over 10^18 are refused"

# D7: resources and sets with empty or repeated parts, repeated factors,
# factors without --sensitivity, empty or repeated --sample names.
refused "an empty resource in '+'" --sensitivity +
refused "an empty resource in 'rob.entries+'" --sensitivity rob.entries+
refused "an empty resource in '+rob.entries'" --sensitivity +rob.entries
refused "an empty resource in 'rob.entries++fu.div'" --sensitivity rob.entries++fu.div
refused "an empty resource in 'rob.entries,'" --sensitivity rob.entries,
refused "an empty resource in ',rob.entries'" --sensitivity ,rob.entries
refused "'rob.entries' given twice in 'rob.entries,rob.entries'" --sensitivity rob.entries,rob.entries
refused "'rob.entries' given twice in 'rob.entries+rob.entries'" --sensitivity rob.entries+rob.entries
refused "given twice in '+,+'" --sensitivity +,+
refused "'rob.entries' given twice" --sensitivity all,rob.entries
refused "'+100%' given twice (x2)" --sensitivity rob.entries --sensitivity-factors x2,+100%
refused "--sensitivity-factors needs --sensitivity" --sensitivity-factors x2
refused "--sensitivity-factors needs --sensitivity" --sensitivity-preset limits --sensitivity-factors x2
refused "--sample: an empty name" --sample tip,
refused "--sample: an empty name" --sample tip,,nci
refused "--sample: 'profileme' given twice" --sample profileme,profileme
sim --sensitivity rob.entries,fu.div_units+frontend --sensitivity-factors x2,x4 || fail "a valid sensitivity list refused"
python3 -c "
import json, sys
names = [v['name'] for v in json.load(open('r.json'))['sensitivity']['variants']]
sys.exit(sorted(names) != sorted(['rob.entries x2', 'rob.entries x4', 'fu.div_units+frontend x2', 'fu.div_units+frontend x4']))" ||
    fail "the valid sensitivity list did not give its four variants"
echo "ok   D7: empty and repeated resources, factors and profiler names are refused"
