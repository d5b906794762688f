#!/usr/bin/env bash
# The README's table of implemented system calls names exactly the calls
# lib/sys/sys_table.c dispatches, group by group.
source "$(dirname "$0")/lib.sh"
python3 - "$TOP/lib/sys/sys_table.c" "$TOP/README.md" <<'PY'
import re, sys
table = open(sys.argv[1]).read()
block = table[table.index('#define IMPLEMENTED(X)'):table.index('#define DECLARE')]
code = {g: re.findall(r'X\((\w+)\)', body) for g, body in re.findall(r'/\* (\w+) \*/((?:(?!/\*).)*)', block, re.S)}
readme = open(sys.argv[2]).read()
doc = {}
for line in readme[readme.index('#### System calls implemented'):].splitlines():
    m = re.match(r'\| (\w+) \| ((?:`\w+` ?)+)\|', line)
    if m:
        doc[m.group(1)] = re.findall(r'`(\w+)`', m.group(2))
    elif doc and not line.startswith('|'):
        break
if doc != code:
    for g in sorted(set(doc) | set(code)):
        a, b = set(code.get(g, [])), set(doc.get(g, []))
        if a != b:
            print(f"group {g}: in the code only {sorted(a - b)}, in the README only {sorted(b - a)}")
    sys.exit("FAIL: README's system-call table is out of date")
print(f"ok   README lists the {sum(map(len, code.values()))} implemented system calls in {len(code)} groups")
PY
