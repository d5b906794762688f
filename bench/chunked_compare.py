#!/usr/bin/env python3
"""Compare a chunked full run (sim --full --chunk-insts) with a serial one.

Usage: chunked_compare.py SERIAL.json SERIAL.csv CHUNKED.json CHUNKED.csv

Prints one tab-separated line: instructions equal (yes/no), interval rows
equal in number and length (yes/no), CPI difference (%), the largest
cycle-stack component difference and its name (% of the serial cycles), the
largest and mean per-interval CPI difference (%), and the golden profile's
error at instruction level (the TIP paper's: 1 - sum min(P, O) / T, %).
Exits 1 when an exact quantity differs."""
import csv
import json
import sys


def result(path):
    return json.load(open(path))["results"][0]


def rows(path):
    return [(int(r["instructions"]), int(r["cycles"])) for r in csv.DictReader(open(path))]


def profile_error(serial, chunked):
    """The TIP paper's error of the chunked golden profile against the serial one."""
    ref = {e["pc"]: e["cycles"] for e in serial["profile"]["instructions"]}
    got = {e["pc"]: e["cycles"] for e in chunked["profile"]["instructions"]}
    total, gtotal = sum(ref.values()), sum(got.values())
    scale = total / gtotal if gtotal else 0
    overlap = sum(min(ref[pc], got.get(pc, 0) * scale) for pc in ref)
    return 100 * (1 - overlap / total)


def main(sj, sc, cj, cc):
    s, c = result(sj), result(cj)
    srows, crows = rows(sc), rows(cc)
    same_insts = s["instructions"] == c["instructions"]
    same_rows = [r[0] for r in srows] == [r[0] for r in crows]
    cpi = 100 * (c["cpi"] / s["cpi"] - 1)
    name, worst = max(((k, 100 * abs(c["stack"][k] - v) / s["cycles"]) for k, v in s["stack"].items()),
                      key=lambda kv: kv[1])
    diffs = [100 * abs(b[1] / b[0] / (a[1] / a[0]) - 1) for a, b in zip(srows, crows)] if same_rows else [float("nan")]
    print("\t".join([
        "yes" if same_insts else "no", "yes" if same_rows else "no", f"{cpi:+.4f}", f"{worst:.4f}", name,
        f"{max(diffs):.3f}", f"{sum(diffs) / len(diffs):.4f}", f"{profile_error(s, c):.4f}"]))
    return 0 if same_insts and same_rows else 1


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
