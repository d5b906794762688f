#!/usr/bin/env python3
"""bench/long_program.sh's report:
long_program.py RUN-DIR SERIAL.json SERIAL.csv WALL SERIAL-WALL CPUS NICE PROGRAM LINES > long_program.md
long_program.py --project INSTS PASS-S CHUNK-MIPS STITCH-S SERIAL-MIPS: the full run's projection alone

RUN-DIR is pipeline.sh's output directory (its pipeline.log has every job's
"NAME: done in S s" line, with the time it ended); SERIAL.json and .csv the
serial full run (of a prefix, or the whole program); WALL the pipeline's wall
seconds from submitting its jobs to the end of validate; SERIAL-WALL the
serial run's; CPUS the cluster's; NICE the niceness the jobs ran at."""
import csv
import glob
import heapq
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


def pipelined(t_pass, chunks, dur, cpus):
    """The chunked full run's end when chunk k (an array task, started in
    index order on the first free of `cpus` CPUs once the pass starts) may
    begin once the pass has gone past its end ((k + 1) / chunks of the pass;
    the last one at the pass's end) and takes dur (sim/chunk_pass.h)."""
    free = [0.0] * cpus
    end = 0.0
    for k in range(chunks):
        start = max(heapq.heappop(free), t_pass * (k + 1) / chunks)
        heapq.heappush(free, start + dur)
        end = max(end, start + dur)
    return end


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
    # a task starts with the pass and waits for its chunk's checkpoint (its log says how long): its rate is
    # from the end of that wait
    waited = {}
    for k, _ in tasks:
        m = re.search(r"its checkpoint after ([0-9.]+) s", open(os.path.join(run, "logs", f"full.chunks.{k}.log")).read())
        waited[k] = float(m[1]) if m else 0.0
    busy = {k: v[1] - waited[k] for k, v in tasks}
    rates = [task_insts[k] / busy[k] for k, v in tasks if k in task_insts]
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
    print(f"| full run: chunk tasks, median rate (after the wait for a checkpoint) | {len(tasks)} | {C:,} each | "
          f"{statistics.median(busy.values()):.1f}"
          f" | {r_chunk / 1e6:.2f} |")
    print(f"| full run: chunk tasks, first start to last end ({min(cpus, len(tasks))} at a time) | {len(tasks)} | {insts:,} | "
          f"{chunks_span:.1f} | {insts / chunks_span / 1e6:.2f} |")
    row("full run: stitch", 1, 0, t["full"])
    row("validate", 1, 0, t["validate"])
    print(f"| **the pipeline, submission to report** | {len(st)} | {insts:,} | {wall:.1f} | |")
    est = insts / r_serial
    label = "measured" if whole else f"estimated from {s_insts:,} instructions in {s_secs:.1f} s"
    print(f"| serial full run ({label}) | 1 | {insts:,} | {est:.1f} | {r_serial / 1e6:.2f} |\n")
    full_wall = st["full"][2] - st["full.pass"][0]  # the chunks start with the pass, as it makes them ready
    print(f"The chunked full run (pass, {n} chunks of {C:,} after a detailed warm-up of {warm:,}, stitch) took "
          f"{hms(full_wall)} of wall time from the pass's start to the stitch's end on {min(cpus, len(tasks))} CPUs against "
          f"the serial run's {hms(est)} ({est / full_wall:.1f}x); the chunks' simulations (each a "
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
          f"restore and warm-up included), each chunk starting as soon as the pass has gone past its end (sim/chunk_pass.h) "
          f"on a CPU of its own. The chains after bbv run side by side: "
          f"simpoint, checkpoint and the regions; the full run's pass, chunks and stitch. The serial full run at "
          f"{r_serial / 1e6:.2f} M instructions/s takes {hms(TARGET / r_serial)}.\n")
    side = t_sp + t_ck + t_reg
    t_serial = TARGET / r_serial
    print(f"Stages: bbv {hms(t_bbv)}; simpoint, checkpoint and the regions {hms(side)}; the full run's functional "
          f"pass {hms(t_pass)}, stitch {hms(t_stitch)}; validate {hms(t_val)}.\n")
    r_pass = TARGET / t_pass
    keep_up = int(-(-r_pass // r_chunk))  # CPUs that simulate chunks as fast as the pass makes them
    print("| chunks | chunk | the full run: pass + chunks + stitch | (chunks after the whole pass) | serial full run | speedup | "
          "the pipeline | with a serial full run | speedup |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for per_node in (1, 10):
        chunks = NODES * per_node
        per = TARGET / chunks
        chunked = pipelined(t_pass, chunks, per / r_chunk, chunks) + t_stitch
        after = t_pass + per / r_chunk + t_stitch
        total = t_bbv + max(side, chunked) + t_val
        serial_total = t_bbv + max(side, t_serial) + t_val
        size = f"{per:.0e}".replace("e+", "e")
        print(f"| {chunks:,} ({per_node} CPU{'s' if per_node > 1 else ''} a node) | {size} | {hms(chunked)} "
              f"(a chunk {hms(per / r_chunk)}) | {hms(after)} | {hms(t_serial)} | **{t_serial / chunked:.1f}x** | {hms(total)} | "
              f"{hms(serial_total)} | {serial_total / total:.1f}x |")
    per = TARGET / (10 * NODES)
    few = pipelined(t_pass, 10 * NODES, per / r_chunk, keep_up) + t_stitch
    print(f"\nThe functional pass is serial: at these rates it bounds the chunked full run, however many nodes simulate "
          f"the chunks (an array takes at most MaxArraySize tasks, 1,001 by default). Since each chunk starts as the pass "
          f"makes it ready, the chunks need not run at once: the pass makes a chunk every {hms(per / r_pass)} of "
          f"{hms(per / r_chunk)} each, so {keep_up} CPUs keep up with it ({r_pass / 1e6:.1f} against "
          f"{r_chunk / 1e6:.2f} M instructions/s) and 1,000 chunks on {keep_up} CPUs end at {hms(few)}, "
          f"where the chunks run after the whole pass would take {hms(t_pass + TARGET / keep_up / r_chunk + t_stitch)} on "
          f"them. With the full run in chunks the pipeline's longest chain is "
          + ("the sampled one (bbv, then the warm checkpoints' pass)." if side >= t_pass + TARGET / (10 * NODES) / r_chunk + t_stitch
             else "the full run's."))


def project(insts, pass_seconds, chunk_mips, stitch_seconds, serial_mips):
    """--project: the full run's projection alone, from the figures of a
    report (its pass, the chunks' median rate, the stitch, the serial rate)."""
    scale = TARGET / float(insts)
    t_pass, t_stitch = float(pass_seconds) * scale, float(stitch_seconds) * scale
    r_chunk, r_pass, t_serial = float(chunk_mips) * 1e6, TARGET / t_pass, TARGET / (float(serial_mips) * 1e6)
    keep_up = int(-(-r_pass // r_chunk))
    print(f"10^12 instructions: pass {hms(t_pass)} ({r_pass / 1e6:.1f} M/s), a chunk task {r_chunk / 1e6:.2f} M/s, "
          f"stitch {hms(t_stitch)}, serial {hms(t_serial)}; {keep_up} CPUs keep up with the pass (a chunk of 1e9 every "
          f"{hms(1e9 / r_pass)}, {hms(1e9 / r_chunk)} each); a pass at 150 M/s would take {hms(TARGET / 150e6)}")
    print("| chunks | CPUs | chunks as the pass makes them ready | chunks after the whole pass | speedup over serial |")
    print("|--:|--:|--:|--:|--:|")
    for chunks, cpus in ((100, 100), (1000, 1000), (1000, keep_up), (1000, 100)):
        dur = TARGET / chunks / r_chunk
        new = pipelined(t_pass, chunks, dur, cpus) + t_stitch
        waves = -(-chunks // cpus)
        old = t_pass + waves * dur + t_stitch
        print(f"| {chunks:,} | {cpus:,} | {hms(new)} | {hms(old)} | {t_serial / new:.1f}x |")


if __name__ == "__main__":
    if sys.argv[1] == "--project":
        project(*sys.argv[2:7])
    else:
        main(*sys.argv[1:9], int(sys.argv[9]))
