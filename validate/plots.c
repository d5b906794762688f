#include "plots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"

/* Clusters in the order plotted: represented ones, heaviest first. */
static size_t *plot_order(const vd_analysis *a, size_t *n)
{
    size_t *order = vd_malloc(a->nrows * sizeof *order);
    for (size_t i = 0; i < a->nrows; i++)
        order[i] = i;
    for (size_t i = 1; i < a->nrows; i++)
        for (size_t j = i; j > 0 && a->s->pts[order[j]].weight > a->s->pts[order[j - 1]].weight; j--) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    *n = a->nrows;
    return order;
}

static void cpi_clusters(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    size_t n;
    size_t *order = plot_order(a, &n);
    vd_buf data = {0}, body = {0};
    vd_rng jitter;
    vd_rng_seed(&jitter, 1);
    vd_buf_printf(&data, "# members: x cpi (x jittered around the cluster's position)\n");
    for (size_t i = 0; a->has_labels && i < n; i++) {
        const vd_cluster_row *c = &a->clusters[a->rows[order[i]].cluster_row];
        for (size_t m = 0; m < c->n; m++)
            vd_buf_printf(&data, "%.4f %.10g\n", (double)(i + 1) + 0.5 * ((double)vd_rng_below(&jitter, 1000) / 1000 - 0.5),
                          c->member_cpi[m]);
    }
    if (!a->has_labels)
        vd_buf_printf(&data, "0 NaN\n");
    vd_buf_printf(&data, "\n\n# x label cluster_cpi representative_full representative_simulated\n");
    for (size_t i = 0; i < n; i++) {
        const vd_region_row *r = &a->rows[order[i]];
        const vd_point *pt = &a->s->pts[r->point];
        double agg = r->cluster_row >= 0 ? a->clusters[r->cluster_row].cpi_agg : NAN;
        vd_buf_printf(&data, "%zu \"%ld (%.3g)\" %.10g %.10g %.10g\n", i + 1, pt->cluster, pt->weight, agg,
                      r->cpi_full, r->cpi_sim);
    }
    vd_buf_printf(&body, "set title \"%s: CPI by cluster, heaviest first (weight in brackets)\"\n", a->name);
    vd_buf_printf(&body, "set ylabel \"CPI\"\nset grid ytics\n"
                         "set key below horizontal\nset offsets 0, 0, graph 0.05, graph 0.05\nset xrange [0.4:%zu.6]\n", n);
    vd_buf_printf(&body, "plot \"%s\" index 0 using 1:2 with points pt 7 ps 0.5 lc rgb \"#8c96c6\" title "
                         "\"intervals (full run)\", \\\n", "cpi_clusters.dat");
    if (a->has_labels)
        vd_buf_printf(&body, "  \"\" index 1 using 1:3:($1-0.35):($1+0.35) with xerrorbars pt 0 lw 2 lc rgb "
                             "\"black\" title \"cluster CPI\", \\\n");
    vd_buf_printf(&body, "  \"\" index 1 using 1:4:xtic(2) with points pt 7 ps 1.5 lc rgb \"red\" title "
                         "\"representative (full run)\"%s\n",
                  a->has_regions ? ", \\\n  \"\" index 1 using 1:5 with points pt 9 ps 1.5 lc rgb \"blue\" title "
                                   "\"representative (simulated)\"" : "");
    vd_plot(g, dir, "cpi_clusters", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
    free(order);
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* A y range for the metrics beside CPI that one outlier cannot flatten
 * (an L2 MPKI error of +40,000% once hid every other bar): three times the
 * upper quartile of |error|, at least 1%, at most what the data needs. */
static double clip_limit(const double *abs_err, size_t n)
{
    if (!n)
        return 1;
    double *v = vd_malloc(n * sizeof *v);
    memcpy(v, abs_err, n * sizeof *v);
    qsort(v, n, sizeof *v, by_value);
    double lim = fmax(1.0, 3 * v[(3 * (n - 1)) / 4]), top = v[n - 1] * 1.1;
    free(v);
    return top < lim ? fmax(top, 1.0) : lim;
}

/* CPI in a panel of its own scale; the other metrics beside it, clipped at
 * a robust range, with the value written on each bar that runs off it. */
static void error_breakdown(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    const vd_metrics *ms = &a->full->ms;
    vd_buf data = {0}, body = {0};
    double *abs_err = vd_malloc((ms->n + 1) * sizeof *abs_err);
    size_t n = 0;
    vd_buf_printf(&data, "# metric error_pct sampling_pct warmup_pct; CPI first, then the other metrics\n");
    for (int block = 0; block < 2; block++) {
        for (size_t i = 0; i < ms->n; i++) {
            if (!ms->m[i].headline || !isfinite(vd_err(a, i)) || (i == 0) != (block == 0))
                continue;
            vd_buf_printf(&data, "\"%s\" %.6g %.6g %.6g\n", ms->m[i].label, 100 * vd_err(a, i),
                          100 * vd_err_sampling(a, i), a->has_regions ? 100 * vd_err_warmup(a, i) : 0.0);
            if (block == 1) {
                abs_err[n++] = fmax(fabs(100 * vd_err(a, i)), fabs(100 * vd_err_sampling(a, i)));
                if (a->has_regions)
                    abs_err[n - 1] = fmax(abs_err[n - 1], fabs(100 * vd_err_warmup(a, i)));
            }
        }
        vd_buf_printf(&data, block == 0 ? "\n\n" : "");
    }
    double lim = clip_limit(abs_err, n);
    free(abs_err);
    const char *bars = a->has_regions
                           ? "using 2:xtic(1) title \"total\" lc rgb \"#444444\", \"\" index %d using 3 title \"sampling\" lc "
                             "rgb \"#d95f02\", \"\" index %d using 4 title \"warm-up\" lc rgb \"#1b9e77\""
                           : "using 3:xtic(1) title \"sampling\" lc rgb \"#d95f02\"";
    vd_buf_printf(&body, "set style data histograms\nset style histogram clustered gap 1\n"
                         "set style fill solid 0.85 border -1\nset grid ytics\nset xtics rotate by -35 scale 0\n"
                         "set xzeroaxis\nset bmargin 7\n");
    vd_buf_printf(&body, "set multiplot layout 1,2 title \"%s: error of each metric, signed, %% of the full-run value%s\"\n",
                  a->name, a->has_regions ? "" : " (sampling only)");
    double cpi_lim = 1;
    cpi_lim = fmax(cpi_lim, 1.3 * fabs(100 * vd_err(a, 0)));
    cpi_lim = fmax(cpi_lim, 1.3 * fabs(100 * vd_err_sampling(a, 0)));
    if (a->has_regions)
        cpi_lim = fmax(cpi_lim, 1.3 * fabs(100 * vd_err_warmup(a, 0)));
    vd_buf_printf(&body, "set tmargin 4\nset rmargin 8\nset size 0.3,0.95\nset origin 0,0\nset ylabel \"error (%%)\"\n"
                         "set title \"CPI\"\nset key off\nset yrange [%.6g:%.6g]\nplot \"error_breakdown.dat\" index 0 ",
                  -cpi_lim, cpi_lim);
    vd_buf_printf(&body, bars, 0, 0);
    vd_buf_printf(&body, "\nset size 0.7,0.95\nset origin 0.3,0\nunset ylabel\nset key top right\n"
                         "set title \"other metrics (clipped at +/-%.3g%%; longer bars carry their value)\"\n"
                         "set yrange [%.6g:%.6g]\nplot \"error_breakdown.dat\" index 1 ",
                  lim, -lim, lim);
    vd_buf_printf(&body, bars, 1, 1);
    vd_buf_printf(&body, ", \"\" index 1 using 0:(abs($2) > %.6g ? sgn($2) * %.6g : 1/0):(sprintf(\"%%+.0f%%%%\", $2)) "
                         "with labels offset 0,0.5 notitle\nunset multiplot\n",
                  lim, 0.92 * lim);
    vd_plot(g, dir, "error_breakdown", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
}

static void error_by_cluster(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    size_t n;
    size_t *order = plot_order(a, &n);
    vd_buf data = {0}, body = {0};
    vd_buf_printf(&data, "# cluster sampling_contribution_pct warmup_contribution_pct\n");
    for (size_t i = 0; i < n; i++) {
        const vd_region_row *r = &a->rows[order[i]];
        double sampling = r->cluster_row >= 0 ? a->clusters[r->cluster_row].contrib_sampling : 0;
        vd_buf_printf(&data, "\"%ld\" %.6g %.6g\n", a->s->pts[r->point].cluster, 100 * sampling,
                      a->has_regions ? 100 * r->contrib_warmup : 0.0);
    }
    vd_buf_printf(&body, "set title \"%s: each cluster's contribution to the CPI error (%% of the full-run CPI)\"\n"
                         "set style data histograms\nset style histogram clustered gap 1\n"
                         "set style fill solid 0.85 border -1\nset ylabel \"contribution (%%)\"\n"
                         "set xlabel \"cluster, heaviest first\"\nset grid ytics\nset xzeroaxis\nset key top right\n"
                         "plot \"error_by_cluster.dat\" using 2:xtic(1) title \"sampling\" lc rgb \"#d95f02\", "
                         "\"\" using 3 title \"warm-up\" lc rgb \"#1b9e77\"\n",
                  a->name);
    vd_plot(g, dir, "error_by_cluster", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
    free(order);
}

void vd_plots(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    cpi_clusters(a, g, dir, d);
    error_breakdown(a, g, dir, d);
    if (a->has_labels || a->has_regions)
        error_by_cluster(a, g, dir, d);
}
