#!/usr/bin/env bash
# Crafted checkpoints of a guest holding every descriptor kind
# (tests/progs/descriptor_kinds: a pipe and a FIFO with bytes in them, a
# memfd, a directory, a record lock, a writable MAP_SHARED mapping), checked
# against the rule of checkpoint/FORMAT.md: restoring creates no file,
# opens for writing, refills or resizes only what lies under the writable
# directories, and every refusal is a one-line error with nothing written,
# no crash and no hang (issue 35: D1, D2, D3).
source "$(dirname "$0")/lib.sh"
cd "$T"
EDIT="python3 $TOP/tests/tools/ckpt_edit.py"

# refuses PATTERN CMD...: status 1..125 within 20 s, stderr matching PATTERN.
refuses() {
    local want=$1; shift
    set +e; timeout 20 "$@" > out.txt 2> err.txt < /dev/null; local got=$?; set -e
    [ "$got" -ne 124 ] || fail "'$*' hung"
    [ "$got" -ge 1 ] && [ "$got" -le 125 ] || fail "'$*' exited $got (a crash?): $(head -c 300 err.txt)"
    grep -q -- "$want" err.txt || fail "'$*': expected an error matching '$want', got: $(head -c 300 err.txt)"
}
# refuse PATTERN CMD...: the same in one line.
refuse() {
    refuses "$@"
    [ "$(grep -vc '^$' err.txt)" = 1 ] || fail "'$*': more than one line of error: $(head -c 500 err.txt)"
}
# refuse_restore PATTERN CKPT: by checkpoint --run and by sim (which says
# which region failed), run in jail/, the only writable directory.
refuse_restore() {
    (cd jail && refuse "$1" "$BIN/checkpoint" --run "../$2" &&
        refuses "$1" "$BIN/sim" -o r.json --warmup none "../$2")
    [ ! -e jail/r.json ] || fail "sim refused $2 but wrote its result"
}

mkdir jail outside
mkfifo jail/ff
(cd jail && "$BIN/checkpoint" -o ck --at 3000000 -- "$RV/progs/descriptor_kinds" ff > /dev/null)
base=$(ls jail/ck/*.ckpt)
(cd jail && "$BIN/checkpoint" --run "../$base" --guest-output run.out) || fail "the checkpoint does not restore"
expect_eq "the restored run's output" "8 12 9 1 [pipedatafifodatamorememfddata]" "$(cat jail/run.out)"

# D1: a FIFO entry marked read-only, with bytes, naming another process's
# FIFO outside the writable directories: refusing it writes nothing there.
mkfifo outside/cmd.fifo
timeout 30 cat outside/cmd.fifo > outside/got.txt &
reader=$!
$EDIT "$base" fifo_ro.ckpt --json "OS" \
    "[f.update(path='$T/outside/cmd.fifo') for f in j['files'] if f['kind'] == 'fifo' and f['flags'] & 3 == 0]"
refuse_restore "guest FIFO $T/outside/cmd.fifo is outside the directories it may write" fifo_ro.ckpt
: > outside/cmd.fifo   # end the reader
wait "$reader" || true
expect_eq "bytes the other process's reader received" "" "$(cat outside/got.txt)"
# A read-only FIFO entry without bytes may be anywhere (the guest reads anywhere).
$EDIT "$base" fifo_ro_empty.ckpt --json "OS" \
    "[f.update(path='$T/outside/cmd.fifo') for f in j['files'] if f['kind'] == 'fifo' and f['flags'] & 3 == 0]; [f.pop('data', None) for f in j['files']if f['kind'] == 'fifo']"
(cd jail && timeout 20 "$BIN/checkpoint" --run ../fifo_ro_empty.ckpt --insts 1000 > /dev/null) ||
    fail "a read-only FIFO without bytes outside the writable directories was refused"
echo "ok   a FIFO is refilled only under the writable directories, whatever mode its entry claims"

# D2: the entries of one pipe disagree: two readers with bytes, or a first
# entry declaring a smaller capacity than a later one's bytes. Refused (by
# --info too), not a write that blocks forever.
$EDIT "$base" pipe_two_readers.ckpt --bytes FDAT 'b[:] = bytes(40000)' --json "OS" \
    "[f.update(data=[0, 40000 if f['kind'] == 'pipe' else f['data'][1]]) for f in j['files'] if 'data' in f]; [f.update(end='r', data=[0, 40000]) for f in j['files'] if f['kind'] == 'pipe' and f['end'] == 'w']"
$EDIT "$base" pipe_small_first.ckpt --bytes FDAT 'b[:] = bytes(70000)' --json "OS" \
    "p = [f for f in j['files'] if f['kind'] == 'pipe']; p[0].update(size=4096, end='w'); p[0].pop('data', None); p[1].update(size=131072, end='r', data=[0, 70000]); [f.update(data=[0, 8]) for f in j['files'] if f['kind'] != 'pipe' and 'data' in f]"
for c in pipe_two_readers pipe_small_first; do
    refuse "the entries of a pipe disagree" "$BIN/checkpoint" --info $c.ckpt
    refuse_restore "the entries of a pipe disagree" $c.ckpt
done
echo "ok   pipes whose entries disagree on their size or bytes are refused, not a hang"

# D3: a writable shared mapping whose saved pages lie past the end of its
# file (file_size 0; or the entry stretched over the heap, so the heap's pages
# fall into it): refused before the file is resized, by --info too.
before=$(md5sum < jail/shared.bin)
$EDIT "$base" size0.ckpt --json VMAS "[v.update(file_size='0x0') for v in j if v['kind'] == 2]"
$EDIT "$base" stretched.ckpt --json VMAS \
    "heap = [v for v in j if v.get('label') == '[heap]'][0]; j.remove(heap); [v.update(start=heap['start']) for v in j if v['kind'] == 2]"
for c in size0 stretched; do
    refuse "page 0x[0-9a-f]* of a shared mapping lies past the end of its file" "$BIN/checkpoint" --info $c.ckpt
    refuse_restore "page 0x[0-9a-f]* of a shared mapping lies past the end of its file" $c.ckpt
    expect_eq "shared.bin after restoring $c.ckpt" "$before" "$(md5sum < jail/shared.bin)"
done
# Entries out of order or overlapping: refused, not one mapping replacing another.
$EDIT "$base" overlap.ckpt --json VMAS "j[1]['start'] = j[0]['start']"
refuse "bad memory map entry 1" "$BIN/checkpoint" --info overlap.ckpt
echo "ok   shared mappings whose pages lie past their file's end are refused and the file left as it was"

# The rule of checkpoint/FORMAT.md, entry by entry: no file is created or
# truncated, and nothing outside the writable directories is opened for
# writing, also through a relative path from a checkpoint's cwd elsewhere.
echo "precious" > outside/victim
echo "kept" > jail/kept.txt
files_edit() { # OUT PYTHON: appends entries to the "files" list of the base checkpoint
    $EDIT "$base" "$1" --json "OS" "$2"
}
files_edit create.ckpt "j['files'].append({'fd': 40, 'flags': 0o101, 'kind': 'file', 'path': '$T/jail/new.txt', 'offset': 0})"
refuse "cannot reopen the guest's file $T/jail/new.txt: No such file" "$BIN/checkpoint" --run create.ckpt --allow-write jail
[ ! -e jail/new.txt ] || fail "restoring created a file"
files_edit trunc.ckpt "j['files'].append({'fd': 40, 'flags': 0o1002, 'kind': 'file', 'path': '$T/jail/kept.txt', 'offset': 0})"
(cd jail && timeout 20 "$BIN/checkpoint" --run ../trunc.ckpt --insts 1000 > /dev/null) || fail "a writable file in jail was refused"
expect_eq "a file an entry with O_TRUNC names" kept "$(cat jail/kept.txt)"
files_edit relative.ckpt "j['cwd'] = '$T/outside'; j['files'].append({'fd': 40, 'flags': 2, 'kind': 'file', 'path': 'victim', 'offset': 0})"
refuse_restore "guest file victim is outside the directories it may write" relative.ckpt
files_edit device.ckpt "j['files'].append({'fd': 40, 'flags': 0, 'kind': 'dev', 'path': '$T/outside/victim'})"
refuse "is no longer the device the checkpoint names" "$BIN/checkpoint" --run device.ckpt
files_edit notfifo.ckpt "[f.update(path='$T/outside/victim') for f in j['files'] if f['kind'] == 'fifo']; [f.pop('data', None) for f in j['files']]; [f.update(flags=0) for f in j['files'] if f['kind'] == 'fifo']"
refuse "is no longer the named FIFO the checkpoint names" "$BIN/checkpoint" --run notfifo.ckpt
expect_eq "the file outside after every attempt" precious "$(cat outside/victim)"
echo "ok   restoring creates nothing, truncates nothing and writes nothing outside the writable directories"
