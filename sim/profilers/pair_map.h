/* A map from a pair of 64-bit keys to an index (open addressing, doubling):
 * the calling-context tree's children and charges (callstack.c). */
#ifndef SIM_PAIR_MAP_H
#define SIM_PAIR_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct pair_slot {
    uint64_t a, b;
    uint32_t value; /* PAIR_NONE: empty */
} pair_slot;

enum { PAIR_NONE = UINT32_MAX };

typedef struct pair_map {
    pair_slot *slots;
    size_t cap, n;
} pair_map;

/* The value of (a, b), or PAIR_NONE. */
uint32_t pair_find(const pair_map *m, uint64_t a, uint64_t b);
/* Set (a, b) -> value (absent until now). */
void pair_insert(pair_map *m, uint64_t a, uint64_t b, uint32_t value);
void pair_map_free(pair_map *m);

#endif
