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

With --eval (make_inputs.py --eval DIR), the inputs of the evaluation set's
runs instead (tests/corpus/eval.txt, SPLIT.md), from a seed of their own:
  align.fa    a DNA alignment evolved down a random tree (fasttree)
  big.txt     English-like text, three times text.txt's length (lz4, gawk)
  work.js     a JavaScript workload: objects, strings, closures, sorting (mujs)
  sat.cnf     a random 3-SAT formula near the threshold (picosat)
  doc.md      a CommonMark document: lists, emphasis, links, code (cmark)
  points.txt  2-d points for a Delaunay triangulation (qhull)
  shapes.pbm  a bitmap of discs, rings and bars (potrace)
  tone.wav    16-bit mono audio: chords, sweeps and noise (lame, flac)
  catalog.xml a catalogue with an internal DTD (xmllint: --valid, XPath)
  words.gawk  word frequencies sorted with asort (gawk)
  db.cmds     gdbmtool commands: stores, fetches, deletes, a listing
  consts.bc   constants to many digits with bc's math library
  graph.dimacs  a random graph G(190, 0.55) (cliquer)
  macros.m4   recursive macros, loops and string built-ins (m4)
  grammar.y   a yacc grammar of 30 statement kinds, each with its operators (byacc)
  names.txt   a directory of made-up names and addresses (tre-agrep)
  work.tcl    a Tcl workload: a dict of counts, a sieve, an RPN evaluator (jimsh)
  module.c    a C translation unit as unit.c, larger (sparse-linearize)

With --tuning-extra (make_inputs.py --tuning-extra DIR), the inputs of the
tuning set's later additions (tests/corpus/tuning-extra.txt, SPLIT.md), from
a seed of their own:
  proteins.fa protein sequences evolved from one ancestor: substitutions,
              insertions, deletions (probcons)
  voice.raw   48 kHz 16-bit mono raw audio: voiced stretches (harmonics of a
              gliding pitch) and unvoiced ones (noise) (opus_demo)

With --text (make_inputs.py --text LINES FILE), only text.txt's English-like
text, LINES lines of it (text.txt's 1200 first) into FILE: the larger input
of bench/long_program.sh.
"""
import bz2
import gzip
import lzma
import os
import random
import shutil
import sys
from pathlib import Path

USAGE = "usage: make_inputs.py DIR | --eval DIR | --tuning-extra DIR | --text LINES FILE"
if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
    print(USAGE + "\n\n" + __doc__.strip())
    sys.exit(0)
EVAL = len(sys.argv) == 3 and sys.argv[1] == "--eval"
EXTRA = len(sys.argv) == 3 and sys.argv[1] == "--tuning-extra"
TEXT = len(sys.argv) == 4 and sys.argv[1] == "--text"
if not (EVAL or EXTRA or TEXT or len(sys.argv) == 2) or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
    sys.exit("make_inputs.py: " + USAGE)  # an option is never a directory to fill
out = Path(sys.argv[3] if TEXT else sys.argv[2] if EVAL or EXTRA else sys.argv[1])
if not TEXT:
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


def c_unit(n, r=rng):
    fns = []
    for i in range(n):
        a, b = r.randint(1, 97), r.randint(1, 97)
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


def yacc_grammar(r, n):
    """A language of n statement kinds, each with its keyword, some of five
    forms (an optional clause, a bracketed list) and its operator, the
    operators at random precedence levels (no conflicts)."""
    kws = [f"KW{i}" for i in range(n)]
    ops = [f"OP{i}" for i in range(n)]
    out = ["%{", "int yylex(void);", "void yyerror(const char *);", "%}",
           "%token ID NUM STR " + " ".join(kws + ops)]
    for i in range(0, n, 4):
        out.append(r.choice(["%left", "%right", "%nonassoc"]) + " " + " ".join(ops[i:i + 4]))
    out += ["%left '+' '-'", "%left '*' '/'", "%right UMINUS", "%%",
            "program : /* empty */ | program stmt ;",
            "stmt : " + " | ".join(f"stmt{i}" for i in range(n)) + " | block ;",
            "block : '{' program '}' ;",
            "args : /* empty */ | arglist ;",
            "arglist : expr | arglist ',' expr ;",
            "expr : primary | expr '+' expr | expr '-' expr | expr '*' expr | expr '/' expr"
            " | '-' expr %prec UMINUS | " + " | ".join(f"expr {o} expr" for o in ops) + " ;",
            "primary : ID | NUM | STR | '(' expr ')' | ID '(' args ')' | primary '[' expr ']' | primary '.' ID ;"]
    for i, k in enumerate(kws):
        forms = [f"{k} expr ';'", f"{k} ID '=' expr ';'", f"{k} ID '(' args ')' block",
                 f"{k} ID opt{i} block", f"{k} '[' list{i} ']' ';'"]
        chosen = r.sample(forms, r.randint(2, 5))
        out.append(f"stmt{i} : " + " | ".join(chosen) + " ;")
        j = r.randrange(n)
        if any(f"opt{i}" in f for f in chosen):
            out.append(f"opt{i} : /* empty */ | ':' ID | {kws[j]} '(' expr ')' ;")
        if any(f"list{i}" in f for f in chosen):
            out.append(f"list{i} : item{i} | list{i} ',' item{i} ;")
            out.append(f"item{i} : ID | ID '=' expr | STR {ops[r.randrange(n)]} ID ;")
    out += ["%%", "int yylex(void) { return 0; }", "void yyerror(const char *s) { (void)s; }", ""]
    return "\n".join(out)


def names(r, n):
    """n lines of made-up names and addresses, from syllables."""
    syl = "ka lo mir tes san dra var hold brisk en ul pha ron mei si tan gor vel as chi bu ne dor fa lin".split()

    def name(k):
        return "".join(r.choice(syl) for _ in range(k)).capitalize()
    return "".join(f"{name(2)} {name(3)}, {r.randint(1, 9999)} {name(2)} "
                   f"{r.choice(['Street', 'Road', 'Lane', 'Way'])}, {name(2)}\n" for _ in range(n))


def eval_inputs(out):
    """The evaluation set's inputs (their own seed: the test set's bytes stay)."""
    r = random.Random(20261201)
    base = "ACGT"
    seqs = ["".join(r.choice(base) for _ in range(400))]
    while len(seqs) < 18:  # each new sequence a mutated copy of an earlier one
        s = list(r.choice(seqs))
        for _ in range(r.randint(10, 60)):
            s[r.randrange(len(s))] = r.choice(base)
        seqs.append("".join(s))
    (out / "align.fa").write_text("".join(f">s{i}\n{q}\n" for i, q in enumerate(seqs)))
    lines = []
    for _ in range(3600):
        lines.append(" ".join(r.choice(WORDS) for _ in range(r.randint(3, 16))))
    (out / "big.txt").write_text("\n".join(lines) + "\n")
    (out / "work.js").write_text(r"""
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
var words = "the of and to in is was simulation sample interval cluster vector block branch".split(" ");
var counts = {}, text = [];
for (var i = 0; i < 5000; i++) {
    var w = words[(i * 7919 + (i >> 3)) % words.length] + (i % 13);
    counts[w] = (counts[w] || 0) + 1;
    if (i % 10 === 0) text.push(w);
}
var keys = Object.keys(counts).sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); });
var acc = 0;
for (var r = 0; r < 2; r++) {
    var arr = [];
    for (var j = 0; j < 3000; j++) arr.push((j * 2654435761 + r) % 10007);
    arr.sort(function (a, b) { return a - b; });
    acc += arr[r * 37];
}
var s = JSON.stringify({keys: keys.slice(0, 20), total: text.length, acc: acc, fib: fib(20)});
var o = JSON.parse(s), joined = text.join(" ").replace(/e/g, "E").split("E").length;
print(s.length, o.total, o.fib, joined, keys[0]);
""")
    nv, rs = 205, random.Random(37)  # its own seed: a SAT instance's cost swings with every bit
    clauses = []
    for _ in range(int(nv * 4.26)):
        vs = rs.sample(range(1, nv + 1), 3)
        clauses.append(" ".join(str(v if rs.random() < 0.5 else -v) for v in vs) + " 0")
    (out / "sat.cnf").write_text(f"p cnf {nv} {len(clauses)}\n" + "\n".join(clauses) + "\n")
    md = []
    for i in range(6000):
        k = r.randrange(6)
        ws = [r.choice(WORDS) for _ in range(r.randint(5, 30))]
        if k == 0:
            md.append("#" * r.randint(1, 4) + " " + " ".join(ws[:6]))
        elif k == 1:
            md.extend(f"- *{w}* item with `code` and [link](http://x/{i})" for w in ws[:5])
        elif k == 2:
            md.append("```\n" + "\n".join(ws) + "\n```")
        elif k == 3:
            md.append("> " + " ".join(f"**{w}**" if j % 4 == 0 else w for j, w in enumerate(ws)))
        else:
            md.append(" ".join(ws) + ".")
        md.append("")
    (out / "doc.md").write_text("\n".join(md))
    pts = [f"{r.gauss(0, 1):.6f} {r.gauss(0, 1) * (1 + (i % 7) / 3):.6f}" for i in range(5000)]
    (out / "points.txt").write_text(f"2\n{len(pts)}\n" + "\n".join(pts) + "\n")
    w, h = 900, 900
    bits = bytearray(w * h)
    for _ in range(70):
        cx, cy, rad = r.randrange(w), r.randrange(h), r.randint(8, 90)
        ring = r.random() < 0.4
        for y in range(max(0, cy - rad), min(h, cy + rad)):
            for x in range(max(0, cx - rad), min(w, cx + rad)):
                d = (x - cx) ** 2 + (y - cy) ** 2
                if d < rad * rad and not (ring and d < (rad * 0.6) ** 2):
                    bits[y * w + x] ^= 1
    rows = []
    for y in range(h):
        row = bytearray((w + 7) // 8)
        for x in range(w):
            if bits[y * w + x]:
                row[x // 8] |= 0x80 >> (x % 8)
        rows.append(bytes(row))
    (out / "shapes.pbm").write_bytes(f"P4\n{w} {h}\n".encode() + b"".join(rows))
    import math, struct
    rate, n = 22050, 22050 * 2
    samples = []
    for i in range(n):
        t = i / rate
        f = 220 * (1 + (i // (rate // 2)) % 5 / 4)
        v = 0.4 * math.sin(2 * math.pi * f * t) + 0.2 * math.sin(2 * math.pi * (f * 1.5 + 300 * t) * t)
        v += 0.05 * (r.random() - 0.5)
        samples.append(int(max(-1, min(1, v)) * 32000))
    data = struct.pack(f"<{n}h", *samples)
    (out / "tone.wav").write_bytes(b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " +
                                   struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16) +
                                   b"data" + struct.pack("<I", len(data)) + data)
    items = "".join(f'  <item id="i{i}" price="{r.randint(1, 999)}.{r.randint(0, 99):02d}">'
                    f"<name>{r.choice(WORDS)} {r.choice(WORDS)}</name><tag>{r.choice(WORDS)}</tag></item>\n"
                    for i in range(6000))
    (out / "catalog.xml").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE catalog [\n<!ELEMENT catalog (item*)>\n'
        "<!ELEMENT item (name, tag)>\n<!ATTLIST item id ID #REQUIRED price CDATA #REQUIRED>\n"
        "<!ELEMENT name (#PCDATA)>\n<!ELEMENT tag (#PCDATA)>\n]>\n<catalog>\n" + items + "</catalog>\n")
    (out / "words.gawk").write_text(
        "{ for (i = 1; i <= NF; i++) { n[tolower($i)]++; len[length($i)]++ } }\n"
        "END { k = asorti(n, keys); for (i = 1; i <= k; i++) printf \"%s %d\\n\", keys[i], n[keys[i]]\n"
        "      for (l in len) s += l * len[l]; printf \"mean %.3f\\n\", s / NR }\n")
    cmds = []
    for i in range(4000):
        cmds.append(f"store k{i * 7919 % 100003} {r.choice(WORDS)}-{i}")
    for i in range(0, 4000, 3):
        cmds.append(f"fetch k{i * 7919 % 100003}")
    for i in range(0, 4000, 5):
        cmds.append(f"delete k{i * 7919 % 100003}")
    cmds += ["count", "list"]
    (out / "db.cmds").write_text("\n".join(cmds) + "\n")
    (out / "consts.bc").write_text("scale=160\npi=4*a(1)\npi\ne(1)\nl(2)\nsqrt(2)\ns(1)+c(1)\nquit\n")
    # Added later, each from a seed of its own (the files above keep their bytes).
    rg, n = random.Random(41), 190
    edges = [(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1) if rg.random() < 0.55]
    (out / "graph.dimacs").write_text(f"p edge {n} {len(edges)}\n" + "".join(f"e {i} {j}\n" for i, j in edges))
    (out / "macros.m4").write_text(
        "define(`fib', `ifelse(eval($1 < 2), 1, $1, `eval(fib(decr($1)) + fib(eval($1 - 2)))')')dnl\n"
        "define(`forloop', `pushdef(`$1', `$2')_forloop($@)popdef(`$1')')dnl\n"
        "define(`_forloop', `$4`'ifelse($1, `$3', `', `define(`$1', incr($1))$0($@)')')dnl\n"
        "forloop(`i', 1, 250, `fib(eval(i % 10)) translit(`interval cluster vector', `a-z', `A-Z') "
        "substr(`abcdefghij', eval(i % 5), 3) len(format(`%d-%s', i, `x'))\n')dnl\n")
    # Added after the first evaluation figures existed (SPLIT.md), each from a seed of its own.
    (out / "grammar.y").write_text(yacc_grammar(random.Random(43), 30))
    (out / "names.txt").write_text(names(random.Random(44), 1500))
    (out / "module.c").write_text(c_unit(150, random.Random(45)))
    (out / "work.tcl").write_text(r"""# a word index, a sieve, a small expression evaluator, string building
proc fib {n} { if {$n < 2} { return $n }; expr {[fib [expr {$n - 1}]] + [fib [expr {$n - 2}]]} }
set words {the of and to in is was simulation sample interval cluster vector block branch cache miss}
set counts [dict create]
set text {}
for {set i 0} {$i < 2000} {incr i} {
    set w [lindex $words [expr {($i * 7919 + ($i >> 3)) % [llength $words]}]][expr {$i % 13}]
    dict incr counts $w
    if {$i % 10 == 0} { lappend text $w }
}
proc bycount {a b} {
    global counts
    set d [expr {[dict get $counts $b] - [dict get $counts $a]}]
    if {$d != 0} { return $d }
    string compare $a $b
}
set keys [lsort -command bycount [dict keys $counts]]
set primes {}
set sieve [lrepeat 8000 1]
for {set i 2} {$i < 8000} {incr i} {
    if {[lindex $sieve $i]} {
        lappend primes $i
        for {set j [expr {$i * $i}]} {$j < 8000} {incr j $i} { lset sieve $j 0 }
    }
}
proc rpn {tokens} {
    set st {}
    foreach t $tokens {
        switch -- $t {
            + - - - * {
                set b [lindex $st end]; set a [lindex $st end-1]
                set st [lreplace $st end-1 end [expr "\$a $t \$b"]]
            }
            default { lappend st $t }
        }
    }
    lindex $st 0
}
set acc 0
for {set r 0} {$r < 600} {incr r} {
    incr acc [rpn [list $r 3 * 7 + [expr {$r % 11}] - 2 *]]
}
set joined [join $text " "]
set n [regexp -all {s[a-z]*e[0-9]} $joined]
set mapped [string map {e E a A} $joined]
set sorted [lsort -integer [lmap p $primes { expr {($p * 2654435761) % 10007} }]]
puts [format "%d %d %d %d %s %d %d %d" [llength $keys] [llength $primes] $acc $n [lindex $keys 0] [fib 16] [string length $mapped] [lindex $sorted 100]]
""")


def tuning_extra_inputs(out):
    """The tuning set's later additions' inputs (SPLIT.md): their own seed."""
    import math, struct
    r = random.Random(20261129)
    aa = "ACDEFGHIKLMNPQRSTVWY"
    seqs = ["".join(r.choice(aa) for _ in range(PROT_LEN))]
    while len(seqs) < PROT_SEQS:  # each a mutated copy of an earlier one
        s = list(r.choice(seqs))
        for _ in range(r.randint(8, 30)):
            k, op = r.randrange(len(s)), r.random()
            if op < 0.7:
                s[k] = r.choice(aa)
            elif op < 0.85:
                s.insert(k, r.choice(aa))
            else:
                del s[k]
        seqs.append("".join(s))
    (out / "proteins.fa").write_text("".join(f">p{i}\n{q}\n" for i, q in enumerate(seqs)))
    rate, n, quarter = 48000, int(48000 * VOICE_SECONDS), 12000
    samples = []
    for i in range(n):
        t, seg = i / rate, i // quarter
        if seg % 4 == 3:  # an unvoiced stretch
            v = 0.3 * (r.random() - 0.5)
        else:  # harmonics of a pitch gliding within the stretch, falling off as 1/h
            f0 = 100 + 30 * (seg % 5) + 40 * (i % quarter) / quarter
            v = sum(0.25 / h * math.sin(2 * math.pi * h * f0 * t) for h in range(1, 7))
            v += 0.02 * (r.random() - 0.5)
        samples.append(int(max(-1, min(1, v)) * 32000))
    (out / "voice.raw").write_bytes(struct.pack(f"<{n}h", *samples))


PROT_SEQS, PROT_LEN, VOICE_SECONDS = 6, 45, 1.0  # 20-80M instructions each
if EVAL:
    eval_inputs(out)
    sys.exit(0)
if EXTRA:
    tuning_extra_inputs(out)
    sys.exit(0)
if TEXT:
    out.write_text(text(int(sys.argv[2])))
    sys.exit(0)

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
