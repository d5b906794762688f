#!/usr/bin/env python3
"""bench/chunked_full.sh's table: chunked_report.py ROWS.tsv JOBS [COMMIT] > chunked_full.md

ROWS: program, instructions, C, W, chunks, then chunked_compare.py's eight
columns, then the serial and chunked wall seconds; COMMIT: the build's."""
import sys


def per_boundary(r):
    """The CPI difference as instructions of the run per chunk boundary."""
    insts, chunks = int(r[1]), int(r[4])
    return abs(float(r[7])) / 100 * insts / (chunks - 1) if chunks > 1 else 0


def main(path, jobs, commit=None):
    rows = [l.rstrip("\n").split("\t") for l in open(path)]
    print("# Chunked full runs against serial ones\n")
    at = f" at {commit}" if commit else ""
    print(f"`bench/chunked_full.sh`{at}: `sim --full --chunk-insts C --chunk-warmup W` against `sim --full` (-G 1M),")
    print(f"the chunks on {jobs} threads. Instructions and the interval log's rows (count and lengths) are equal in")
    print("every run (the script stops otherwise). CPI: (chunked - serial) / serial; stack: the largest")
    print("difference of one cycle-stack component, in % of the serial cycles; interval CPI: the largest and")
    print("mean |difference| of one log row's CPI; profile: the golden profile's instruction-level error")
    print("(TIP's metric) against the serial one; per boundary: |CPI difference| x instructions / (chunks - 1),")
    print("the error one chunk boundary costs, in instructions' worth of the run's time. Wall times in seconds")
    print("on a shared 2-core machine (other work ran beside).\n")
    cfgs = {}
    for r in rows:
        cfgs.setdefault((r[2], r[3]), []).append(r)
    print("## Summary per chunk size and warm-up\n")
    print("| C | W | runs | mean \\|CPI\\| % | max \\|CPI\\| % | max stack % | max interval CPI % | "
          "mean interval CPI % | max profile % | max per boundary |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for (c, w), rs in cfgs.items():
        cpi = [abs(float(r[7])) for r in rs]
        print(f"| {c} | {w} | {len(rs)} | {sum(cpi) / len(cpi):.4f} | {max(cpi):.4f} | "
              f"{max(float(r[8]) for r in rs):.4f} | {max(float(r[10]) for r in rs):.3f} | "
              f"{sum(float(r[11]) for r in rs) / len(rs):.4f} | {max(float(r[12]) for r in rs):.4f} | "
              f"{max(per_boundary(r) for r in rs):.0f} |")
    print("\n## Every run\n")
    print("| program | instructions | C | W | chunks | CPI % | stack % (component) | interval CPI % max / mean | "
          "profile % | per boundary | wall serial | wall chunked |")
    print("|---|--:|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[7]} | {r[8]} ({r[9]}) | {r[10]} / {r[11]} | "
              f"{r[12]} | {per_boundary(r):.0f} | {r[13]} | {r[14]} |")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(*sys.argv[1:])
