#include "pair_map.h"

#include <stdlib.h>

#include "util.h"

static size_t slot_of(const pair_map *m, uint64_t a, uint64_t b)
{
    uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
    return (size_t)(h ^ (h >> 29)) & (m->cap - 1);
}

uint32_t pair_find(const pair_map *m, uint64_t a, uint64_t b)
{
    if (!m->cap) return PAIR_NONE;
    for (size_t i = slot_of(m, a, b);; i = (i + 1) & (m->cap - 1)) {
        const pair_slot *s = &m->slots[i];
        if (s->value == PAIR_NONE) return PAIR_NONE;
        if (s->a == a && s->b == b) return s->value;
    }
}

static void place(pair_map *m, pair_slot s)
{
    size_t i = slot_of(m, s.a, s.b);
    while (m->slots[i].value != PAIR_NONE) i = (i + 1) & (m->cap - 1);
    m->slots[i] = s;
}

static void grow(pair_map *m)
{
    pair_map old = *m;
    m->cap = old.cap ? 2 * old.cap : 1024;
    if (!(m->slots = malloc(m->cap * sizeof *m->slots))) die("out of memory");
    for (size_t i = 0; i < m->cap; i++) m->slots[i].value = PAIR_NONE;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].value != PAIR_NONE) place(m, old.slots[i]);
    free(old.slots);
}

void pair_insert(pair_map *m, uint64_t a, uint64_t b, uint32_t value)
{
    if (2 * (m->n + 1) > m->cap) grow(m);
    place(m, (pair_slot){a, b, value});
    m->n++;
}

void pair_map_free(pair_map *m)
{
    free(m->slots);
    *m = (pair_map){0};
}
