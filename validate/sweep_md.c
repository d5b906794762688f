/* The sweep in Markdown: the answer first (the cheapest configuration within
 * the target), then the tables behind it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "sweep_report.h"

static const char *name(const vd_sweep_cfg *c)
{
    static char buf[4][96];
    static unsigned next;
    return vd_cfg_name(buf[next++ % 4], sizeof buf[0], c);
}

static const char *interval(uint64_t v)
{
    static char buf[4][32];
    static unsigned next;
    return vd_short_count(buf[next++ % 4], sizeof buf[0], v);
}

static void answer(vd_sink *o, const vd_sweep *sw)
{
    size_t complete = 0;
    for (size_t c = 0; c < sw->ncfg; c++)
        complete += sw->cfgs[c].complete;
    vd_sink_printf(o, "# validate --sweep: %zu program%s, %zu configurations\n\n", sw->nprog, sw->nprog == 1 ? "" : "s",
                   sw->ncfg);
    vd_sink_printf(o, "- %zu interval sizes x %zu MaxK values x %zu BIC thresholds (%s); %zu configurations have "
                      "every program\n",
                   sw->nintervals, sw->nmaxks, sw->nbics, sw->manifest->path, complete);
    vd_sink_printf(o, "- error: the sampling error of CPI, (representatives' CPI in the full run - full CPI) / full "
                      "CPI, from each program's per-interval log; cost: instructions simulated, warm-up included "
                      "(%s)\n",
                   sw->p.warmup_intervals ? "warm-up of whole intervals per region" :
                   sw->p.warmup           ? "fixed warm-up per region" : "no warm-up given: --warmup");
    vd_sink_printf(o, "- target: over the programs, the mean of |error| + the half-width of its 95%% confidence "
                      "interval <= %s (a small error inside a wide interval is luck, not accuracy; a program "
                      "without an interval, for want of labels or with one interval a cluster, counts its "
                      "|error| alone)\n\n",
                   vd_upct(sw->target));
    if (sw->best >= 0) {
        const vd_sweep_cfg *b = &sw->cfgs[sw->best];
        vd_sink_printf(o, "**Cheapest configuration within the target: %s**: mean |error| + 95%% half-width %s "
                          "(mean |error| %s, largest %s), %s instructions simulated with warm-up (%zu simulation "
                          "points in all), speedup %sx.",
                       name(b), vd_upct(b->mean_bound), vd_upct(b->mean_abs), vd_upct(b->max_abs),
                       vd_count(b->sim_warm), b->k_total, vd_num(b->speedup, 4));
        if (b->no_interval)
            vd_sink_printf(o, " %zu of its %zu programs have no confidence interval.", b->no_interval, b->nprog);
        vd_sink_printf(o, "\n\n");
    } else {
        vd_sink_printf(o, "**No configuration meets the target.**");
        if (sw->most_accurate >= 0)
            vd_sink_printf(o, " The most accurate is %s: mean |error| %s, with the 95%% half-width %s.",
                           name(&sw->cfgs[sw->most_accurate]), vd_upct(sw->cfgs[sw->most_accurate].mean_abs),
                           vd_upct(sw->cfgs[sw->most_accurate].mean_bound));
        vd_sink_printf(o, "\n\n");
    }
}

static void cfg_cells(vd_sink *o, const vd_sweep_cfg *c)
{
    char k[64];
    snprintf(k, sizeof k, c->k_min == c->k_max ? "%.0f" : "%.1f (%zu-%zu)", (double)c->k_total / (double)c->nprog,
             c->k_min, c->k_max);
    vd_sink_printf(o, " %ld | %s | %s | %s | %s | %sx | %s | %s | %s |", c->max_k,
                   isnan(c->bic) ? "-" : vd_num(c->bic, 3), k, vd_count(c->sim), vd_count(c->sim_warm),
                   vd_num(c->speedup, 4), vd_upct(c->mean_abs), vd_upct(c->max_abs), vd_upct(c->mean_bound));
}

/* The header cells that cfg_cells fills. */
static const char cfg_header[] = "MaxK | BIC | k per program | simulated | with warm-up | speedup | mean abs. error "
                                 "| max abs. error | mean abs. error + 95% ± |";

static void by_interval(vd_sink *o, const vd_sweep *sw)
{
    vd_sink_printf(o, "## Per interval size: baseline (MaxK %ld, BIC %g) and cheapest within the target\n\n",
                   sw->baseline_maxk, sw->baseline_bic);
    vd_sink_printf(o, "| interval | configuration | %s\n|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", cfg_header);
    for (size_t i = 0; i < sw->nintervals; i++) {
        long which[2] = {sw->baseline_by_interval[i], sw->best_by_interval[i]};
        const char *what[2] = {"baseline", "cheapest within target"};
        for (int w = 0; w < 2; w++) {
            vd_sink_printf(o, "| %s | %s", interval(sw->intervals[i]), what[w]);
            if (which[w] >= 0) {
                vd_sink_printf(o, " |");
                cfg_cells(o, &sw->cfgs[which[w]]);
                vd_sink_printf(o, "\n");
            } else {
                vd_sink_printf(o, ": %s | | | | | | | | | |\n", w ? "none" : "not in the sweep");
            }
        }
    }
    vd_sink_printf(o, "\n");
}

static long find(const vd_sweep *sw, uint64_t iv, const char *method)
{
    for (size_t c = 0; c < sw->ncfg; c++) {
        const vd_sweep_cfg *x = &sw->cfgs[c];
        if (x->complete && x->interval == iv && x->max_k == sw->baseline_maxk && strcmp(x->method, method) == 0 &&
            (isnan(x->bic) || x->bic == sw->baseline_bic))
            return (long)c;
    }
    return -1;
}

/* Every method at the baseline MaxK and BIC, against the first (the baseline's). */
static void methods(vd_sink *o, const vd_sweep *sw)
{
    if (sw->nmethods < 2)
        return;
    vd_sink_printf(o, "## Methods at MaxK %ld, BIC %g (the same full-run logs)\n\n", sw->baseline_maxk,
                   sw->baseline_bic);
    vd_sink_printf(o, "| interval | method | k per program | simulated | vs %s | mean abs. error | max abs. error "
                      "| choosing (s) | simulated for real: mean abs. error (warm-up part) |\n|--:|---|--:|--:|--:|--:|--:|--:|--:|\n",
                   sw->methods[0]);
    for (size_t i = 0; i < sw->nintervals; i++) {
        long base = find(sw, sw->intervals[i], sw->methods[0]);
        for (size_t m = 0; m < sw->nmethods; m++) {
            long c = find(sw, sw->intervals[i], sw->methods[m]);
            if (c < 0)
                continue;
            const vd_sweep_cfg *x = &sw->cfgs[c];
            char k[64];
            snprintf(k, sizeof k, x->k_min == x->k_max ? "%.0f" : "%.1f (%zu-%zu)",
                     (double)x->k_total / (double)x->nprog, x->k_min, x->k_max);
            char real[96] = "-";
            if (x->nregions)
                snprintf(real, sizeof real, "%s, %s (%zu programs)", vd_upct(x->mean_abs_est),
                         vd_upct(x->mean_abs_warmup), x->nregions);
            vd_sink_printf(o, "| %s | %s | %s | %s | %sx | %s | %s | %s | %s |\n", interval(x->interval), x->method, k,
                           vd_count(x->sim), base >= 0 ? vd_num(x->sim / sw->cfgs[base].sim, 3) : "-",
                           vd_upct(x->mean_abs), vd_upct(x->max_abs), vd_num(x->seconds, 3), real);
        }
    }
    vd_sink_printf(o, "\n");
}

static void front(vd_sink *o, const vd_sweep *sw)
{
    vd_sink_printf(o, "## Pareto front: mean |error| against instructions simulated\n\n");
    vd_sink_printf(o, "| interval | %s within target |\n|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n", cfg_header);
    size_t n;
    const vd_sweep_cfg **f = vd_sweep_front(sw, &n);
    for (size_t i = 0; i < n; i++) {
        vd_sink_printf(o, "| %s |", interval(f[i]->interval));
        cfg_cells(o, f[i]);
        vd_sink_printf(o, " %s |\n", f[i]->meets ? "yes" : "");
    }
    free(f);
    vd_sink_printf(o, "\n");
}

static void programs(vd_sink *o, const vd_sweep *sw)
{
    const vd_sweep_cfg *b = sw->best >= 0 ? &sw->cfgs[sw->best] : NULL;
    vd_sink_printf(o, "## Per program\n\n");
    if (b) {
        vd_sink_printf(o, "At %s:\n\n| program | k | simulated | speedup | CPI | oracle CPI | sampling error | "
                          "95%% ± | estimate error | warm-up error |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
                       name(b));
        for (size_t j = 0; j < b->nprog; j++) {
            const vd_sweep_row *r = &sw->rows[b->rows[j]];
            vd_sink_printf(o, "| %s | %zu | %s | %sx | %s | %s | %s | %s | %s | %s |\n", r->program, r->k,
                           vd_count((double)r->sim_warm), vd_num(r->speedup, 4), vd_num(r->cpi_full, 5),
                           vd_num(r->cpi_oracle, 5), vd_pct(r->err_sampling), vd_upct(r->ci_half), vd_pct(r->err),
                           vd_pct(r->err_warmup));
        }
        vd_sink_printf(o, "\n");
    }
    vd_sink_printf(o, "Each program alone, its cheapest configuration within the target:\n\n| program | configuration "
                      "| k | with warm-up | speedup | sampling error | 95%% ± |\n|---|---|--:|--:|--:|--:|--:|\n");
    for (size_t p = 0; p < sw->nprog; p++) {
        long i = sw->best_by_program[p];
        if (i < 0) {
            vd_sink_printf(o, "| %s | none within the target | | | | | |\n", sw->programs[p]);
            continue;
        }
        const vd_sweep_row *r = &sw->rows[i];
        vd_sweep_cfg c = {.interval = r->m->interval, .max_k = r->m->max_k, .bic = r->m->bic,
                          .method = r->m->method, .named_method = sw->nmethods > 1};
        vd_sink_printf(o, "| %s | %s | %zu | %s | %sx | %s | %s |\n", r->program, name(&c), r->k,
                       vd_count((double)r->sim_warm), vd_num(r->speedup, 4), vd_pct(r->err_sampling),
                       vd_upct(r->ci_half));
    }
    vd_sink_printf(o, "\n");
}

/* Program p's row of configuration c, or NULL. */
static const vd_sweep_row *row_of(const vd_sweep *sw, const vd_sweep_cfg *c, size_t p)
{
    for (size_t j = 0; j < c->nprog; j++)
        if (strcmp(sw->rows[c->rows[j]].program, sw->programs[p]) == 0) return &sw->rows[c->rows[j]];
    return NULL;
}

/* Paper C's and ROIperf's table: every program's error under each interval
 * size's baseline and the cheapest configuration within the target (the most
 * accurate when none is), with the mean and largest |error| over the programs. */
static void matrix(vd_sink *o, const vd_sweep *sw)
{
    long *cols = vd_malloc((sw->nintervals + 1) * sizeof *cols);
    long last = sw->best >= 0 ? sw->best : sw->most_accurate;
    size_t n = 0;
    for (size_t i = 0; i <= sw->nintervals; i++) {
        long c = i < sw->nintervals ? sw->baseline_by_interval[i] : last;
        bool seen = c < 0;
        for (size_t j = 0; j < n && !seen; j++) seen = cols[j] == c;
        if (!seen) cols[n++] = c;
    }
    if (n) {
        vd_sink_printf(o, "## Per program and configuration\n\nThe sampling error of CPI (signed) of each program under "
                          "each interval size's baseline and %s.\n\n| program |",
                       sw->best >= 0 ? "the cheapest configuration within the target" : "the most accurate configuration");
        for (size_t j = 0; j < n; j++)
            vd_sink_printf(o, " %s%s |", cols[j] != last ? "" : sw->best >= 0 ? "cheapest: " : "most accurate: ",
                           name(&sw->cfgs[cols[j]]));
        vd_sink_printf(o, "\n|---|");
        for (size_t j = 0; j < n; j++) vd_sink_printf(o, "--:|");
        vd_sink_printf(o, "\n");
        for (size_t p = 0; p < sw->nprog; p++) {
            vd_sink_printf(o, "| %s |", sw->programs[p]);
            for (size_t j = 0; j < n; j++) {
                const vd_sweep_row *r = row_of(sw, &sw->cfgs[cols[j]], p);
                vd_sink_printf(o, " %s |", r ? vd_pct(r->err_sampling) : "-");
            }
            vd_sink_printf(o, "\n");
        }
        const char *what[] = {"**mean abs. error**", "**max abs. error**", "k per program (mean)", "speedup"};
        for (int w = 0; w < 4; w++) {
            vd_sink_printf(o, "| %s |", what[w]);
            for (size_t j = 0; j < n; j++) {
                const vd_sweep_cfg *c = &sw->cfgs[cols[j]];
                if (w == 0) vd_sink_printf(o, " %s |", vd_upct(c->mean_abs));
                else if (w == 1) vd_sink_printf(o, " %s |", vd_upct(c->max_abs));
                else if (w == 2) vd_sink_printf(o, " %s |", vd_num((double)c->k_total / (double)c->nprog, 3));
                else vd_sink_printf(o, " %sx |", vd_num(c->speedup, 4));
            }
            vd_sink_printf(o, "\n");
        }
        vd_sink_printf(o, "\n");
    }
    free(cols);
}

static void simulated(vd_sink *o, const vd_sweep *sw)
{
    bool any = false;
    for (size_t i = 0; i < sw->n && !any; i++)
        any = sw->rows[i].has_regions;
    if (!any)
        return;
    vd_sink_printf(o, "## Configurations simulated for real\n\n| program | interval | MaxK | BIC | k | CPI | estimate | "
                      "error | sampling | warm-up |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (size_t i = 0; i < sw->n; i++) {
        const vd_sweep_row *r = &sw->rows[i];
        if (r->has_regions)
            vd_sink_printf(o, "| %s%s%s%s | %s | %ld | %s | %zu | %s | %s | %s | %s | %s |\n", r->program,
                           sw->nmethods > 1 ? " (" : "", sw->nmethods > 1 ? r->m->method : "",
                           sw->nmethods > 1 ? ")" : "", interval(r->m->interval), r->m->max_k, isnan(r->m->bic) ? "-" : vd_num(r->m->bic, 3), r->k,
                           vd_num(r->cpi_full, 5), vd_num(r->cpi_est, 5), vd_pct(r->err), vd_pct(r->err_sampling),
                           vd_pct(r->err_warmup));
    }
    vd_sink_printf(o, "\n");
}

void vd_sweep_md(const vd_sweep *sw, const char *path)
{
    vd_sink o;
    vd_sink_open(&o, path);
    answer(&o, sw);
    by_interval(&o, sw);
    methods(&o, sw);
    front(&o, sw);
    matrix(&o, sw);
    programs(&o, sw);
    simulated(&o, sw);
    vd_sweep_md_warnings(&o, sw);
    vd_sink_commit(&o);
}
