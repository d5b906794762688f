#include "uarch/cache.h"

#include <stdlib.h>

#include "uarch/memsys.h"
#include "util.h"

enum { HOST_LINE = 64 };

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void cache_init(cache *c, const char *name, uint64_t bytes, unsigned ways, unsigned line_bytes,
                unsigned latency, unsigned mshrs, uint8_t level)
{
    uint64_t set_bytes = (uint64_t)ways * line_bytes;
    uint64_t sets = set_bytes ? bytes / set_bytes : 0;
    if (!sets || sets * set_bytes != bytes || (sets & (sets - 1)))
        die("%s: %llu bytes in %u ways of %u-byte lines is not a power-of-two number of sets", name,
            (unsigned long long)bytes, ways, line_bytes);
    *c = (cache){.set_mask = sets - 1, .ways = ways, .latency = latency, .level = level};
    /* on host cache lines, so that a set spans as few as it can: a large
     * level's lookups miss the host caches, once per line touched */
    c->tags = aligned_alloc(HOST_LINE, round_up(sets * ways * sizeof *c->tags, HOST_LINE));
    c->flags = aligned_alloc(HOST_LINE, round_up(sets * ways * sizeof *c->flags, HOST_LINE));
    c->ready = aligned_alloc(HOST_LINE, round_up(sets * ways * sizeof *c->ready, HOST_LINE));
    c->order = aligned_alloc(HOST_LINE, round_up(sets * ways * sizeof *c->order, HOST_LINE));
    if (!c->tags || !c->flags || !c->ready || !c->order) die("out of memory for the %s", name);
    busy_pool_init(&c->mshrs, mshrs);
    cache_clear(c);
}

void cache_free(cache *c)
{
    free(c->tags);
    free(c->flags);
    free(c->ready);
    free(c->order);
    busy_pool_free(&c->mshrs);
}

static uint64_t cache_nlines(const cache *c) { return c->tags ? (c->set_mask + 1) * c->ways : 0; }

void cache_quiesce(cache *c)
{
    if (c->ready_kept)
        for (uint64_t i = 0; i < cache_nlines(c); i++)
            c->ready[i] = 0;
    c->ready_kept = false;
    busy_pool_clear(&c->mshrs);
}

/* Every set's order: its ways in turn (after a restore, the order they were saved in). */
static void cache_order_ways(cache *c)
{
    for (uint64_t i = 0; i < cache_nlines(c); i++) c->order[i] = (uint8_t)(i % c->ways);
}

void cache_clear(cache *c)
{
    for (uint64_t i = 0; i < cache_nlines(c); i++) {
        c->tags[i] = CACHE_NO_LINE;
        c->flags[i] = 0;
        c->ready[i] = 0;
    }
    cache_order_ways(c);
    c->ready_kept = false;
    busy_pool_clear(&c->mshrs);
}

const cache_state *cache_peek(const cache *c, uint64_t tag)
{
    static _Thread_local cache_state copy;
    uint64_t pos = cache_find(c, tag);
    if (pos == CACHE_ABSENT) return NULL;
    uint8_t flags = c->flags[pos];
    copy = (cache_state){.ready = cache_ready(c, pos),
                         .dirty = flags & CACHE_DIRTY,
                         .fill_level = flags >> CACHE_LEVEL_SHIFT,
                         .prefetched = !!(flags & CACHE_PREFETCHED)};
    return &copy;
}

void cache_save_geometry(const cache *c, ustate *s)
{
    ustate_put_u64(s, c->tags ? c->set_mask + 1 : 0);
    ustate_put_u64(s, c->ways);
}

void cache_expect_geometry(const cache *c, ustate *s)
{
    ustate_expect_u64(s, c->tags ? c->set_mask + 1 : 0);
    ustate_expect_u64(s, c->ways);
}

/* A line is its tag and its flags byte (cache.h's encoding); each set's
 * lines in its order. */
void cache_save_lines(const cache *c, ustate *s)
{
    for (uint64_t i = 0; i < cache_nlines(c); i++) {
        uint64_t pos = i - i % c->ways + c->order[i];
        ustate_put_u64(s, c->tags[pos]);
        ustate_put(s, &c->flags[pos], 1);
    }
}

bool cache_restore_lines(cache *c, ustate *s)
{
    cache_quiesce(c); /* every line ready at cycle 0 */
    for (uint64_t i = 0; i < cache_nlines(c) && !s->bad; i++) {
        uint64_t tag = ustate_get_u64(s), set = i / c->ways;
        uint8_t flags;
        ustate_get(s, &flags, 1);
        bool empty = tag == CACHE_NO_LINE;
        /* a line in the wrong set or twice in its set, a valid line after an
         * empty way or a level that does not exist would break lookups and
         * replacement */
        bool follows_empty = i % c->ways && c->tags[i - 1] == CACHE_NO_LINE, twice = false;
        for (uint64_t j = i - i % c->ways; j < i && !empty; j++) twice |= c->tags[j] == tag;
        if ((!empty && ((tag & c->set_mask) != set || follows_empty || twice)) ||
            (flags >> CACHE_LEVEL_SHIFT) >= MEM_LEVELS)
            s->bad = true;
        c->tags[i] = tag;
        c->flags[i] = flags;
    }
    cache_order_ways(c);
    return !s->bad;
}
