/* The hierarchy: L1I and L1D over an optional L2 and an optional LLC over
 * DRAM. Fills are inclusive (a line read from below is placed in every level
 * it passes), evictions are not (a level evicting a line leaves the levels
 * above alone), and a dirty victim is written into the level below it,
 * allocating there if it is absent, down to DRAM. */
#include "uarch/memsys.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "uarch/cache.h"
#include "uarch/dram.h"
#include "uarch/stream_store.h"
#include "util.h"

enum { L1I, L1D, L2, LLC, NCACHES };

/* A cache and its place in the hierarchy. */
typedef struct level {
    cache c;                /* no ways: the level is absent */
    struct level *next;     /* the level below; NULL: DRAM */
    uint64_t *accesses;     /* requests from the level above (L2, LLC; the L1s count by kind) */
    uint64_t *misses;
    bool ideal;             /* a limit study: every timed access hits, the contents stay as they are */
} level;

/* The counts the levels below the L1s keep, apart from the L1s' (and on a
 * host cache line of their own) for deferred warming's thread; added to
 * memsys_stats when it is read. */
typedef struct below_counts {
    uint64_t l2_accesses, l2_misses, llc_accesses, llc_misses, dram_reads, dram_writes;
    bool deep; /* most reads of warm_below's last batch missed the first level below the L1s */
} below_counts;

struct memsys {
    level lv[NCACHES];
    dram dram;
    unsigned line_shift;
    bool prefetch_next_line;
    memsys_log *defer;      /* deferred warming's log; NULL: none */
    memsys_stats stats;     /* all but below's, which are added to it when read */
    alignas(64) below_counts below;
};

static unsigned log2_exact(unsigned x, const char *what)
{
    if (!x || (x & (x - 1)))
        die("%s (%u) is not a power of two", what, x);
    return (unsigned)__builtin_ctz(x);
}

memsys *memsys_new(const uarch_config *c)
{
    memsys *m = aligned_alloc(alignof(memsys), sizeof *m); /* a multiple of its alignment */
    if (!m) die("out of memory");
    memset(m, 0, sizeof *m);
    m->line_shift = log2_exact((unsigned)c->line_bytes, "cache line size");
    m->prefetch_next_line = c->prefetch_next_line;
    const struct {
        const char *name;
        int kib, ways, latency, mshrs;
        uint8_t mem_level;
        uint64_t *accesses, *misses;
    } geo[NCACHES] = {
        [L1I] = {"L1 I-cache", c->l1i_kib, c->l1i_ways, c->l1i_latency, c->l1i_mshrs, MEM_L1, NULL,
                 &m->stats.l1i_misses},
        [L1D] = {"L1 D-cache", c->l1d_kib, c->l1d_ways, c->l1d_latency, c->l1d_mshrs, MEM_L1, NULL,
                 &m->stats.l1d_misses},
        [L2] = {"L2 cache", c->l2_kib, c->l2_ways, c->l2_latency, c->l2_mshrs, MEM_L2, &m->below.l2_accesses,
                &m->below.l2_misses},
        [LLC] = {"LLC", c->llc_kib, c->llc_ways, c->llc_latency, c->llc_mshrs, MEM_LLC, &m->below.llc_accesses,
                 &m->below.llc_misses},
    };
    level *below = NULL;   /* wire from the bottom up, skipping absent levels */
    for (int i = NCACHES - 1; i >= 0; i--) {
        level *lv = &m->lv[i];
        lv->accesses = geo[i].accesses;
        lv->misses = geo[i].misses;
        lv->next = below;
        if (geo[i].kib || i < L2)   /* the L1s are never absent: cache_init refuses 0 bytes */
            cache_init(&lv->c, geo[i].name, (uint64_t)geo[i].kib << 10, (unsigned)geo[i].ways,
                       (unsigned)c->line_bytes, (unsigned)geo[i].latency, (unsigned)geo[i].mshrs,
                       geo[i].mem_level);
        if (geo[i].kib && i >= L2)
            below = lv;
    }
    dram_init(&m->dram, c);
    m->lv[L1I].ideal = c->ideal_l1i;
    m->lv[L1D].ideal = c->ideal_l1d;
    return m;
}

void memsys_free(memsys *m)
{
    if (!m) return;
    for (int i = 0; i < NCACHES; i++)
        cache_free(&m->lv[i].c);
    dram_free(&m->dram);
    free(m);
}

/* ------------------------------------------------------------ the model
 * Timing requests (the core's) and warming requests make the same state
 * changes, in the same order: a request looks its line up in its L1; a
 * miss reads the line from the level below (recursively), places it in
 * each level it passes on its way back up, from the lowest, and each
 * placement writes back the dirty line it evicts into the level below
 * it; a miss of the L1D then prefetches the next line. Warming requests
 * have no cycles, MSHRs or DRAM slots to reserve, and are most of
 * warming's work, so they take a path of their own: the same steps
 * without the timing (warming, below). */

/* A request at cycle t for the line at position pos of lv. A line still
 * being filled makes the request wait for the fill (an MSHR merge) and
 * report where the fill comes from. */
static inline mem_result hit(const level *lv, uint64_t pos, uint64_t t)
{
    uint64_t filled = cache_ready(&lv->c, pos);
    if (filled <= t)
        return (mem_result){t + lv->c.latency, lv->c.level, 0};
    uint64_t ready = t + lv->c.latency;
    return (mem_result){filled > ready ? filled : ready, (uint8_t)(lv->c.flags[pos] >> CACHE_LEVEL_SHIFT), 0};
}

static inline uint8_t line_flags(bool dirty, bool prefetched, uint8_t level)
{
    return (uint8_t)((dirty ? CACHE_DIRTY : 0) | (prefetched ? CACHE_PREFETCHED : 0) | level << CACHE_LEVEL_SHIFT);
}

static void write_back(memsys *m, level *below, uint64_t tag, uint64_t t);

/* Put a line (absent) into lv, writing back at cycle t the dirty line it evicts. */
static void place(memsys *m, level *lv, const cache_line *line, uint64_t t)
{
    cache_victim victim = cache_insert(&lv->c, line);
    if (victim.tag != CACHE_NO_LINE && victim.dirty)
        write_back(m, lv->next, victim.tag, t);
}

/* Write a dirty line evicted at cycle t into `below` (NULL: DRAM). */
static void write_back(memsys *m, level *below, uint64_t tag, uint64_t t)
{
    if (!below) {
        m->below.dram_writes++;
        dram_write(&m->dram, t);
        return;
    }
    uint64_t pos = cache_find(&below->c, tag);
    if (pos != CACHE_ABSENT)
        below->c.flags[pos] |= CACHE_DIRTY;
    else
        place(m, below, &(cache_line){.tag = tag, .ready = t, .flags = line_flags(true, false, below->c.level)}, t);
}

static mem_result fetch(memsys *m, level *lv, uint64_t tag, uint64_t t);

/* A miss in lv holding MSHR `slot` from cycle `start`: read the line from
 * below after lv's own lookup latency and place it. */
static mem_result fill(memsys *m, level *lv, uint64_t tag, uint64_t start, unsigned slot, bool dirty, bool prefetched)
{
    mem_result r = fetch(m, lv->next, tag, start + lv->c.latency);
    busy_pool_hold(&lv->c.mshrs, slot, r.ready);
    place(m, lv, &(cache_line){.tag = tag, .ready = r.ready, .flags = line_flags(dirty, prefetched, r.level)}, start);
    return r;
}

/* A demand miss in lv at cycle t: wait for an MSHR if all are busy, fill. */
static mem_result miss(memsys *m, level *lv, uint64_t tag, uint64_t t, bool dirty)
{
    (*lv->misses)++;
    unsigned slot = 0;
    uint64_t start = busy_pool_claim(&lv->c.mshrs, t, &slot);
    if (start > t && lv == &m->lv[L1D])
        m->stats.l1d_mshr_full++;
    mem_result r = fill(m, lv, tag, start, slot, dirty, false);
    r.queued = lv == &m->lv[L1D] && start > t ? (uint32_t)(start - t) : 0;
    return r;
}

/* A read for a line missing in the levels above lv (NULL: DRAM). */
static mem_result fetch(memsys *m, level *lv, uint64_t tag, uint64_t t)
{
    if (!lv) {
        m->below.dram_reads++;
        return (mem_result){dram_read(&m->dram, t), MEM_DRAM, 0};
    }
    (*lv->accesses)++;
    uint64_t pos = cache_lookup(&lv->c, tag);
    return pos != CACHE_ABSENT ? hit(lv, pos, t) : miss(m, lv, tag, t, false);
}

/* Next-line prefetch into the L1D, issued with a demand miss at cycle t: only
 * if the line is absent and an MSHR is idle (a prefetch never waits). */
static void prefetch(memsys *m, uint64_t tag, uint64_t t)
{
    level *l1d = &m->lv[L1D];
    unsigned slot = 0;
    if (cache_find(&l1d->c, tag) != CACHE_ABSENT || !busy_pool_idle(&l1d->c.mshrs, t, &slot))
        return;
    m->stats.prefetches++;
    fill(m, l1d, tag, t, slot, false, true);
}

/* What a request that finds its line in L1 lv (at pos) changes: the dirty
 * bit of a write, the prefetch mark, which a demand access uses up. */
static inline void l1_hit(memsys *m, level *lv, uint64_t pos, bool write)
{
    uint8_t *flags = &lv->c.flags[pos];
    *flags |= write ? CACHE_DIRTY : 0;
    if (*flags & CACHE_PREFETCHED) {
        *flags &= (uint8_t)~CACHE_PREFETCHED;
        m->stats.useful_prefetches++;
    }
}

/* Out of line, so that the hit path inlined into the public functions stays short. */
__attribute__((noinline)) static mem_result l1_miss(memsys *m, level *lv, uint64_t tag, uint64_t now, bool write)
{
    mem_result r = miss(m, lv, tag, now, write);
    if (lv == &m->lv[L1D] && m->prefetch_next_line)
        prefetch(m, tag + 1, now);
    return r;
}

static inline mem_result l1_access(memsys *m, level *lv, uint64_t addr, uint64_t now, bool write)
{
    if (lv->ideal)
        return (mem_result){now + lv->c.latency, lv->c.level, 0};
    uint64_t tag = addr >> m->line_shift;
    uint64_t pos = cache_lookup(&lv->c, tag);
    if (pos == CACHE_ABSENT)
        return l1_miss(m, lv, tag, now, write);
    l1_hit(m, lv, pos, write);
    if (cache_ready(&lv->c, pos) > now && lv == &m->lv[L1D])
        m->stats.l1d_mshr_merges++;
    return hit(lv, pos, now);
}

/* The L1 a request of this kind goes to, counting the access. */
static inline level *l1_of(memsys *m, enum memsys_request_kind kind)
{
    switch (kind) {
    case MEMSYS_FETCH: m->stats.l1i_accesses++; return &m->lv[L1I];
    case MEMSYS_STORE: m->stats.l1d_stores++; return &m->lv[L1D];
    default: m->stats.l1d_loads++; return &m->lv[L1D];
    }
}

mem_result memsys_load(memsys *m, uint64_t addr, uint64_t now)
{
    return l1_access(m, l1_of(m, MEMSYS_LOAD), addr, now, false);
}
mem_result memsys_store(memsys *m, uint64_t addr, uint64_t now)
{
    return l1_access(m, l1_of(m, MEMSYS_STORE), addr, now, true);
}
mem_result memsys_ifetch(memsys *m, uint64_t addr, uint64_t now)
{
    return l1_access(m, l1_of(m, MEMSYS_FETCH), addr, now, false);
}

/* ---------------------------------------------------------- warming
 * The L1s' part of a warming request appends what it needs below the L1s
 * to a log (memsys_log), as reads and write-backs of lines, in the order
 * the timed model makes them; the levels below make them from the log,
 * at once (memsys_warm_load...) or later, maybe on another thread
 * (memsys_warm_defer, memsys_warm_below). A line warming fills is ready
 * at once, so an L1 line keeps the level below the L1s as its fill level
 * (memsys.h). */

/* A request below the L1s in the log: a line address and its kind: a
 * read, a write-back, or a wrong path's read (memsys_warm_wrong_path). */
enum { BELOW_READ = 0, BELOW_WRITE_BACK = 1, BELOW_WRONG_PATH = 2, BELOW_KIND_MASK = 3, BELOW_TAG_SHIFT = 2 };

static inline void log_below(memsys_log *log, uint64_t tag, unsigned kind)
{
    uint64_t event = tag << BELOW_TAG_SHIFT | kind;
    if (log->plain)
        log->event[log->n++] = event;
    else
        stream_store_u64(&log->event[log->n++], event);
}

/* The level below the L1s (NULL: DRAM), and the fill level of the lines it gives them. */
static inline level *below_l1s(memsys *m) { return m->lv[L1D].next; }
static inline uint8_t below_level(memsys *m) { return below_l1s(m) ? below_l1s(m)->c.level : MEM_DRAM; }

/* Fill L1 lv with line tag (flags: its dirty and prefetch bits): read it
 * from below, write back the dirty line it evicts. Always inlined: GCC
 * called it, twice on a miss that prefetches (a pointer chase's L1s'
 * requests took 15% longer so). */
__attribute__((always_inline)) static inline void warm_l1_fill(memsys *m, level *lv, uint64_t tag, uint8_t flags, memsys_log *log)
{
    log_below(log, tag, BELOW_READ);
    cache_victim victim =
        cache_insert(&lv->c, &(cache_line){.tag = tag, .flags = (uint8_t)(flags | below_level(m) << CACHE_LEVEL_SHIFT)});
    if (victim.tag != CACHE_NO_LINE && victim.dirty)
        log_below(log, victim.tag, BELOW_WRITE_BACK);
}

/* A warming request of L1 lv for line tag: MEM_L1 on a hit, else the
 * level below the L1s, whose requests go to log. Always inlined: GCC
 * called it from memsys_warm_requests' loop, which all warming's requests
 * of the L1s now go through (1-2% of the CPU time of one-CPU warming of
 * pointer chasing over 64 KB and 1 MB). */
__attribute__((always_inline)) static inline int warm_l1(memsys *m, level *lv, uint64_t tag, bool write, memsys_log *log)
{
    uint64_t pos = cache_lookup(&lv->c, tag);
    if (pos != CACHE_ABSENT) {
        l1_hit(m, lv, pos, write);
        return MEM_L1;
    }
    (*lv->misses)++;
    warm_l1_fill(m, lv, tag, write ? CACHE_DIRTY : 0, log);
    if (lv == &m->lv[L1D] && m->prefetch_next_line && cache_find(&lv->c, tag + 1) == CACHE_ABSENT) {
        m->stats.prefetches++;
        warm_l1_fill(m, lv, tag + 1, CACHE_PREFETCHED, log);
    }
    return below_level(m);
}

/* A dirty line written back into `below` (NULL: DRAM), and so on down
 * while the placements evict dirty lines. */
static void warm_write_back(memsys *m, level *below, uint64_t tag)
{
    for (; below; below = below->next) {
        uint64_t pos = cache_find(&below->c, tag);
        if (pos != CACHE_ABSENT) {
            below->c.flags[pos] |= CACHE_DIRTY;
            return;
        }
        cache_victim victim =
            cache_insert(&below->c, &(cache_line){.tag = tag, .flags = line_flags(true, false, below->c.level)});
        if (victim.tag == CACHE_NO_LINE || !victim.dirty)
            return;
        tag = victim.tag;
    }
    m->below.dram_writes++;
}

/* A read of line tag from lv down (NULL: DRAM): the levels that miss it
 * take it, the lowest first, each writing back the dirty line it evicts.
 * Returns the level that had it. */
static int warm_read(memsys *m, level *lv, uint64_t tag)
{
    level *missed[NCACHES];
    int nmissed = 0;
    for (level *first = lv; lv; lv = lv->next) {
        (*lv->accesses)++;
        /* a read that missed the level above misses its set in the host's
         * caches too, mostly: all its ways at once (warm_below fetched the
         * first level's sets ahead, where the most recent line hits most) */
        if ((lv == first ? cache_lookup(&lv->c, tag) : cache_lookup_wide(&lv->c, tag)) != CACHE_ABSENT) break;
        (*lv->misses)++;
        missed[nmissed++] = lv;
    }
    uint8_t from = lv ? lv->c.level : MEM_DRAM;
    if (!lv) m->below.dram_reads++;
    while (nmissed > 0) {
        level *to = missed[--nmissed];
        cache_victim victim = cache_insert(&to->c, &(cache_line){.tag = tag, .flags = line_flags(false, false, from)});
        if (victim.tag != CACHE_NO_LINE && victim.dirty) warm_write_back(m, to->next, victim.tag);
    }
    return from;
}

/* A wrong path's read of line tag into `below` (the first level below the
 * L1s) and the levels under it, if `below` lacks it; counted nowhere. */
static void warm_wrong_path_read(memsys *m, level *below, uint64_t tag)
{
    if (cache_find(&below->c, tag) != CACHE_ABSENT) return;
    below_counts counted = m->below;
    warm_read(m, below, tag);
    m->below = counted;
}

/* How many requests ahead memsys_warm_below has the host fetch their sets
 * in the level below the L1s: enough for one to arrive while as many are
 * made. Those of the level below that (the tags and the order a lookup
 * reads) only while most reads of the last batch missed the first
 * (below_counts.deep): else most need none, and fetching them always made
 * warming over 64 KB spend a fifth longer below the L1s; while most miss,
 * a tenth less over 1 MB. */
enum { BELOW_PREFETCH_AHEAD = 8 };

/* Make event[0, n) below the L1s; the level that had the first, if a read. */
static int warm_below(memsys *m, const uint64_t *event, int n)
{
    level *below = below_l1s(m); /* the L1I's too */
    const cache *deep = below && below->next && m->below.deep ? &below->next->c : NULL;
    uint64_t accesses = below ? *below->accesses : 0, misses = below ? *below->misses : 0;
    int first = MEM_L1;
    for (int i = 0; i < n; i++) {
        if (i + BELOW_PREFETCH_AHEAD < n && below) {
            uint64_t ahead = event[i + BELOW_PREFETCH_AHEAD] >> BELOW_TAG_SHIFT;
            cache_prefetch_set(&below->c, ahead);
            if (deep) cache_prefetch_lookup(deep, ahead);
        }
        uint64_t tag = event[i] >> BELOW_TAG_SHIFT;
        switch (event[i] & BELOW_KIND_MASK) {
        case BELOW_WRITE_BACK: warm_write_back(m, below, tag); break;
        case BELOW_WRONG_PATH: warm_wrong_path_read(m, below, tag); break;
        default: {
            int from = warm_read(m, below, tag);
            if (i == 0) first = from;
        }
        }
    }
    if (below) m->below.deep = 2 * (*below->misses - misses) > *below->accesses - accesses;
    return first;
}

void memsys_warm_below(memsys *m, const uint64_t *event, int n) { warm_below(m, event, n); }

/* A request's part in the L1s, what it needs below them logged: MEM_L1 on
 * a hit, else the level below the L1s. A wrong path's fetch needs nothing
 * of the L1s, and nothing at all without a level below them. */
static inline int warm_request_l1(memsys *m, enum memsys_request_kind kind, uint64_t tag, memsys_log *log)
{
    if (kind != MEMSYS_WRONG_PATH) return warm_l1(m, l1_of(m, kind), tag, kind == MEMSYS_STORE, log);
    if (!below_l1s(m)) return MEM_L1;
    log_below(log, tag, BELOW_WRONG_PATH);
    return below_level(m);
}

/* One warming request made now, or its part below the L1s deferred to m->defer. */
static inline int warm_access(memsys *m, enum memsys_request_kind kind, uint64_t addr)
{
    uint64_t tag = addr >> m->line_shift;
    if (m->defer) return warm_request_l1(m, kind, tag, m->defer);
    uint64_t event[MEMSYS_BELOW_PER_REQUEST];
    memsys_log log = {event, 0, true};
    int level = warm_request_l1(m, kind, tag, &log);
    return level == MEM_L1 ? level : warm_below(m, event, log.n);
}

int memsys_warm_load(memsys *m, uint64_t addr) { return warm_access(m, MEMSYS_LOAD, addr); }
int memsys_warm_store(memsys *m, uint64_t addr) { return warm_access(m, MEMSYS_STORE, addr); }
int memsys_warm_ifetch(memsys *m, uint64_t addr) { return warm_access(m, MEMSYS_FETCH, addr); }
void memsys_warm_wrong_path(memsys *m, uint64_t addr) { warm_access(m, MEMSYS_WRONG_PATH, addr); }
int memsys_warm_access(memsys *m, enum memsys_request_kind kind, uint64_t addr) { return warm_access(m, kind, addr); }
const cache *memsys_l1(const memsys *m, bool instr) { return &m->lv[instr ? L1I : L1D].c; }
void memsys_warm_ifetch_repeated(memsys *m, uint64_t n) { m->stats.l1i_accesses += n; }

void memsys_warm_data_repeated(memsys *m, uint64_t loads, uint64_t stores)
{
    m->stats.l1d_loads += loads;
    m->stats.l1d_stores += stores;
}

void memsys_warm_defer(memsys *m, memsys_log *log) { m->defer = log; }

void memsys_warm_requests(memsys *m, const uint64_t *req, int n, memsys_log *below)
{
    memsys_log *was = m->defer;
    m->defer = below;
    for (int i = 0; i < n; i++) warm_access(m, (enum memsys_request_kind)(req[i] & 3), req[i] & ~(uint64_t)3);
    m->defer = was;
}

void memsys_mru_view_init(const memsys *m, bool instr, memsys_mru_view *v)
{
    const cache *c = &m->lv[instr ? L1I : L1D].c;
    *v = (memsys_mru_view){.mru = malloc((c->set_mask + 1) * sizeof *v->mru),
                           .set_mask = c->set_mask,
                           .line_shift = m->line_shift,
                           .prefetch_next = !instr && m->prefetch_next_line};
    if (!v->mru) die("out of memory");
    for (uint64_t s = 0; s <= c->set_mask; s++) v->mru[s] = MEMSYS_MRU_UNKNOWN;
}

const memsys_stats *memsys_get_stats(memsys *m)
{
    below_counts *b = &m->below;
    m->stats.l2_accesses += b->l2_accesses;
    m->stats.l2_misses += b->l2_misses;
    m->stats.llc_accesses += b->llc_accesses;
    m->stats.llc_misses += b->llc_misses;
    m->stats.dram_reads += b->dram_reads;
    m->stats.dram_writes += b->dram_writes;
    *b = (below_counts){0};
    return &m->stats;
}

void memsys_reset_stats(memsys *m)
{
    m->stats = (memsys_stats){0};
    m->below = (below_counts){0};
}

void memsys_quiesce(memsys *m)
{
    for (int i = 0; i < NCACHES; i++)
        cache_quiesce(&m->lv[i].c);
    dram_quiesce(&m->dram);
}

/* ---------------------------------------------------------- warm state */

#define MEMSYS_STATE_MAGIC 0x315359534d454dULL   /* "MEMSYS1" */

void memsys_save(const memsys *m, ustate *s)
{
    ustate_put_u64(s, MEMSYS_STATE_MAGIC);
    ustate_put_u64(s, m->line_shift);
    for (int i = 0; i < NCACHES; i++)
        cache_save_geometry(&m->lv[i].c, s);
    for (int i = 0; i < NCACHES; i++)
        cache_save_lines(&m->lv[i].c, s);
}

bool memsys_restore(memsys *m, ustate *s)
{
    ustate_expect_u64(s, MEMSYS_STATE_MAGIC);
    ustate_expect_u64(s, m->line_shift);
    for (int i = 0; i < NCACHES; i++)
        cache_expect_geometry(&m->lv[i].c, s);
    if (s->bad)
        return false;   /* another geometry: leave the caches as they were */
    bool ok = true;
    for (int i = 0; i < NCACHES && ok; i++)
        ok = cache_restore_lines(&m->lv[i].c, s);
    if (!ok)   /* a damaged state: start cold rather than half restored */
        for (int i = 0; i < NCACHES; i++)
            cache_clear(&m->lv[i].c);
    dram_quiesce(&m->dram);
    return ok;
}
