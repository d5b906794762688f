#include "icost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "util.h"

/* The paper's classes (Table I) and what idealises each in our core. */
static const struct icost_class {
    const char *name, *resource, *meaning;
} classes[] = {
    {"dl1", "fastest-l1d", "L1D hit latency: loads hit in 1 cycle (l1d.latency at its minimum)"},
    {"dmiss", "perfect-l1d", "data-cache misses: every data access hits the L1D (ideal.l1d)"},
    {"win", "infinite-rob", "the window: ROB, registers, issue and load/store queues at their maxima"},
    {"bw", "infinite-bandwidth", "bandwidth: fetch, decode, issue and commit widths at their maxima"},
    {"bmisp", "perfect-bp", "branch mispredictions: every branch predicted, no BTB miss (ideal.branch_prediction)"},
    {"shalu", "zero-latency-alu", "single-cycle integer operations take no time (ideal.short_alu)"},
    {"lgalu", "zero-latency-long-ops", "multiply, divide and FP operations take no time (ideal.long_alu)"},
    {"imiss", "perfect-l1i", "instruction-cache misses: every fetch hits the L1I (ideal.l1i)"},
};
enum { NCLASSES = sizeof classes / sizeof classes[0] };
_Static_assert((int)NCLASSES <= (int)ICOST_MAX_CLASSES, "too many classes for a mask");

int icost_parse(icost_study *s, const char *list, char *err, size_t errlen)
{
    *s = (icost_study){0};
    if (!strcmp(list, "all")) {
        for (int i = 0; i < NCLASSES; i++) s->classes[s->nclasses++] = i;
        return 0;
    }
    char *copy = xstrdup(list), *save = NULL;
    for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int k = -1;
        for (int i = 0; i < NCLASSES; i++)
            if (!strcmp(classes[i].name, name)) k = i;
        bool twice = false;
        for (int i = 0; i < s->nclasses; i++) twice |= s->classes[i] == k;
        if (k < 0 || twice) {
            snprintf(err, errlen, "%s class '%s' (classes: dl1, dmiss, win, bw, bmisp, shalu, lgalu, imiss, or all)",
                     twice ? "repeated" : "unknown", name);
            free(copy);
            return -1;
        }
        s->classes[s->nclasses++] = k;
    }
    free(copy);
    if (s->nclasses < 2) {
        snprintf(err, errlen, "expected at least two classes, comma-separated (or all)");
        return -1;
    }
    return 0;
}

/* "dmiss+bmisp" for a mask over the study's classes. */
static void set_name(const icost_study *s, unsigned mask, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; i < s->nclasses; i++)
        if (mask & 1u << i) snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "+" : "", classes[s->classes[i]].name);
}

static void set_resources(const icost_study *s, unsigned mask, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; i < s->nclasses; i++)
        if (mask & 1u << i)
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "+" : "", classes[s->classes[i]].resource);
}

static const icost_set *find_set(const icost_study *s, unsigned mask)
{
    for (int i = 0; i < s->nsets; i++)
        if (s->sets[i].mask == mask) return &s->sets[i];
    return NULL;
}

/* icost(U) = sum over V within U of (-1)^{|U|-|V|} cost(V) (cost({}) = 0). */
static double mobius(const icost_study *s, unsigned mask)
{
    double sum = 0;
    int size = __builtin_popcount(mask);
    for (unsigned v = mask; v; v = (v - 1) & mask) {
        const icost_set *set = find_set(s, v);
        if (!set) die("icost: subset %u of %u was not simulated (a bug)", v, mask);
        sum += ((size - __builtin_popcount(v)) % 2 ? -1 : 1) * set->cost;
    }
    return sum;
}

void icost_run(icost_study *s, bool triples, const sim_options *o, const sim_target *t, const sim_result *base,
               size_t n)
{
    int k = s->nclasses, max = triples ? 3 : 2;
    s->sets = calloc((size_t)1 << k, sizeof *s->sets);
    what_if **runs = calloc((size_t)1 << k, sizeof *runs);
    if (!s->sets || !runs) die("out of memory");
    for (int size = 1; size <= max; size++)
        for (unsigned mask = 1; mask < 1u << k; mask++) {
            if (__builtin_popcount(mask) != size) continue;
            icost_set *set = &s->sets[s->nsets];
            set->mask = mask;
            char resource[256], err[256];
            set_resources(s, mask, resource, sizeof resource);
            if (resource_variant(&o->cfg, resource, 2, &set->v, err, sizeof err)) die("icost: %s (a bug)", err);
            set_name(s, mask, set->v.name, sizeof set->v.name);
            set->run = (what_if){.cfg = set->v.cfg, .warmup = o->warmup};
            runs[s->nsets++] = &set->run;
        }
    what_if_run(o, t, n, runs, s->nsets, "sim icost");
    free(runs);
    s->base_cpi = results_cpi(base, n);
    for (int i = 0; i < s->nsets; i++) {
        icost_set *set = &s->sets[i];
        if (set->run.failed) die("icost: %s: %s", set->v.name, set->run.failed);
        set->cpi = results_cpi(set->run.res, set->run.n);
        set->cost = s->base_cpi - set->cpi;
    }
    for (int i = 0; i < s->nsets; i++) s->sets[i].icost = mobius(s, s->sets[i].mask);
}

void icost_free(icost_study *s)
{
    for (int i = 0; i < s->nsets; i++) what_if_free(&s->sets[i].run);
    free(s->sets);
    *s = (icost_study){0};
}

const char *icost_kind(double icost, double base_cpi)
{
    if (fabs(icost) < 0.005 * base_cpi) return "independent";
    return icost > 0 ? "parallel" : "serial";
}

/* Everything the terms shown leave out, in CPI: the baseline's CPI is the
 * sum of icost over every subset of all events, the unidealised base time
 * included, so "other" makes the shown terms add up to 100%. */
static double other(const icost_study *s)
{
    double shown = 0;
    for (int i = 0; i < s->nsets; i++) shown += s->sets[i].icost;
    return s->base_cpi - shown;
}

json_t *icost_json(const icost_study *s)
{
    json_t *cls = json_array(), *terms = json_array();
    for (int i = 0; i < s->nclasses; i++)
        json_array_append_new(cls, json_pack("{s:s, s:s, s:s}", "name", classes[s->classes[i]].name, "idealised_by",
                                             classes[s->classes[i]].resource, "meaning", classes[s->classes[i]].meaning));
    for (int i = 0; i < s->nsets; i++) {
        const icost_set *set = &s->sets[i];
        json_t *members = json_array();
        for (int c = 0; c < s->nclasses; c++)
            if (set->mask & 1u << c) json_array_append_new(members, json_string(classes[s->classes[c]].name));
        json_t *o = json_pack("{s:s, s:o, s:f, s:f, s:f, s:f, s:f}", "name", set->v.name, "classes", members, "cpi",
                              set->cpi, "cost_cpi", set->cost, "cost_percent", 100 * set->cost / s->base_cpi,
                              "icost_cpi", set->icost, "icost_percent", 100 * set->icost / s->base_cpi);
        if (__builtin_popcount(set->mask) > 1)
            json_object_set_new(o, "kind", json_string(icost_kind(set->icost, s->base_cpi)));
        json_array_append_new(terms, o);
    }
    return json_pack("{s:f, s:o, s:o, s:{s:f, s:f}}", "baseline_cpi", s->base_cpi, "classes", cls, "terms", terms,
                     "other", "cpi", other(s), "percent", 100 * other(s) / s->base_cpi);
}

void icost_print(FILE *f, const icost_study *s)
{
    fprintf(f, "\nInteraction cost (by re-simulation): baseline CPI %.4f; %% of its cycles\n", s->base_cpi);
    fprintf(f, "  %-26s %9s %9s  %-11s %9s\n", "category", "icost", "CPI", "kind", "cost");
    for (int i = 0; i < s->nsets; i++) {
        const icost_set *set = &s->sets[i];
        bool single = __builtin_popcount(set->mask) == 1;
        fprintf(f, "  %-26s %+8.1f%% %+9.4f  %-11s %8.1f%%\n", set->v.name, 100 * set->icost / s->base_cpi, set->icost,
                single ? "" : icost_kind(set->icost, s->base_cpi), 100 * set->cost / s->base_cpi);
    }
    fprintf(f, "  %-26s %+8.1f%% %+9.4f\n", "other", 100 * other(s) / s->base_cpi, other(s));
    fprintf(f, "  (parallel: only removing both saves the time; serial: removing either saves much of it)\n");
}

void icost_plot(const icost_study *s, const char *dir)
{
    /* One bar: positive terms stacked up from 0, negative ones down from 0. */
    char *data = NULL, *body = NULL;
    size_t ndata = 0, nbody = 0;
    FILE *d = open_memstream(&data, &ndata), *b = open_memstream(&body, &nbody);
    if (!d || !b) die("out of memory");
    fprintf(b, "set title \"Interaction cost (%% of baseline cycles; negative terms below the axis)\"\n"
               "set ylabel \"%% of cycles\"\nset xrange [0:3]\nunset xtics\nset key outside right\n"
               "set grid ytics\nset xzeroaxis lt -1\nplot ");
    double up = 0, down = 0;
    int block = 0;
    for (int i = 0; i <= s->nsets; i++) {
        double pct = 100 * (i < s->nsets ? s->sets[i].icost : other(s)) / s->base_cpi;
        const char *name = i < s->nsets ? s->sets[i].v.name : "other";
        if (fabs(pct) < 0.05) continue;
        double lo = pct > 0 ? up : down + pct, hi = pct > 0 ? up + pct : down;
        if (pct > 0) up += pct;
        else down += pct;
        fprintf(d, "%s# %s\n1 %.4f 0.6 1.4 %.4f %.4f\n", block ? "\n\n" : "", name, (lo + hi) / 2, lo, hi);
        fprintf(b, "%s\"icost.dat\" index %d using 1:2:3:4:5:6 with boxxyerror fs solid 0.85 border -1 title \"%s\"",
                block ? ", \\\n     " : "", block, name);
        block++;
    }
    fprintf(b, "\n");
    fclose(d);
    fclose(b);
    gnuplot g = {0};
    if (block) gnuplot_plot(&g, dir, "icost", data, body);
    free(data);
    free(body);
}
