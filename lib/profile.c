#include "profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *const commit_state_names[ST_COUNT] = {"computing", "stalled", "flushed", "drained"};
const char *const granularity_names[GRAN_COUNT] = {"instruction", "block", "function", "application"};

static size_t hash_key(uint64_t key, size_t cap)
{
    return (size_t)((key >> 1) * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static void cost_grow(cost_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 1024;
    cost *slots = calloc(cap, sizeof *slots);
    if (!slots) die("out of memory for a profile table");
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].key) continue;
        size_t h = hash_key(t->slots[i].key, cap);
        while (slots[h].key) h = (h + 1) & (cap - 1);
        slots[h] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots, t->cap = cap;
    if (!t->recent && !(t->recent = calloc(COST_RECENT, sizeof *t->recent))) die("out of memory for a profile table");
}

/* Open addressing on non-zero keys (guest code never sits at address 0). */
cost *cost_find(cost_table *t, uint64_t key)
{
    if ((t->n + 1) * 4 > t->cap * 3) cost_grow(t);
    size_t h = hash_key(key, t->cap);
    while (t->slots[h].key && t->slots[h].key != key) h = (h + 1) & (t->cap - 1);
    if (!t->slots[h].key) {
        t->slots[h].key = key;
        t->n++;
    }
    t->recent[(key >> 1) & (COST_RECENT - 1)] = (uint32_t)h;
    return &t->slots[h];
}

void cost_table_free(cost_table *t)
{
    free(t->slots);
    free(t->recent);
    *t = (cost_table){0};
}

uint64_t cost_total(const cost *c)
{
    uint64_t s = 0;
    for (int i = 0; i < ST_COUNT; i++) s += c->units[i];
    return s;
}

static int by_total_desc(const void *a, const void *b)
{
    uint64_t x = cost_total(a), y = cost_total(b);
    if (x != y) return x < y ? 1 : -1;
    uint64_t ka = ((const cost *)a)->key, kb = ((const cost *)b)->key;
    return (ka > kb) - (ka < kb);
}

cost *cost_sorted(const cost_table *t, size_t *n)
{
    cost *out = malloc((t->n ? t->n : 1) * sizeof *out);
    if (!out) die("out of memory");
    size_t k = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].key) out[k++] = t->slots[i];
    if (k) qsort(out, k, sizeof *out, by_total_desc);
    *n = k;
    return out;
}

void cost_accumulate(cost_table *t, const cost *src, size_t n, double scale)
{
    for (size_t i = 0; i < n; i++) {
        cost *d = cost_at(t, src[i].key);
        d->commits += src[i].commits;
        d->execs += src[i].execs;
        if (src[i].bits) d->bits = src[i].bits;
        for (int s = 0; s < ST_COUNT; s++) d->units[s] += (uint64_t)llround((double)src[i].units[s] * scale);
    }
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t r = a % b;
        a = b, b = r;
    }
    return a;
}

uint32_t units_per_cycle(unsigned commit_width)
{
    uint32_t l = 1;
    for (uint32_t i = 2; i <= commit_width; i++) l = l / gcd(l, i) * i;
    return l;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

void symbolizer_init(symbolizer *s, const rv_symtab *syms, const cost *blocks, size_t nblocks)
{
    s->syms = syms;
    s->leaders = malloc((nblocks ? nblocks : 1) * sizeof *s->leaders);
    if (!s->leaders) die("out of memory");
    for (size_t i = 0; i < nblocks; i++) s->leaders[i] = blocks[i].key;
    if (nblocks) qsort(s->leaders, nblocks, sizeof *s->leaders, by_u64);
    s->nleaders = nblocks;
}

void symbolizer_free(symbolizer *s)
{
    free(s->leaders);
    *s = (symbolizer){0};
}

static uint64_t function_key(const symbolizer *s, uint64_t pc)
{
    const rv_symbol *sym = s->syms ? symtab_find(s->syms, pc) : NULL;
    return sym && sym->addr && pc < sym->addr + (sym->size ? sym->size : UINT64_MAX - sym->addr) ? sym->addr : 1;
}

uint64_t symbolizer_key(const symbolizer *s, enum granularity g, uint64_t pc)
{
    if (g == GRAN_INSTRUCTION) return pc;
    if (g == GRAN_FUNCTION) return function_key(s, pc);
    if (g == GRAN_APPLICATION) return 1;
    /* The nearest leader at or below pc, unless a function starts between. */
    size_t lo = 0, hi = s->nleaders;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->leaders[mid] <= pc) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return pc;
    uint64_t leader = s->leaders[lo - 1];
    return function_key(s, leader) == function_key(s, pc) ? leader : pc;
}

uint64_t symbolizer_category_key(const symbolizer *s, enum granularity g, uint64_t key, uint16_t mask)
{
    return pics_key(symbolizer_key(s, g, pics_pc(key)), pics_category(key) & mask);
}

cost *profile_rollup(const symbolizer *s, enum granularity g, const cost *pcs, size_t npcs, size_t *n)
{
    cost_table t = {0};
    for (size_t i = 0; i < npcs; i++) {
        cost *d = cost_at(&t, symbolizer_key(s, g, pics_pc(pcs[i].key)));
        d->commits += pcs[i].commits;
        for (int k = 0; k < ST_COUNT; k++) d->units[k] += pcs[i].units[k];
    }
    cost *out = cost_sorted(&t, n);
    cost_table_free(&t);
    return out;
}

cost *profile_combine(const region_profile *regions, size_t nregions, double total, size_t *n)
{
    double time = 0;
    for (size_t r = 0; r < nregions; r++) time += regions[r].weight * regions[r].cpi;
    cost_table t = {0};
    for (size_t r = 0; r < nregions && time > 0; r++) {
        uint64_t units = 0;
        for (size_t i = 0; i < regions[r].n; i++) units += cost_total(&regions[r].pcs[i]);
        if (units) cost_accumulate(&t, regions[r].pcs, regions[r].n, total * regions[r].weight * regions[r].cpi / time / (double)units);
    }
    cost *out = cost_sorted(&t, n);
    cost_table_free(&t);
    return out;
}

static double table_total(const cost_table *t)
{
    double s = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].key) s += (double)cost_total(&t->slots[i]);
    return s;
}

double profile_error(const symbolizer *s, enum granularity g, uint16_t mask, const cost *ref, size_t nref, const cost *p,
                     size_t np)
{
    cost_table o = {0}, q = {0};
    for (size_t i = 0; i < nref; i++)
        cost_at(&o, symbolizer_category_key(s, g, ref[i].key, mask))->units[0] += cost_total(&ref[i]);
    for (size_t i = 0; i < np; i++)
        cost_at(&q, symbolizer_category_key(s, g, p[i].key, mask))->units[0] += cost_total(&p[i]);
    double total = table_total(&o), ptotal = table_total(&q);
    double correct = 0;
    if (total > 0 && ptotal > 0) {
        double scale = total / ptotal;
        for (size_t i = 0; i < q.cap; i++) {
            if (!q.slots[i].key) continue;
            double pv = (double)q.slots[i].units[0] * scale;
            double ov = (double)cost_at(&o, q.slots[i].key)->units[0];
            correct += pv < ov ? pv : ov;
        }
    }
    cost_table_free(&o);
    cost_table_free(&q);
    if (total <= 0) return ptotal > 0 ? 1.0 : 0.0;
    double e = 1.0 - correct / total;
    return e < 0 ? 0 : e;
}
