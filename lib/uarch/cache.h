/* One set-associative cache level: true LRU (each set is kept in
 * most-recently-used-first order, so the common hit is the first way
 * compared and the victim is always the last way), lines that carry their
 * dirty bit and the cycle their fill completes, and the MSHRs that bound the
 * misses outstanding. A line is named by its position, set * ways + way.
 * What to fill and where to write back is the hierarchy's business
 * (memsys.c). */
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
 * none is all ones. Empty ways always follow the valid ones in a set. */
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
 * tags from one host cache line (or a few), and its flags from 8 bytes per
 * 8 ways: warming touches nothing else, and a large level's lookups miss
 * the host caches, once per host line touched (an LLC of 4 MB took 1.5 MB
 * of state with the ready cycle beside the flags, more than a host core's
 * L2). The ready cycles are only read by timing requests; while all are 0
 * (ready_kept false: no timing request has filled a line since the last
 * cache_clear, cache_quiesce or restore), they need not move with their
 * lines either. */
typedef struct cache {
    uint64_t *tags;       /* sets x ways, each set most recently used first; an absent level has none */
    uint8_t *flags;       /* the same positions */
    uint64_t *ready;      /* the same positions; all 0 while !ready_kept */
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
 * every level of the bundled configurations, as a constant the compiler
 * unrolls by (and a set as a shift), or with c->ways for any other. They
 * do not branch on where in its set a line is, or whether it is there
 * (but for the one answer the caller needs): on a program that misses,
 * that is as good as random, and a mispredicted branch costs more than
 * comparing or moving every way. */
enum { CACHE_FAST_WAYS = 8 };
#define CACHE_HOT __attribute__((always_inline)) static inline
#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CACHE_SSE2 1 /* 8 ways: the tags compared two at a time, the flags moved as one 64-bit word */
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

/* The first way of the set at `set` that holds tag; `ways` if none does. */
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

/* Way n's line to the front of the set at `set`, ways 0 to n - 1 one way
 * down: a hit's reordering, and (n = ways - 1) an insert's, which then
 * writes way 0. */
CACHE_HOT void cache_rotate(cache *c, uint64_t set, unsigned n, unsigned ways)
{
    uint64_t *tags = c->tags + set, tag = tags[n];
    uint8_t *flags = c->flags + set;
#if CACHE_SSE2
    /* an insert's (n known when compiling: a lookup's is not worth a
     * branch): every way, as 16-byte moves */
    if (ways == 8 && __builtin_constant_p(n) && n == 7) {
        __m128i *t = (__m128i *)tags, t01 = t[0], t23 = t[1], t45 = t[2], t67 = t[3];
        _mm_storeu_si128((__m128i *)(tags + 1), t01);
        _mm_storeu_si128((__m128i *)(tags + 3), t23);
        _mm_storeu_si128((__m128i *)(tags + 5), t45);
        _mm_storel_epi64((__m128i *)(tags + 7), t67);
    } else
#endif
    {
        for (unsigned w = ways - 1; w > 0; w--) tags[w] = tags[w - (w <= n)]; /* each read before its way is written */
    }
    tags[0] = tag;
#if CACHE_SSE2
    if (ways == 8) {
        uint64_t f, moved = ((uint64_t)2 << (8 * n + 7)) - 1; /* bytes 0 to n */
        memcpy(&f, flags, sizeof f);
        f = (f & ~moved) | ((f << 8) & moved) | ((f >> 8 * n) & 0xff);
        memcpy(flags, &f, sizeof f);
    } else
#endif
    {
        uint8_t flag = flags[n];
        for (unsigned w = n; w > 0; w--) flags[w] = flags[w - 1];
        flags[0] = flag;
    }
    if (c->ready_kept) {
        uint64_t *ready = c->ready + set, r = ready[n];
        for (unsigned w = n; w > 0; w--) ready[w] = ready[w - 1];
        ready[0] = r;
    }
}

CACHE_HOT uint64_t cache_lookup_in(cache *c, uint64_t tag, unsigned ways)
{
    uint64_t set = (tag & c->set_mask) * ways;
    if (c->tags[set] == tag)
        return set;
    unsigned w = cache_way_of(c, set, tag, ways);
    if (w == ways)
        return CACHE_ABSENT;
    cache_rotate(c, set, w, ways);
    return set;
}

/* The position of the line holding tag, made the most recently used (the
 * first way of its set); CACHE_ABSENT on a miss. */
CACHE_HOT uint64_t cache_lookup(cache *c, uint64_t tag)
{
    return c->ways == CACHE_FAST_WAYS ? cache_lookup_in(c, tag, CACHE_FAST_WAYS) : cache_lookup_in(c, tag, c->ways);
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
    __builtin_prefetch(c->flags + first);
}

/* The position of the line holding tag if it is the most recently used of
 * its set, where a lookup finds it without reordering; else CACHE_ABSENT. */
static inline uint64_t cache_mru(const cache *c, uint64_t tag)
{
    uint64_t set = cache_set(c, tag);
    return c->tags[set] == tag ? set : CACHE_ABSENT;
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

/* Put line (not present yet) in its set as the most recently used, evicting
 * the least recently used: returns the evicted line (tag CACHE_NO_LINE if the
 * way was empty). */
CACHE_HOT cache_victim cache_insert_in(cache *c, const cache_line *line, unsigned ways)
{
    uint64_t set = (line->tag & c->set_mask) * ways, last = set + ways - 1;
    cache_victim victim = {c->tags[last], c->flags[last] & CACHE_DIRTY};
    if (line->ready) c->ready_kept = true; /* the ready cycles so far are all 0: they need no moving */
    cache_rotate(c, set, ways - 1, ways);
    c->tags[set] = line->tag;
    c->flags[set] = line->flags;
    if (c->ready_kept) c->ready[set] = line->ready;
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

/* Warm state: the geometry (sets, ways), then the lines, in LRU order, with
 * dirty bits, prefetch marks and fill levels. */
void cache_save_geometry(const cache *c, ustate *s);
void cache_expect_geometry(const cache *c, ustate *s);   /* marks s bad on a mismatch */
void cache_save_lines(const cache *c, ustate *s);
/* false (s marked bad) on a truncated or inconsistent state; restored lines
 * are ready at cycle 0. */
bool cache_restore_lines(cache *c, ustate *s);

#endif
