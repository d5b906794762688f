#include "plots.h"

#include <math.h>
#include <stdlib.h>

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

static void error_breakdown(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    const vd_metrics *ms = &a->full->ms;
    vd_buf data = {0}, body = {0};
    vd_buf_printf(&data, "# metric error_pct sampling_pct warmup_pct\n");
    for (size_t i = 0; i < ms->n; i++)
        if (ms->m[i].headline && isfinite(vd_err(a, i)))
            vd_buf_printf(&data, "\"%s\" %.6g %.6g %.6g\n", ms->m[i].label, 100 * vd_err(a, i),
                          100 * vd_err_sampling(a, i), a->has_regions ? 100 * vd_err_warmup(a, i) : 0.0);
    vd_buf_printf(&body, "set title \"%s: error of each metric, signed, %% of the full-run value%s\"\n", a->name,
                  a->has_regions ? "" : " (sampling only)");
    vd_buf_printf(&body, "set style data histograms\nset style histogram clustered gap 1\n"
                         "set style fill solid 0.85 border -1\nset ylabel \"error (%%)\"\nset grid ytics\n"
                         "set xtics rotate by -35 scale 0\nset xzeroaxis\nset key top right\n");
    if (a->has_regions)
        vd_buf_printf(&body, "plot \"error_breakdown.dat\" using 2:xtic(1) title \"total\" lc rgb \"#444444\", "
                             "\"\" using 3 title \"sampling\" lc rgb \"#d95f02\", \"\" using 4 title \"warm-up\" lc "
                             "rgb \"#1b9e77\"\n");
    else
        vd_buf_printf(&body, "plot \"error_breakdown.dat\" using 3:xtic(1) title \"sampling\" lc rgb \"#d95f02\"\n");
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
