#include "report_inclusive.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Adds UNITS to KEY's entry of T unless charge STAMP already did (the
 * entry's commits hold the last stamp: a function counts once a charge). */
static void add_once(cost_table *t, uint64_t key, uint64_t stamp, const uint64_t units[ST_COUNT])
{
    cost *c = cost_at(t, key);
    if (c->commits == stamp) return;
    c->commits = stamp;
    for (int s = 0; s < ST_COUNT; s++) c->units[s] += units[s];
}

cost *inclusive_by_function(const symbolizer *sym, const call_profile *cp, size_t *n)
{
    uint64_t *fn = malloc((cp->nnodes ? cp->nnodes : 1) * sizeof *fn);
    if (!fn) die("out of memory");
    for (size_t i = 1; i < cp->nnodes; i++) fn[i] = symbolizer_key(sym, GRAN_FUNCTION, cp->nodes[i].pc);
    cost_table t = {0};
    for (size_t i = 0; i < cp->ncharges; i++) {
        const call_charge *ch = &cp->charges[i];
        uint64_t stamp = i + 1;
        add_once(&t, symbolizer_key(sym, GRAN_FUNCTION, ch->pc), stamp, ch->units);
        for (uint32_t node = ch->node; node; node = cp->nodes[node].parent) add_once(&t, fn[node], stamp, ch->units);
    }
    free(fn);
    cost *out = cost_sorted(&t, n);
    for (size_t i = 0; i < *n; i++) out[i].commits = 0;
    cost_table_free(&t);
    return out;
}

uint64_t call_profile_total(const call_profile *cp)
{
    uint64_t total = 0;
    for (size_t i = 0; i < cp->ncharges; i++)
        for (int s = 0; s < ST_COUNT; s++) total += cp->charges[i].units[s];
    return total;
}

/* SRC's contexts and charges after DST's, the charges scaled by SCALE. */
static void append_scaled(call_profile *dst, const call_profile *src, double scale)
{
    size_t base = dst->nnodes;
    dst->nodes = realloc(dst->nodes, (dst->nnodes + src->nnodes) * sizeof *dst->nodes);
    dst->charges = realloc(dst->charges, (dst->ncharges + src->ncharges + 1) * sizeof *dst->charges);
    if (!dst->nodes || !dst->charges) die("out of memory");
    for (size_t i = 0; i < src->nnodes; i++) {
        call_node nd = src->nodes[i];
        nd.parent = nd.parent ? (uint32_t)(nd.parent + base) : 0; /* node 0 stays the one outside */
        dst->nodes[dst->nnodes++] = nd;
    }
    for (size_t i = 0; i < src->ncharges; i++) {
        call_charge ch = src->charges[i];
        ch.node = ch.node ? (uint32_t)(ch.node + base) : 0;
        for (int s = 0; s < ST_COUNT; s++) ch.units[s] = (uint64_t)llround((double)ch.units[s] * scale);
        dst->charges[dst->ncharges++] = ch;
    }
}

call_profile *call_profile_combine(const region_profile *regions, const call_profile *const *calls, size_t n,
                                   double total)
{
    double time = 0;
    for (size_t i = 0; i < n; i++) {
        if (!calls[i]) return NULL;
        time += regions[i].weight * regions[i].cpi;
    }
    call_profile *w = calloc(1, sizeof *w);
    if (!w || !(w->nodes = calloc(1, sizeof *w->nodes))) die("out of memory");
    w->nnodes = 1; /* the one node outside every context */
    for (size_t i = 0; i < n; i++) {
        uint64_t own = call_profile_total(calls[i]);
        if (own) append_scaled(w, calls[i], regions[i].weight * regions[i].cpi / time * total / (double)own);
    }
    return w;
}

static double self_units(const cost *self, size_t n, uint64_t key)
{
    for (size_t i = 0; i < n; i++)
        if (self[i].key == key) return (double)cost_total(&self[i]);
    return 0;
}

static const char *function_name(const symbolizer *sym, uint64_t key)
{
    const rv_symbol *s = key == 1 || !sym->syms ? NULL : symtab_find(sym->syms, key);
    return s ? s->name : "[unknown]";
}

static double golden_total(const sim_result *r)
{
    double t = 0;
    for (size_t i = 0; i < r->npcs; i++) t += (double)cost_total(&r->pcs[i]);
    return t;
}

void inclusive_md(outfile *o, const sim_result *r, const symbolizer *sym, size_t rows, const char *cycles,
                  bool from_regions)
{
    if (!r->calls) return;
    size_t n, nself;
    cost *incl = inclusive_by_function(sym, r->calls, &n);
    cost *self = profile_rollup(sym, GRAN_FUNCTION, r->pcs, r->npcs, &nself);
    double total = golden_total(r), per = r->units;
    outfile_printf(o, "\n### Inclusive time (`perf report --children`)\n\n| function | inclusive %s | inclusive %% | "
                      "self %s | self %% |\n|---|---:|---:|---:|---:|\n",
                   cycles, cycles);
    for (size_t k = 0; k < n && k < rows; k++) {
        double in = (double)cost_total(&incl[k]), own = self_units(self, nself, incl[k].key);
        outfile_printf(o, "| `%s` | %.1f | %.2f | %.1f | %.2f |\n", function_name(sym, incl[k].key), in / per,
                       total ? 100 * in / total : 0, own / per, total ? 100 * own / total : 0);
    }
    outfile_printf(o, "\nInclusive: the golden time of the function's own instructions and of everything it called, "
                      "each cycle counted once however often the function is on the stack (recursion); from a "
                      "shadow call stack of the committed instructions (calls: jal/jalr writing ra or t0; returns "
                      "as the branch predictor classifies them); %% of all cycles.%s\n",
                   from_regions ? " A region only knows the calls made inside it: a function already running "
                                  "when the region starts has the time of its callees from there on, and its "
                                  "callers are not known."
                                : "");
    free(incl);
    free(self);
}

json_t *inclusive_json(const sim_result *r, const symbolizer *sym, size_t top)
{
    size_t n, nself;
    cost *incl = inclusive_by_function(sym, r->calls, &n);
    cost *self = profile_rollup(sym, GRAN_FUNCTION, r->pcs, r->npcs, &nself);
    json_t *a = json_array();
    for (size_t k = 0; k < n && (!top || k < top); k++)
        json_array_append_new(a, json_pack("{s:s, s:o, s:o}", "name", function_name(sym, incl[k].key), "cycles",
                                           cycles_json(cost_total(&incl[k]), r->units), "self_cycles",
                                           cycles_json((uint64_t)self_units(self, nself, incl[k].key), r->units)));
    free(incl);
    free(self);
    return a;
}
