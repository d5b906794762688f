/* One set-associative cache level: true LRU, lines that carry their dirty
 * bit and the cycle their fill completes, and the MSHRs that bound the
 * misses outstanding. A line stays in the way it was put in; each set keeps
 * its ways in order of use (most recent first), so a hit changes a few
 * bytes of order, not the lines, and the victim is the last way in order.
 * A line is named by its position, set * ways + way. What to fill and
 * where to write back is the hierarchy's business (memsys.c). */
#ifndef RV_UARCH_CACHE_H
#define RV_UARCH_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "uarch/busy.h"
#include "uarch/state.h"

/* Tag of an empty way: line addresses are byte addresses shifted right, so
 * none is all ones. Empty ways are always the last in their set's order. */
#define CACHE_NO_LINE UINT64_MAX
/* The position of no way: what a lookup of an absent line returns. */
#define CACHE_ABSENT UINT64_MAX

/* A line's flags, one byte per way, in the warm state's encoding: dirty,
 * prefetched (filled by the prefetcher and not yet used by a demand
 * access), and the enum mem_level its fill came from. */
enum { CACHE_DIRTY = 1, CACHE_PREFETCHED = 2, CACHE_LEVEL_SHIFT = 2 };

/* What a cache knows of a line besides its tag (cache_peek's copy). */
typedef struct cache_state {
    uint64_t ready;       /* cycle the fill completes */
    uint8_t dirty;
    uint8_t fill_level;   /* enum mem_level the fill came from */
    uint8_t prefetched;
} cache_state;

/* A line as it is put in. */
typedef struct cache_line {
    uint64_t tag;         /* line address: byte address >> log2(line size) */
    uint64_t ready;
    uint8_t flags;        /* CACHE_DIRTY | CACHE_PREFETCHED | level << CACHE_LEVEL_SHIFT */
} cache_line;

/* A line as it is evicted: what the level below needs of it. */
typedef struct cache_victim {
    uint64_t tag;         /* CACHE_NO_LINE: the way was empty */
    bool dirty;
} cache_victim;

/* A line's state is apart from its tag, so that a lookup reads a set's
 * tags from one host cache line (or a few), and its order and flags from 8
 * bytes each per 8 ways: warming touches nothing else, and a large level's
 * lookups miss the host caches, once per host line touched (an LLC of 4 MB
 * took 1.5 MB of state with the ready cycle beside the flags, more than a
 * host core's L2). The ready cycles are only read by timing requests;
 * while all are 0 (ready_kept false: no timing request has filled a line
 * since the last cache_clear, cache_quiesce or restore), warming's fills
 * need not write them either. */
typedef struct cache {
    uint64_t *tags;       /* sets x ways; an absent level has none */
    uint8_t *flags;       /* the same positions */
    uint64_t *ready;      /* the same positions; all 0 while !ready_kept */
    uint8_t *order;       /* per set, its ways most recently used first */
    uint64_t set_mask;    /* sets - 1 (sets are a power of two) */
    unsigned ways;
    unsigned latency;     /* hit latency, cycles */
    uint8_t level;        /* enum mem_level of a hit here */
    bool ready_kept;      /* some line may be ready after cycle 0 */
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

/* The cycle the fill of the line at position pos completes. */
static inline uint64_t cache_ready(const cache *c, uint64_t pos) { return c->ready_kept ? c->ready[pos] : 0; }

/* The hot paths below take the ways as an argument, always inlined: each
 * public function calls them with CACHE_FAST_WAYS, the associativity of
 * every level of the bundled configurations, as a constant (the set's
 * order is then one 64-bit word, a byte a way), or with c->ways for any
 * other. They do not branch on where in its set or its order a line is:
 * on a program that misses, that is as good as random, and a mispredicted
 * branch costs more than comparing every way. */
enum { CACHE_FAST_WAYS = 8 };
#define CACHE_HOT __attribute__((always_inline)) static inline
#define CACHE_BYTES(b) ((uint64_t)(b) * 0x0101010101010101ull) /* b in every byte */
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CACHE_SSE2 1 /* 8 ways: the tags compared two at a time */
#else
#define CACHE_SSE2 0
#endif

#if CACHE_SSE2
/* All ones in each 64-bit lane of a that equals b's. */
CACHE_HOT __m128i cache_eq64(__m128i a, __m128i b)
{
    __m128i eq = _mm_cmpeq_epi32(a, b);
    return _mm_and_si128(eq, _mm_shuffle_epi32(eq, _MM_SHUFFLE(2, 3, 0, 1)));
}
#endif

/* The way of the set at `set` that holds tag; `ways` if none does. */
CACHE_HOT unsigned cache_way_of(const cache *c, uint64_t set, uint64_t tag, unsigned ways)
{
    const uint64_t *tags = c->tags + set;
#if CACHE_SSE2
    if (ways == 8) { /* a set is one aligned host line (cache_init) */
        const __m128i *t = (const __m128i *)tags, want = _mm_set1_epi64x((long long)tag);
        __m128i low = _mm_packs_epi32(cache_eq64(t[0], want), cache_eq64(t[1], want));
        __m128i high = _mm_packs_epi32(cache_eq64(t[2], want), cache_eq64(t[3], want));
        unsigned found = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(low, high)); /* two bits a way */
        return found ? (unsigned)__builtin_ctz(found) / 2 : ways;
    }
#endif
    uint64_t found = 0;
    for (unsigned w = 0; w < ways; w++) found |= (uint64_t)(tags[w] == tag) << w;
    return found ? (unsigned)__builtin_ctzll(found) : ways;
}

/* The set at `set` has used way w, at `place` in its order, last: w moves
 * to the front, the ways before it one place back. */
CACHE_HOT void cache_use_at(cache *c, uint64_t set, unsigned w, unsigned place, unsigned ways)
{
    uint8_t *order = c->order + set;
    if (ways == 8 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) { /* a place a byte, the first the lowest */
        uint64_t o, moved = ((uint64_t)2 << (8 * place + 7)) - 1; /* places 0 to place */
        memcpy(&o, order, sizeof o);
        o = (o & ~moved) | ((o << 8) & moved) | w;
        memcpy(order, &o, sizeof o);
        return;
    }
    for (; place > 0; place--) order[place] = order[place - 1];
    order[0] = (uint8_t)w;
}

/* The same, w's place found in the order first. */
CACHE_HOT void cache_use(cache *c, uint64_t set, unsigned w, unsigned ways)
{
    const uint8_t *order = c->order + set;
    unsigned place = 0;
    if (ways == 8 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
        uint64_t o, x;
        memcpy(&o, order, sizeof o);
        x = o ^ CACHE_BYTES(w); /* a zero byte at w's place (the lowest zero byte is found exactly) */
        place = (unsigned)__builtin_ctzll((x - CACHE_BYTES(1)) & ~x & CACHE_BYTES(0x80)) / 8;
    } else {
        while (order[place] != w) place++;
    }
    cache_use_at(c, set, w, place, ways);
}

/* The way of the set at `set` used least recently: the victim. */
CACHE_HOT unsigned cache_lru_way(const cache *c, uint64_t set, unsigned ways) { return c->order[set + ways - 1]; }

/* The same lookup, every way compared at once rather than the most recent
 * first: for a level below the L1s, whose set is rarely in the host's
 * caches, the tags' load then need not wait for the order's (the two
 * misses overlap). The same result and state as cache_lookup (below). */
CACHE_HOT uint64_t cache_lookup_wide_in(cache *c, uint64_t tag, unsigned ways)
{
    uint64_t set = (tag & c->set_mask) * ways;
    unsigned w = cache_way_of(c, set, tag, ways);
    if (w == ways)
        return CACHE_ABSENT;
    cache_use(c, set, w, ways); /* the most recent already: its order stays */
    return set + w;
}

/* The most recently used way first (mostly the one), then every way. */
CACHE_HOT uint64_t cache_lookup_in(cache *c, uint64_t tag, unsigned ways)
{
    uint64_t set = (tag & c->set_mask) * ways;
    unsigned mru = c->order[set];
    if (c->tags[set + mru] == tag)
        return set + mru;
    return cache_lookup_wide_in(c, tag, ways);
}

/* The position of the line holding tag, made the most recently used;
 * CACHE_ABSENT on a miss. */
CACHE_HOT uint64_t cache_lookup(cache *c, uint64_t tag)
{
    return c->ways == CACHE_FAST_WAYS ? cache_lookup_in(c, tag, CACHE_FAST_WAYS) : cache_lookup_in(c, tag, c->ways);
}

CACHE_HOT uint64_t cache_lookup_wide(cache *c, uint64_t tag)
{
    return c->ways == CACHE_FAST_WAYS ? cache_lookup_wide_in(c, tag, CACHE_FAST_WAYS)
                                      : cache_lookup_wide_in(c, tag, c->ways);
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
    __builtin_prefetch(c->order + first);
    __builtin_prefetch(c->flags + first);
}

/* The same for what a lookup of tag reads alone: the set's tags and order. */
__attribute__((always_inline)) static inline void cache_prefetch_lookup(const cache *c, uint64_t tag)
{
    uint64_t first = cache_set(c, tag);
    __builtin_prefetch(c->tags + first);
    __builtin_prefetch(c->tags + first + c->ways - 1);
    __builtin_prefetch(c->order + first);
}

/* The position of the line holding tag if it is the most recently used of
 * its set, where a lookup finds it without reordering; else CACHE_ABSENT. */
static inline uint64_t cache_mru(const cache *c, uint64_t tag)
{
    uint64_t set = cache_set(c, tag), pos = set + c->order[set];
    return c->tags[pos] == tag ? pos : CACHE_ABSENT;
}

/* The position of the line holding tag without touching the LRU order
 * (write-backs and prefetch probes are not uses); CACHE_ABSENT if absent.
 * Inline, as the lookup: warming a program that misses the L1 on most
 * accesses spends much of its time in a miss's probe and insert. */
CACHE_HOT uint64_t cache_find_in(const cache *c, uint64_t tag, unsigned ways)
{
    uint64_t set = (tag & c->set_mask) * ways;
    unsigned w = cache_way_of(c, set, tag, ways);
    return w < ways ? set + w : CACHE_ABSENT;
}
CACHE_HOT uint64_t cache_find(const cache *c, uint64_t tag)
{
    return c->ways == CACHE_FAST_WAYS ? cache_find_in(c, tag, CACHE_FAST_WAYS) : cache_find_in(c, tag, c->ways);
}

/* For a reader outside the hierarchy (the core's probes): a copy of the
 * state of the line holding tag, the LRU order untouched; NULL if absent.
 * The copy is good until this thread's next cache_peek. */
const cache_state *cache_peek(const cache *c, uint64_t tag);

/* Put line (not present yet) in its set as the most recently used, in the
 * way of the least recently used: returns the line evicted (tag
 * CACHE_NO_LINE if the way was empty). */
CACHE_HOT cache_victim cache_insert_in(cache *c, const cache_line *line, unsigned ways)
{
    uint64_t set = (line->tag & c->set_mask) * ways;
    unsigned w = cache_lru_way(c, set, ways);
    uint64_t pos = set + w;
    cache_victim victim = {c->tags[pos], c->flags[pos] & CACHE_DIRTY};
    c->tags[pos] = line->tag;
    c->flags[pos] = line->flags;
    if (line->ready) c->ready_kept = true; /* the ready cycles so far are all 0 */
    if (c->ready_kept) c->ready[pos] = line->ready;
    cache_use_at(c, set, w, ways - 1, ways);
    return victim;
}
CACHE_HOT cache_victim cache_insert(cache *c, const cache_line *line)
{
    return c->ways == CACHE_FAST_WAYS ? cache_insert_in(c, line, CACHE_FAST_WAYS) : cache_insert_in(c, line, c->ways);
}

/* Forget fill times and reservations: every line ready, every MSHR idle. */
void cache_quiesce(cache *c);
/* Empty every way (and quiesce). */
void cache_clear(cache *c);

/* Warm state: the geometry (sets, ways), then the lines, each set's in LRU
 * order (most recent first), with dirty bits, prefetch marks and fill
 * levels. */
void cache_save_geometry(const cache *c, ustate *s);
void cache_expect_geometry(const cache *c, ustate *s);   /* marks s bad on a mismatch */
void cache_save_lines(const cache *c, ustate *s);
/* false (s marked bad) on a truncated or inconsistent state; restored lines
 * are ready at cycle 0. */
bool cache_restore_lines(cache *c, ustate *s);

#endif
