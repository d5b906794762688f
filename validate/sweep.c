#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Full runs are shared by every configuration of their program. */
typedef struct full_cache {
    char **paths;
    vd_full *fulls;
    size_t n;
} full_cache;

static const vd_full *get_full(full_cache *fc, const char *path, vd_diag *d)
{
    for (size_t i = 0; i < fc->n; i++)
        if (strcmp(fc->paths[i], path) == 0)
            return &fc->fulls[i];
    fc->paths = vd_realloc(fc->paths, (fc->n + 1) * sizeof *fc->paths);
    fc->fulls = vd_realloc(fc->fulls, (fc->n + 1) * sizeof *fc->fulls);
    fc->paths[fc->n] = vd_strdup(path);
    if (!vd_full_load(&fc->fulls[fc->n], path, NULL, d)) {
        vd_full_free(&fc->fulls[fc->n]);
        free(fc->paths[fc->n]);
        return NULL;
    }
    return &fc->fulls[fc->n++];
}

static void cache_free(full_cache *fc)
{
    for (size_t i = 0; i < fc->n; i++) {
        vd_full_free(&fc->fulls[i]);
        free(fc->paths[i]);
    }
    free(fc->paths);
    free(fc->fulls);
}

bool vd_same_bic(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

const char *vd_short_count(char *buf, size_t n, uint64_t v)
{
    static const struct {
        uint64_t unit;
        const char *suffix;
    } units[] = {{1000000000000ULL, "T"}, {1000000000, "G"}, {1000000, "M"}, {1000, "k"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (v >= units[i].unit) {
            snprintf(buf, n, "%.4g%s", (double)v / (double)units[i].unit, units[i].suffix);
            return buf;
        }
    snprintf(buf, n, "%llu", (unsigned long long)v);
    return buf;
}

const char *vd_cfg_name(char *buf, size_t n, const vd_sweep_cfg *c)
{
    char iv[32], bic[48] = "", method[96] = "";
    if (!isnan(c->bic))
        snprintf(bic, sizeof bic, ", BIC %g", c->bic);
    if (c->named_method)
        snprintf(method, sizeof method, ", method %s", c->method);
    snprintf(buf, n, "interval %s, MaxK %ld%s%s", vd_short_count(iv, sizeof iv, c->interval), c->max_k, bic, method);
    return buf;
}

/* Costs compare configurations, so every one counts the same planned
 * warm-up, whether or not it carries region results. */
static void cost(vd_sweep_row *r, const vd_analysis *a)
{
    r->sim = r->sim_warm = r->longest = 0;
    for (size_t i = 0; i < a->nrows; i++) {
        const vd_point *pt = &a->s->pts[a->rows[i].point];
        uint64_t len = (uint64_t)vd_ival_len(&a->iv, pt->index);
        uint64_t region = len + vd_planned_warmup(&a->p, a->s->interval, pt->index * a->s->interval);
        r->sim += len;
        r->sim_warm += region;
        r->longest = region > r->longest ? region : r->longest;
    }
    r->speedup = r->insts / (double)r->sim_warm;
    r->speedup_nowarm = r->insts / (double)r->sim;
    r->parallel_speedup = r->insts / (double)r->longest;
}

static void fill_row(vd_sweep_row *r, const vd_analysis *a)
{
    r->program = vd_strdup(a->name);
    r->k = a->nrows;
    r->insts = (double)a->full->insts;
    cost(r, a);
    r->cpi_full = a->full->values[0];
    r->cpi_oracle = a->oracle[0];
    r->err_sampling = vd_err_sampling(a, 0);
    r->ci_half = a->has_labels ? (a->ci_hi - a->ci_lo) / 2 / a->predicted[0] : NAN;
    /* A small error inside a wide interval is luck: with another draw of the
     * intervals the same configuration could miss by the half-width, so the
     * target holds the error and the half-width together. Without an
     * interval (no labels; or every cluster one interval, which the estimate
     * then measures exactly) the error stands alone. */
    r->bound = fabs(r->err_sampling) + (isnan(r->ci_half) ? 0 : r->ci_half);
    r->coverage = a->coverage;
    r->has_regions = a->has_regions;
    r->cpi_est = a->est ? a->est[0] : NAN;
    r->err = a->has_regions ? vd_err(a, 0) : NAN;
    r->err_warmup = vd_err_warmup(a, 0);
}

/* Validate one manifest line; its warnings go to the sweep's notes. */
static bool eval_row(vd_sweep *sw, full_cache *fc, const vd_mrow *m, vd_sweep_row *r, vd_diag *d)
{
    vd_diag local = {0};
    const vd_full *full = get_full(fc, m->full, &local);
    vd_sampling s = {0};
    vd_result regions = {0};
    vd_params p = sw->p;
    p.name = m->program;
    vd_analysis a = {0};
    bool ok = full && vd_sampling_load(&s, m->simpoints, m->weights, m->labels, m->interval, &local) &&
              (!m->regions || vd_result_load(&regions, m->regions, &local)) &&
              vd_analyze(&a, full, &s, &regions, m->regions ? 1 : 0, &p, &local);
    if (ok) {
        *r = (vd_sweep_row){.m = m};
        fill_row(r, &a);
        for (size_t i = 0; i < local.nwarnings; i++)
            vd_warn(&sw->notes, "%s (%s:%zu): %s", a.name, sw->manifest->path, m->line, local.warnings[i]);
        r->warnings = local.warnings, r->nwarnings = local.nwarnings;
        local.warnings = NULL, local.nwarnings = 0;
    } else {
        vd_fail(d, "%s (configuration at %s:%zu)", local.error, sw->manifest->path, m->line);
    }
    vd_analysis_free(&a);
    vd_result_free(&regions);
    vd_sampling_free(&s);
    vd_diag_free(&local);
    return ok;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static int cmp_long(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

/* NAN sorts first. */
static int cmp_bic(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    if (isnan(a) || isnan(b))
        return isnan(b) - isnan(a);
    return (a > b) - (a < b);
}

/* Sorted distinct values of the rows' axes, and the program names. */
static void axes(vd_sweep *sw)
{
    sw->intervals = vd_malloc(sw->n * sizeof *sw->intervals);
    sw->maxks = vd_malloc(sw->n * sizeof *sw->maxks);
    sw->bics = vd_malloc(sw->n * sizeof *sw->bics);
    sw->programs = vd_malloc(sw->n * sizeof *sw->programs);
    sw->methods = vd_malloc(sw->n * sizeof *sw->methods);
    for (size_t i = 0; i < sw->n; i++) {
        const vd_sweep_row *r = &sw->rows[i];
        size_t j;
        for (j = 0; j < sw->nmethods && strcmp(sw->methods[j], r->m->method) != 0; j++)
            ;
        if (j == sw->nmethods)
            sw->methods[sw->nmethods++] = r->m->method;
        for (j = 0; j < sw->nintervals && sw->intervals[j] != r->m->interval; j++)
            ;
        if (j == sw->nintervals)
            sw->intervals[sw->nintervals++] = r->m->interval;
        for (j = 0; j < sw->nmaxks && sw->maxks[j] != r->m->max_k; j++)
            ;
        if (j == sw->nmaxks)
            sw->maxks[sw->nmaxks++] = r->m->max_k;
        for (j = 0; j < sw->nbics && !vd_same_bic(sw->bics[j], r->m->bic); j++)
            ;
        if (j == sw->nbics)
            sw->bics[sw->nbics++] = r->m->bic;
        for (j = 0; j < sw->nprog && strcmp(sw->programs[j], r->program) != 0; j++)
            ;
        if (j == sw->nprog)
            sw->programs[sw->nprog++] = r->program;
    }
    qsort(sw->intervals, sw->nintervals, sizeof *sw->intervals, cmp_u64);
    qsort(sw->maxks, sw->nmaxks, sizeof *sw->maxks, cmp_long);
    qsort(sw->bics, sw->nbics, sizeof *sw->bics, cmp_bic);
}

static long find_cfg(const vd_sweep *sw, const vd_mrow *m)
{
    for (size_t i = 0; i < sw->ncfg; i++)
        if (sw->cfgs[i].interval == m->interval && sw->cfgs[i].max_k == m->max_k &&
            vd_same_bic(sw->cfgs[i].bic, m->bic) && strcmp(sw->cfgs[i].method, m->method) == 0)
            return (long)i;
    return -1;
}

static bool group(vd_sweep *sw, vd_diag *d)
{
    sw->cfgs = vd_calloc(sw->n, sizeof *sw->cfgs);
    for (size_t i = 0; i < sw->n; i++) {
        const vd_mrow *m = sw->rows[i].m;
        long c = find_cfg(sw, m);
        if (c < 0) {
            c = (long)sw->ncfg++;
            sw->cfgs[c] = (vd_sweep_cfg){.interval = m->interval, .max_k = m->max_k, .bic = m->bic,
                                         .method = m->method, .named_method = sw->nmethods > 1};
            sw->cfgs[c].rows = vd_malloc(sw->nprog * sizeof(size_t));
        }
        vd_sweep_cfg *cfg = &sw->cfgs[c];
        for (size_t j = 0; j < cfg->nprog; j++)
            if (strcmp(sw->rows[cfg->rows[j]].program, sw->rows[i].program) == 0)
                return vd_fail(d, "%s:%zu: %s has this configuration already (line %zu)", sw->manifest->path, m->line,
                               sw->rows[i].program, sw->rows[cfg->rows[j]].m->line);
        cfg->rows[cfg->nprog++] = i;
    }
    return true;
}

static void aggregate(vd_sweep *sw)
{
    for (size_t c = 0; c < sw->ncfg; c++) {
        vd_sweep_cfg *cfg = &sw->cfgs[c];
        double sum = 0, sq = 0, est = 0, warm = 0, seconds = 0, bound = 0;
        for (size_t j = 0; j < cfg->nprog; j++) {
            const vd_sweep_row *r = &sw->rows[cfg->rows[j]];
            double e = fabs(r->err_sampling);
            sum += e;
            bound += r->bound;
            cfg->no_interval += isnan(r->ci_half);
            sq += e * e;
            cfg->max_abs = fmax(cfg->max_abs, e);
            cfg->k_total += r->k;
            cfg->k_min = j == 0 || r->k < cfg->k_min ? r->k : cfg->k_min;
            cfg->k_max = j == 0 || r->k > cfg->k_max ? r->k : cfg->k_max;
            cfg->sim += (double)r->sim;
            cfg->sim_warm += (double)r->sim_warm;
            cfg->insts += r->insts;
            seconds += r->m->seconds; /* NAN when a row does not say */
            if (r->has_regions) {
                cfg->nregions++;
                est += fabs(r->err);
                warm += fabs(r->err_warmup);
            }
        }
        cfg->seconds = seconds;
        cfg->mean_abs = sum / (double)cfg->nprog;
        cfg->rms = sqrt(sq / (double)cfg->nprog);
        cfg->speedup = cfg->insts / cfg->sim_warm;
        cfg->complete = cfg->nprog == sw->nprog;
        cfg->mean_bound = bound / (double)cfg->nprog;
        cfg->meets = cfg->complete && cfg->mean_bound <= sw->target;
        cfg->mean_abs_est = cfg->nregions ? est / (double)cfg->nregions : NAN;
        cfg->mean_abs_warmup = cfg->nregions ? warm / (double)cfg->nregions : NAN;
    }
}

/* Cheaper first; at equal cost, the more accurate. */
static bool better(const vd_sweep_cfg *a, const vd_sweep_cfg *b)
{
    return a->sim_warm < b->sim_warm || (a->sim_warm == b->sim_warm && a->mean_abs < b->mean_abs);
}

static void pareto(vd_sweep *sw)
{
    for (size_t c = 0; c < sw->ncfg; c++) {
        vd_sweep_cfg *cfg = &sw->cfgs[c];
        cfg->pareto = cfg->complete;
        for (size_t o = 0; o < sw->ncfg && cfg->pareto; o++) {
            const vd_sweep_cfg *x = &sw->cfgs[o];
            /* dominated: no more costly and no less accurate, better in one;
             * of equal points (MaxK beyond the k chosen), the first stands */
            bool equal = x->sim_warm == cfg->sim_warm && x->mean_abs == cfg->mean_abs;
            if (o != c && x->complete && x->sim_warm <= cfg->sim_warm && x->mean_abs <= cfg->mean_abs &&
                (!equal || o < c))
                cfg->pareto = false;
        }
    }
}

static int by_cost(const void *x, const void *y)
{
    const vd_sweep_cfg *a = *(const vd_sweep_cfg *const *)x, *b = *(const vd_sweep_cfg *const *)y;
    return better(a, b) ? -1 : better(b, a);
}

const vd_sweep_cfg **vd_sweep_front(const vd_sweep *sw, size_t *n)
{
    const vd_sweep_cfg **f = vd_malloc(sw->ncfg * sizeof *f);
    *n = 0;
    for (size_t c = 0; c < sw->ncfg; c++)
        if (sw->cfgs[c].pareto)
            f[(*n)++] = &sw->cfgs[c];
    qsort(f, *n, sizeof *f, by_cost);
    return f;
}

static void choose(vd_sweep *sw)
{
    sw->best = sw->most_accurate = -1;
    sw->best_by_interval = vd_malloc(sw->nintervals * sizeof(long));
    sw->baseline_by_interval = vd_malloc(sw->nintervals * sizeof(long));
    for (size_t i = 0; i < sw->nintervals; i++)
        sw->best_by_interval[i] = sw->baseline_by_interval[i] = -1;
    for (size_t c = 0; c < sw->ncfg; c++) {
        const vd_sweep_cfg *cfg = &sw->cfgs[c];
        if (!cfg->complete)
            continue;
        size_t i = 0;
        while (sw->intervals[i] != cfg->interval)
            i++;
        if (cfg->meets && (sw->best < 0 || better(cfg, &sw->cfgs[sw->best])))
            sw->best = (long)c;
        if (cfg->meets && (sw->best_by_interval[i] < 0 || better(cfg, &sw->cfgs[sw->best_by_interval[i]])))
            sw->best_by_interval[i] = (long)c;
        if (sw->most_accurate < 0 || cfg->mean_abs < sw->cfgs[sw->most_accurate].mean_abs)
            sw->most_accurate = (long)c;
        if (cfg->max_k == sw->baseline_maxk && (isnan(cfg->bic) || cfg->bic == sw->baseline_bic) &&
            strcmp(cfg->method, sw->methods[0]) == 0)
            sw->baseline_by_interval[i] = (long)c;
    }
    /* Each program on its own: its cheapest row within the target. */
    sw->best_by_program = vd_malloc(sw->nprog * sizeof(long));
    for (size_t p = 0; p < sw->nprog; p++) {
        sw->best_by_program[p] = -1;
        for (size_t i = 0; i < sw->n; i++) {
            const vd_sweep_row *r = &sw->rows[i];
            long b = sw->best_by_program[p];
            if (strcmp(r->program, sw->programs[p]) == 0 && r->bound <= sw->target &&
                (b < 0 || r->sim_warm < sw->rows[b].sim_warm))
                sw->best_by_program[p] = (long)i;
        }
    }
}

bool vd_sweep_run(vd_sweep *sw, const vd_manifest *m, const vd_params *p, double target, long baseline_maxk,
                  double baseline_bic, vd_diag *d)
{
    memset(sw, 0, sizeof *sw);
    sw->manifest = m;
    sw->p = *p;
    sw->target = target;
    sw->baseline_maxk = baseline_maxk;
    sw->baseline_bic = baseline_bic;
    sw->rows = vd_calloc(m->n, sizeof *sw->rows);
    full_cache fc = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < m->n; i++)
        if ((ok = eval_row(sw, &fc, &m->rows[i], &sw->rows[i], d)))
            sw->n++;
    cache_free(&fc);
    if (!ok)
        return false;
    axes(sw);
    if (!group(sw, d))
        return false;
    aggregate(sw);
    pareto(sw);
    choose(sw);
    return true;
}

void vd_sweep_free(vd_sweep *sw)
{
    for (size_t i = 0; i < sw->n; i++) {
        free(sw->rows[i].program);
        for (size_t w = 0; w < sw->rows[i].nwarnings; w++)
            free(sw->rows[i].warnings[w]);
        free(sw->rows[i].warnings);
    }
    for (size_t c = 0; c < sw->ncfg; c++)
        free(sw->cfgs[c].rows);
    free(sw->rows);
    free(sw->cfgs);
    free(sw->programs);
    free(sw->intervals);
    free(sw->maxks);
    free(sw->bics);
    free(sw->methods);
    free(sw->best_by_interval);
    free(sw->baseline_by_interval);
    free(sw->best_by_program);
    vd_diag_free(&sw->notes);
    memset(sw, 0, sizeof *sw);
}
