#include "account.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *const stack_key_names[STK_COUNT] = {
#define K(id, name, state) #name,
    STACK_KEYS(K)
#undef K
};

const uint8_t stack_key_state[STK_COUNT] = {
#define K(id, name, state) state,
    STACK_KEYS(K)
#undef K
};

const char *const commit_state_names[ST_COUNT] = {"computing", "stalled", "flushed", "drained"};

const char *const event_key_names[EV_COUNT] = {
#define E(id, name) #name,
    EVENT_KEYS(E)
#undef E
};

void counters_sub(counters *out, const counters *a, const counters *b)
{
    out->instructions = a->instructions - b->instructions;
    out->cycles = a->cycles - b->cycles;
    for (int i = 0; i < STK_COUNT; i++) out->stack[i] = a->stack[i] - b->stack[i];
    for (int i = 0; i < EV_COUNT; i++) out->events[i] = a->events[i] - b->events[i];
}

void counters_add(counters *acc, const counters *x)
{
    acc->instructions += x->instructions;
    acc->cycles += x->cycles;
    for (int i = 0; i < STK_COUNT; i++) acc->stack[i] += x->stack[i];
    for (int i = 0; i < EV_COUNT; i++) acc->events[i] += x->events[i];
}

uint64_t counters_stack_sum(const counters *c)
{
    uint64_t s = 0;
    for (int i = 0; i < STK_COUNT; i++) s += c->stack[i];
    return s;
}

static size_t hash_key(uint64_t key, size_t cap)
{
    return (size_t)((key >> 1) * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static void cost_grow(cost_table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 1024;
    cost *slots = calloc(cap, sizeof *slots);
    if (!slots) die("out of memory for the cycle attribution table");
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].key) continue;
        size_t h = hash_key(t->slots[i].key, cap);
        while (slots[h].key) h = (h + 1) & (cap - 1);
        slots[h] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots, t->cap = cap;
}

/* Open addressing on non-zero keys (guest code never sits at address 0). */
cost *cost_at(cost_table *t, uint64_t key)
{
    if ((t->n + 1) * 4 > t->cap * 3) cost_grow(t);
    size_t h = hash_key(key, t->cap);
    while (t->slots[h].key && t->slots[h].key != key) h = (h + 1) & (t->cap - 1);
    if (!t->slots[h].key) {
        t->slots[h].key = key;
        t->n++;
    }
    return &t->slots[h];
}

void cost_table_free(cost_table *t)
{
    free(t->slots);
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
    qsort(out, k, sizeof *out, by_total_desc);
    *n = k;
    return out;
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
