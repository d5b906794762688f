#!/usr/bin/env python3
"""Recompute sampled profiles from a `sim --commit-trace` file, independently of
sim's own profilers (the format is in sim/RESULTS.md). Periodic sampling as
`sim --sample-period PERIOD`: the last cycle of every PERIOD cycles from the
first traced cycle, each sample standing for the PERIOD cycles up to it.
Prints one JSON object: {profiler: {pc_hex: cycles, ...}, ...} for tip, tip-ilp,
nci, nci-ilp and lci, with cycles as exact fractions written "num/den".

usage: profile_from_trace.py TRACE[.gz] PERIOD"""
import gzip
import json
import sys
from collections import defaultdict
from fractions import Fraction


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        header = None
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split(",")
            if header is None:
                header = fields
                continue
            yield dict(zip(header, fields))


def pcs(field):
    return [int(p, 16) for p in field.split(";")] if field else []


def main():
    path, period = sys.argv[1], int(sys.argv[2])
    prof = {name: defaultdict(Fraction) for name in ("tip", "tip-ilp", "nci", "nci-ilp", "lci")}
    tip_wait, nci_wait = [], []   # weights of samples waiting for a dispatch / a commit
    last = None                    # LCI: youngest of the latest commit cycle
    origin = next_sample = unsampled = None
    for r in rows(path):
        cycle, run = int(r["cycle"]), int(r["run"])
        commits, dispatched = pcs(r["commit_pcs"]), pcs(r["dispatch_pcs"])
        if origin is None:
            origin = unsampled = cycle
            next_sample = origin + period - 1   # the last cycle of each period
        if dispatched:
            for w in tip_wait:
                prof["tip"][dispatched[0]] += w
                prof["tip-ilp"][dispatched[0]] += w
            tip_wait = []
        if commits:
            for w in nci_wait:
                prof["nci"][commits[0]] += w
                for pc in commits:
                    prof["nci-ilp"][pc] += w / len(commits)
            nci_wait = []
        while next_sample < cycle + run:
            w = Fraction(next_sample + 1 - unsampled)   # every cycle since the previous sample
            unsampled, next_sample = next_sample + 1, next_sample + period
            state = r["state"]
            if state == "computing":
                for pc in commits:
                    prof["tip"][pc] += w / len(commits)
                prof["tip-ilp"][commits[0]] += w
            elif state == "stalled":
                prof["tip"][int(r["head_pc"], 16)] += w
                prof["tip-ilp"][int(r["head_pc"], 16)] += w
            elif state == "flushed":
                prof["tip"][int(r["flush_pc"], 16)] += w
                prof["tip-ilp"][int(r["flush_pc"], 16)] += w
            elif dispatched:
                prof["tip"][dispatched[0]] += w
                prof["tip-ilp"][dispatched[0]] += w
            else:
                tip_wait.append(w)
            if commits:
                prof["nci"][commits[0]] += w
                for pc in commits:
                    prof["nci-ilp"][pc] += w / len(commits)
            else:
                nci_wait.append(w)
            at = commits[0] if commits else last
            if at is not None:
                prof["lci"][at] += w
        if commits:
            last = commits[-1]
    out = {name: {"0x%x" % pc: "%d/%d" % (c.numerator, c.denominator) for pc, c in p.items()} for name, p in prof.items()}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
