#!/usr/bin/env python3
"""Mutation fuzzing of every input parser, through the tools themselves.

  tests/fuzz/fuzz.py [--runs N] [--seed S] [--bin DIR] [--keep DIR] [TARGET...]

Each target takes a seed input (the corpus, made afresh from real outputs of
the tools by tests/fuzz/seeds.sh into the work directory), mutates it (bit
flips, byte runs set to boundary values, truncation, duplication and
deletion of ranges, numbers swapped for extreme ones, lines spliced) and
runs the tool that parses it. Two targets generate instead: ckpt_desc
changes the descriptors and memory map of a checkpoint holding every
descriptor kind (tests/progs/descriptor_kinds), guest_modes runs a hostile
guest mode under bbv, sim or checkpoint. A run passes when it ends within the time
limit, without a sanitizer report (ASan exits 223 under make test's
ASAN_OPTIONS, UBSan aborts) and, when it fails, with the tool's own
one-line error ("tool: ..."; a guest's death reported by the tool counts),
leaving no temporaries and the seeds' outside.txt as it was.
Failing inputs are kept in --keep (default: tests/fuzz/findings/) with the
command that failed. make test runs a few hundred inputs on the sanitizer
build; `make fuzz` runs many more.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

# target: (seed file in the seed directory, command with {IN} for the input)
TARGETS = {
    "bb": ("seed.bb", ["simpoint", "-loadFVFile", "{IN}", "-maxK", "3", "-saveSimpoints", "o.sp",
                       "-saveSimpointWeights", "o.w"]),
    "bbgz": ("seed.bb.gz", ["simpoint", "-loadFVFile", "{IN}", "-maxK", "3", "-saveSimpoints", "o.sp",
                            "-saveSimpointWeights", "o.w"]),
    "vectors": ("seed.vectors", ["simpoint", "-loadVectorsTxtFmt", "{IN}", "-maxK", "3", "-saveSimpoints",
                                 "o.sp", "-saveSimpointWeights", "o.w"]),
    "proxy": ("seed.proxy", ["simpoint", "-loadFVFile", "seed.bb.gz", "-maxK", "3", "--proxy", "{IN}",
                             "--select-by", "proxy", "--stratify", "0.5", "-saveSimpoints", "o.sp",
                             "-saveSimpointWeights", "o.w", "-saveLabels", "o.l"]),
    "ini": ("seed.ini", ["sim", "-c", "{IN}", "--list-params"]),
    "ckpt_info": ("seed.ckpt", ["checkpoint", "--info", "{IN}"]),
    "ckpt_run": ("seed.ckpt", ["checkpoint", "--run", "{IN}", "--insts", "20000"]),
    "ckpt_os": ("seed.ckpt", ["checkpoint", "--run", "{IN}", "--insts", "20000"]),  # JSON sections mutated
    "full_json": ("full.json", ["validate", "--simpoints", "small.simpoints", "--weights", "small.weights",
                                "-i", "2000", "--full", "{IN}", "--json", "o.json"]),
    "regions_json": ("regions.json", ["validate", "--simpoints", "small.simpoints", "--weights", "small.weights",
                                      "-i", "2000", "--full", "full.json", "--regions", "{IN}", "--json",
                                      "o.json"]),
    "labels": ("small.labels", ["validate", "--simpoints", "small.simpoints", "--weights", "small.weights",
                                "-i", "2000", "--full", "full.json", "--labels", "{IN}", "--json", "o.json"]),
    "simpoints": ("small.simpoints", ["checkpoint", "-o", "ck", "--simpoints", "{IN}", "--weights",
                                      "small.weights", "--interval", "2000", "--", "prog.elf"]),
    # A damaged program may loop forever: that is the guest's doing, so it is cut short.
    "elf": ("prog.elf", ["bbv", "--count-only", "--max-insts", "20M", "--", "{IN}"]),
    # Generated, not mutated (GENERATED below): descriptors of every kind, and hostile guests.
    "ckpt_desc": ("desc.ckpt", ["checkpoint", "--run", "{IN}", "--insts", "20000"]),
    "guest_modes": ("modes.txt", None),
}

# The tools and hostile guests guest_modes runs (the guest's mode is appended).
GUEST_TOOLS = [["bbv", "-o", "b", "--"], ["bbv", "--no-jit", "-o", "b", "--"],
               ["sim", "--full", "--max-insts", "2M", "-o", "r.json", "--interval-log", "il.csv", "--"],
               ["checkpoint", "-o", "ck", "--at", "3000,6000", "--"]]
GUEST_PROGRAMS = {"hostile_modes": ["misamo", "mislr", "jumpnull", "jumpkernel", "fork", "clone", "execve", "smc",
                                    "signest", "stackrec", "brk", "manyfds", "bigseek", "mmaphuge", "shmprotect"],
                  "shared_past_eof": ["beyond", "shrink", "grow", "syscall", "handled"]}

# seeds/outside.txt: what no run may change (it lies outside the runs' directories).
OUTSIDE_TEXT = "precious\n"

EXTREMES = [b"0", b"-1", b"1e308", b"-1e308", b"inf", b"nan", b"18446744073709551615", b"9223372036854775808",
            b"4294967296", b"-0", b"1e-320", b"", b"\xff", b"\"", b"[", b"{}", b"null"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    d = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 3, 6])):
        op = rng.randrange(8)
        n = len(d)
        if op == 0 and n:  # flip bits
            i = rng.randrange(n)
            d[i] ^= 1 << rng.randrange(8)
        elif op == 1 and n:  # a run of boundary bytes
            i = rng.randrange(n)
            v = rng.choice([0, 0xff, 0x7f, 0x80])
            for j in range(i, min(n, i + rng.choice([1, 2, 4, 8]))):
                d[j] = v
        elif op == 2 and n:  # truncate
            del d[rng.randrange(n):]
        elif op == 3 and n:  # delete a range
            i = rng.randrange(n)
            del d[i:i + rng.randrange(1, 64)]
        elif op == 4 and n:  # duplicate a range
            i = rng.randrange(n)
            d[i:i] = d[i:i + rng.randrange(1, 256)]
        elif op == 5:  # replace a number by an extreme one
            nums = list(re.finditer(rb"-?[0-9][0-9.e+-]*", bytes(d)))
            if nums:
                m = rng.choice(nums)
                d[m.start():m.end()] = rng.choice(EXTREMES)
        elif op == 6:  # splice lines
            lines = bytes(d).split(b"\n")
            if len(lines) > 2:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i] = lines[j]
                d = bytearray(b"\n".join(lines))
        else:  # insert random bytes
            i = rng.randrange(n + 1)
            d[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    return bytes(d)


def mutate_ckpt_json(data: bytes, rng: random.Random) -> bytes:
    """Mutate the JSON sections of a checkpoint and keep the container valid,
    so that the parsers behind the CRC checks are reached."""
    sys.path.insert(0, os.path.join(TOP, "tests", "tools"))
    import ckpt_edit  # noqa: E402  (reads and writes the container)
    with tempfile.NamedTemporaryFile(suffix=".ckpt", delete=False) as f:
        f.write(data)
        src = f.name
    head, sections = ckpt_edit.read(src)
    os.unlink(src)
    json_sections = [s for s in sections if s[0] in ("META", "OS  ", "VMAS")]
    s = rng.choice(json_sections)
    s[1] = mutate(s[1], rng)
    out = src + ".out"
    ckpt_edit.write(out, head, sections)
    with open(out, "rb") as f:
        result = f.read()
    os.unlink(out)
    return result


def desc_entry_mutation(files, rng, outside):
    """One structural change to the descriptor list of a checkpoint."""
    pipes = [f for f in files if f.get("kind") in ("pipe", "fifo")]
    e = rng.choice(pipes if pipes and rng.random() < 0.6 else files)  # where restoring writes
    choices = {
        "kind": ["file", "dir", "dev", "fifo", "pipe", "data", "std", "same", "sock"],
        "flags": [0, 1, 2, 3, 0o101, 0o1002, 0o2000, 0o4000, 0o10000000, -1],
        "path": [outside, "ff", "/dev/zero", "/dev/full", "/proc/self/mem", "", "..", "/", "shared.bin"],
        "pipe": [0, 1, e.get("fd", 0), 2 ** 40],
        "size": [4096, 4097, 65536, 1 << 20, 1 << 30],
        "end": ["r", "w", "x"],
        "data": [[0, 1], [0, 40000], [0, 70000], [1 << 40, 1], [0, 0]],
        "offset": [0, 1, 2 ** 62, -1],
        "same_as": [0, 2, e.get("fd", 0)],
        "fd": [0, 3, 1023, 1024],
    }
    key = rng.choice(sorted(choices))
    op = rng.randrange(4)
    if op == 0 and len(files) < 60:  # a second entry like this one, on the next free fd
        twin = dict(e, fd=max(f.get("fd", 0) for f in files) + 1)
        twin[key] = rng.choice(choices[key])
        files.append(twin)
    elif op == 1 and files:
        files.remove(e)
    else:
        e[key] = rng.choice(choices[key])


def vma_mutation(vmas, rng):
    shared = [v for v in vmas if v.get("kind") == 2]
    v = rng.choice(shared if shared and rng.random() < 0.7 else vmas)
    key = rng.choice(["start", "end", "offset", "prot", "kind", "file_size", "path"])
    v[key] = rng.choice({"start": [0, 4096, v["end"], 2 ** 38], "end": [v["start"], v["start"] + 4096, 2 ** 38],
                         "offset": [0, 4096, 1, 2 ** 62], "prot": [0, 1, 3, 7], "kind": [0, 1, 2, 3],
                         "file_size": ["0x0", "0x1", "0x1000", "0x100000000"],
                         "path": ["shared.bin", "/etc/passwd", "ff", "/proc/self/mem"]}[key])


def generate_ckpt_desc(data, rng, seeds, work):
    """The descriptor-kind checkpoint, moved into the work directory (its
    paths name the run's own copies) and given one or a few structural
    changes: entries of other kinds, modes, paths, pipes, sizes, data ranges,
    memory-map entries; or a mutated JSON section."""
    sys.path.insert(0, os.path.join(TOP, "tests", "tools"))
    import ckpt_edit  # noqa: E402
    src = os.path.join(work, "seed.ckpt")
    with open(src, "wb") as f:
        f.write(data)
    head, sections = ckpt_edit.read(src)
    os.unlink(src)
    outside = os.path.join(seeds, "outside.txt")
    for sec in sections:
        if sec[0] in ("META", "OS  ", "VMAS"):
            sec[1] = sec[1].replace(seeds.encode(), work.encode())
    by_tag = {sec[0]: sec for sec in sections}
    os_json, vmas = json.loads(by_tag["OS  "][1]), json.loads(by_tag["VMAS"][1])
    for _ in range(rng.choice([1, 1, 2, 3])):
        what = rng.randrange(10)
        if what < 6:
            desc_entry_mutation(os_json["files"], rng, outside)
        elif what < 8:
            vma_mutation(vmas, rng)
        elif what == 8:
            by_tag["FDAT"][1] = bytes(rng.choice([0, 8, 40000, 70000]))
        else:
            os_json["cwd"] = rng.choice([seeds, "/", "/nonexistent", work])
    by_tag["OS  "][1], by_tag["VMAS"][1] = json.dumps(os_json).encode(), json.dumps(vmas).encode()
    if rng.random() < 0.2:
        sec = by_tag[rng.choice(["OS  ", "VMAS"])]
        sec[1] = mutate(sec[1], rng)
    out = os.path.join(work, "generated.ckpt")
    ckpt_edit.write(out, head, sections)
    with open(out, "rb") as f:
        result = f.read()
    os.unlink(out)
    return result


def generate_guest_mode(rng, bin_dir):
    """A tool running a hostile guest in one of its modes."""
    tool = rng.choice(GUEST_TOOLS)
    prog = rng.choice(sorted(GUEST_PROGRAMS))
    return [bin_dir + "/" + tool[0]] + tool[1:] + [os.path.join(TOP, "build", "rv", "progs", prog),
                                                   rng.choice(GUEST_PROGRAMS[prog])]


def leftovers(work):
    """Temporaries a tool left in its directory (NAME.tmpXXXXXX, .DIR.tmpXXXXXX)."""
    return [f for f in os.listdir(work) if ".tmp" in f]


def verdict(tool, proc, timed_out):
    """None when the run is acceptable, else why not."""
    if timed_out:
        return "hang (time limit)"
    err = proc.stderr.decode(errors="replace")
    if proc.returncode == 223 or "AddressSanitizer" in err or "runtime error" in err:
        return "sanitizer report"
    if proc.returncode < 0:
        return f"killed by signal {-proc.returncode}"
    if proc.returncode == 0:
        return None
    lines = [l for l in err.splitlines() if l.strip()]
    if not lines:
        return f"exit {proc.returncode} without a message"
    if tool == "bbv" and lines[-1].strip().isdigit():
        return None  # --count-only: the guest ran to its end; the status is its own
    if not any(l.startswith(tool + ":") for l in lines):
        return f"exit {proc.returncode} without the tool's message: {lines[-1][:200]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30, help="inputs per target")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default=os.path.join(TOP, "build", "bin"))
    ap.add_argument("--seeds", required=True, help="directory made by tests/fuzz/seeds.sh")
    ap.add_argument("--keep", default=os.path.join(HERE, "findings"))
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("targets", nargs="*")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)
    # A die() leaves its allocations to exit; ASan's reports must stand out.
    os.environ.setdefault("ASAN_OPTIONS", "detect_leaks=0:exitcode=223")
    os.environ.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    names = a.targets or list(TARGETS)
    failures = 0
    for name in names:
        seed_file, cmd = TARGETS[name]
        base = open(os.path.join(a.seeds, seed_file), "rb").read()
        rng = random.Random(f"{a.seed}/{name}")
        bad = 0
        for i in range(a.runs):
            work = tempfile.mkdtemp(prefix=f"fuzz_{name}_")
            for f in os.listdir(a.seeds):
                p = os.path.join(a.seeds, f)
                if os.path.isfile(p):
                    shutil.copy(p, work)
            if name == "ckpt_desc":
                os.mkfifo(os.path.join(work, "ff"))
                data = generate_ckpt_desc(base, rng, os.path.abspath(a.seeds), work)
            elif name == "ckpt_os":
                data = mutate_ckpt_json(base, rng)
            else:
                data = mutate(base, rng)
            inp = os.path.join(work, "input" + os.path.splitext(seed_file)[1])
            with open(inp, "wb") as f:
                f.write(data)
            os.chmod(inp, 0o755)
            if cmd:
                argv = [a.bin + "/" + cmd[0]] + [inp if c == "{IN}" else c for c in cmd[1:]]
            else:
                argv = generate_guest_mode(rng, a.bin)
                with open(inp, "w") as f:
                    f.write(" ".join(argv) + "\n")
            tool = os.path.basename(argv[0])
            try:
                proc = subprocess.run(argv, cwd=work, stdin=subprocess.DEVNULL, capture_output=True,
                                      timeout=a.timeout)
                why = verdict(tool, proc, False)
            except subprocess.TimeoutExpired as e:
                proc, why = e, verdict(tool, None, True)
            if not why and leftovers(work):
                why = f"temporaries left: {leftovers(work)}"
            if not why and open(os.path.join(a.seeds, "outside.txt")).read() != OUTSIDE_TEXT:
                why = "a file outside the writable directories was written"
                with open(os.path.join(a.seeds, "outside.txt"), "w") as f:
                    f.write(OUTSIDE_TEXT)
            if why:
                bad += 1
                os.makedirs(a.keep, exist_ok=True)
                kept = os.path.join(a.keep, f"{name}-{a.seed}-{i}")
                shutil.copy(inp, kept)
                with open(kept + ".txt", "w") as f:
                    f.write(" ".join(argv).replace(inp, kept) + "\n" + why + "\n")
                    f.write((proc.stderr or b"").decode(errors="replace")[-3000:])
                print(f"FAIL {name} #{i}: {why} (input kept as {kept})")
            shutil.rmtree(work, ignore_errors=True)
        print(f"{'ok  ' if not bad else 'FAIL'} {name}: {a.runs} inputs, {bad} failures")
        failures += bad
    sys.exit(1 if failures else 0)


main()
