#!/usr/bin/env bash
# A short fuzzing campaign over every input parser (tests/fuzz/fuzz.py):
# mutated .bb, .bb.gz, vector, .proxy, INI, checkpoint (container and JSON
# sections), validate JSON and text inputs and ELF files, generated
# checkpoints of every descriptor kind and hostile guests under every tool,
# each ending in a clean one-line error or a clean run, never a crash, hang,
# sanitizer report or temporary left behind. make san-e2e runs it on the sanitizer build; `make fuzz` runs a
# long campaign.
source "$(dirname "$0")/lib.sh"
"$TOP/tests/fuzz/seeds.sh" "$T/seeds" "$BIN"
python3 "$TOP/tests/fuzz/fuzz.py" --seeds "$T/seeds" --bin "$BIN" --runs "${FUZZ_RUNS:-40}" \
    --seed "${FUZZ_SEED:-1}" --keep "$TOP/tests/fuzz/findings"
