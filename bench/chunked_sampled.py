#!/usr/bin/env python3
"""bench/chunked_sampled.sh's table:
chunked_sampled.py JOBS NAME DIR SERIAL-SECONDS CHUNKED-SECONDS ... > chunked_sampled.md

Each DIR holds serial.json, seed2.json (serial, --sample-seed 2) and
chunked.json, sim --full results with the same samplers."""
import json
import sys


def samplers(path):
    """(period, random) -> {profiler: (samples, instruction error %)}, and the result."""
    r = json.load(open(path))["results"][0]
    out = {}
    for s in [r["sampled"]] + r.get("sample_sweep", []):
        out[(s["period"], s["random"])] = {k: (v["samples"], 100 * v["error"]["instruction"])
                                           for k, v in s.items() if isinstance(v, dict) and "error" in v}
    return out, r


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def main(jobs, args):
    runs = [args[i:i + 4] for i in range(0, len(args), 4)]
    rows = []  # name, chunks, period, random, profiler, serial samples, chunked samples, E serial, E chunked, E seed 2
    for name, d, _, _ in runs:
        s, _ = samplers(f"{d}/serial.json")
        s2, _ = samplers(f"{d}/seed2.json")
        c, rc = samplers(f"{d}/chunked.json")
        chunks = rc["chunked"]["chunks"]
        for key in sorted(s):
            for p in s[key]:
                rows.append((name, chunks, key[0], key[1], p, s[key][p][0], c[key][p][0], s[key][p][1], c[key][p][1],
                             s2[key][p][1]))
    print("# Sampled profiles of chunked full runs against serial ones\n")
    print("`bench/chunked_sampled.sh`: `sim --full --chunk-insts 4M --chunk-warmup 100k` against `sim --full`, the")
    print(f"chunks on {jobs} threads, with the same samplers: `--sample tip,nci,lci,dispatch` at 400 kHz (period")
    print("8,000 cycles, periodic) and `--sample-sweep-hz 40000,4000000` (periods 80,000 and 800, periodic and")
    print("random). Each chunk's sampler starts part-way through a period, at a phase drawn from the seed and")
    print("the chunk's first instruction, and the cycles a chunk leaves after its last sample go with the next")
    print("chunk's first record (`sim/RESULTS.md`). E: a profile's instruction-level error against its own run's")
    print("golden profile (TIP's metric), in points; serial / chunked: that of the serial and the chunked run;")
    print("seed 2: a second serial run with `--sample-seed 2`, whose random samplers sample other cycles: the")
    print("spread sampling itself has, against which |chunked - serial| is to be read (periodic samplers do not")
    print("depend on the seed: there the random samplers' spread at the same period is the scale).\n")
    def sel(period, random, prof="tip"):
        return [r for r in rows if (r[2], r[3], r[4]) == (period, random, prof)]
    fine = min(r[2] for r in rows)
    rnd, per = sel(fine, True), sel(fine, False)
    if rnd and per:
        print(f"**TIP at the finest period ({fine} cycles), over {len(rnd)} runs:** random sampling, chunked against "
              f"serial, mean |difference of error| {mean([abs(r[8] - r[7]) for r in rnd]):.2f} points, no more than "
              f"two serial runs with other seeds differ ({mean([abs(r[9] - r[7]) for r in rnd]):.2f}); periodic "
              f"sampling {mean([abs(r[8] - r[7]) for r in per]):.2f} points, its error depending on the phase "
              f"(aliasing) and the chunks' new phases lowering it on average ({mean([r[7] for r in per]):.2f} "
              f"serial, {mean([r[8] for r in per]):.2f} chunked); samples taken, chunked / serial "
              f"{sum(r[6] for r in rnd + per) / sum(r[5] for r in rnd + per):.4f}.\n")
    print("## Summary per sampler and profiler (mean over the programs)\n")
    print("| period | mode | profiler | runs | samples chunked / serial | E serial | E chunked | "
          "mean \\|chunked - serial\\| | max \\|chunked - serial\\| | mean \\|seed 2 - serial\\| (random) |")
    print("|--:|---|---|--:|--:|--:|--:|--:|--:|--:|")
    keys = sorted({(r[2], r[3], r[4]) for r in rows}, key=lambda k: (k[0], k[1], k[2]))
    for period, random, prof in keys:
        sel = [r for r in rows if (r[2], r[3], r[4]) == (period, random, prof)]
        rnd = [r for r in rows if (r[2], r[3], r[4]) == (period, True, prof)]
        diff = [abs(r[8] - r[7]) for r in sel]
        print(f"| {period} | {'random' if random else 'periodic'} | {prof} | {len(sel)} | "
              f"{sum(r[6] for r in sel) / sum(r[5] for r in sel):.4f} | {mean([r[7] for r in sel]):.2f} | "
              f"{mean([r[8] for r in sel]):.2f} | {mean(diff):.2f} | {max(diff):.2f} | "
              f"{f'{mean([abs(r[9] - r[7]) for r in rnd]):.2f}' if rnd else '-'} |")
    print("\n## TIP, every run\n")
    print("| program | chunks | period | mode | samples serial | samples chunked | E serial | E chunked | E seed 2 |")
    print("|---|--:|--:|---|--:|--:|--:|--:|--:|")
    for r in rows:
        if r[4] == "tip":
            print(f"| {r[0]} | {r[1]} | {r[2]} | {'random' if r[3] else 'periodic'} | {r[5]} | {r[6]} | "
                  f"{r[7]:.2f} | {r[8]:.2f} | {r[9]:.2f} |")
    print("\n## Wall seconds (a shared 2-core machine)\n")
    print("| program | serial | chunked |\n|---|--:|--:|")
    for name, _, ws, wc in runs:
        print(f"| {name} | {float(ws):.1f} | {float(wc):.1f} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
