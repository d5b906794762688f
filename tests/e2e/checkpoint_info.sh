#!/bin/bash
# checkpoint --info (issue 36): says whether a checkpoint holds warm state,
# in text and JSON, and takes --json before or after the checkpoint.
. "$(dirname "$0")/lib.sh"
cd "$T"
W=$RV/workloads/fp_flags
"$BIN/checkpoint" -o cold --at 1M --guest-output none -- "$W" > /dev/null
"$BIN/checkpoint" -o warm --at 1M --warm "$TOP/configs/boom-tip.ini" --guest-output none -- "$W" > /dev/null
for order in "--info --json" "--json --info"; do
    for d in cold warm; do
        # shellcheck disable=SC2086
        "$BIN/checkpoint" $order $d/*.ckpt > $d.json || fail "checkpoint $order CKPT failed"
    done
    python3 -c "
import json
c, w = json.load(open('cold.json')), json.load(open('warm.json'))
assert c['warm_state'] is False and c['warm_state_bytes'] == 0, c
assert w['warm_state'] is True and w['warm_state_bytes'] > 0, w
print('$order: cold', c['warm_state'], 'warm', w['warm_state_bytes'], 'bytes')" || fail "$order: warm_state"
done
"$BIN/checkpoint" --info cold/*.ckpt | grep -q '^warm state: none' || fail "text: no warm state line (cold)"
"$BIN/checkpoint" --info warm/*.ckpt | grep -q '^warm state: yes' || fail "text: no warm state line (warm)"
expect_status 1 "$BIN/checkpoint" --info 2> err.txt
grep -q "takes one checkpoint" err.txt || fail "--info without a checkpoint: $(cat err.txt)"
echo "checkpoint --info: ok"
