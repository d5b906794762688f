#!/usr/bin/env python3
"""bench/long_program.sh's report:
long_program.py RUN-DIR SERIAL.json SERIAL.csv WALL SERIAL-WALL CPUS NICE PROGRAM LINES > long_program.md

RUN-DIR is pipeline.sh's output directory (its pipeline.log has every job's
"NAME: done in S s" line, with the time it ended); SERIAL.json and .csv the
serial full run (of a prefix, or the whole program); WALL the pipeline's wall
seconds from submitting its jobs to the end of validate; SERIAL-WALL the
serial run's; CPUS the cluster's; NICE the niceness the jobs ran at."""
import csv
import glob
import json
import os
import re
import statistics
import sys

TARGET, NODES = 10**12, 100


def stages(log):
    """name -> (start, end) in seconds since the first job started (from the
    end times, to the second, and the durations, to 0.01 s)."""
    done = {}
    last, day = None, 0
    for line in open(log):
        m = re.match(r"(\d\d):(\d\d):(\d\d) (\S+): done in ([0-9.]+) s$", line.strip())
        if not m:
            continue
        t = int(m[1]) * 3600 + int(m[2]) * 60 + int(m[3])
        if last is not None and t + day < last - 43200:
            day += 86400  # past midnight
        last = t + day
        done[m[4]] = (last - float(m[5]), float(m[5]), last)
    first = min(v[0] for v in done.values())
    return {k: (s - first, d, e - first) for k, (s, d, e) in done.items()}


def result(path):
    return json.load(open(path))["results"][0]


def rows(path):
    return [(int(r["start"]), int(r["instructions"]), int(r["cycles"])) for r in csv.DictReader(open(path))]


def hms(s):
    if s >= 86400:
        return f"{s / 86400:.1f} d"
    if s >= 3600:
        return f"{s / 3600:.1f} h"
    if s >= 60:
        return f"{s / 60:.1f} min"
    return f"{s:.1f} s"


def main(run, serial_json, serial_csv, wall, serial_wall, cpus, niceness, program, lines):
    wall, serial_wall, cpus = float(wall), float(serial_wall), int(cpus)
    st = stages(os.path.join(run, "pipeline.log"))
    full = result(os.path.join(run, "full.json"))
    bbv = json.load(open(glob.glob(os.path.join(run, "*.summary.json"))[0]))
    insts = full["instructions"]
    ch = full["chunked"]
    n, C, warm = ch["chunks"], ch["instructions_per_chunk"], ch["warmup"]
    tasks = sorted((int(k.rsplit(".", 1)[1]), v) for k, v in st.items() if k.startswith("full.chunks."))
    regions = [v for k, v in st.items() if k.startswith("regions.tasks.")]
    # a chunk task's instructions: C, the last one's the rest
    task_insts = {k: C if k < n - 1 else insts - (n - 1) * C for k, _ in tasks}
    rates = [task_insts[k] / v[1] for k, v in tasks if k in task_insts]
    r_chunk = statistics.median(rates)
    chunks_span = max(v[2] for _, v in tasks) - min(v[0] for _, v in tasks)
    serial = result(serial_json)
    s_insts, s_secs = serial["instructions"], serial_wall
    r_serial = s_insts / s_secs
    whole = s_insts == insts
    # CPI over the serial run's instructions: the chunked run's log rows there
    c_rows = [r for r in rows(os.path.join(run, "full.csv")) if r[0] < s_insts]
    c_cpi = sum(r[2] for r in c_rows) / sum(r[1] for r in c_rows)
    s_cpi = serial["cycles"] / s_insts
    boundaries = (s_insts - 1) // C
    v = list(csv.DictReader(open(os.path.join(run, "validate", "summary.csv"))))[0]

    t = {k: st[k][1] for k in ("bbv", "simpoint", "checkpoint", "regions", "full.pass", "full", "validate")}
    t_regions = max(r[1] for r in regions)
    print(f"# A long program end to end on Slurm: `{os.path.basename(program.split()[0])}` on {insts:,} instructions\n")
    print(f"`bench/long_program.sh`: `{program}` (`big.txt`: {lines:,} lines of `tests/corpus/make_inputs.py --text`)")
    print(f"through `scripts/pipeline.sh --engine slurm --wait --full-chunks {n}` on the local Slurm cluster the tests")
    print(f"start (`tests/tools/slurm_cluster.sh`: this machine as its one node, {cpus} CPUs, shared with other work;")
    print(f"the jobs ran at niceness {niceness}), then the serial full run " + ("whole" if whole else f"on the program's first {s_insts:,} "
          "instructions, its wall time for the whole program estimated from that prefix's speed") + ".")
    print(f"Validation: CPI error {float(v['error_pct']):+.2f}% against the chunked full run "
          f"(interval {int(v['interval']):,}, {v['simpoints']} regions).\n")
    print("## Stages (wall seconds of each job, from pipeline.log)\n")
    print("| stage | jobs | instructions | seconds | M instructions/s |")
    print("|---|--:|--:|--:|--:|")
    def row(name, jobs, ins, secs):
        rate = f"{ins / secs / 1e6:.1f}" if ins else ""
        print(f"| {name} | {jobs} | {f'{ins:,}' if ins else ''} | {secs:.1f} | {rate} |")
    row("bbv (--proxy: BBVs and the warming model's metrics)", 1, insts, t["bbv"])
    row("simpoint", 1, 0, t["simpoint"])
    row("checkpoint (warm, one pass)", 1, insts, t["checkpoint"])
    row(f"regions: the longest of {len(regions)} tasks", len(regions), 0, t_regions)
    row("regions: join", 1, 0, t["regions"])
    row("full run: functional pass (chunk checkpoints)", 1, insts, t["full.pass"])
    print(f"| full run: chunk tasks, median rate | {len(tasks)} | {C:,} each | {statistics.median(v[1] for _, v in tasks):.1f}"
          f" | {r_chunk / 1e6:.2f} |")
    print(f"| full run: chunk tasks, first start to last end ({min(cpus, len(tasks))} at a time) | {len(tasks)} | {insts:,} | "
          f"{chunks_span:.1f} | {insts / chunks_span / 1e6:.2f} |")
    row("full run: stitch", 1, 0, t["full"])
    row("validate", 1, 0, t["validate"])
    print(f"| **the pipeline, submission to report** | {len(st)} | {insts:,} | {wall:.1f} | |")
    est = insts / r_serial
    label = "measured" if whole else f"estimated from {s_insts:,} instructions in {s_secs:.1f} s"
    print(f"| serial full run ({label}) | 1 | {insts:,} | {est:.1f} | {r_serial / 1e6:.2f} |\n")
    print(f"The chunked full run (pass, {n} chunks of {C:,} after a detailed warm-up of {warm:,}, stitch) took "
          f"{hms(t['full.pass'] + chunks_span + t['full'])} of wall time on {min(cpus, len(tasks))} CPUs against the serial "
          f"run's {hms(est)} ({est / (t['full.pass'] + chunks_span + t['full']):.1f}x); the chunks' simulations (each a "
          f"wall time, two at once beside other work) summed to {ch['chunk_seconds']:.0f} s, "
          f"{insts / ch['chunk_seconds'] / 1e6:.2f} M instructions/s a chunk against the serial run's "
          f"{r_serial / 1e6:.2f} alone afterwards.")
    print(f"Over the {'whole program' if whole else 'prefix'} ({s_insts:,} instructions, {boundaries} chunk "
          f"boundar{'y' if boundaries == 1 else 'ies'}), the chunked run's CPI is {c_cpi:.5f} against the serial run's "
          f"{s_cpi:.5f} ({100 * (c_cpi - s_cpi) / s_cpi:+.3f}%).\n")

    # Projection: the same stages on a 10^12-instruction program, 100 nodes.
    scale = TARGET / insts
    t_bbv, t_sp, t_ck = t["bbv"] * scale, t["simpoint"] * scale, t["checkpoint"] * scale
    t_pass, t_val, t_stitch = t["full.pass"] * scale, t["validate"] * scale, t["full"] * scale
    t_reg = t_regions + t["regions"]
    print(f"## Projection: a 10^12-instruction program on {NODES} nodes\n")
    print(f"From the rates above (each stage's seconds per instruction, at the same interval size: the regions' work "
          f"does not grow with the program, simpoint's, the stitch's and validate's grow with the intervals and log rows, "
          f"taken as linear), a chunk task at the median rate measured ({r_chunk / 1e6:.2f} M instructions/s, its "
          f"restore and warm-up included) and every chunk running at once, one a CPU. The chains after bbv run side by side: "
          f"simpoint, checkpoint and the regions; the full run's pass, chunks and stitch. The serial full run at "
          f"{r_serial / 1e6:.2f} M instructions/s takes {hms(TARGET / r_serial)}.\n")
    side = t_sp + t_ck + t_reg
    t_serial = TARGET / r_serial
    print(f"Stages: bbv {hms(t_bbv)}; simpoint, checkpoint and the regions {hms(side)}; the full run's functional "
          f"pass {hms(t_pass)}, stitch {hms(t_stitch)}; validate {hms(t_val)}.\n")
    print("| chunks | chunk | the full run: pass + chunks + stitch | serial full run | speedup | "
          "the pipeline | with a serial full run | speedup |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|")
    for per_node in (1, 10):
        chunks = NODES * per_node
        per = TARGET / chunks
        chunked = t_pass + per / r_chunk + t_stitch
        total = t_bbv + max(side, chunked) + t_val
        serial_total = t_bbv + max(side, t_serial) + t_val
        size = f"{per:.0e}".replace("e+", "e")
        print(f"| {chunks:,} ({per_node} CPU{'s' if per_node > 1 else ''} a node) | {size} | {hms(chunked)} "
              f"(chunks {hms(per / r_chunk)}) | {hms(t_serial)} | **{t_serial / chunked:.1f}x** | {hms(total)} | "
              f"{hms(serial_total)} | {serial_total / total:.1f}x |")
    print("\nThe functional pass is serial: at these rates it bounds the chunked full run, however many nodes simulate "
          "the chunks (1,000 tasks are Slurm's default MaxArraySize); with the full run in chunks the pipeline's longest "
          "chain is " + ("the sampled one (bbv, then the warm checkpoints' pass)." if side >= t_pass + TARGET / (10 * NODES) / r_chunk + t_stitch
          else "the full run's."))


if __name__ == "__main__":
    main(*sys.argv[1:9], int(sys.argv[9]))
