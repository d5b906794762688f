#include "sensitivity.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Speedups of vo's regions against base's (same regions, same order). */
static void summarise(variant_outcome *vo, const sim_result *base, double threshold)
{
    if (vo->run.failed) return;
    vo->min_speedup = INFINITY, vo->max_speedup = -INFINITY;
    for (size_t j = 0; j < vo->run.n; j++) {
        double cpi = result_cpi(&vo->run.res[j]), sj = cpi > 0 ? result_cpi(&base[j]) / cpi - 1 : 0;
        if (sj < vo->min_speedup) vo->min_speedup = sj;
        if (sj > vo->max_speedup) vo->max_speedup = sj;
    }
    vo->cpi = results_cpi(vo->run.res, vo->run.n);
    vo->speedup = vo->cpi > 0 ? results_cpi(base, vo->run.n) / vo->cpi - 1 : 0;
    vo->elasticity = vo->v->scale && vo->v->scale != 1 ? vo->speedup / (vo->v->scale - 1) : 0;
    vo->bottleneck = vo->speedup > threshold;
}

/* A variant is named as the bottleneck when it passes the threshold and
 * speeds the program up by at least this share of the largest speedup: the
 * summary ranks, it does not list every resource that moved. */
#define NAMED_SHARE 0.5

static double top_speedup(const sensitivity *s)
{
    double top = 0;
    for (int v = 0; v < s->n; v++)
        if (s->out[v].run.res && !s->out[v].run.failed && !s->out[v].v->skipped[0] && s->out[v].speedup > top)
            top = s->out[v].speedup;
    return top;
}

static bool named(const sensitivity *s, const variant_outcome *vo)
{
    return vo->bottleneck && !vo->run.failed && vo->speedup >= NAMED_SHARE * top_speedup(s);
}

void sensitivity_run(sensitivity *s, const sim_options *o, const sim_target *t, const sim_result *base, size_t n,
                     const sensitivity_options *so)
{
    *s = (sensitivity){.n = so->nvariants, .base_cpi = results_cpi(base, n), .threshold = so->threshold,
                       .top = so->top, .base = base, .nbase = n};
    s->out = calloc((size_t)(so->nvariants ? so->nvariants : 1), sizeof *s->out);
    what_if **runs = calloc((size_t)so->nvariants + 1, sizeof *runs);
    if (!s->out || !runs) die("out of memory");
    s->rewarm_variant = (variant){.cfg = o->cfg};
    snprintf(s->rewarm_variant.name, sizeof s->rewarm_variant.name, "baseline, functional warm-up");
    s->rewarm = (variant_outcome){.v = &s->rewarm_variant, .run = {.cfg = o->cfg, .warmup = WARMUP_FUNCTIONAL}};
    int nruns = 0;
    for (int v = 0; v < so->nvariants; v++) {
        variant_outcome *vo = &s->out[v];
        *vo = (variant_outcome){.v = &so->variants[v], .run = {.cfg = so->variants[v].cfg, .warmup = o->warmup}};
        if (vo->v->skipped[0]) continue;
        if (!t->full && o->warmup == WARMUP_CHECKPOINT && !vo->v->shares_state) {
            vo->run.warmup = WARMUP_FUNCTIONAL, vo->against = &s->rewarm;
            if (!s->rewarm.against) runs[nruns++] = &s->rewarm.run, s->rewarm.against = &s->rewarm;
        }
        runs[nruns++] = &vo->run;
    }
    what_if_run(o, t, n, runs, nruns, "sim sensitivity");
    free(runs);
    if (s->rewarm.run.res) summarise(&s->rewarm, base, s->threshold);
    for (int v = 0; v < s->n; v++) {
        variant_outcome *vo = &s->out[v];
        if (!vo->run.res) continue;
        if (vo->against && vo->against->run.failed && !vo->run.failed) vo->run.failed = xstrdup(vo->against->run.failed);
        summarise(vo, vo->against ? vo->against->run.res : base, s->threshold);
    }
}

void sensitivity_free(sensitivity *s)
{
    for (int v = 0; v < s->n; v++) what_if_free(&s->out[v].run);
    what_if_free(&s->rewarm.run);
    free(s->out);
    *s = (sensitivity){0};
}

/* ------------------------------------------------------- differential profile */

/* Golden cycles per 1,000 instructions of each pc, regions weighted. */
typedef struct pc_rate {
    uint64_t pc;
    double base, variant;
} pc_rate;

typedef struct rate_list {
    pc_rate *rates;
    size_t n, cap;
    cost_table index;          /* pc -> position + 1 (in execs) */
} rate_list;

static pc_rate *rate_of(rate_list *l, uint64_t pc)
{
    cost *slot = cost_at(&l->index, pc);
    if (slot->execs) return &l->rates[slot->execs - 1];
    if (l->n == l->cap && !(l->rates = realloc(l->rates, (l->cap = l->cap ? l->cap * 2 : 64) * sizeof *l->rates)))
        die("out of memory");
    l->rates[l->n] = (pc_rate){.pc = pc};
    slot->execs = ++l->n;
    return &l->rates[l->n - 1];
}

static void add_rates(rate_list *l, const sim_result *res, size_t nres, bool variant)
{
    double w = 0;
    for (size_t i = 0; i < nres; i++) w += result_weight(&res[i]);
    if (!(w > 0)) return;
    for (size_t i = 0; i < nres; i++) {
        const sim_result *r = &res[i];
        if (!r->c.instructions) continue;
        double f = result_weight(r) / w * 1000.0 / (double)r->c.instructions / (double)r->units;
        for (size_t p = 0; p < r->npcs; p++) {
            pc_rate *e = rate_of(l, r->pcs[p].key);
            *(variant ? &e->variant : &e->base) += f * (double)cost_total(&r->pcs[p]);
        }
    }
}

static int by_change(const void *a, const void *b)
{
    const pc_rate *x = a, *y = b;
    double dx = fabs(x->variant - x->base), dy = fabs(y->variant - y->base);
    if (dx != dy) return dx < dy ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The pcs whose time changed most, largest change first. */
static pc_rate *differential(const sensitivity *s, const variant_outcome *vo, size_t *n)
{
    rate_list l = {0};
    add_rates(&l, vo->against ? vo->against->run.res : s->base, s->nbase, false);
    add_rates(&l, vo->run.res, vo->run.n, true);
    cost_table_free(&l.index);
    if (l.n) qsort(l.rates, l.n, sizeof *l.rates, by_change);
    *n = l.n;
    return l.rates;
}

/* ---------------------------------------------------------------- output */

static json_t *changes_json(const variant *v)
{
    json_t *a = json_array();
    for (int i = 0; i < v->nchanges; i++)
        json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:f}", "param", uarch_param_name(v->changes[i].param), "from",
                                           v->changes[i].from, "to", v->changes[i].to, "scale", v->changes[i].scale));
    return a;
}

static json_t *variant_json(const sensitivity *s, const variant_outcome *vo, const report_ctx *x)
{
    const variant *v = vo->v;
    json_t *o = json_pack("{s:s, s:s, s:o, s:b}", "name", v->name, "resource", v->resource, "changes", changes_json(v),
                          "shares_warm_state", v->shares_state);
    json_object_set_new(o, "factor", v->factor ? json_real(v->factor) : json_null());
    json_object_set_new(o, "effective_scale", v->scale ? json_real(v->scale) : json_null());
    if (v->skipped[0]) {
        json_object_set_new(o, "skipped", json_string(v->skipped));
        return o;
    }
    if (vo->run.failed) {
        json_object_set_new(o, "failed", json_string(vo->run.failed));
        return o;
    }
    json_object_set_new(o, "warmup", json_string(warmup_mode_names[vo->run.warmup]));
    if (vo->against) json_object_set_new(o, "baseline_cpi", json_real(vo->against->cpi));
    json_object_set_new(o, "cpi", json_real(vo->cpi));
    json_object_set_new(o, "speedup", json_real(vo->speedup));
    json_object_set_new(o, "elasticity", v->scale ? json_real(vo->elasticity) : json_null());
    json_object_set_new(o, "bottleneck", json_boolean(vo->bottleneck));
    double top = top_speedup(s);
    json_object_set_new(o, "share_of_top", top > 0 ? json_real(vo->speedup / top) : json_null());
    json_object_set_new(o, "named", json_boolean(named(s, vo)));
    json_object_set_new(o, "regions", json_pack("{s:i, s:f, s:f}", "count", (int)vo->run.n, "min_speedup", vo->min_speedup,
                                                "max_speedup", vo->max_speedup));
    size_t n;
    pc_rate *rates = differential(s, vo, &n);
    json_t *diff = json_array();
    for (size_t i = 0; i < n && i < s->top; i++) {
        char sym[256], pc[24];
        symtab_describe(x->syms, rates[i].pc, sym, sizeof sym);
        snprintf(pc, sizeof pc, "0x%" PRIx64, rates[i].pc);
        json_array_append_new(diff, json_pack("{s:s, s:s, s:f, s:f, s:f}", "pc", pc, "symbol", sym,
                                              "base_cycles_per_1000", rates[i].base, "variant_cycles_per_1000",
                                              rates[i].variant, "change", rates[i].variant - rates[i].base));
    }
    free(rates);
    json_object_set_new(o, "instructions_changed_most", diff);
    return o;
}

json_t *sensitivity_json(const sensitivity *s, const report_ctx *x)
{
    json_t *vs = json_array();
    for (int v = 0; v < s->n; v++) json_array_append_new(vs, variant_json(s, &s->out[v], x));
    return json_pack("{s:f, s:f, s:o}", "baseline_cpi", s->base_cpi, "threshold", s->threshold, "variants", vs);
}

static void describe_change(char *buf, size_t len, const variant *v)
{
    if (v->nchanges == 1 || (v->nchanges && !v->changes[0].from))
        snprintf(buf, len, "%d -> %d", v->changes[0].from, v->changes[0].to);
    else snprintf(buf, len, "%d parameters", v->nchanges);
}

static int by_speedup(const void *a, const void *b)
{
    const variant_outcome *x = *(variant_outcome *const *)a, *y = *(variant_outcome *const *)b;
    if (x->speedup != y->speedup) return x->speedup < y->speedup ? 1 : -1;
    return strcmp(x->v->name, y->v->name);
}

/* One line naming the bottleneck, then what else moved and by how much of it. */
static void headline(FILE *f, const sensitivity *s, variant_outcome *const *order)
{
    double top = top_speedup(s);
    if (!s->n || !named(s, order[0])) {
        fprintf(f, "  No bottleneck: no variant speeds the program up by more than %.1f%%.\n", 100 * s->threshold);
        return;
    }
    fprintf(f, "  The bottleneck: %s (%+.2f%%)", order[0]->v->name, 100 * top);
    for (int i = 1; i < s->n && named(s, order[i]); i++)
        fprintf(f, "%s %s (%+.2f%%)", i == 1 ? "; as much:" : ",", order[i]->v->name, 100 * order[i]->speedup);
    int minor = 0;
    for (int i = 1; i < s->n; i++) minor += order[i]->bottleneck && !named(s, order[i]);
    if (minor) fprintf(f, "; %d more move%s past %.1f%% each by less than half as much", minor, minor == 1 ? "s" : "",
                       100 * s->threshold);
    fprintf(f, ".\n");
}

void sensitivity_print(FILE *f, const sensitivity *s, const report_ctx *x)
{
    fprintf(f, "\nSensitivity: baseline CPI %.4f; variants ranked by speedup; BOTTLENECK: more than %.1f%% and at "
               "least %.0f%% of the largest\n",
            s->base_cpi, 100 * s->threshold, 100 * NAMED_SHARE);
    fprintf(f, "  %-34s %-16s %7s %8s %9s %10s  %-19s\n", "variant", "change", "scale", "CPI", "speedup", "elasticity",
            "regions min..max");
    variant_outcome **order = malloc((size_t)(s->n ? s->n : 1) * sizeof *order);
    if (!order) die("out of memory");
    for (int v = 0; v < s->n; v++) order[v] = &s->out[v];
    qsort(order, (size_t)s->n, sizeof *order, by_speedup);
    for (int i = 0; i < s->n; i++) {
        const variant_outcome *vo = order[i];
        const variant *v = vo->v;
        char change[32], scale[16] = "limit";
        describe_change(change, sizeof change, v);
        if (v->scale) snprintf(scale, sizeof scale, "x%.3g", v->scale);
        if (v->skipped[0] || vo->run.failed) {
            fprintf(f, "  %-34s %-16s %7s  not run: %s\n", v->name, v->nchanges ? change : "-", scale,
                    v->skipped[0] ? v->skipped : vo->run.failed);
            continue;
        }
        char elasticity[16] = "-";
        if (v->scale) snprintf(elasticity, sizeof elasticity, "%.2f", vo->elasticity);
        fprintf(f, "  %-34s %-16s %7s %8.4f %+8.2f%% %10s  %+7.2f%%..%+7.2f%%%s%s\n", v->name, change, scale, vo->cpi,
                100 * vo->speedup, elasticity, 100 * vo->min_speedup, 100 * vo->max_speedup,
                named(s, vo) ? "  BOTTLENECK" : "", vo->against ? "  (re-warmed)" : "");
    }
    headline(f, s, order);
    /* Where the top bottlenecks' time goes away. */
    for (int i = 0, shown = 0; i < s->n && shown < 3; i++) {
        const variant_outcome *vo = order[i];
        if (!named(s, vo)) continue;
        shown++;
        size_t n;
        pc_rate *rates = differential(s, vo, &n);
        fprintf(f, "  %s: cycles per 1,000 instructions, baseline -> variant\n", vo->v->name);
        for (size_t r = 0; r < n && r < 5; r++) {
            char sym[256];
            symtab_describe(x->syms, rates[r].pc, sym, sizeof sym);
            fprintf(f, "    0x%-10" PRIx64 " %-32s %10.1f -> %10.1f (%+.1f)\n", rates[r].pc, sym, rates[r].base,
                    rates[r].variant, rates[r].variant - rates[r].base);
        }
        free(rates);
    }
    free(order);
    if (s->rewarm.run.res && !s->rewarm.run.failed)
        fprintf(f, "  (re-warmed): another cache, TLB or predictor geometry than the warm checkpoints': warmed\n"
                   "  functionally over the regions' warm-up, against the baseline warmed so (CPI %.4f)\n", s->rewarm.cpi);
}
