#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "clusters.h"
#include "text.h"

void vd_params_defaults(vd_params *p)
{
    memset(p, 0, sizeof *p);
    p->bootstrap = 1000;
    p->seed = 1;
    p->heavy = 0.1;
    p->cov_limit = 0.1;
    p->flag_error = 0.01;
    p->profile_seconds = p->ckpt_seconds = NAN;
}

uint64_t vd_planned_warmup(const vd_params *p, uint64_t interval, uint64_t begin)
{
    uint64_t w = p->warmup_intervals ? p->warmup_intervals * interval : p->warmup;
    return w < begin ? w : begin;
}

double vd_rel(double x, double full)
{
    return full != 0 ? (x - full) / full : NAN;
}

/* The simulated counters of RUN in the log's column order. */
static double *run_counters(const vd_full *f, const vd_run *run)
{
    double *v = vd_malloc(f->log.ncounters * sizeof *v);
    for (size_t c = 0; c < f->log.ncounters; c++)
        v[c] = vd_run_find(run, f->log.names[c])->value;
    return v;
}

static void region_rows(vd_analysis *a, const vd_run **match)
{
    const vd_sampling *s = a->s;
    a->nrows = s->npts;
    a->rows = vd_calloc(a->nrows, sizeof *a->rows);
    for (size_t i = 0; i < a->nrows; i++) {
        const vd_point *pt = &s->pts[i];
        const double *in_full = vd_ival(&a->iv, pt->index);
        vd_region_row *r = &a->rows[i];
        uint64_t begin = pt->index * s->interval;
        r->point = i;
        r->run = match[i];
        r->cluster_row = -1;
        r->full_cycles = in_full[1];
        r->cpi_full = in_full[1] / in_full[0];
        if (r->run) {
            r->insts = (uint64_t)vd_run_find(r->run, "instructions")->value;
            r->cycles = vd_run_find(r->run, "cycles")->value;
            r->warmup = r->run->warmup_insts;
            r->cpi_sim = r->cycles / (double)r->insts;
            r->contrib_warmup = pt->weight * (r->cpi_sim - r->cpi_full) / a->full->values[0];
        } else {
            r->insts = (uint64_t)in_full[0];
            r->warmup = vd_planned_warmup(&a->p, s->interval, begin);
            r->cycles = r->cpi_sim = r->contrib_warmup = NAN;
        }
        r->multiplier = pt->weight * (double)a->full->insts / (double)r->insts;
    }
}

/* Oracle and (with results) estimate of every metric, and the projection. */
static void estimates(vd_analysis *a)
{
    const vd_full *f = a->full;
    size_t k = a->nrows, nm = f->ms.n;
    double *w = vd_malloc(k * sizeof *w);
    const double **oracle_rows = vd_malloc(k * sizeof *oracle_rows);
    double **sim_rows = vd_calloc(k, sizeof *sim_rows);
    for (size_t i = 0; i < k; i++) {
        w[i] = a->s->pts[i].weight;
        oracle_rows[i] = vd_ival(&a->iv, a->s->pts[i].index);
        if (a->has_regions)
            sim_rows[i] = run_counters(f, a->rows[i].run);
    }
    a->oracle = vd_malloc(nm * sizeof *a->oracle);
    vd_extrapolate(&f->ms, k, w, oracle_rows, a->oracle);
    a->predicted = a->oracle;
    if (a->has_regions) {
        a->est = vd_malloc(nm * sizeof *a->est);
        vd_extrapolate(&f->ms, k, w, (const double *const *)sim_rows, a->est);
        a->predicted = a->est;
    }
    /* ROIperf: sum of multiplier x region cycles = N x estimated CPI. */
    a->projected_cycles = a->predicted[0] * (double)f->insts;
    for (size_t i = 0; i < k; i++)
        free(sim_rows[i]);
    free(sim_rows);
    free(oracle_rows);
    free(w);
}

/* The extra members among the region results. */
static void extras(vd_analysis *a, const vd_result *regions, size_t nregions)
{
    for (size_t k = 0; k < nregions; k++)
        for (size_t i = 0; i < regions[k].n; i++) {
            const vd_run *r = &regions[k].runs[i];
            if (!r->has_region || !r->region.extra)
                continue;
            a->nextra++;
            a->extra_insts += (uint64_t)vd_run_find(r, "instructions")->value;
            a->extra_warmup += r->warmup_insts;
            a->extra_seconds += r->seconds;
        }
}

static void cost(vd_analysis *a)
{
    a->sim_insts = a->extra_insts;
    a->sim_insts_warm = a->extra_insts + a->extra_warmup;
    for (size_t i = 0; i < a->nrows; i++) {
        const vd_region_row *r = &a->rows[i];
        a->sim_insts += r->insts;
        a->sim_insts_warm += r->insts + r->warmup;
        if (r->insts + r->warmup > a->longest_region)
            a->longest_region = r->insts + r->warmup;
    }
    double n = (double)a->full->insts;
    a->speedup = n / (double)a->sim_insts_warm;
    a->speedup_nowarm = n / (double)a->sim_insts;
    a->parallel_speedup = n / (double)a->longest_region;
    a->wall_full = a->full->run->seconds;
    a->wall_regions = a->wall_longest = a->wall_speedup = a->wall_parallel_speedup = NAN;
    if (!a->has_regions)
        return;
    a->wall_regions = a->extra_seconds, a->wall_longest = 0;
    for (size_t i = 0; i < a->nrows; i++) {
        double s = a->rows[i].run ? a->rows[i].run->seconds : NAN;
        a->wall_regions += s;
        a->wall_longest = s > a->wall_longest || isnan(s) ? s : a->wall_longest;
    }
    double before = a->p.profile_seconds + a->p.ckpt_seconds; /* NAN unless both are known */
    a->wall_speedup = a->wall_full / (before + a->wall_regions);
    a->wall_parallel_speedup = a->wall_full / (before + a->wall_longest);
}

static void flag_regions(vd_analysis *a, vd_diag *d)
{
    for (size_t i = 0; a->has_regions && i < a->nrows; i++) {
        const vd_region_row *r = &a->rows[i];
        const vd_point *pt = &a->s->pts[r->point];
        if (fabs(r->contrib_warmup) >= a->p.flag_error)
            vd_warn(d, "cluster %ld: the simulated region (interval %llu) has CPI %.4g but %.4g in the full run "
                       "(%+.1f%%), %+.2f%% of the CPI error: a warm-up or checkpoint problem",
                    pt->cluster, (unsigned long long)pt->index, r->cpi_sim, r->cpi_full,
                    100 * vd_rel(r->cpi_sim, r->cpi_full), 100 * r->contrib_warmup);
    }
}

static char *app_name(const vd_full *f, const vd_params *p)
{
    if (p->name)
        return vd_strdup(p->name);
    return vd_strdup(vd_basename(f->run->program ? f->run->program : f->res.path));
}

bool vd_analyze(vd_analysis *a, const vd_full *full, const vd_sampling *s, const vd_result *regions,
                size_t nregions, const vd_params *p, vd_diag *d)
{
    memset(a, 0, sizeof *a);
    a->full = full;
    a->s = s;
    a->p = *p;
    a->name = app_name(full, p);
    a->has_regions = nregions > 0;
    a->has_labels = s->labels != NULL;
    if (!vd_check_profile(full, p, d) || !vd_ivals_build(&a->iv, &full->log, s->interval, d) ||
        !vd_check_sampling(s, &a->iv, d))
        return false;
    double last = vd_ival_len(&a->iv, a->iv.n - 1);
    a->partial_len = last < (double)s->interval ? (uint64_t)last : 0;
    const vd_run **match = vd_calloc(s->npts, sizeof *match);
    bool ok = !a->has_regions || vd_match_regions(full, s, &a->iv, regions, nregions, p, match, d);
    if (ok) {
        region_rows(a, match);
        estimates(a);
        extras(a, regions, nregions);
        cost(a);
        a->coverage = NAN;
        a->se = a->ci_lo = a->ci_hi = NAN;
        if (a->has_labels)
            vd_clusters(a, d);
        flag_regions(a, d);
    }
    free(match);
    return ok;
}

void vd_analysis_free(vd_analysis *a)
{
    vd_clusters_free(a);
    vd_ivals_free(&a->iv);
    free(a->name);
    free(a->rows);
    free(a->oracle);
    free(a->est);
    memset(a, 0, sizeof *a);
}
