/* Profiles: tables from a key (a pc, a block's entry pc, a function's
 * address) to time in exact fixed-point units, split by commit state. The
 * golden attribution of the detailed core and every sampled profiler produce
 * them; one roll-up maps pcs to blocks and functions, one error function
 * compares two profiles (notes/tip.md §4), one function combines the
 * profiles of sampled regions into a whole-program profile. */
#ifndef RV_PROFILE_H
#define RV_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols.h"

/* The commit states of notes/tip.md §1, in this order everywhere. */
enum commit_state { ST_COMPUTING, ST_STALLED, ST_FLUSHED, ST_DRAINED, ST_COUNT };
extern const char *const commit_state_names[ST_COUNT];

/* A key is a pc (or a block's entry pc, a function's address), optionally
 * with a 16-bit category above bit 48: TEA's (pc, PSV) pairs. */
static inline uint64_t pics_key(uint64_t pc, uint16_t category) { return pc | (uint64_t)category << 48; }
static inline uint64_t pics_pc(uint64_t key) { return key & ((1ull << 48) - 1); }
static inline uint16_t pics_category(uint64_t key) { return (uint16_t)(key >> 48); }

typedef struct cost {
    uint64_t key;             /* pc, or the block's entry pc, or the function's address (and a category) */
    uint64_t commits;         /* dynamic instructions (sampled profiles: samples) */
    uint64_t units[ST_COUNT]; /* attributed time, 1/U cycle */
    uint64_t execs;           /* blocks: executions */
    uint32_t bits;            /* pcs: the instruction's encoding, for disassembly */
} cost;

enum { COST_RECENT = 1024 };

typedef struct cost_table {
    cost *slots;
    size_t cap, n;
    /* By the key's low bits, the slot a recent look-up found: the detailed
     * core looks its pcs up several times per commit. A hint only, checked
     * against the slot's key (keys are unique). */
    uint32_t *recent;
} cost_table;

/* cost_at's look-up, without the hint. */
cost *cost_find(cost_table *t, uint64_t key);
/* The entry for key (non-zero), created empty when new. */
static inline cost *cost_at(cost_table *t, uint64_t key)
{
    if (t->recent) {
        cost *c = &t->slots[t->recent[(key >> 1) & (COST_RECENT - 1)]];
        if (c->key == key) return c;
    }
    return cost_find(t, key);
}
void cost_table_free(cost_table *t);
/* Entries in a new array sorted by total units, descending; *n set. */
cost *cost_sorted(const cost_table *t, size_t *n);
uint64_t cost_total(const cost *c);
/* Add every entry of src (sorted array) into t, each unit count scaled by
 * num/den (rounded to nearest). */
void cost_accumulate(cost_table *t, const cost *src, size_t n, double scale);

/* lcm(1..w). */
uint32_t units_per_cycle(unsigned commit_width);

/* Granularities of the error metric. */
enum granularity { GRAN_INSTRUCTION, GRAN_BLOCK, GRAN_FUNCTION, GRAN_APPLICATION, GRAN_COUNT };
extern const char *const granularity_names[GRAN_COUNT];

/* Maps a pc to the key of its block and of its function. Blocks are the
 * static partition of code at every block entry the golden profile saw (the
 * leaders of bbv's blocks): a pc belongs to the nearest leader at or below
 * it in the same function. Functions come from the ELF symbol table; code
 * outside every symbol is one "[unknown]" function (key 1). */
typedef struct symbolizer {
    const rv_symtab *syms;
    uint64_t *leaders;        /* sorted */
    size_t nleaders;
} symbolizer;

void symbolizer_init(symbolizer *s, const rv_symtab *syms, const cost *blocks, size_t nblocks);
void symbolizer_free(symbolizer *s);
uint64_t symbolizer_key(const symbolizer *s, enum granularity g, uint64_t pc);
/* The key of (unit of pc at granularity g, category & mask). */
uint64_t symbolizer_category_key(const symbolizer *s, enum granularity g, uint64_t key, uint16_t mask);
/* A pc profile rolled up to granularity g (categories dropped): a new
 * sorted array, *n set. */
cost *profile_rollup(const symbolizer *s, enum granularity g, const cost *pcs, size_t npcs, size_t *n);

/* The profile error of notes/tip.md §4 (and notes/tea.md §3 for cycle
 * stacks) at granularity g: E = 1 - sum_s min(P(s), O(s)) / T over symbols
 * s = (unit, category & mask), with the profile P scaled to the reference's
 * total T. 0 for identical profiles, 1 for disjoint ones; 1 when P is empty
 * and T is not. mask 0 compares plain time profiles. */
double profile_error(const symbolizer *s, enum granularity g, uint16_t mask, const cost *ref, size_t nref, const cost *p,
                     size_t np);

/* One region's profile for the whole-program combination. */
typedef struct region_profile {
    const cost *pcs;
    size_t n;
    double weight;             /* the cluster's share of the instructions */
    double cpi;                /* the region's */
} region_profile;

/* The whole-program profile from sampled regions: each region stands for
 * its cluster's share of *time*, weight x CPI (not weight alone): its
 * profile, normalised to its own total, is scaled by w_r CPI_r / sum w CPI,
 * and the result expressed in `total` units. A new sorted array, *n set. */
cost *profile_combine(const region_profile *regions, size_t nregions, double total, size_t *n);

#endif
