/* One set-associative cache level: true LRU (each set is kept in
 * most-recently-used-first order, so the common hit is the first way
 * compared and the victim is always the last way), lines that carry their
 * dirty bit and the cycle their fill completes, and the MSHRs that bound the
 * misses outstanding. What to fill and where to write back is the
 * hierarchy's business (memsys.c). */
#ifndef RV_UARCH_CACHE_H
#define RV_UARCH_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "uarch/busy.h"
#include "uarch/state.h"

/* Tag of an empty way: line addresses are byte addresses shifted right, so
 * none is all ones. Empty ways always follow the valid ones in a set. */
#define CACHE_NO_LINE UINT64_MAX

/* What a cache knows of a line besides its tag. */
typedef struct cache_state {
    uint64_t ready;       /* cycle the fill completes */
    uint8_t dirty;
    uint8_t fill_level;   /* enum mem_level the fill came from */
    uint8_t prefetched;   /* filled by the prefetcher and not yet used by a demand access */
} cache_state;

/* A line as it is put in or evicted. */
typedef struct cache_line {
    uint64_t tag;         /* line address: byte address >> log2(line size) */
    uint64_t ready;
    uint8_t dirty;
    uint8_t fill_level;
    uint8_t prefetched;
} cache_line;

/* The tags apart from the rest, so that a lookup reads a set's tags from
 * one or two host cache lines. */
typedef struct cache {
    uint64_t *tags;       /* sets x ways; an absent level has none */
    cache_state *states;  /* the same positions */
    uint64_t set_mask;    /* sets - 1 (sets are a power of two) */
    unsigned ways;
    unsigned latency;     /* hit latency, cycles */
    uint8_t level;        /* enum mem_level of a hit here */
    busy_pool mshrs;
} cache;

/* name: for the error if the geometry is impossible. */
void cache_init(cache *c, const char *name, uint64_t bytes, unsigned ways, unsigned line_bytes,
                unsigned latency, unsigned mshrs, uint8_t level);
void cache_free(cache *c);

/* The position of tag's set's first way. */
static inline uint64_t cache_set(const cache *c, uint64_t tag)
{
    return (tag & c->set_mask) * c->ways;
}

/* Move the first n ways of the set at `set` one way down, freeing way 0
 * (a few ways: cheaper than memmove calls). */
static inline void cache_shift_ways(cache *c, uint64_t set, unsigned n)
{
    uint64_t *tags = c->tags + set;
    cache_state *states = c->states + set;
    for (; n > 0; n--) {
        tags[n] = tags[n - 1];
        states[n] = states[n - 1];
    }
}

/* The state of the line holding tag, made most recently used; NULL on a
 * miss. The pointer is good until the next lookup or insert in the same
 * cache. */
static inline cache_state *cache_lookup(cache *c, uint64_t tag)
{
    uint64_t set = cache_set(c, tag);
    const uint64_t *tags = c->tags + set;
    if (tags[0] == tag)
        return c->states + set;
    for (unsigned w = 1; w < c->ways; w++)
        if (tags[w] == tag) {
            cache_state hit = c->states[set + w];
            cache_shift_ways(c, set, w);
            c->tags[set] = tag;
            c->states[set] = hit;
            return c->states + set;
        }
    return NULL;
}

/* Ask the host to bring tag's set into its caches: the lookup of a tag
 * known ahead need not wait for a large level's set to come from memory.
 * Always inlined: GCC takes a function of prefetches alone for a pure one
 * and drops the calls. */
__attribute__((always_inline)) static inline void cache_prefetch_set(const cache *c, uint64_t tag)
{
    uint64_t first = cache_set(c, tag), last = first + c->ways - 1;
    __builtin_prefetch(c->tags + first);
    __builtin_prefetch(c->tags + last);
    __builtin_prefetch(c->states + first);
    __builtin_prefetch(c->states + last);
}

/* The state of the line holding tag if it is the most recently used of
 * its set, where a lookup finds it without reordering; else NULL. */
static inline const cache_state *cache_mru(const cache *c, uint64_t tag)
{
    uint64_t set = cache_set(c, tag);
    return c->tags[set] == tag ? c->states + set : NULL;
}

/* The state of the line holding tag without touching the LRU order
 * (write-backs and prefetch probes are not uses); NULL if absent. Inline,
 * as the lookup: warming a program that misses the L1 on most accesses
 * spends much of its time in a miss's probe and insert. */
static inline cache_state *cache_peek(const cache *c, uint64_t tag)
{
    uint64_t set = cache_set(c, tag);
    for (unsigned w = 0; w < c->ways; w++)
        if (c->tags[set + w] == tag)
            return &c->states[set + w];
    return NULL;
}

/* Put line (not present yet) in its set as the most recently used, evicting
 * the least recently used: returns the evicted line (tag CACHE_NO_LINE if the
 * way was empty). */
static inline cache_line cache_insert(cache *c, const cache_line *line)
{
    uint64_t set = cache_set(c, line->tag), last = set + c->ways - 1;
    const cache_state *v = &c->states[last];
    cache_line victim = {c->tags[last], v->ready, v->dirty, v->fill_level, v->prefetched};
    cache_shift_ways(c, set, c->ways - 1);
    c->tags[set] = line->tag;
    c->states[set] = (cache_state){line->ready, line->dirty, line->fill_level, line->prefetched};
    return victim;
}

/* Forget fill times and reservations: every line ready, every MSHR idle. */
void cache_quiesce(cache *c);
/* Empty every way (and quiesce). */
void cache_clear(cache *c);

/* Warm state: the geometry (sets, ways), then the lines, in LRU order, with
 * dirty bits, prefetch marks and fill levels. */
void cache_save_geometry(const cache *c, ustate *s);
void cache_expect_geometry(const cache *c, ustate *s);   /* marks s bad on a mismatch */
void cache_save_lines(const cache *c, ustate *s);
/* false (s marked bad) on a truncated or inconsistent state; restored lines
 * are ready at cycle 0. */
bool cache_restore_lines(cache *c, ustate *s);

#endif
