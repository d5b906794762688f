#include "icost.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/psv.h"
#include "decode.h"
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
_Static_assert((int)NCLASSES <= (int)ICOST_MAX_ELEMENTS, "too many classes for a mask");

static int class_index(const char *name)
{
    for (int i = 0; i < NCLASSES; i++)
        if (!strcmp(classes[i].name, name)) return i;
    return -1;
}

static void add_class(icost_study *s, int k)
{
    icost_element *e = &s->el[s->n++];
    *e = (icost_element){.resource = classes[k].resource, .meaning = classes[k].meaning};
    snprintf(e->name, sizeof e->name, "%s", classes[k].name);
}

int icost_parse(icost_study *s, const char *list, char *err, size_t errlen)
{
    *s = (icost_study){.title = "Interaction cost of event classes"};
    char *copy = xstrdup(list), *save = NULL;
    for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int k = class_index(name);
        bool twice = false;
        for (int i = 0; i < s->n; i++) twice |= k >= 0 && !strcmp(s->el[i].name, name);
        if (!strcmp(name, "all") && !s->n && !strtok_r(NULL, ",", &save)) {
            for (int i = 0; i < NCLASSES; i++) add_class(s, i);
            break;
        }
        if (k < 0 || twice) {
            snprintf(err, errlen, "%s class '%s' (classes: dl1, dmiss, win, bw, bmisp, shalu, lgalu, imiss, or all)",
                     twice ? "repeated" : "unknown", name);
            free(copy);
            return -1;
        }
        add_class(s, k);
    }
    free(copy);
    if (s->n < 2) {
        snprintf(err, errlen, "expected at least two classes, comma-separated (or all)");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ loads */

typedef struct load_stall {
    uint64_t pc;
    uint32_t bits;
    double stalled, share;
} load_stall;

static int by_stalled(const void *a, const void *b)
{
    const load_stall *x = a, *y = b;
    if (x->stalled != y->stalled) return x->stalled < y->stalled ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static bool is_load(uint32_t bits, uint64_t pc)
{
    rv_insn in;
    rv_decode(&in, pc, (uint16_t)bits, (uint16_t)(bits >> 16));
    unsigned cls = rv_ops[in.op].cls;
    return cls == CLS_LOAD || cls == CLS_FLOAD;
}

/* Of the load's Stalled cycles in the golden PICS, the share that missed
 * the L1D (-1 without PICS): the most an L1D hit can take away. */
static double missed_share(const sim_result *base, size_t nbase, uint64_t pc)
{
    double stalled = 0, missed = 0;
    for (size_t i = 0; i < nbase; i++) {
        if (!base[i].pics) return -1;
        double f = result_weight(&base[i]) / (base[i].c.instructions ? (double)base[i].c.instructions : 1);
        for (size_t k = 0; k < base[i].npics; k++) {
            const cost *c = &base[i].pics[k];
            if (pics_pc(c->key) != pc) continue;
            stalled += f * (double)c->units[ST_STALLED];
            if (pics_category(c->key) & PSV(ST_L1)) missed += f * (double)c->units[ST_STALLED];
        }
    }
    return stalled > 0 ? missed / stalled : 0;
}

void icost_choose_loads(icost_study *s, int n, const sim_result *base, size_t nbase, const rv_symtab *syms)
{
    *s = (icost_study){.title = "Interaction cost of the loads with the most Stalled time"};
    /* Stalled cycles per instruction of each load pc, regions weighted. */
    cost_table index = {0};
    load_stall *loads = NULL;
    size_t nloads = 0, cap = 0;
    double w = 0, total = 0;
    for (size_t i = 0; i < nbase; i++) w += result_weight(&base[i]);
    for (size_t i = 0; i < nbase && w > 0; i++) {
        const sim_result *r = &base[i];
        if (!r->c.instructions) continue;
        double f = result_weight(r) / w / (double)r->c.instructions / (double)r->units;
        for (size_t p = 0; p < r->npcs; p++) {
            const cost *c = &r->pcs[p];
            total += f * (double)c->units[ST_STALLED];
            if (!c->units[ST_STALLED] || !is_load(c->bits, c->key)) continue;
            cost *slot = cost_at(&index, c->key);
            if (!slot->execs) {
                if (nloads == cap && !(loads = realloc(loads, (cap = cap ? 2 * cap : 64) * sizeof *loads)))
                    die("out of memory");
                loads[nloads] = (load_stall){.pc = c->key, .bits = c->bits};
                slot->execs = ++nloads;
            }
            loads[slot->execs - 1].stalled += f * (double)c->units[ST_STALLED];
        }
    }
    cost_table_free(&index);
    if (nloads) qsort(loads, nloads, sizeof *loads, by_stalled);
    for (size_t i = 0; i < nloads && s->n < n && s->n < ICOST_MAX_ELEMENTS; i++) {
        icost_element *e = &s->el[s->n++];
        *e = (icost_element){.pc = loads[i].pc, .stalled_share = total > 0 ? loads[i].stalled / total : 0,
                             .missed_share = missed_share(base, nbase, loads[i].pc),
                             .meaning = "this static load hits the L1D"};
        snprintf(e->name, sizeof e->name, "load 0x%" PRIx64, loads[i].pc);
        char sym[96], text[64];
        rv_insn in;
        rv_decode(&in, loads[i].pc, (uint16_t)loads[i].bits, (uint16_t)(loads[i].bits >> 16));
        symtab_describe(syms, loads[i].pc, sym, sizeof sym);
        snprintf(e->where, sizeof e->where, "%s: %s", sym, rv_disasm(&in, text, sizeof text));
    }
    free(loads);
}

/* ------------------------------------------------------------ the study */

/* "dmiss+bmisp" for a mask over the study's elements. */
static void set_name(const icost_study *s, unsigned mask, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; i < s->n; i++)
        if (mask & 1u << i) snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "+" : "", s->el[i].name);
}

static int by_pc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The set's configuration: its classes' limit studies; its loads. */
static void set_config(const icost_study *s, icost_set *set, const uarch_config *base)
{
    char resource[512] = "", err[256];
    size_t nloads = 0;
    for (int i = 0; i < s->n; i++) {
        if (!(set->mask & 1u << i)) continue;
        if (s->el[i].resource)
            snprintf(resource + strlen(resource), sizeof resource - strlen(resource), "%s%s", resource[0] ? "+" : "",
                     s->el[i].resource);
        else set->loads[nloads++] = s->el[i].pc;
    }
    set->v = (variant){.cfg = *base};
    if (resource[0] && resource_variant(base, resource, 2, &set->v, err, sizeof err)) die("icost: %s (a bug)", err);
    set_name(s, set->mask, set->v.name, sizeof set->v.name);
    qsort(set->loads, nloads, sizeof *set->loads, by_pc);
    set->run = (what_if){.cfg = set->v.cfg, .ideal_loads = set->loads, .nideal_loads = nloads};
}

static const icost_set *find_set(const icost_study *s, unsigned mask)
{
    for (int i = 0; i < s->nsets; i++)
        if (s->sets[i].mask == mask) return &s->sets[i];
    return NULL;
}

/* icost(U) = sum over V within U of (-1)^{|U|-|V|} cost(V) (cost({}) = 0),
 * of re-simulation's costs or the graph's. */
static double mobius(const icost_study *s, unsigned mask, bool graph)
{
    double sum = 0;
    int size = __builtin_popcount(mask);
    for (unsigned v = mask; v; v = (v - 1) & mask) {
        const icost_set *set = find_set(s, v);
        if (!set) die("icost: subset %u of %u was not simulated (a bug)", v, mask);
        sum += ((size - __builtin_popcount(v)) % 2 ? -1 : 1) * (graph ? set->graph_cost : set->cost);
    }
    return sum;
}

/* The sets of a study of n elements: singletons, pairs (and triples), in
 * that order. Returns their count. */
static int study_masks(int n, bool triples, unsigned *masks)
{
    int count = 0;
    for (int size = 1; size <= (triples ? 3 : 2); size++)
        for (unsigned mask = 1; mask < 1u << n; mask++)
            if (__builtin_popcount(mask) == size) masks[count++] = mask;
    return count;
}

static bool is_loads_study(const icost_study *s) { return s->n && !s->el[0].resource; }

/* A study mask in the graph's set bits: its classes, or its loads (the
 * graph's config loads are the study's, in order). */
static unsigned graph_set(const icost_study *s, unsigned mask)
{
    unsigned set = 0;
    for (int i = 0; i < s->n; i++)
        if (mask & 1u << i) set |= s->el[i].resource ? 1u << depgraph_class(s->el[i].name) : depgraph_load_bit(i);
    return set;
}

void icost_graph_config(const icost_study *s, bool triples, depgraph_config *out)
{
    unsigned masks[1 << ICOST_MAX_ELEMENTS];
    int n = study_masks(s->n, triples, masks);
    *out = (depgraph_config){.nsets = 1};
    for (int i = 0; i < n && out->nsets < DEPGRAPH_MAX_SETS; i++) out->sets[out->nsets++] = graph_set(s, masks[i]);
    for (int i = 0; i < s->n && is_loads_study(s); i++) out->loads[out->nloads++] = s->el[i].pc;
}

/* A region's branch mispredictions per instruction. */
static double result_mispredicts(const sim_result *r)
{
    return r->c.instructions ? (double)r->c.events[EV_BRANCH_MISPREDICTS] / (double)r->c.instructions : 0;
}

/* ... of a set of results, regions weighted as the CPI is. */
static double results_mispredicts(const sim_result *res, size_t n)
{
    return results_weighted(res, n, result_mispredicts);
}

/* The element that idealises bmisp, as a mask bit; 0 if none. */
static unsigned bmisp_bit(const icost_study *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->el[i].resource && !strcmp(s->el[i].name, "bmisp")) return 1u << i;
    return 0;
}

double icost_same_mispredicts_cost(const icost_study *s, const icost_set *set)
{
    if (!bmisp_bit(s) || (set->mask & bmisp_bit(s))) return set->cost;
    return set->cost + (set->mispredicts - s->base_mispredicts) * set->mispredict_price;
}

/* What a misprediction costs in each set's world: where re-simulation ran
 * the set with bmisp too, the time its mispredictions take, cost(S +
 * bmisp) - cost(S), over how many it made; else (a pair without its
 * triple) the price of its member whose mispredictions differ most from
 * the baseline's. */
void icost_price_mispredicts(icost_study *s)
{
    unsigned b = bmisp_bit(s);
    if (!b) return;
    for (int i = 0; i < s->nsets; i++) {
        icost_set *set = &s->sets[i];
        const icost_set *with = find_set(s, set->mask | b);
        if (!(set->mask & b) && with && set->mispredicts > 0)
            set->mispredict_price = (with->cost - set->cost) / set->mispredicts;
    }
    for (int i = 0; i < s->nsets; i++) {
        icost_set *set = &s->sets[i];
        if ((set->mask & b) || find_set(s, set->mask | b)) continue;
        double most = -1;
        for (int e = 0; e < s->n; e++) {
            const icost_set *member = (set->mask & 1u << e) ? find_set(s, 1u << e) : NULL;
            if (member && fabs(member->mispredicts - s->base_mispredicts) > most)
                most = fabs(member->mispredicts - s->base_mispredicts), set->mispredict_price = member->mispredict_price;
        }
    }
}

/* |graph - reference| / reference over the costs above 5% of the cycles. */
static void differences(const icost_study *s, bool same_mispredicts, double *mean, double *worst, int *compared)
{
    double sum = 0;
    *worst = 0, *compared = 0;
    for (int i = 0; i < s->nsets; i++) {
        const icost_set *set = &s->sets[i];
        if (set->cost < 0.05 * s->base_cpi) continue;
        double ref = same_mispredicts ? icost_same_mispredicts_cost(s, set) : set->cost;
        double d = fabs(set->graph_cost - ref) / ref;
        sum += d, ++*compared;
        if (d > *worst) *worst = d;
    }
    *mean = *compared ? sum / *compared : 0;
}

/* The graph's cost of each set (CPI, regions weighted like re-simulation's)
 * and how far it is from re-simulation's. */
void icost_compare_graph(icost_study *s, const sim_result *base, size_t n)
{
    double w = 0;
    for (size_t r = 0; r < n; r++) {
        if (!base[r].graph || !base[r].graph->instructions) return;
        w += result_weight(&base[r]);
    }
    if (!(w > 0)) return;
    s->has_graph = true;
    for (size_t r = 0; r < n; r++) {
        const depgraph_result *g = base[r].graph;
        double f = result_weight(&base[r]) / w / (double)g->instructions;
        s->graph_cpi += f * (double)g->cycles[0];
        s->graph_seconds += g->seconds;
        for (int i = 0; i < s->nsets; i++) {
            unsigned set = graph_set(s, s->sets[i].mask);
            for (int k = 1; k < g->nsets; k++)
                if (g->sets[k] == set) s->sets[i].graph_cost += f * ((double)g->cycles[0] - (double)g->cycles[k]);
        }
    }
    for (int i = 0; i < s->nsets; i++) s->sets[i].graph_icost = mobius(s, s->sets[i].mask, true);
    int compared;
    differences(s, false, &s->graph_mean_diff, &s->graph_worst_diff, &s->graph_compared);
    differences(s, true, &s->graph_same_mean_diff, &s->graph_same_worst_diff, &compared);
}

/* Mean host seconds of one re-simulation (regions summed). */
static double resim_seconds(const icost_study *s)
{
    double sum = 0;
    for (int i = 0; i < s->nsets; i++)
        for (size_t r = 0; r < s->sets[i].run.n; r++) sum += s->sets[i].run.res[r].seconds;
    return s->nsets ? sum / s->nsets : 0;
}

void icost_run(icost_study *s, bool triples, const sim_options *o, const sim_target *t, const sim_result *base,
               size_t n)
{
    unsigned masks[1 << ICOST_MAX_ELEMENTS];
    int nmasks = study_masks(s->n, triples, masks);
    s->sets = calloc((size_t)nmasks, sizeof *s->sets);
    what_if **runs = calloc((size_t)nmasks + 1, sizeof *runs);
    if (!s->sets || !runs) die("out of memory");
    for (int i = 0; i < nmasks; i++) {
        icost_set *set = &s->sets[s->nsets];
        set->mask = masks[i];
        set_config(s, set, &o->cfg);
        set->run.warmup = o->warmup;
        runs[s->nsets++] = &set->run;
    }
    /* The loads are known only now: the baseline runs again beside the
     * sets, with the graph of the loads' sets. */
    depgraph_config loads_graph;
    what_if graph_run = {.cfg = o->cfg, .warmup = o->warmup, .graph = &loads_graph};
    if (is_loads_study(s)) icost_graph_config(s, triples, &loads_graph);
    runs[s->nsets] = &graph_run;
    /* The sets point at their own loads: the array is not moved again. */
    what_if_run(o, t, n, runs, s->nsets + is_loads_study(s), "sim icost");
    free(runs);
    s->base_cpi = results_cpi(base, n);
    s->base_mispredicts = results_mispredicts(base, n);
    for (int i = 0; i < s->nsets; i++) {
        icost_set *set = &s->sets[i];
        if (set->run.failed) die("icost: %s: %s", set->v.name, set->run.failed);
        set->cpi = results_cpi(set->run.res, set->run.n);
        set->cost = s->base_cpi - set->cpi;
        set->mispredicts = results_mispredicts(set->run.res, set->run.n);
    }
    icost_price_mispredicts(s);
    for (int i = 0; i < s->nsets; i++) s->sets[i].icost = mobius(s, s->sets[i].mask, false);
    icost_compare_graph(s, is_loads_study(s) ? graph_run.res : base, n);
    s->resim_seconds = resim_seconds(s);
    what_if_free(&graph_run);
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
    json_t *els = json_array(), *terms = json_array();
    for (int i = 0; i < s->n; i++) {
        const icost_element *e = &s->el[i];
        json_t *o = json_pack("{s:s, s:s}", "name", e->name, "meaning", e->meaning);
        if (e->resource) json_object_set_new(o, "idealised_by", json_string(e->resource));
        else {
            char pc[24];
            snprintf(pc, sizeof pc, "0x%" PRIx64, e->pc);
            json_object_set_new(o, "pc", json_string(pc));
            json_object_set_new(o, "instruction", json_string(e->where));
            json_object_set_new(o, "stalled_share", json_real(e->stalled_share));
            json_object_set_new(o, "stalled_missing_l1d", e->missed_share >= 0 ? json_real(e->missed_share) : json_null());
        }
        json_array_append_new(els, o);
    }
    for (int i = 0; i < s->nsets; i++) {
        const icost_set *set = &s->sets[i];
        json_t *members = json_array();
        for (int c = 0; c < s->n; c++)
            if (set->mask & 1u << c) json_array_append_new(members, json_string(s->el[c].name));
        json_t *o = json_pack("{s:s, s:o, s:f, s:f, s:f, s:f, s:f}", "name", set->v.name, "classes", members, "cpi",
                              set->cpi, "cost_cpi", set->cost, "cost_percent", 100 * set->cost / s->base_cpi,
                              "icost_cpi", set->icost, "icost_percent", 100 * set->icost / s->base_cpi);
        if (__builtin_popcount(set->mask) > 1)
            json_object_set_new(o, "kind", json_string(icost_kind(set->icost, s->base_cpi)));
        json_object_set_new(o, "branch_mispredicts_per_insn", json_real(set->mispredicts));
        if (s->has_graph)
            json_object_set_new(o, "graph", json_pack("{s:f, s:f, s:f}", "cost_cpi", set->graph_cost, "icost_cpi",
                                                      set->graph_icost, "resimulation_same_mispredicts_cost_cpi",
                                                      icost_same_mispredicts_cost(s, set)));
        json_array_append_new(terms, o);
    }
    json_t *o = json_pack("{s:f, s:f, s:o, s:o, s:{s:f, s:f}}", "baseline_cpi", s->base_cpi,
                          "baseline_branch_mispredicts_per_insn", s->base_mispredicts, "classes", els, "terms", terms,
                          "other", "cpi", other(s), "percent", 100 * other(s) / s->base_cpi);
    if (s->has_graph)
        json_object_set_new(o, "graph", json_pack("{s:f, s:f, s:i, s:f, s:f, s:{s:f, s:f}, s:f, s:f}",
                                                  "critical_path_cpi", s->graph_cpi,
                                                  "critical_path_difference", s->graph_cpi / s->base_cpi - 1,
                                                  "costs_compared", s->graph_compared, "mean_cost_difference",
                                                  s->graph_mean_diff, "worst_cost_difference", s->graph_worst_diff,
                                                  "same_mispredicts", "mean_cost_difference", s->graph_same_mean_diff,
                                                  "worst_cost_difference", s->graph_same_worst_diff,
                                                  "seconds", s->graph_seconds, "resimulation_seconds", s->resim_seconds));
    return o;
}

void icost_print(FILE *f, const icost_study *s)
{
    fprintf(f, "\n%s (by re-simulation): baseline CPI %.4f; %% of its cycles\n", s->title, s->base_cpi);
    for (int i = 0; i < s->n; i++) {
        const icost_element *e = &s->el[i];
        if (e->resource) continue;
        fprintf(f, "  %-18s %s (%.1f%% of the Stalled cycles", e->name, e->where, 100 * e->stalled_share);
        if (e->missed_share >= 0) fprintf(f, "; %.1f%% of its own with an L1D miss", 100 * e->missed_share);
        fprintf(f, ")\n");
    }
    if (s->n && !s->el[0].resource)
        fprintf(f, "  (an idealised load hits the L1D: that saves its misses' time at most; it keeps its L1D hit\n"
                   "  latency, its wait for its address and for an older store's data, and its TLB misses, which\n"
                   "  are most of the Stalled time of a load that seldom misses)\n");
    fprintf(f, "  %-36s %9s %9s  %-11s %9s%s\n", "category", "icost", "CPI", "kind", "cost",
            s->has_graph ? "     graph: icost      cost" : "");
    for (int i = 0; i < s->nsets; i++) {
        const icost_set *set = &s->sets[i];
        bool single = __builtin_popcount(set->mask) == 1;
        fprintf(f, "  %-36s %+8.1f%% %+9.4f  %-11s %8.1f%%", set->v.name, 100 * set->icost / s->base_cpi, set->icost,
                single ? "" : icost_kind(set->icost, s->base_cpi), 100 * set->cost / s->base_cpi);
        if (s->has_graph)
            fprintf(f, "  %+15.1f%% %8.1f%%", 100 * set->graph_icost / s->base_cpi, 100 * set->graph_cost / s->base_cpi);
        fprintf(f, "\n");
    }
    fprintf(f, "  %-36s %+8.1f%% %+9.4f\n", "other", 100 * other(s) / s->base_cpi, other(s));
    fprintf(f, "  (parallel: only removing both saves the time; serial: removing either saves much of it)\n");
    if (s->has_graph)
        fprintf(f, "  dependence graph: critical path %+.1f%% from the simulated cycles; its costs differ from\n"
                   "  re-simulation's by %.1f%% on average, %.1f%% at worst (%d costs above 5%%; paper: 8.1%%, 14.3%%)\n",
                100 * (s->graph_cpi / s->base_cpi - 1), 100 * s->graph_mean_diff, 100 * s->graph_worst_diff,
                s->graph_compared);
    if (s->has_graph && bmisp_bit(s))
        fprintf(f, "  (%.1f%%, %.1f%% with re-simulation's mispredictions held at the baseline's: the predictor\n"
                   "  follows the fetch packets, which bw changes; the graph keeps the baseline's events)\n",
                100 * s->graph_same_mean_diff, 100 * s->graph_same_worst_diff);
    if (s->has_graph)
        fprintf(f, "  the graph's %d sets took %.2f s, one re-simulation %.2f s\n", s->nsets + 1, s->graph_seconds,
                s->resim_seconds);
}

void icost_plot(const icost_study *s, const char *dir, const char *plot)
{
    /* One bar: positive terms stacked up from 0, negative ones down from 0. */
    char *data = NULL, *body = NULL;
    size_t ndata = 0, nbody = 0;
    FILE *d = open_memstream(&data, &ndata), *b = open_memstream(&body, &nbody);
    if (!d || !b) die("out of memory");
    fprintf(b, "set title \"%s (%% of baseline cycles; negative terms below the axis)\"\n"
               "set ylabel \"%% of cycles\"\nset xrange [0:3]\nunset xtics\nset key outside right\n"
               "set grid ytics\nset xzeroaxis lt -1\nplot ", s->title);
    double up = 0, down = 0;
    int block = 0;
    for (int i = 0; i <= s->nsets; i++) {
        double pct = 100 * (i < s->nsets ? s->sets[i].icost : other(s)) / s->base_cpi;
        const char *term = i < s->nsets ? s->sets[i].v.name : "other";
        if (fabs(pct) < 0.05) continue;
        double lo = pct > 0 ? up : down + pct, hi = pct > 0 ? up + pct : down;
        if (pct > 0) up += pct;
        else down += pct;
        fprintf(d, "%s# %s\n1 %.4f 0.6 1.4 %.4f %.4f\n", block ? "\n\n" : "", term, (lo + hi) / 2, lo, hi);
        fprintf(b, "%s\"%s.dat\" index %d using 1:2:3:4:5:6 with boxxyerror fs solid 0.85 border -1 title \"%s\"",
                block ? ", \\\n     " : "", plot, block, term);
        block++;
    }
    fprintf(b, "\n");
    fclose(d);
    fclose(b);
    gnuplot g = {0};
    if (block) gnuplot_plot(&g, dir, plot, data, body);
    free(data);
    free(body);
}
