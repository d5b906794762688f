#!/usr/bin/env python3
"""Mutation fuzzing of every input parser, through the tools themselves.

  tests/fuzz/fuzz.py [--runs N] [--seed S] [--bin DIR] [--keep DIR] [TARGET...]

Each target takes a seed input (the corpus, made afresh from real outputs of
the tools by tests/fuzz/seeds.sh into the work directory), mutates it (bit
flips, byte runs set to boundary values, truncation, duplication and
deletion of ranges, numbers swapped for extreme ones, lines spliced) and
runs the tool that parses it. A run passes when it ends within the time
limit, without a sanitizer report (ASan exits 223 under make test's
ASAN_OPTIONS, UBSan aborts) and, when it fails, with the tool's own
one-line error ("tool: ..."; a guest's death reported by the tool counts).
Failing inputs are kept in --keep (default: tests/fuzz/findings/) with the
command that failed. make test runs a few hundred inputs on the sanitizer
build; `make fuzz` runs many more.
"""
import argparse
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
}

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
            data = mutate_ckpt_json(base, rng) if name == "ckpt_os" else mutate(base, rng)
            inp = os.path.join(work, "input" + os.path.splitext(seed_file)[1])
            with open(inp, "wb") as f:
                f.write(data)
            os.chmod(inp, 0o755)
            argv = [a.bin + "/" + cmd[0]] + [inp if c == "{IN}" else c for c in cmd[1:]]
            try:
                proc = subprocess.run(argv, cwd=work, stdin=subprocess.DEVNULL, capture_output=True,
                                      timeout=a.timeout)
                why = verdict(cmd[0], proc, False)
            except subprocess.TimeoutExpired as e:
                proc, why = e, verdict(cmd[0], None, True)
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
