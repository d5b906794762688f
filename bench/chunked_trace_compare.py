#!/usr/bin/env python3
"""chunked_trace_compare.py SERIAL CHUNKED C: a stitched --commit-trace
(sim --full --chunk-insts C) against the serial run's. Lines are matched by
the instruction their first commit is (the commits counted from the start);
a chunked line equals the serial one when all but its cycle are the same
bytes and it comes as many cycles after the committing line before it (a
timing difference earlier does not make every later line differ). Prints, per chunk: its
share of its committing lines equal to the serial run's, and the
instructions from its start to the first of 1,000 equal lines in a row
(where its warm-up has converged), as
    chunk K: L committing lines, S% equal, converged after N instructions
and exits 1 when a chunk never converges."""
import sys


def commit_lines(path):
    """(first instruction committed, cycles since the committing line before, the rest of the line)
    per line that commits."""
    n, last = 0, None
    with open(path) as f:
        for i, line in enumerate(f):
            if i < 2:
                continue
            cycle, rest = line.rstrip("\n").split(",", 1)
            pcs = rest.split(",")[3]
            if pcs:
                cycle = int(cycle)
                yield n, cycle - last if last is not None else None, rest
                n += pcs.count(";") + 1
                last = cycle


def main(serial, chunked, C):
    ser = {i: (c, r) for i, c, r in commit_lines(serial)}
    chunks = {}
    for i, c, r in commit_lines(chunked):
        chunks.setdefault(i // C, []).append((i, c, r))
    bad = 0
    for k in sorted(chunks):
        lines = chunks[k]
        equal, run, converged = 0, 0, None
        for j, (i, c, r) in enumerate(lines):
            s = ser.get(i)
            same = s is not None and s[1] == r and (j == 0 or c == s[0])
            equal += same
            run = run + 1 if same else 0
            if run == 1000 and converged is None:
                converged = lines[j - 999][0] - k * C
        print(f"chunk {k}: {len(lines)} committing lines, {100 * equal / len(lines):.3f}% equal, "
              + (f"converged after {converged} instructions" if converged is not None else "never converged"))
        bad |= converged is None
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(float(sys.argv[3]))))
