#!/usr/bin/env python3
"""accuracy_eval.py: issue 37's measurement, driven by bench/accuracy_eval.sh.

Accuracy as a distribution. Every run of the tuning and the evaluation set
(tests/corpus/SPLIT.md) is perturbed in ways that do not change what it
computes, and every way of choosing simulation points is scored on every
perturbation, from the same full detailed runs:

  variants (each its own bbv --proxy pass and full detailed run):
    base     the run as its table gives it;
    deepdir  every input named through a directory 60 characters long;
    env      the guest environment 3 KiB larger (one more variable);
  offsets (on the 100k-granularity profile and log of each variant, free):
    the 1M intervals start at 0, 250k, 500k or 750k (the instructions before
    the first boundary are a short interval of their own).

So 3 x 4 = 12 perturbations per run. For each, simpoint chooses the points
from the 1M-interval vectors (and proxy metrics) summed from the 100k ones,
and the estimate sum_c w_c CPI(rep_c) takes each representative's CPI from
the full run's log: the sampling error, as bench/proxy_methods.sh measures it.

Usage: accuracy_eval.py run  OUT LIST:SET... (profile and simulate, cached)
       accuracy_eval.py score OUT REPORT LIST:SET...
"""
import concurrent.futures as cf
import csv
import gzip
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
BIN = Path(os.environ.get("BIN", TOP / "build/bin"))
CBIN = TOP / "build/corpus/bin"
CONFIG = Path(os.environ.get("CONFIG", TOP / "configs/boom-tip.ini"))  # accuracy_eval.sh: the copy beside BIN
FINE = 100_000          # profile and log granularity
INTERVAL = 1_000_000    # the intervals the points are chosen from
OFFSETS = (0, 250_000, 500_000, 750_000)
VARIANTS = ("base", "deepdir", "env")
DEEPDIR = "inputs-read-through-a-directory-whose-name-is-sixty-chars"
PAD = "RVSAMPLE_EVAL_PAD=" + "x" * 3072
GUEST_ENV = ["PATH=/usr/bin:/bin", "LC_ALL=C", "HOME=/nonexistent", "PWD=/guest/work"]
MAXK = 30
# The lists whose inputs make_inputs.py makes with an option of their own
# (their own seed; SPLIT.md), each into OUT/inputs-<option>.
INPUT_SETS = {"eval.txt": "--eval", "tuning-extra.txt": "--tuning-extra"}
JOBS = int(os.environ.get("JOBS", "2"))


def load_list(path):
    """Rows of a corpus table (programs.txt format): label, prog, stdin, args."""
    rows = []
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, prog, stdin, args = (f.strip() for f in line.split("|")[:4])
        rows.append((label, prog, stdin, args))
    return rows


def runs_of(specs):
    """(set, label, prog, stdin, args, inputs-option) for LIST:SET[:LABEL,...] specs."""
    out = []
    for spec in specs:
        parts = spec.split(":")
        lst, st = parts[0], parts[1]
        only = set(parts[2].split(",")) if len(parts) > 2 else None
        opt = [INPUT_SETS[Path(lst).name]] if Path(lst).name in INPUT_SETS else []
        for label, prog, stdin, args in load_list(lst):
            if only is None or label in only:
                out.append((st, label, prog, stdin, args, opt))
    return out


def digest_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def digest_tree(d):
    """The content of a directory of inputs: names, kinds and bytes."""
    h = hashlib.sha256()
    for p in sorted(Path(d).rglob("*")):
        h.update(str(p.relative_to(d)).encode() + b"\0")
        if p.is_file() and not p.is_symlink():
            h.update(digest_file(p).encode())
        else:
            h.update(b"fifo" if p.is_fifo() else b"dir" if p.is_dir() else b"other")
    return h.hexdigest()


def inputs_dir(out, opt, refresh=False):
    """The generated inputs, made again by REFRESH (cheap) and replaced when
    their content changed: the runs' keys hold their digest."""
    d = Path(out) / ("inputs" + (opt[0][1:] if opt else ""))  # inputs, inputs-eval, ...
    if d.is_dir() and not refresh:
        return d
    new = d.with_name(d.name + ".new")
    if new.exists():
        shutil.rmtree(new)
    subprocess.run([sys.executable, str(TOP / "tests/corpus/make_inputs.py"), *opt, str(new)],
                   check=True, stdout=subprocess.DEVNULL)
    if d.is_dir() and digest_tree(d) == digest_tree(new):
        shutil.rmtree(new)
    else:
        if d.is_dir():
            print(f"{d.name}: changed, made again", flush=True)
            shutil.rmtree(d)
        os.replace(new, d)
    return d


def run_keys(inputs):
    """What a variant's profile and full run depend on: the tool's build (its
    binary's digest), the core's configuration, the inputs, the granularity.
    A cached profile or log whose key differs is stale and made again."""
    common = f"config {digest_file(CONFIG)} inputs {digest_tree(inputs)} fine {FINE}"
    return {"prof": f"bbv {digest_file(BIN / 'bbv')} {common}",
            "full": f"sim {digest_file(BIN / 'sim')} {common}"}


def cached(d, what, key):
    k = d / f"{what}.key"
    return k.is_file() and k.read_text().strip() == key


def fresh(work, inputs, variant):
    if work.exists():
        shutil.rmtree(work)
    subprocess.run(["cp", "-a", str(inputs), str(work)], check=True)  # FIFOs too
    if variant == "deepdir":
        subprocess.run(["cp", "-a", str(inputs), str(work / DEEPDIR)], check=True)


def variant_argv(args, inputs, variant):
    argv = shlex.split(args)
    if variant == "deepdir":
        argv = [f"{DEEPDIR}/{a}" if (inputs / a).is_file() else a for a in argv]
    return argv


def variant_env(variant):
    env = GUEST_ENV + ([PAD] if variant == "env" else [])
    return [x for e in env for x in ("--env", e)]


def profile_and_simulate(out, run, variant, keys):
    """bbv --proxy at 100k and sim --full logging every 100k, in fresh copies of
    the inputs; each made again unless its key (run_keys) is the current one."""
    st, label, prog, stdin, args, opt = run
    inputs = inputs_dir(out, opt)
    key = keys[opt and opt[0] or ""]
    d = Path(out) / "runs" / label / variant
    todo = [w for w, f in (("prof", f"prof.{FINE}.proxy"), ("full", "full.json"))
            if not ((d / f).is_file() and cached(d, w, key[w]))]
    if not todo:
        return f"{label}/{variant} cached"
    d.mkdir(parents=True, exist_ok=True)
    for w in todo:
        (d / f"{w}.key").unlink(missing_ok=True)
    argv = variant_argv(args, inputs, variant)
    env = variant_env(variant)
    src = "/dev/null" if stdin == "-" else str(inputs / stdin.removeprefix("pipe:"))
    work = d / "work"
    status = {}
    if "prof" in todo:
        fresh(work, inputs, variant)
        with open(src, "rb") as i, open(d / "bbv.out", "wb") as o, open(d / "bbv.err", "wb") as e:
            status["bbv"] = subprocess.run([str(BIN / "bbv"), "-o", str(d / "prof"), "--interval", str(FINE), "--proxy",
                                            str(CONFIG), *env, "--", str(CBIN / prog), *argv],
                                           cwd=work, stdin=i, stdout=o, stderr=e).returncode
    if "full" in todo:
        fresh(work, inputs, variant)
        with open(src, "rb") as i, open(d / "sim.err", "wb") as e:
            status["sim"] = subprocess.run([str(BIN / "sim"), "--full", "-q", "-G", str(FINE), "--interval-log",
                                            str(d / "full.csv"), "-o", str(d / "full.json.tmp"), "--guest-output",
                                            str(d / "sim.out"), *env, "--", str(CBIN / prog), *argv],
                                           cwd=work, stdin=i, stderr=e).returncode
    shutil.rmtree(work)
    # Both exit with the guest's status (lua's run ends with 3); 125 and up: the tool failed.
    codes = set(status.values())
    if len(codes) > 1 or max(codes) >= 125 or ("full" in todo and not (d / "full.json.tmp").is_file()):
        err = (d / "sim.err").read_text()[-300:] if (d / "sim.err").is_file() else ""
        return f"{label}/{variant} FAILED ({status}: {err})"
    if "full" in todo:
        os.replace(d / "full.json.tmp", d / "full.json")
    for w in todo:
        (d / f"{w}.key").write_text(key[w] + "\n")
    return f"{label}/{variant} done ({' and '.join(todo)})"


# ------------------------------------------------------------- scoring

def read_fine(d):
    """The 100k rows: block-count dicts, (length, proxy stall cycles, long-operation
    cycles: 0 in a profile of format 1, their exposed cycles: 0 before format 3),
    cycles per row."""
    bb = []
    with gzip.open(d / f"prof.{FINE}.bb.gz", "rt") as f:
        for line in f:
            if line.startswith("T"):
                row = {}
                for tok in line[1:].split():
                    _, b, c = tok.split(":")
                    row[int(b)] = int(c)
                bb.append(row)
    px = []
    with open(d / f"prof.{FINE}.proxy") as f:
        header = None
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if header is None:
                header = cols
                continue
            rec = dict(zip(header, cols))
            n = int(rec["instructions"])
            px.append((n, (float(rec["proxy_cpi"]) - 1) * n, float(rec.get("long_cpi", 0)) * n,
                       float(rec.get("exposed_cpi", 0)) * n))
    cyc = []
    with open(d / "full.csv") as f:
        for rec in csv.DictReader(f):
            cyc.append((int(rec["instructions"]), int(rec["cycles"])))
    if not (len(bb) == len(px) == len(cyc)):
        raise SystemExit(f"{d}: {len(bb)} vectors, {len(px)} proxy rows, {len(cyc)} log rows")
    for (n, *_), (m, _) in zip(px, cyc):
        if n != m:
            raise SystemExit(f"{d}: the profile and the full run's log disagree on interval lengths")
    return bb, px, cyc


def coarse(bb, px, cyc, offset):
    """Intervals of INTERVAL from OFFSET (a head [0, OFFSET) of its own): lines of
    the .bb file, proxy rows, (instructions, cycles)."""
    per = INTERVAL // FINE
    head = offset // FINE
    groups = ([range(0, head)] if head else []) + [range(s, min(s + per, len(bb))) for s in range(head, len(bb), per)]
    lines, prox, ic = [], [], []
    for g in groups:
        row = {}
        for i in g:
            for b, c in bb[i].items():
                row[b] = row.get(b, 0) + c
        lines.append("T" + " ".join(f":{b}:{c}" for b, c in sorted(row.items())))
        n = sum(px[i][0] for i in g)
        prox.append((n, 1 + sum(px[i][1] for i in g) / n, sum(px[i][2] for i in g) / n,
                     sum(px[i][3] for i in g) / n))
        ic.append((sum(cyc[i][0] for i in g), sum(cyc[i][1] for i in g)))
    return lines, prox, ic


def write_inputs(tmp, lines, prox):
    bbf, pxf = tmp / "v.bb", tmp / "v.proxy"
    bbf.write_text("\n".join(lines) + "\n")
    with open(pxf, "w") as f:
        f.write("# rvsample proxy 3\ninterval\tinstructions\tproxy_cpi\tlong_cpi\texposed_cpi\n")
        for i, (n, p, lc, ex) in enumerate(prox):
            f.write(f"{i}\t{n}\t{p:.9g}\t{lc:.9g}\t{ex:.9g}\n")
    return bbf, pxf


def simpoint(tmp, bbf, pxf, opts, tag):
    p = tmp / tag
    maxk = opts[opts.index("-maxK") + 1] if "-maxK" in opts else str(MAXK)
    opts = [o for i, o in enumerate(opts) if o != "-maxK" and (i == 0 or opts[i - 1] != "-maxK")]
    cmd = [str(BIN / "simpoint"), "-loadFVFile", str(bbf), "-fixedLength", "off", "-maxK", maxk,
           *opts, "-saveSimpoints", f"{p}.simpoints", "-saveSimpointWeights", f"{p}.weights",
           "-saveLabels", f"{p}.labels", "--json", f"{p}.json"]
    cmd[3:3] = ["--proxy", str(pxf)]  # alone (SimPoint's choice): only the predicted standard error
    if "--proxy-exposed" not in opts:  # simpoint's default is 4 (chosen here): the methods before it without
        cmd[3:3] = ["--proxy-exposed", "0"]
    r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    if r.returncode:
        raise SystemExit(f"simpoint {' '.join(opts)}: {r.stderr}")
    reps = {int(c): int(i) for i, c in (l.split() for l in Path(f"{p}.simpoints").read_text().split("\n") if l)}
    wts = {int(c): float(w) for w, c in (l.split() for l in Path(f"{p}.weights").read_text().split("\n") if l)}
    labels = [int(l.split()[0]) for l in Path(f"{p}.labels").read_text().split("\n") if l]
    summary = json.loads(Path(f"{p}.json").read_text())
    return reps, wts, labels, summary


def score(reps, wts, labels, ic):
    """Estimate, error against the full run, and the oracle standard error (one
    member drawn at random per cluster, its CPI in the full run: validate's)."""
    cpi = [c / n for n, c in ic]
    true = sum(c for _, c in ic) / sum(n for n, _ in ic)
    est = sum(wts[c] * cpi[i] for c, i in reps.items())
    members = {}
    for i, c in enumerate(labels):
        members.setdefault(c, []).append(i)
    var = 0.0
    for c, w in wts.items():
        ms = members.get(c, [])
        tot = sum(ic[i][0] for i in ms)
        if tot <= 0:
            continue
        mean = sum(ic[i][0] * cpi[i] for i in ms) / tot
        var += w * w * sum(ic[i][0] * (cpi[i] - mean) ** 2 for i in ms) / tot
    return est, true, math.sqrt(var)


def regions(path, reps, ic):
    """sim's results on the points REPS ({cluster: interval}), each with the
    CPI the full run measured for it: what simpoint --measured reads."""
    res = [{"region": {"simpoint": i, "cluster": c}, "instructions": ic[i][0], "cycles": ic[i][1]}
           for c, i in sorted(reps.items())]
    Path(path).write_text(json.dumps({"tool": "sim", "mode": "regions", "results": res}))


def design(tmp, bbf, pxf, tag, opts, flow, ic):
    """The points of a method, and its simpoint --json. FLOW None: simpoint
    once; "measured": then simpoint --measured on their CPIs (the estimate's
    interval); a target (percent): two-stage sampling, the first stage's
    points measured, simpoint --target-ci adding points, those measured, and
    simpoint again on both (the same design, now with its interval)."""
    if flow is None:
        return (*simpoint(tmp, bbf, pxf, opts, tag), None)
    reps1, wts1, _, _ = simpoint(tmp, bbf, pxf, opts, tag + ".1")
    r1 = tmp / f"{tag}.r1.json"
    regions(r1, reps1, ic)
    if flow == "measured":
        reps, wts, labels, summ = simpoint(tmp, bbf, pxf, [*opts, "--measured", str(r1)], tag)
        if (reps, wts) != (reps1, wts1):
            raise SystemExit(f"{tmp}: simpoint --measured changed the points of {tag}")
        return reps, wts, labels, summ, len(reps1)
    stage2 = [*opts, "--measured", str(r1), "--target-ci", flow]
    reps2, wts2, _, _ = simpoint(tmp, bbf, pxf, stage2, tag + ".2")
    first = set(reps1.values())
    r2 = tmp / f"{tag}.r2.json"
    regions(r2, {c: i for c, i in reps2.items() if i not in first}, ic)
    reps, wts, labels, summ = simpoint(tmp, bbf, pxf, [*stage2, "--measured", str(r2)], tag)
    if (reps, wts) != (reps2, wts2):
        raise SystemExit(f"{tmp}: the second stage's points of {tag} differ once they are measured")
    return reps, wts, labels, summ, len(reps1)


def score_one(out, run, variant, offset, methods):
    st, label = run[0], run[1]
    d = Path(out) / "runs" / label / variant
    tmp = Path(out) / "tmp" / f"{label}.{variant}.{offset}"
    tmp.mkdir(parents=True, exist_ok=True)
    lines, prox, ic = coarse(*read_fine(d), offset)
    bbf, pxf = write_inputs(tmp, lines, prox)
    rows = []
    base_k = None
    for name, spec in methods:
        tag = re.sub(r"[^A-Za-z0-9.-]", "_", name)
        reps, wts, labels, summ, stage1 = design(tmp, bbf, pxf, tag, spec.get("opts", []), spec.get("flow"), ic)
        base_k = base_k or len(reps)  # the first method is SimPoint's
        est, true, se = score(reps, wts, labels, ic)
        hhi = sum(v * v for v in wts.values())  # sum W^2: what a per-interval residual adds
        pred = summ.get("predicted", {})
        meas = summ.get("measured", {})
        if meas and abs(meas["cpi"] / est - 1) > 1e-5:
            raise SystemExit(f"{tmp}: {name}: simpoint --measured estimates {meas['cpi']}, the points {est}")
        rows.append({"set": st, "program": label, "variant": variant, "offset": offset, "method": name,
                     "points": len(reps), "simpoint_points": base_k, "stage1_points": stage1 or len(reps),
                     "instructions": sum(n for n, _ in ic),
                     "cpi": true, "estimate": est, "error_pct": 100 * (est / true - 1),
                     "oracle_se_pct": 100 * se / true,
                     "predicted_se_pct": pred.get("relative_se", float("nan")) * 100,
                     "measured_se_pct": meas.get("se_relative", float("nan")) * 100,
                     "measured_half_pct": meas.get("ci95_relative", float("nan")) * 100,
                     "measured_df": meas.get("df", float("nan")),
                     "pairs": meas.get("pairs", float("nan")), "pairs_ss": meas.get("pairs_ss", float("nan")),
                     "sum_w2": hhi})
    shutil.rmtree(tmp)
    return rows


# The budget: 1.5 x SimPoint's points (simpoint --points 1.5x counts them on the BBVs alone).
BUDGETED = ["--proxy-dims", "1", "--points", "1.5x"]
METHODS = [
    ("simpoint", {}),
    ("dims:1", {"opts": ["--proxy-dims", "1"]}),
    ("budget:1.5x", {"opts": BUDGETED, "flow": "measured"}),
    ("two-stage:2%", {"opts": [*BUDGETED, "--pilot", "1x"], "flow": "2"}),
    ("two-stage:1%", {"opts": [*BUDGETED, "--pilot", "1x"], "flow": "1"}),
    ("two-stage:1%/3x", {"opts": ["--proxy-dims", "1", "--points", "3x", "--pilot", "1x"], "flow": "1"}),
    # The long-latency operations in the proxy CPI (simpoint --proxy-long W), weights tried on the tuning set.
    *((f"budget:1.5x,long:{w}", {"opts": [*BUDGETED, "--proxy-long", w], "flow": "measured"}) for w in ("0.25", "0.5", "1", "2", "4")),
    # ... and each point the member of its stratum whose proxy CPI is nearest the stratum's (--select-by proxy).
    *((f"budget:1.5x,select,long:{w}", {"opts": [*BUDGETED, "--select-by", "proxy", "--proxy-long", w], "flow": "measured"})
      for w in ("0", "1", "2", "4")),
    # The long operations' exposed latency (simpoint --proxy-exposed W: bbv --proxy's exposed_cpi,
    # what a dependence chain through them or a busy divider leaves of their latency).
    *((f"budget:1.5x,exposed:{w}", {"opts": [*BUDGETED, "--proxy-exposed", w], "flow": "measured"})
      for w in ("0.25", "0.5", "1", "2", "4", "6", "8")),
    # ... and half of each: long_cpi where the exposure model sees nothing (lua, probcons)
    ("budget:1.5x,long:0.5,exposed:0.5",
     {"opts": [*BUDGETED, "--proxy-long", "0.5", "--proxy-exposed", "0.5"], "flow": "measured"}),
]


def provenance(out, runs):
    """Which builds the scored profiles and full runs came from: the current
    bbv and sim (those in BIN, with the inputs and configuration as they are
    now) or earlier ones (stale: \`run\` makes them again)."""
    keys, n, stale = {}, 0, {"prof": [], "full": []}
    for r in runs:
        opt = r[5] and r[5][0] or ""
        if opt not in keys:
            keys[opt] = run_keys(inputs_dir(out, r[5]))
        for v in VARIANTS:
            d = out / "runs" / r[1] / v
            if not (d / "full.json").is_file():
                continue
            n += 1
            for w in stale:
                if not cached(d, w, keys[opt][w]):
                    stale[w].append(f"{r[1]}/{v}")
    tools = f"bbv {digest_file(BIN / 'bbv')[:12]}, sim {digest_file(BIN / 'sim')[:12]} (sha256)"
    if not stale["prof"] and not stale["full"]:
        return f"all {n} profiles and full runs by the current {tools}"
    for w, names in stale.items():
        if names:
            print(f"accuracy_eval: {len(names)} {w} runs are stale (not by {tools}): {' '.join(names[:5])}...",
                  file=sys.stderr)
    return (f"STALE: {len(stale['prof'])} of {n} profiles and {len(stale['full'])} of {n} full runs "
            f"not by the current {tools}")


def main():
    cmd, out = sys.argv[1], Path(sys.argv[2]).resolve()
    if cmd == "run":
        runs = runs_of(sys.argv[3:])
        keys = {}
        for r in runs:
            opt = r[5] and r[5][0] or ""
            if opt not in keys:
                keys[opt] = run_keys(inputs_dir(out, r[5], refresh=True))
        with cf.ThreadPoolExecutor(JOBS) as ex:
            # variant by variant: an interrupted run leaves every program's first variants
            futs = [ex.submit(profile_and_simulate, out, r, v, keys) for v in VARIANTS for r in runs]
            for f in cf.as_completed(futs):
                print(f.result(), flush=True)
        return
    report = Path(sys.argv[3])
    runs = runs_of(sys.argv[4:])
    names = os.environ.get("METHODS")
    methods = [m for m in METHODS if not names or m[0] in names.split(",") or m[0] in ("simpoint", "dims:1")]
    jobs = [(r, v, o) for r in runs for v in VARIANTS for o in OFFSETS
            if (out / "runs" / r[1] / v / "full.json").is_file()]
    (out / "provenance.txt").write_text(provenance(out, runs) + "\n")
    rows = []
    with cf.ThreadPoolExecutor(JOBS) as ex:
        for res in ex.map(lambda j: score_one(out, *j, methods), jobs):
            rows.extend(res)
    with open(out / "rows.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"accuracy_eval: {len(rows)} rows in {out / 'rows.csv'}")
    report.write_text(render(rows, [m for m, _ in methods]))


# ------------------------------------------------------------- report

def quantile(xs, q):
    """Hyndman-Fan type 7, as validate's vd_quantile."""
    xs = sorted(xs)
    h = (len(xs) - 1) * q
    lo = math.floor(h)
    return xs[lo] + (h - lo) * (xs[min(lo + 1, len(xs) - 1)] - xs[lo])


def calibration(rows, method):
    """kappa: the factor on the predicted standard error that makes its 95%
    interval hold 95% of the tuning set's perturbations (tuning decides)."""
    z = [abs(r["error_pct"]) / r["predicted_se_pct"] for r in rows
         if r["set"] == "tuning" and r["method"] == method and r["predicted_se_pct"] > 0]
    return quantile(z, 0.95) / 1.96 if z else float("nan")


def residual_floor(rows, method):
    """rho: the relative CPI spread per interval that the proxy does not see,
    fitted on the tuning set as the least that makes +- 1.96 sqrt(se^2 + rho^2
    sum W^2) hold 95% of its perturbations (the predicted SE with a floor)."""
    rs = [r for r in rows if r["set"] == "tuning" and r["method"] == method]
    if not rs:
        return float("nan")
    def cover(rho):
        return sum(abs(r["error_pct"]) <= 1.96 * math.hypot(r["predicted_se_pct"], rho * math.sqrt(r["sum_w2"]))
                   for r in rs) / len(rs)
    lo, hi = 0.0, 100.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if cover(mid) >= 0.95 else (mid, hi)
    return hi


def per_program(rows, method, st):
    """{program: (mean |err|, p95 |err|, max |err|, mean points / simpoint's, n)}"""
    out = {}
    progs = dict.fromkeys(r["program"] for r in rows if r["set"] == st)
    for p in progs:
        rs = [r for r in rows if r["program"] == p and r["method"] == method]
        if not rs:
            continue
        e = [abs(r["error_pct"]) for r in rs]
        out[p] = (sum(e) / len(e), quantile(e, 0.95), max(e),
                  sum(r["points"] / r["simpoint_points"] for r in rs) / len(rs), len(rs))
    return out


def tool_prior():
    """simpoint's own prior (ts_model_default), to set beside the fit: the
    two differ once the tuning set has changed since the tool's was fitted."""
    src = (TOP / "simpoint/twostage.c").read_text()
    df = re.search(r"ts_model_default = \{[^}]*\.prior_df = ([0-9.]+)", src)
    sd = re.search(r"ts_model_default = \{[^}]*\.prior_sd = ([0-9.]+)", src)
    return f"nu0 = {float(df[1]):.2f}, s0 = {100 * float(sd[1]):.2f}%" if df and sd else "not found"


def prior_fit(rows, method="budget:1.5x"):
    """The prior of simpoint's sigma^2 (simpoint/twostage.h): the scaled inverse
    chi-square (nu0, s0^2) of greatest marginal likelihood on the tuning set's
    perturbations whose design has pairs (clusters with two points or more):
    each one's mean square SS / D is s0^2 F(D, nu0) distributed. A grid: nu0
    0.25 x 1.25^i, s0 by steps of 1% in log. Returns (nu0, s0, perturbations)."""
    obs = [(r["pairs"], r["pairs_ss"]) for r in rows if r["set"] == "tuning" and r["method"] == method
           and r["pairs"] >= 1 and r["pairs_ss"] > 0]
    if not obs:
        return float("nan"), float("nan"), 0

    def loglik(nu, s2):
        lg = math.lgamma
        return sum(lg((d + nu) / 2) - lg(d / 2) - lg(nu / 2) + d / 2 * math.log(d / nu)
                   + (d / 2 - 1) * math.log(ss / d / s2) - (d + nu) / 2 * math.log1p(ss / s2 / nu) - math.log(s2)
                   for d, ss in obs)
    best = max((loglik(nu, math.exp(2 * ls)), nu, math.exp(ls))
               for nu in (0.25 * 1.25 ** i for i in range(30)) for ls in (-0.01 * j for j in range(1, 1500)))
    return best[1], best[2], len(obs)


def per_program_held(rs):
    """{program: (perturbations whose interval holds the full run's CPI, of how many)}"""
    out = {}
    for r in rs:
        a, b = out.get(r["program"], (0, 0))
        out[r["program"]] = (a + (abs(r["error_pct"]) <= r["measured_half_pct"]), b + 1)
    return out


def half_width(r, key, kappa=1.0, rho=None):
    """The 95% interval's half-width (% of CPI) of row r."""
    if rho is not None:
        return 1.96 * math.hypot(r["predicted_se_pct"], rho * math.sqrt(r["sum_w2"]))
    return 1.96 * kappa * r[key]


def coverage(rows, method, st, key, kappa=1.0, rho=None):
    """(perturbations whose interval holds the full run's CPI, of how many, mean half-width)"""
    rs = [r for r in rows if r["set"] == st and r["method"] == method]
    hw = [half_width(r, key, kappa, rho) for r in rs]
    hit = sum(abs(r["error_pct"]) <= h for r, h in zip(rs, hw))
    return hit, len(rs), sum(hw) / len(hw)


def table(L, title, text, columns, cells):
    """A section: TITLE, TEXT, and a table with a row of CELLS for each set and method."""
    L += [f"## {title}", "", text, "", "| set | method | " + " | ".join(columns) + " |",
          "|---|---|" + "--:|" * len(columns)]
    L += [f"| {st} | {m} | " + " | ".join(c) + " |" for st, m, c in cells if c]
    L.append("")


def render(rows, methods):
    sets = [s for s in ("tuning", "evaluation") if any(r["set"] == s for r in rows)]
    kappa = {m: calibration(rows, m) for m in methods}
    rho = {m: residual_floor(rows, m) for m in methods}

    def distribution(st, m):
        pp = per_program(rows, m, st)
        if not pp:
            return None
        means = [v[0] for v in pp.values()]
        p95 = [v[1] for v in pp.values()]
        most = max(r["points"] / r["simpoint_points"] for r in rows if r["set"] == st and r["method"] == m)
        return [str(len(pp)), f"{sum(v[3] for v in pp.values()) / len(pp):.2f}x", f"{most:.2f}x",
                f"{sum(means) / len(means):.2f}%",
                f"{max(means):.2f}%", f"{sum(p95) / len(p95):.2f}%", f"{max(p95):.2f}%",
                f"{sum(x <= 1 for x in means)}/{len(means)}", f"{sum(x <= 2 for x in p95)}/{len(p95)}"]

    def intervals(st, m):
        if not any(r["set"] == st and r["method"] == m for r in rows):
            return None
        oh, on, ow = coverage(rows, m, st, "oracle_se_pct")
        ph, pn, pw = coverage(rows, m, st, "predicted_se_pct", kappa[m])
        fh, fn, fw = coverage(rows, m, st, "predicted_se_pct", rho=rho[m])
        return [f"{100 * oh / on:.0f}% ({ow:.2f}%)", f"{kappa[m]:.2f}", f"{100 * ph / pn:.0f}% ({ph}/{pn})",
                f"{pw:.2f}%", f"{rho[m]:.2f}%", f"{100 * fh / fn:.0f}% ({fh}/{fn})", f"{fw:.2f}%"]

    nu0, s0, nfit = prior_fit(rows)

    def measured(st, m):
        rs = [r for r in rows if r["set"] == st and r["method"] == m and r["measured_se_pct"] > 0]
        if not rs:
            return None
        own = [r["measured_half_pct"] for r in rs]
        hit = sum(abs(r["error_pct"]) <= h for r, h in zip(rs, own))
        first = sum(r["stage1_points"] / r["simpoint_points"] for r in rs) / len(rs)
        progs = per_program_held(rs)
        return [f"{first:.2f}x", f"{100 * hit / len(rs):.0f}% ({hit}/{len(rs)})",
                f"{sum(own) / len(own):.2f}%", f"{quantile(own, 0.5):.2f}%",
                f"{quantile([r['pairs'] for r in rs], 0.5):.0f}", f"{quantile([r['measured_df'] for r in rs], 0.5):.1f}",
                f"{sum(a == b for a, b in progs.values())}/{len(progs)}"]

    L = []
    table(L, "Per method",
          "Per program: the mean and the 95th percentile (Hyndman-Fan 7) of |CPI error| over its "
          f"{len(VARIANTS) * len(OFFSETS)} perturbations; the columns average those over the programs "
          "(and give the largest). Points: the simulation points against SimPoint's on the same "
          "perturbation, averaged, and the most on any perturbation.",
          ["programs", "points vs SimPoint", "at most", "mean of mean \\|err\\|", "largest mean", "mean of p95", "largest p95",
           "programs with mean <= 1%", "with p95 <= 2%"],
          [(st, m, distribution(st, m)) for st in sets for m in methods])
    table(L, "The 95% interval: how often it holds the full run's CPI",
          "Share of perturbations whose interval holds the full run's CPI, and the interval's mean half-width. "
          "*oracle*: +- 1.96 x the standard error of one random member per cluster (or stratum), each "
          "member's CPI from the full run (validate's; it needs the full run). *predicted*: +- 1.96 x "
          "kappa x the standard error simpoint predicts from the proxy CPI before anything is simulated "
          "(`--json` `predicted.relative_se`), kappa fitted on the tuning set (the 95th percentile there of "
          "|error| / (1.96 x predicted SE)). *predicted + floor*: +- 1.96 x sqrt(SE^2 + rho^2 sum W^2), "
          "rho (the relative CPI spread per interval the proxy does not see) the least that covers 95% "
          "of the tuning set. kappa and rho come from the tuning set only.",
          ["oracle", "predicted: kappa", "coverage", "half-width", "predicted + floor: rho", "coverage", "half-width"],
          [(st, m, intervals(st, m)) for st in sets for m in methods])
    table(L, "The 95% interval from the simulated points (simpoint --measured)",
          "The interval `simpoint --measured` gives from the points' CPIs (here the full run's for those "
          "intervals), without a full run (simpoint/twostage.h): each stratum's spread of CPI is its spread of "
          "proxy CPI times its cluster's CPI / proxy CPI, plus a residual sigma^2 estimated from the log ratios "
          "of the points that share a k-means cluster (collapsed strata), with a conjugate prior; +- Student's t "
          "at Satterthwaite's degrees of freedom, nothing fitted to coverage. *first stage*: the points "
          "simulated before the second stage adds any, against SimPoint's. *coverage*: perturbations whose "
          "interval holds the full run's CPI; *half-width*: mean and median; *pairs*: sigma^2's degrees of "
          "freedom from the points (median); *df*: the variance's (median); *programs*: those whose every "
          f"perturbation's interval holds. sigma^2's prior, fitted on the tuning set's budget:1.5x designs "
          f"({nfit} perturbations with pairs) by maximum marginal likelihood (prior_fit): nu0 = {nu0:.2f}, "
          f"s0 = {100 * s0:.2f}% (the tool's, simpoint/twostage.c ts_model_default: {tool_prior()}).",
          ["first stage", "coverage", "half-width", "median", "pairs", "df", "programs held"],
          [(st, m, measured(st, m)) for st in sets for m in methods])
    for st in sets:
        L.append(f"## Per program, {st} set: mean / 95th percentile of |CPI error| (points vs SimPoint's) "
                 "[perturbations whose interval from simpoint --measured holds the full run's CPI]")
        L.append("")
        L.append("| program | instructions | " + " | ".join(methods) + " |")
        L.append("|---|--:|" + "--:|" * len(methods))
        tabs = {m: per_program(rows, m, st) for m in methods}

        def held(p, m):
            rs = [r for r in rows if r["program"] == p and r["method"] == m and r["measured_half_pct"] > 0]
            return f" [{sum(abs(r['error_pct']) <= r['measured_half_pct'] for r in rs)}/{len(rs)}]" if rs else ""
        for p in tabs[methods[0]]:
            insts = [r["instructions"] for r in rows if r["program"] == p and r["variant"] == "base"]
            L.append(f"| {p} | {insts[0] / 1e6:.0f}M | " + " | ".join(
                f"{tabs[m][p][0]:.2f}% / {tabs[m][p][1]:.2f}% ({tabs[m][p][3]:.2f}x){held(p, m)}" for m in methods) + " |")
        L.append("")
    return "\n".join(L)


if __name__ == "__main__":
    main()
