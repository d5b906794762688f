#include "plots.h"

#include <math.h>
#include <stdlib.h>

#include "gnuplot.h"
#include "sink.h"

/* The plot area of a full-width plot, in pixels (of 960). */
enum { PLOT_WIDTH = 840 };

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

/* What the title says when not every cluster is labelled. */
static void thinned_note(vd_buf *title, const gnuplot_xtics *t)
{
    if (t->step > 1)
        vd_buf_printf(title, "; one cluster in %u labelled", t->step);
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
    size_t longest = 0;
    for (size_t i = 0; i < n; i++) {
        const vd_region_row *r = &a->rows[order[i]];
        const vd_point *pt = &a->s->pts[r->point];
        double agg = r->cluster_row >= 0 ? a->clusters[r->cluster_row].cpi_agg : NAN;
        char label[64];
        size_t len = (size_t)snprintf(label, sizeof label, "%ld (%.3g)", pt->cluster, pt->weight);
        longest = len > longest ? len : longest;
        vd_buf_printf(&data, "%zu \"%s\" %.10g %.10g %.10g\n", i + 1, label, agg, r->cpi_full, r->cpi_sim);
    }
    gnuplot_xtics tics = gnuplot_fit_xtics(n, longest, 2, PLOT_WIDTH);
    char name[256];
    vd_buf_printf(&body, "set title \"%s: CPI by cluster, heaviest first (weight in brackets",
                  gnuplot_text(name, sizeof name, a->name));
    thinned_note(&body, &tics);
    vd_buf_printf(&body, ")\"\n");
    vd_buf_printf(&body, "set ylabel \"CPI\"\nset grid ytics\n%s"
                         "set key below horizontal\nset offsets 0, 0, graph 0.05, graph 0.05\nset xrange [0.4:%zu.6]\n",
                  tics.set, n);
    vd_buf_printf(&body, "plot \"%s\" index 0 using 1:2 with points pt 7 ps 0.5 lc rgb \"#8c96c6\" title "
                         "\"intervals (full run)\", \\\n", "cpi_clusters.dat");
    if (a->has_labels)
        vd_buf_printf(&body, "  \"\" index 1 using 1:3:($1-0.35):($1+0.35) with xerrorbars pt 0 lw 2 lc rgb "
                             "\"black\" title \"cluster CPI\", \\\n");
    vd_buf_printf(&body, "  \"\" index 1 using 1:4:xtic(%s) with points pt 7 ps 1.5 lc rgb \"red\" title "
                         "\"representative (full run)\"%s\n",
                  tics.label, a->has_regions ? ", \\\n  \"\" index 1 using 1:5 with points pt 9 ps 1.5 lc rgb \"blue\" title "
                                   "\"representative (simulated)\"" : "");
    vd_plot(g, dir, "cpi_clusters", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
    free(order);
}

static void error_by_cluster(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    size_t n;
    size_t *order = plot_order(a, &n);
    vd_buf data = {0}, body = {0};
    vd_buf_printf(&data, "# cluster sampling_contribution_pct warmup_contribution_pct\n");
    size_t longest = 0;
    for (size_t i = 0; i < n; i++) {
        const vd_region_row *r = &a->rows[order[i]];
        double sampling = r->cluster_row >= 0 ? a->clusters[r->cluster_row].contrib_sampling : 0;
        char label[32];
        size_t len = (size_t)snprintf(label, sizeof label, "%ld", a->s->pts[r->point].cluster);
        longest = len > longest ? len : longest;
        vd_buf_printf(&data, "\"%s\" %.6g %.6g\n", label, 100 * sampling, a->has_regions ? 100 * r->contrib_warmup : 0.0);
    }
    gnuplot_xtics tics = gnuplot_fit_xtics(n, longest, 1, PLOT_WIDTH);
    char name[256];
    vd_buf_printf(&body, "set title \"%s: each cluster's contribution to the CPI error (%% of the full-run CPI), "
                         "heaviest first", gnuplot_text(name, sizeof name, a->name));
    thinned_note(&body, &tics);
    vd_buf_printf(&body, "\"\n"
                         "set style data histograms\nset style histogram clustered gap 1\n"
                         "set style fill solid 0.85 border -1\nset ylabel \"contribution (%%)\"\n"
                         "set grid ytics\nset xzeroaxis\n%sset key below horizontal\n"
                         "plot \"error_by_cluster.dat\" using 2:xtic(%s) title \"sampling\" lc rgb \"#d95f02\"%s\n",
                  tics.set, tics.label,
                  a->has_regions ? ", \"\" using 3 title \"warm-up\" lc rgb \"#1b9e77\"" : "");
    vd_plot(g, dir, "error_by_cluster", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
    free(order);
}

void vd_plots(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    cpi_clusters(a, g, dir, d);
    vd_plot_metric_errors(a, g, dir, d);
    if (a->has_labels || a->has_regions)
        error_by_cluster(a, g, dir, d);
}
