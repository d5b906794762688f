/* The sweep's plots, after Paper C §6: error against cost with the Pareto
 * front (Fig. C.7), heat maps over MaxK x interval size (Figs. C.8-C.9),
 * instructions simulated per interval size (Fig. C.4) and per-program error
 * at the chosen configuration (Fig. C.5). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "sink.h"
#include "sweep_report.h"

/* Heat maps carry their numbers when they are small enough to read. */
enum { LABELLED_COLUMNS = 25 };

static const char *short_count(uint64_t v)
{
    static char buf[8][32];
    static unsigned next;
    return vd_short_count(buf[next++ % 8], sizeof buf[0], v);
}

static void pareto(const vd_sweep *sw, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    vd_buf data = {0}, body = {0};
    for (size_t i = 0; i < sw->nintervals; i++) {
        vd_buf_printf(&data, "# interval %llu: simulated_with_warmup mean_abs_pct max_k\n",
                      (unsigned long long)sw->intervals[i]);
        for (size_t c = 0; c < sw->ncfg; c++) {
            const vd_sweep_cfg *x = &sw->cfgs[c];
            if (x->complete && x->interval == sw->intervals[i])
                vd_buf_printf(&data, "%.0f %.6g %ld\n", x->sim_warm, 100 * x->mean_abs, x->max_k);
        }
        vd_buf_printf(&data, "NaN NaN 0\n\n\n");
    }
    vd_buf_printf(&data, "# Pareto front, by cost\n");
    size_t nf;
    const vd_sweep_cfg **front = vd_sweep_front(sw, &nf);
    for (size_t i = 0; i < nf; i++)
        vd_buf_printf(&data, "%.0f %.6g %ld\n", front[i]->sim_warm, 100 * front[i]->mean_abs, front[i]->max_k);
    free(front);
    vd_buf_printf(&body, "set title \"mean |CPI error| over %zu program%s against instructions simulated\"\n"
                         "set logscale x\nset format x \"%%.0s%%c\"\nset xlabel \"instructions simulated, warm-up included\"\n"
                         "set ylabel \"mean |CPI error| (%%)\"\nset grid\nset key top right\n",
                  sw->nprog, sw->nprog == 1 ? "" : "s");
    vd_buf_printf(&body, "plot ");
    for (size_t i = 0; i < sw->nintervals; i++)
        vd_buf_printf(&body, "\"pareto.dat\" index %zu using 1:2 with points pt 7 ps 0.8 title \"interval %s\", ", i,
                      short_count(sw->intervals[i]));
    vd_buf_printf(&body, "\"pareto.dat\" index %zu using 1:2 with linespoints lw 2 pt 6 ps 1.4 lc rgb \"red\" title "
                         "\"Pareto front\", %.6g with lines dt 2 lc rgb \"black\" title \"target %.3g%%\"\n",
                  sw->nintervals, 100 * sw->target, 100 * sw->target);
    vd_plot(g, dir, "pareto", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
}

static const vd_sweep_cfg *cell(const vd_sweep *sw, uint64_t interval, long max_k, double bic)
{
    for (size_t c = 0; c < sw->ncfg; c++) {
        const vd_sweep_cfg *x = &sw->cfgs[c];
        if (x->complete && x->interval == interval && x->max_k == max_k && vd_same_bic(x->bic, bic))
            return x;
    }
    return NULL;
}

static void heatmap(const vd_sweep *sw, double bic, bool max, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    char name[64];
    if (sw->nbics > 1)
        snprintf(name, sizeof name, "heatmap_%s_bic%g", max ? "max" : "mean", bic);
    else
        snprintf(name, sizeof name, "heatmap_%s", max ? "max" : "mean");
    vd_buf data = {0}, body = {0};
    vd_buf_printf(&data, "# maxk_index interval_index %s_abs_error_pct\n", max ? "max" : "mean");
    for (size_t y = 0; y < sw->nintervals; y++) {
        for (size_t x = 0; x < sw->nmaxks; x++) {
            const vd_sweep_cfg *c = cell(sw, sw->intervals[y], sw->maxks[x], bic);
            vd_buf_printf(&data, "%zu %zu %.6g\n", x, y, c ? 100 * (max ? c->max_abs : c->mean_abs) : NAN);
        }
        vd_buf_printf(&data, "\n");
    }
    vd_buf_printf(&body, "set title \"%s |CPI error| (%%) over MaxK x interval size%s%s\"\n", max ? "largest" : "mean",
                  isnan(bic) ? "" : ", BIC ", isnan(bic) ? "" : vd_num(bic, 3));
    vd_buf_printf(&body, "set xlabel \"MaxK\"\nset ylabel \"interval size\"\nset xtics (");
    for (size_t x = 0; x < sw->nmaxks; x++)
        vd_buf_printf(&body, "%s\"%ld\" %zu", x ? ", " : "", sw->maxks[x], x);
    vd_buf_printf(&body, ")\nset ytics (");
    for (size_t y = 0; y < sw->nintervals; y++)
        vd_buf_printf(&body, "%s\"%s\" %zu", y ? ", " : "", short_count(sw->intervals[y]), y);
    vd_buf_printf(&body, ")\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n", sw->nmaxks - 1, sw->nintervals - 1);
    vd_buf_printf(&body, "set palette defined (0 \"#1a9850\", 1 \"#fee08b\", 2 \"#d73027\")\nset cbrange [0:*]\n"
                         "set cblabel \"|error| (%%)\"\n");
    vd_buf_printf(&body, "plot \"%s.dat\" using 1:2:3 with image notitle%s\n", name,
                  sw->nmaxks <= LABELLED_COLUMNS
                      ? ", \"\" using 1:2:(sprintf(\"%.1f\", $3)) with labels font \",8\" notitle"
                      : "");
    vd_plot(g, dir, name, data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
}

static void cost_by_interval(const vd_sweep *sw, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    bool any_baseline = false, any_best = false;
    for (size_t i = 0; i < sw->nintervals; i++) {
        any_baseline |= sw->baseline_by_interval[i] >= 0;
        any_best |= sw->best_by_interval[i] >= 0;
    }
    if (!any_baseline && !any_best)
        return;
    vd_buf data = {0}, body = {0};
    vd_buf_printf(&data, "# interval baseline_simulated cheapest_within_target_simulated (0: none)\n");
    for (size_t i = 0; i < sw->nintervals; i++) {
        long b = sw->baseline_by_interval[i], c = sw->best_by_interval[i];
        vd_buf_printf(&data, "\"%s\" %.0f %.0f\n", short_count(sw->intervals[i]), b >= 0 ? sw->cfgs[b].sim_warm : 0,
                      c >= 0 ? sw->cfgs[c].sim_warm : 0);
    }
    vd_buf_printf(&body, "set title \"instructions simulated: baseline (MaxK %ld, BIC %g) and cheapest within %.3g%%\"\n"
                         "set style data histograms\nset style histogram clustered gap 1\n"
                         "set style fill solid 0.85 border -1\nset ylabel \"instructions simulated\"\nset format y \"%%.0s%%c\"\n"
                         "set xlabel \"interval size\"\nset grid ytics\nset key top left\nset yrange [0:*]\nplot ",
                  sw->baseline_maxk, sw->baseline_bic, 100 * sw->target);
    if (any_baseline)
        vd_buf_printf(&body, "\"cost_by_interval.dat\" using 2:xtic(1) title \"baseline\" lc rgb \"#7570b3\"%s",
                      any_best ? ", " : "\n");
    if (any_best)
        vd_buf_printf(&body, "\"cost_by_interval.dat\" using 3%s title \"cheapest within target\" lc rgb \"#1b9e77\"\n",
                      any_baseline ? "" : ":xtic(1)");
    vd_plot(g, dir, "cost_by_interval", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
}

static void per_program(const vd_sweep *sw, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    long c = sw->best >= 0 ? sw->best : sw->most_accurate;
    if (c < 0)
        return;
    const vd_sweep_cfg *x = &sw->cfgs[c];
    char label[96];
    vd_buf data = {0}, body = {0};
    vd_buf_printf(&data, "# program sampling_pct estimate_pct warmup_pct\n");
    for (size_t j = 0; j < x->nprog; j++) {
        const vd_sweep_row *r = &sw->rows[x->rows[j]];
        char program[256];
        vd_buf_printf(&data, "\"%s\" %.6g %.6g %.6g\n", gnuplot_text(program, sizeof program, r->program),
                      100 * r->err_sampling, 100 * r->err, 100 * r->err_warmup);
    }
    vd_buf_printf(&body, "set title \"CPI error per program at %s\"\nset style data histograms\n"
                         "set style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
                         "set ylabel \"error (%%)\"\nset grid ytics\nset xzeroaxis\nset xtics rotate by -30 scale 0\n"
                         "set key top right\nplot \"per_program.dat\" using 2:xtic(1) title \"sampling\" lc rgb "
                         "\"#d95f02\"%s\n",
                  vd_cfg_name(label, sizeof label, x),
                  x->nregions ? ", \"\" using 3 title \"simulated (total)\" lc rgb \"#444444\", \"\" using 4 title "
                                "\"warm-up\" lc rgb \"#1b9e77\""
                              : "");
    vd_plot(g, dir, "per_program", data.s, body.s, d);
    vd_buf_free(&data);
    vd_buf_free(&body);
}

void vd_sweep_plots(const vd_sweep *sw, vd_gnuplot *g, const char *dir, vd_diag *d)
{
    pareto(sw, g, dir, d);
    for (size_t b = 0; b < sw->nbics; b++) {
        heatmap(sw, sw->bics[b], false, g, dir, d);
        if (sw->nprog > 1)
            heatmap(sw, sw->bics[b], true, g, dir, d);
    }
    cost_by_interval(sw, g, dir, d);
    per_program(sw, g, dir, d);
}
