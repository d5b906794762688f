#!/usr/bin/env python3
"""Write the corpus programs' generated inputs into a directory.

Everything comes from fixed seeds, so every machine gets the same bytes:
  text.txt    English-like text (compressors, awk); short.txt, its first 400 lines (sed)
  model.lp    a mixed-integer linear program in lp_solve's LP format
  doc.yaml    a nested YAML document; bad.yaml is malformed
  unit.c      a self-contained C translation unit for tcc (unit.o, empty, its output)
  log.csv     comma-separated records (awk)
  kernels.asm x86-64 assembly with macros, loops and a data table (nasm)
  text.txt.gz, text.txt.bz2, text.txt.xz   compressed text (decompressors)
  sql_MODE.sql  a fresh database in journal mode MODE, then workload.sql;
                sql_inmem.sql the same in an in-memory database
  fifo        a named pipe nobody writes to (bash's read -t times out on it)
and copies the static inputs (scripts) from tests/corpus/inputs/.
"""
import bz2
import gzip
import lzma
import os
import random
import shutil
import sys
from pathlib import Path

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
rng = random.Random(20261124)

WORDS = ("the of and to in is was for on that with as by at from it an be this which or are "
         "simulation sample interval cluster vector basic block branch cache miss latency "
         "pipeline register memory store load commit retire decode fetch issue window "
         "program instruction checkpoint region weight error estimate profile count").split()


def text(n_lines):
    lines = []
    for i in range(n_lines):
        words = [rng.choice(WORDS) for _ in range(rng.randint(3, 16))]
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), str(rng.randint(0, 99999)))
        line = " ".join(words)
        lines.append(line[0].upper() + line[1:] + rng.choice(".,;!?"))
    return "\n".join(lines) + "\n"


def lp_model(rows, cols):
    """max c.x subject to A x <= b, 0 <= x <= 20, some x integer."""
    obj = " + ".join(f"{rng.randint(1, 40)} x{j}" for j in range(cols))
    lines = ["/* generated */", f"max: {obj};", ""]
    for i in range(rows):
        terms = [f"{rng.randint(1, 30)} x{j}" for j in range(cols) if rng.random() < 0.35]
        lines.append(f"c{i}: " + " + ".join(terms or ["x0"]) + f" <= {rng.randint(200, 900)};")
    lines += [f"x{j} <= 20;" for j in range(cols)]
    lines.append("int " + ",".join(f"x{j}" for j in range(0, cols, 5)) + ";")
    return "\n".join(lines) + "\n"


def yaml_doc(n):
    parts = ["# generated", "machines:"]
    for i in range(n):
        parts += [f"  - name: core{i}",
                  f"    width: {rng.choice([2, 4, 8])}",
                  f"    clock_ghz: {rng.uniform(1, 4):.3f}",
                  f"    caches: {{l1i: {2 ** rng.randint(4, 6)}, l1d: {2 ** rng.randint(4, 6)}, l2: {2 ** rng.randint(8, 11)}}}",
                  f"    tags: [{', '.join(rng.sample(WORDS, 3))}]",
                  "    notes: |",
                  f"      {' '.join(rng.choice(WORDS) for _ in range(12))}",
                  f"      {' '.join(rng.choice(WORDS) for _ in range(9))}"]
    return "\n".join(parts) + "\n"


def c_unit(n):
    fns = []
    for i in range(n):
        a, b = rng.randint(1, 97), rng.randint(1, 97)
        fns.append(f"""
static long f{i}(long x, const long *v, int n)
{{
    long acc = {a};
    for (int i = 0; i < n; i++) {{
        if ((v[i] ^ x) & {b}) acc = acc * {a} + v[i] / (x | 1);
        else acc -= (v[i] << (i & 7)) % {b};
    }}
    switch (x & 3) {{
    case 0: return acc;
    case 1: return acc ^ {a * b};
    default: return acc + f{i - 1 if i else 0}(x >> 1, v, n / 2);
    }}
}}""")
    calls = " + ".join(f"f{i}(seed + {i}, tab, 16)" for i in range(n))
    return ("/* generated */\ntypedef struct { double re, im; } cplx;\n"
            "static cplx cmul(cplx a, cplx b) { cplx r = { a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re }; return r; }\n"
            + "".join(fns) +
            f"\nlong corpus_entry(long seed, long *tab)\n{{\n    cplx z = {{ 0.5, 0.25 }};\n"
            f"    for (int i = 0; i < 8; i++) z = cmul(z, z);\n    return {calls} + (long)(z.re * 1e6);\n}}\n")


def x86_asm(n):
    """Functions built from a macro, %rep blocks and a data table: nasm's
    preprocessor, its expression evaluator and its multi-pass jump sizing."""
    lines = ["; generated", "bits 64", "%macro SCALE 3", "    imul %1, %2, %3", "%endmacro",
             "section .text"]
    for i in range(n):
        a, b = rng.randint(2, 900), rng.randint(1, 60)
        lines += [f"global fn{i}", f"fn{i}:", "    xor eax, eax", f"    mov ecx, {b}", f".loop{i}:",
                  f"    SCALE edx, ecx, {a}", "    add eax, edx", f"    %rep {1 + i % 4}",
                  "        rol eax, 3", "        xor eax, ecx", "    %endrep", "    dec ecx",
                  f"    jnz .loop{i}", f"    cmp eax, {rng.randint(0, 1 << 20)}",
                  f"    jb near fn{(i + 7) % n}", "    ret"]
    lines += ["section .data", "table:"]
    lines += [f"    dq {rng.randint(0, 1 << 40)}, fn{i}, {rng.random():.6f}" for i in range(n)]
    lines.append(f"table_end: times 64 - ($ - table) % 64 db 0x{rng.randint(0, 255):02x}")
    return "\n".join(lines) + "\n"


def csv(n):
    rows = ["id,region,program,instructions,cycles"]
    for i in range(n):
        insts = rng.randint(10 ** 5, 10 ** 8)
        rows.append(f"{i},{rng.choice(['north', 'south', 'east', 'west'])},{rng.choice(WORDS)},"
                    f"{insts},{int(insts * rng.uniform(0.4, 3.0))}")
    return "\n".join(rows) + "\n"


(out / "text.txt").write_text(text(1200))
(out / "short.txt").write_text("".join((out / "text.txt").read_text().splitlines(True)[:400]))
(out / "model.lp").write_text(lp_model(40, 36))
(out / "doc.yaml").write_text(yaml_doc(40))
(out / "bad.yaml").write_text("a: [1, 2\nb: {c: d\n- e\n")
(out / "unit.c").write_text(c_unit(120))
(out / "log.csv").write_text(csv(3000))
(out / "kernels.asm").write_text(x86_asm(60))

text_bytes = (out / "text.txt").read_bytes()
(out / "text.txt.gz").write_bytes(gzip.compress(text_bytes, compresslevel=6, mtime=0))
(out / "text.txt.bz2").write_bytes(bz2.compress(text_bytes, 9))
(out / "text.txt.xz").write_bytes(lzma.compress(text_bytes, preset=6))
for mode in ("delete", "truncate", "persist", "memory", "off", "wal"):
    (out / f"sql_{mode}.sql").write_text(
        f".open --new {mode}.db\n.echo off\nPRAGMA journal_mode={mode};\n.read workload.sql\n")
(out / "sql_inmem.sql").write_text(".echo off\n.read workload.sql\n")  # the default :memory: database
# tcc unlinks its output before writing it: with unit.o there from the
# start, every run of the pipeline (which reruns the program in the same
# directory) takes the same path.
(out / "unit.o").write_bytes(b"")
if not (out / "fifo").exists():
    os.mkfifo(out / "fifo")
for f in (Path(__file__).parent / "inputs").iterdir():
    shutil.copy(f, out / f.name)
