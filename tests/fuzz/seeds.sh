#!/usr/bin/env bash
# The fuzzing corpus: one well-formed input per parser, made by the tools
# themselves from a small program (and the hand-made validate inputs), into
# DIR. Usage: tests/fuzz/seeds.sh DIR [BIN]
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$1
BIN=${2:-$TOP/build/bin}
mkdir -p "$DIR"
cd "$DIR"
cp "$TOP"/tests/validate/small/* .
cp "$TOP/configs/boom-tip.ini" seed.ini
cp "$TOP/build/rv/asm/nested_loops" prog.elf
prog=$TOP/build/rv/workloads/phases
"$BIN/bbv" -o p --interval 100k --no-gzip -- "$prog" 1 > /dev/null
grep -m 6 '^T' p.100000.bb > seed.bb
"$BIN/bbv" -o p --interval 200k --proxy "$TOP/configs/boom-tip.ini" -- "$prog" 1 > /dev/null
cp p.200000.bb.gz seed.bb.gz
cp p.200000.proxy seed.proxy
"$BIN/simpoint" -loadFVFile seed.bb.gz -maxK 3 -saveVectorsTxtFmt seed.vectors -saveSimpoints s.sp \
    -saveSimpointWeights s.w > /dev/null
"$BIN/checkpoint" -o ck --at 50000 -- "$prog" 1 > /dev/null
cp ck/*.ckpt seed.ckpt
# A checkpoint holding every descriptor kind (fuzz.py's ckpt_desc target moves
# its paths into each run's directory), the file no run may change, and
# guest_modes' placeholder (it generates its commands).
cp "$TOP/build/rv/progs/descriptor_kinds" .
rm -f ff && mkfifo ff
"$BIN/checkpoint" -o ckd --at 3000000 -- ./descriptor_kinds ff > /dev/null
cp ckd/*.ckpt desc.ckpt
printf 'precious\n' > outside.txt
: > modes.txt
rm -rf ck ckd ff p.* s.sp s.w
