#!/usr/bin/env python3
"""accuracy_eval_why.py: why a program's points miss (issue 37).

For programs of bench/accuracy_eval.sh (its cached profiles and full runs in
OUT), the default design (budget:1.5x) at each offset of the interval grid:
which strata carry the error (W_g x (the point's CPI - the stratum's mean
CPI), against the full run's CPI), how far their points are from their
stratum in CPI and in proxy CPI, and which of the full run's cycle
categories (sim's interval log) the CPI varies by within strata: each
category's within-stratum variance, sum_g W_g^2 Var_g, as a share of CPI's
(the shares need not add up to 100%: categories covary).

Usage: accuracy_eval_why.py OUT VARIANT PROGRAM... > REPORT.md
(BIN: the tools, as accuracy_eval.sh sets it; simpoint from there.)
"""
import csv
import statistics as st
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import accuracy_eval as ae  # noqa: E402


def categories(d):
    rows = list(csv.DictReader(open(d / "full.csv")))
    keys = [k for k in rows[0] if k.startswith(("computing", "stalled", "flushed", "drained"))]
    return rows, keys


def explained(pooled, sets=([0], [1], [0, 1])):
    """Shares of the pooled within-stratum variance of y that each set of
    regressors explains (one or two of x0, x1, ...: by default x0, x1 and
    both), and the last set's slopes: pooled = [(weight, y, x0, x1, ...)],
    each about its stratum's means."""
    def fit(cols):
        # weighted least squares without intercept, by the normal equations (1 or 2 columns)
        a = [[sum(w * r[i] * r[j] for w, _, *r in pooled) for j in cols] for i in cols]
        b = [sum(w * y * r[i] for w, y, *r in pooled) for i in cols]
        if len(cols) == 1:
            c = [b[0] / a[0][0]] if a[0][0] > 0 else [0.0]
        else:
            det = a[0][0] * a[1][1] - a[0][1] * a[1][0]
            c = [(b[0] * a[1][1] - b[1] * a[0][1]) / det, (a[0][0] * b[1] - a[1][0] * b[0]) / det] if det > 0 else [0.0, 0.0]
        return sum(ci * bi for ci, bi in zip(c, b)), c  # the explained sum of squares, the slopes
    tot = sum(w * y * y for w, y, *_ in pooled)
    fits = [fit(c) for c in sets]
    return [e / tot if tot > 0 else 0.0 for e, _ in fits], fits[-1][1]


def one(out, variant, prog):
    d = Path(out) / "runs" / prog / variant
    bb, px, cyc = ae.read_fine(d)
    rows, keys = categories(d)
    share = dict.fromkeys(keys, 0.0)
    total = 0.0
    pooled = []
    lines = []
    for off in ae.OFFSETS:
        tmp = Path(out) / "tmp" / f"why.{prog}.{variant}.{off}"
        tmp.mkdir(parents=True, exist_ok=True)
        coarse_lines, prox, ic = ae.coarse(bb, px, cyc, off)
        bbf, pxf = ae.write_inputs(tmp, coarse_lines, prox)
        reps, wts, labels, summ, _ = ae.design(tmp, bbf, pxf, "b", ae.BUDGETED, "measured", ic)
        cluster = {s["stratum"]: s["kmeans_cluster"] for s in summ["measured"]["strata"]}
        per, head = ae.INTERVAL // ae.FINE, off // ae.FINE
        groups = ([range(0, head)] if head else []) + [range(s, min(s + per, len(rows))) for s in range(head, len(rows), per)]
        agg = [{k: sum(int(rows[i][k]) for i in g) for k in keys + ["instructions", "cycles"]} for g in groups]
        true = sum(a["cycles"] for a in agg) / sum(a["instructions"] for a in agg)
        m = summ["measured"]
        strata = []
        for g, i in reps.items():
            mem = [j for j, lab in enumerate(labels) if lab == g]
            n = sum(agg[j]["instructions"] for j in mem)
            y = [agg[j]["cycles"] / agg[j]["instructions"] for j in mem]
            x = [prox[j][1] for j in mem]
            mean_y = sum(agg[j]["cycles"] for j in mem) / n
            mean_x = sum(prox[j][1] * agg[j]["instructions"] for j in mem) / n
            if len(mem) > 1:
                total += wts[g] ** 2 * st.pvariance(y)
                lx = [prox[j][2] for j in mem]
                ex = [prox[j][3] for j in mem]
                pooled += [(wts[g] ** 2 / len(mem), yj - st.mean(y), xj - st.mean(x), lj - st.mean(lx), ej - st.mean(ex))
                           for yj, xj, lj, ej in zip(y, x, lx, ex)]
                for k in keys:
                    share[k] += wts[g] ** 2 * st.pvariance([agg[j][k] / agg[j]["instructions"] for j in mem])
            strata.append((wts[g] * (agg[i]["cycles"] / agg[i]["instructions"] - mean_y) / true * 100, g, i, len(mem),
                           cluster[g], wts[g], agg[i]["cycles"] / agg[i]["instructions"], mean_y,
                           st.pstdev(y) if len(y) > 1 else 0.0, prox[i][1], mean_x, st.pstdev(x) if len(x) > 1 else 0.0))
        strata.sort(key=lambda s: -abs(s[0]))
        lines.append(f"- offset {off}: error {100 * (m['cpi'] / true - 1):+.2f}%, interval +-{100 * m['ci95_relative']:.2f}% "
                     f"({len(reps)} points, {m['pairs']:.0f} pairs); the strata carrying most of it:")
        for c, g, i, n, h, w, y, my, sy, x, mx, sx in strata[:3]:
            lines.append(f"  - stratum {g} (cluster {h}, {n} intervals, W {w:.3f}): {c:+.2f}%; its point {i} CPI {y:.3f} "
                         f"against the stratum's {my:.3f} +- {sy:.3f}; proxy CPI {x:.3f} against {mx:.3f} +- {sx:.3f}")
    top = sorted(share.items(), key=lambda kv: -kv[1])[:4]
    head = (f"### {prog} ({variant})\n\nWithin-stratum variance of CPI by category, summed over the offsets: "
            + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in top)
            + "; explained by a line through the proxy CPI {:.0f}%, the long operations' CPI {:.0f}%, both {:.0f}% "
              "(slopes {:+.2f} and {:+.2f} CPI per unit); the exposed latency's CPI {:.0f}%, with the proxy CPI {:.0f}% "
              "(slopes {:+.2f} and {:+.2f})\n".format(*(100 * e for e in explained(pooled)[0]), *explained(pooled)[1],
                                                      *(100 * e for e in explained(pooled, ([2], [0, 2]))[0]),
                                                      *explained(pooled, ([2], [0, 2]))[1]))
    return head + "\n" + "\n".join(lines) + "\n"


def main():
    out, variant, progs = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    print("\n".join(one(out, variant, p) for p in progs))


if __name__ == "__main__":
    main()
