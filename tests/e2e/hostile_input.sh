#!/usr/bin/env bash
# Regressions from the fuzzing campaign (issue 11): crafted checkpoints,
# ELF files, vector, weight and label files, and options. Each must end in
# a one-line error and a non-zero exit within seconds: no crash, no hang,
# no output accepted silently, nothing written outside the allowed places.
source "$(dirname "$0")/lib.sh"
cd "$T"
EDIT="python3 $TOP/tests/tools/ckpt_edit.py"
prog=$RV/workloads/int_compute

# refuse PATTERN CMD...: a clean refusal: status 1..125 (not a timeout, not
# a signal), and one line of stderr that matches PATTERN.
refuse() {
    [ "$1" != -- ] || shift
    local want=$1; shift
    set +e; timeout 20 "$@" > out.txt 2> err.txt < /dev/null; local got=$?; set -e
    [ "$got" -ne 124 ] || fail "'$*' hung"
    [ "$got" -ge 1 ] && [ "$got" -le 125 ] || fail "'$*' exited $got (a crash?): $(head -c 300 err.txt)"
    grep -q -- "$want" err.txt || fail "'$*': expected an error matching '$want', got: $(head -c 300 err.txt)"
    [ "$(grep -vc '^$' err.txt)" = 1 ] || fail "'$*': more than one line of error: $(head -c 500 err.txt)"
}

"$BIN/checkpoint" -o ck --at 100000 -- "$prog" 1 > /dev/null
good=$(ls ck/*.ckpt)

# Checkpoints whose argv or env is not a list of strings: refused by every reader.
$EDIT "$good" argv.ckpt --json META 'j["argv"] = [1]'
$EDIT "$good" env.ckpt --json META 'j["env"] = [None, "A=1"]'
for c in argv.ckpt env.ckpt; do
    refuse 'argv .* and env must be lists of strings' "$BIN/checkpoint" --info "$c"
    refuse 'argv .* and env must be lists of strings' "$BIN/checkpoint" --run "$c"
    refuse 'argv .* and env must be lists of strings' "$BIN/sim" "$c" -o r.json
done
# Only META, or OS/VMAS that do not parse: --info refuses what --run refuses.
$EDIT "$good" meta_only.ckpt --drop CPU --drop OS --drop VMAS --drop PAGE --drop FDAT
$EDIT "$good" bad_os.ckpt --json OS 'j = "{not json"'
$EDIT "$good" bad_vmas.ckpt --json VMAS 'j = {"start": 1}'
$EDIT "$good" bad_files.ckpt --json OS 'j["files"] = [{"fd": 3, "flags": 0, "kind": "pipe"}]'
for c in meta_only bad_os bad_vmas bad_files; do
    refuse 'checkpoint' "$BIN/checkpoint" --info $c.ckpt
    refuse 'checkpoint' "$BIN/checkpoint" --run $c.ckpt
done
# The program a checkpoint names is /dev/zero or a FIFO: an error, not a hang.
mkfifo fifo
$EDIT "$good" zero.ckpt --json META 'j["program"] = "/dev/zero"'
$EDIT "$good" fifo.ckpt --json META "j['program'] = '$T/fifo'"
refuse 'cannot read the program /dev/zero' "$BIN/checkpoint" --run zero.ckpt
refuse 'cannot read the program' "$BIN/checkpoint" --run fifo.ckpt
refuse 'cannot read the program /dev/zero' "$BIN/checkpoint" --run "$good" --program /dev/zero
refuse 'fifo' "$BIN/bbv" -- ./fifo
refuse 'fifo' "$BIN/sim" --full -o r.json -- ./fifo

# A shared file mapping outside the writable directories: not reopened for writing.
mkdir -p outside && echo "precious" > outside/victim
$EDIT "$good" shared.ckpt --json VMAS "j.append({'start': 0x100000000, 'end': 0x100001000, 'prot': 3, 'kind': 2, 'offset': 0, 'path': '$T/outside/victim'}); j.sort(key=lambda v: v['start'])"
(mkdir -p jail && cd jail &&
    refuse 'outside the directories it may write' "$BIN/checkpoint" --run ../shared.ckpt --allow-write .)
expect_eq "the file outside is untouched" precious "$(cat outside/victim)"
# A file entry opened for writing outside them: refused too.
$EDIT "$good" file.ckpt --json OS "j['files'].append({'fd': 9, 'flags': 1, 'kind': 'file', 'path': '$T/outside/victim', 'offset': 0})"
(cd jail && refuse 'outside the directories it may write' "$BIN/checkpoint" --run ../file.ckpt --allow-write .)

# An ELF whose segment claims 192 GiB: refused at once.
python3 - "$prog" huge.elf <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
phoff, = struct.unpack_from('<Q', d, 0x20)
phentsize, phnum = struct.unpack_from('<HH', d, 0x36)
for i in range(phnum):
    at = phoff + i * phentsize
    if struct.unpack_from('<I', d, at)[0] == 1:  # the first PT_LOAD
        struct.pack_into('<Q', d, at + 40, 192 << 30)  # p_memsz
        break
open(sys.argv[2], 'wb').write(d)
PY
chmod +x huge.elf
start=$SECONDS
refuse 'GiB' "$BIN/bbv" -- ./huge.elf
[ $((SECONDS - start)) -lt 5 ] || fail "a 192 GiB segment took $((SECONDS - start)) s to refuse"

# Loadable segments Linux and qemu-riscv64 refuse (issue 35, D13): a second
# one over the first, and one whose address and file offset differ modulo
# the page size (the ELF header's bytes would land over the code).
elf_copy_segment() { # OUT VADDR MEMSZ: program header 2 of nested_loops becomes a copy of its PT_LOAD
    python3 - "$RV/asm/nested_loops" "$@" <<'PY'
import struct, sys
src, out, vaddr, memsz = sys.argv[1], sys.argv[2], int(sys.argv[3], 0), int(sys.argv[4], 0)
d = bytearray(open(src, 'rb').read())
phoff, = struct.unpack_from('<Q', d, 0x20)
phentsize, = struct.unpack_from('<H', d, 0x36)
load = list(struct.unpack_from('<IIQQQQQQ', d, phoff + phentsize))  # type flags offset vaddr paddr filesz memsz align
load[1], load[3], load[4], load[6] = 6, vaddr, vaddr, memsz
struct.pack_into('<IIQQQQQQ', d, phoff + 2 * phentsize, *load)
open(out, 'wb').write(d)
PY
    chmod +x "$1"
}
elf_copy_segment overlap.elf 0x10000 0x3000
elf_copy_segment incongruent.elf 0x10100 0x13c
refuse 'malformed ELF: overlapping or unordered loadable segments' "$BIN/bbv" --count-only -- ./overlap.elf
refuse 'malformed ELF: a segment.s address and file offset differ modulo the page size' \
    "$BIN/bbv" --count-only -- ./incongruent.elf

# An ELF without symbols (stripped): every tool still runs it (UBSan once
# caught qsort(NULL, 0) in the symbol table).
riscv64-linux-gnu-strip -o stripped.elf "$prog"
"$BIN/sim" --full -o stripped.json -- ./stripped.elf 1 > /dev/null 2> stripped.err || fail "sim on a stripped ELF: $(cat stripped.err)"
"$BIN/bbv" --count-only -- ./stripped.elf 1 > /dev/null 2>&1 || fail "bbv on a stripped ELF failed"

# sim -j: capped and validated like simpoint's --threads.
refuse -- '--jobs: expected 1 to' "$BIN/sim" -j 100000 "$good" -o r.json
refuse -- '--jobs: expected 1 to' "$BIN/sim" -j 4294967297 "$good" -o r.json
refuse -- '--jobs: expected 1 to' "$BIN/sim" -j 0 "$good" -o r.json
[ ! -e r.json ] || fail "a refused sim wrote r.json"

# bbv options that would name hidden files or one file twice.
refuse -- '--output' "$BIN/bbv" -o "" -- "$prog" 1
refuse -- '--output' "$BIN/bbv" -o "dir/" -- "$prog" 1
refuse -- 'given twice' "$BIN/bbv" --interval 1,1 -o x -- "$prog" 1
[ -z "$(ls -A | grep '^\.')" ] || fail "hidden files were written: $(ls -A | grep '^\.')"

# simpoint: infinite, NaN and overflowing numbers in every numeric input.
"$BIN/bbv" -o p --interval 1M -- "$prog" 1 > /dev/null
bb=p.1000000.bb.gz
n=$(zcat $bb | grep -c '^T')
for bad in inf nan 1e308 -1e400; do
    { for i in $(seq 2 "$n"); do echo 1; done; echo "$bad"; } > w.txt
    refuse 'w.txt' "$BIN/simpoint" -loadFVFile $bb -maxK 3 -fixedLength off -loadVectorWeights w.txt \
        -saveSimpoints s.sp -saveSimpointWeights s.w
done
"$BIN/simpoint" -loadFVFile $bb -maxK 3 -saveVectorsTxtFmt v.txt -saveInitCtrs c.txt -saveProjMatrixTxtFmt m.txt \
    -saveSimpoints s.sp -saveSimpointWeights s.w > /dev/null
sed '2s/^\([^ ]*\) /\1 inf /' c.txt > c_inf.txt
refuse 'c_inf.txt' "$BIN/simpoint" -loadFVFile $bb -loadInitCtrs c_inf.txt -saveSimpoints s2.sp -saveSimpointWeights s2.w
sed '3s/^\([^ ]*\) /\1 nan /' m.txt > m_nan.txt
refuse 'm_nan.txt' "$BIN/simpoint" -loadFVFile $bb -maxK 3 -loadProjMatrixTxtFmt m_nan.txt -saveSimpoints s2.sp -saveSimpointWeights s2.w
sed '2s/^\([^ ]*\) /\1 1e300 /' v.txt > v_big.txt
refuse 'v_big.txt' "$BIN/simpoint" -loadVectorsTxtFmt v_big.txt -maxK 3 -saveSimpoints s2.sp -saveSimpointWeights s2.w
[ ! -e s2.sp ] && [ ! -e s2.w ] || fail "a refused simpoint left outputs"
# A NUL byte inside a line (issue 35, D9): an error, not the end of the line
# ("T:1:1<NUL>00000" was an interval of 1 instruction; "entries = 6<NUL>4" set 6).
zcat $bb | python3 -c "import sys; d = sys.stdin.buffer.read().split(b'\n'); i = [k for k, l in enumerate(d) if l.startswith(b'T')][1]; d[i] = d[i][:5] + b'\0' + d[i][5:]; sys.stdout.buffer.write(b'\n'.join(d))" > nul.bb
refuse 'nul.bb:[0-9]*:6: NUL byte in a text file' "$BIN/simpoint" -loadFVFile nul.bb -maxK 3 -fixedLength off \
    -saveVectorWeights vw.txt
[ ! -e vw.txt ] || fail "simpoint refused nul.bb but wrote vw.txt"
printf '[rob]\nentries = 6\0004\n' > nul.ini
refuse 'nul.ini:2: NUL byte in a text file' "$BIN/sim" -c nul.ini --list-params
# Garbage after the gzip stream of a .bb.gz.
{ cat $bb; echo "trailing garbage"; } > trail.bb.gz
refuse 'after the end of the gzip stream' "$BIN/simpoint" -loadFVFile trail.bb.gz -maxK 3 -saveSimpoints s2.sp -saveSimpointWeights s2.w
refuse -- '--threads' "$BIN/simpoint" -loadFVFile $bb -maxK 3 --threads 0 -saveSimpoints s2.sp -saveSimpointWeights s2.w

# validate: a negative distance in .labels (the hand-made inputs of tests/validate/small).
cp "$TOP"/tests/validate/small/* .
sed '2s/ .*/ -0.5/' small.labels > neg.labels
refuse 'never negative' "$BIN/validate" --simpoints small.simpoints --weights small.weights -i 2000 --full full.json \
    --labels neg.labels -o val --json val.json
[ ! -e val.md ] && [ ! -e val.json ] || fail "a refused validate left outputs"

# A command that fails leaves none of its outputs, not only not the one it failed on
# (a path through a plain file cannot be written, even by root).
touch plain
refuse 'plain/' "$BIN/sim" --full -G 100k --interval-log log.csv -o plain/r.json -- "$prog" 1
[ ! -e log.csv ] || fail "sim --full left its interval log after failing to write its result"
refuse 'plain/' "$BIN/simpoint" -loadFVFile $bb -maxK 3 -saveSimpoints kept.sp \
    -saveSimpointWeights plain/w -saveLabels kept.labels
[ ! -e kept.sp ] && [ ! -e kept.labels ] || fail "simpoint left outputs it wrote before the unwritable one"
refuse 'plain/' "$BIN/validate" --simpoints small.simpoints --weights small.weights -i 2000 \
    --full full.json --json kept.json -o plain/val
[ ! -e kept.json ] || fail "validate kept its JSON when the report failed"

# Under a file-size limit, no NAME.tmpXXXXXX is left behind.
mkdir xfsz && (
    cd xfsz
    ulimit -f 8
    set +e
    "$BIN/bbv" -o big --interval 1k --no-gzip -- "$prog" 1 > /dev/null 2> ../xfsz.err
    echo $? > ../xfsz.status
)
[ "$(cat xfsz.status)" -ne 0 ] || fail "bbv past the file-size limit succeeded"
grep -q 'File too large' xfsz.err || fail "no clear error past the file-size limit: $(cat xfsz.err)"
[ -z "$(ls -A xfsz)" ] || fail "bbv left $(ls -A xfsz) past the file-size limit"
echo "ok   every hostile input refused with one line"

# A guest touching its MAP_SHARED mapping past the end of the file, mapped
# so or shrunk since (tests/progs/shared_past_eof): the guest's SIGBUS, as
# under qemu-riscv64, not the tool's; every tool finishes its outputs and
# leaves no temporaries (issue 35, D4). Writing from such a page is EFAULT;
# the file growing over the mapping makes it reachable again.
past_eof=$RV/progs/shared_past_eof
mkdir past_eof && cd past_eof
for mode in beyond shrink; do
    # STATUS:TOOL OPTIONS (checkpoint fails: the program ends before its second point)
    for run in "135:bbv -o b --" "135:bbv --no-jit -o b --" "135:sim --full -o r.json --interval-log il.csv --" \
               "1:checkpoint -o ck --at 100,100000 --"; do
        want=${run%%:*} run=${run#*:}
        set +e; timeout 60 "$BIN"/$run "$past_eof" $mode > out.txt 2> err.txt; status=$?; set -e
        expect_eq "$run $mode: exit status" "$want" "$status"
        grep -q "guest bus error: 1-byte store to 0x[0-9a-f]*, past the end of the file mapped there" err.txt ||
            fail "$run $mode: not the guest's SIGBUS: $(head -c 300 err.txt)"
        [ -z "$(ls -A | grep tmp)" ] || fail "$run $mode left $(ls -A | grep tmp)"
        rm -rf ./* .ck.* 2>/dev/null || true
    done
done
for mode in grow syscall handled; do
    expect_eq "shared_past_eof $mode as under qemu" "$(qemu-riscv64 "$past_eof" $mode)" \
        "$("$BIN/bbv" --count-only -- "$past_eof" $mode 2> /dev/null)"
done
# A checkpoint between the mapping and the touch: the restored guest gets the SIGBUS too.
"$BIN/checkpoint" -o ck --at 6000 -- "$past_eof" beyond > /dev/null 2>&1 || true
set +e; "$BIN/checkpoint" --run ck/*.ckpt 2> err.txt; status=$?; set -e
expect_eq "restored past_eof run: exit status" 135 "$status"
grep -q "guest bus error" err.txt || fail "the restored run did not get its SIGBUS: $(cat err.txt)"
cd ..
echo "ok   a shared mapping past the end of its file gives the guest SIGBUS, in every tool"
