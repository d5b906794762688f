/* error_breakdown: each headline metric's error, total, sampling and
 * warm-up. CPI in a panel of its own scale; the other metrics beside it,
 * clipped at a range one outlier cannot set, with the values of the bars
 * that run off it written upright in their group (level ones clashed with
 * their neighbours' once two neighbours ran off). */
#include "plots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "sink.h"

enum { SERIES = 3 };
static const char *const series_name[SERIES] = {"total", "sampling", "warm-up"};
static const char *const series_colour[SERIES] = {"#444444", "#d95f02", "#1b9e77"};

/* One metric's bars: its errors in %, one per series. */
typedef struct metric_bars {
    const char *label;
    double pct[SERIES];
} metric_bars;

/* The headline metrics with an error, CPI first; returns how many. */
static size_t headline_bars(const vd_analysis *a, metric_bars *out)
{
    const vd_metrics *ms = &a->full->ms;
    size_t n = 0;
    for (int cpi = 1; cpi >= 0; cpi--)
        for (size_t i = 0; i < ms->n; i++) {
            if (!ms->m[i].headline || !isfinite(vd_err(a, i)) || (i == 0) != cpi)
                continue;
            out[n++] = (metric_bars){ms->m[i].label,
                                     {100 * vd_err(a, i), 100 * vd_err_sampling(a, i),
                                      a->has_regions ? 100 * vd_err_warmup(a, i) : 0.0}};
        }
    return n;
}

/* The series drawn: all three with regions, else sampling alone. */
static bool drawn(const vd_analysis *a, int s) { return a->has_regions || s == 1; }

static double largest_bar(const vd_analysis *a, const metric_bars *m)
{
    double top = 0;
    for (int s = 0; s < SERIES; s++)
        if (drawn(a, s))
            top = fmax(top, fabs(m->pct[s]));
    return top;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* A y range for the metrics beside CPI that one outlier cannot flatten
 * (an L2 MPKI error of +40,000% once hid every other bar): three times the
 * upper quartile of |error|, at least 1%, at most what the data needs. */
static double clip_limit(const vd_analysis *a, const metric_bars *m, size_t n)
{
    if (!n)
        return 1;
    double *v = vd_malloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = largest_bar(a, &m[i]);
    qsort(v, n, sizeof *v, by_value);
    double lim = fmax(1.0, 3 * v[(3 * (n - 1)) / 4]), top = v[n - 1] * 1.1;
    free(v);
    return top < lim ? fmax(top, 1.0) : lim;
}

/* The values of M's bars beyond LIM on the side SIGN, as a quoted data
 * column: "total +791%, sampling +650%", "-" when none runs off. */
static void clipped_column(vd_buf *data, const vd_analysis *a, const metric_bars *m, double lim, int sign)
{
    bool any = false, named = a->has_regions;
    vd_buf_printf(data, " \"");
    for (int s = 0; s < SERIES; s++) {
        if (!drawn(a, s) || sign * m->pct[s] <= lim)
            continue;
        vd_buf_printf(data, "%s%s%s%+.0f%%", any ? ", " : "", named ? series_name[s] : "", named ? " " : "",
                      m->pct[s]);
        any = true;
    }
    vd_buf_printf(data, "%s\"", any ? "" : "-");
}

/* Block 0 CPI (NaN when it has no error), block 1 the other metrics. */
static void write_data(vd_buf *data, const vd_analysis *a, const metric_bars *m, size_t n, bool has_cpi, double lim)
{
    vd_buf_printf(data, "# metric error_pct sampling_pct warmup_pct clipped_above clipped_below; "
                        "CPI first, then the other metrics\n");
    if (!has_cpi)
        vd_buf_printf(data, "\"CPI\" NaN NaN NaN \"-\" \"-\"\n\n\n");
    for (size_t i = 0; i < n; i++) {
        bool cpi = has_cpi && i == 0;
        vd_buf_printf(data, "\"%s\" %.6g %.6g %.6g", m[i].label, m[i].pct[0], m[i].pct[1], m[i].pct[2]);
        clipped_column(data, a, &m[i], cpi ? INFINITY : lim, 1);
        clipped_column(data, a, &m[i], cpi ? INFINITY : lim, -1);
        vd_buf_printf(data, cpi ? "\n\n\n" : "\n");
    }
}

/* The bars of data block INDEX, its labels from column 1 through XTIC. */
static void plot_bars(vd_buf *body, const vd_analysis *a, int index, const char *xtic)
{
    bool first = true;
    for (int s = 0; s < SERIES; s++) {
        if (!drawn(a, s))
            continue;
        vd_buf_printf(body, "%s\"%s\" index %d using %d%s%s title \"%s\" lc rgb \"%s\"", first ? "plot " : ", ",
                      first ? "error_breakdown.dat" : "", index, s + 2, first ? ":xtic" : "", first ? xtic : "",
                      series_name[s], series_colour[s]);
        first = false;
    }
}

void vd_plot_metric_errors(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    metric_bars *m = vd_malloc((a->full->ms.n + 1) * sizeof *m);
    size_t n = headline_bars(a, m);
    bool has_cpi = n && m[0].label == a->full->ms.m[0].label;
    double lim = clip_limit(a, m + has_cpi, n - has_cpi), cpi_lim = 1;
    if (has_cpi)
        cpi_lim = fmax(cpi_lim, 1.3 * largest_bar(a, &m[0]));
    size_t longest = 0;
    for (size_t i = has_cpi; i < n; i++)
        longest = strlen(m[i].label) > longest ? strlen(m[i].label) : longest;
    /* The right panel's plot area, with its key beside it. */
    gnuplot_xtics tics = gnuplot_fit_xtics(n - has_cpi, longest, 1, 480);
    char xtic[110];
    snprintf(xtic, sizeof xtic, "(%s)", tics.label);

    vd_buf data = {0}, body = {0};
    write_data(&data, a, m, n, has_cpi, lim);
    vd_buf_printf(&body, "set style data histograms\nset style histogram clustered gap 1\n"
                         "set style fill solid 0.85 border -1\nset grid ytics\n%s"
                         "set xzeroaxis\nset bmargin %d\nset tmargin 4\n"
                         "set style textbox opaque fillcolor rgb \"white\" noborder\n",
                  tics.set, tics.height_lines);
    char name[256];
    vd_buf_printf(&body, "set multiplot title \"%s: error of each metric, signed, %% of the full-run value%s\"\n",
                  gnuplot_text(name, sizeof name, a->name), a->has_regions ? "" : " (sampling only)");
    vd_buf_printf(&body, "set size 0.25,0.95\nset origin 0,0\nset rmargin 2\nset ylabel \"error (%%)\"\n"
                         "set title \"CPI\"\nset key off\nset yrange [%.6g:%.6g]\n",
                  -cpi_lim, cpi_lim);
    plot_bars(&body, a, 0, "(1)");
    vd_buf_printf(&body, "\nset size 0.75,0.95\nset origin 0.25,0\nunset ylabel\nset rmargin 14\n"
                         "set key at screen 0.99, graph 1 right top\n"
                         "set title \"other metrics (clipped at +/-%.3g%%: longer bars carry their value)\"\n"
                         "set yrange [%.6g:%.6g]\n",
                  lim, -lim, lim);
    plot_bars(&body, a, 1, xtic);
    vd_buf_printf(&body, ", \\\n  \"\" index 1 using 0:(strcol(5) eq \"-\" ? 1/0 : %.6g):5 with labels rotate by 90 right "
                         "boxed notitle, \\\n  \"\" index 1 using 0:(strcol(6) eq \"-\" ? 1/0 : %.6g):6 with labels "
                         "rotate by 90 left boxed notitle\nunset multiplot\n",
                  0.97 * lim, -0.97 * lim);
    vd_plot(g, dir, "error_breakdown", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
    free(m);
}
