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
 * Every function takes `timed`: false for functional warming, which makes
 * the same state changes with all cycles 0. The public functions pass a
 * constant, so the inlined hot paths lose the timing code when warming. */

/* A request at cycle t for a line present in lv. A line still being filled
 * makes the request wait for the fill (an MSHR merge) and report where the
 * fill comes from. */
static inline mem_result hit(const level *lv, const cache_state *l, uint64_t t, bool timed)
{
    if (!timed || l->ready <= t)
        return (mem_result){timed ? t + lv->c.latency : 0, lv->c.level, 0};
    uint64_t ready = t + lv->c.latency;
    return (mem_result){l->ready > ready ? l->ready : ready, l->fill_level, 0};
}

static void write_back(memsys *m, level *below, uint64_t tag, uint64_t t, bool timed);

/* A request below the L1s that deferred warming logs: a line address and
 * whether it is a write-back (else a read). */
enum { BELOW_READ = 0, BELOW_WRITE_BACK = 1, BELOW_TAG_SHIFT = 1 };

static inline bool is_l1(const memsys *m, const level *lv) { return lv < &m->lv[L2]; }

/* The log lv's request below goes to: in deferred warming, an L1's; else
 * NULL, the request is made now. */
static inline memsys_log *deferred(const memsys *m, const level *lv, bool timed)
{
    return !timed && is_l1(m, lv) ? m->defer : NULL;
}

static inline void log_below(memsys_log *log, uint64_t tag, unsigned kind)
{
    stream_store_u64(&log->event[log->n++], tag << BELOW_TAG_SHIFT | kind);
}

/* Put a line (absent) into lv, writing back at cycle t the dirty line it evicts. */
static void place(memsys *m, level *lv, const cache_line *line, uint64_t t, bool timed)
{
    cache_line victim = cache_insert(&lv->c, line);
    if (victim.tag == CACHE_NO_LINE || !victim.dirty)
        return;
    memsys_log *log = deferred(m, lv, timed);
    if (log)
        log_below(log, victim.tag, BELOW_WRITE_BACK);
    else
        write_back(m, lv->next, victim.tag, t, timed);
}

/* Write a dirty line evicted at cycle t into `below` (NULL: DRAM). */
static void write_back(memsys *m, level *below, uint64_t tag, uint64_t t, bool timed)
{
    if (!below) {
        m->below.dram_writes++;
        if (timed) dram_write(&m->dram, t);
        return;
    }
    cache_state *l = cache_peek(&below->c, tag);
    if (l)
        l->dirty = 1;
    else
        place(m, below, &(cache_line){.tag = tag, .ready = timed ? t : 0, .dirty = 1, .fill_level = below->c.level},
              t, timed);
}

static mem_result fetch(memsys *m, level *lv, uint64_t tag, uint64_t t, bool timed);

/* A miss in lv holding MSHR `slot` from cycle `start`: read the line from
 * below after lv's own lookup latency and place it. */
static mem_result fill(memsys *m, level *lv, uint64_t tag, uint64_t start, unsigned slot, bool timed, bool dirty,
                       bool prefetched)
{
    /* a warming fill of an L1 keeps the level below as its fill level
     * (memsys.h), which the fill need not wait for */
    uint8_t below = lv->next ? lv->next->c.level : MEM_DRAM;
    memsys_log *log = deferred(m, lv, timed);
    mem_result r = {0, below, 0};
    if (log)
        log_below(log, tag, BELOW_READ);
    else
        r = fetch(m, lv->next, tag, start + lv->c.latency, timed);
    if (timed) busy_pool_hold(&lv->c.mshrs, slot, r.ready);
    uint8_t level = !timed && is_l1(m, lv) ? below : r.level;
    place(m, lv,
          &(cache_line){.tag = tag, .ready = r.ready, .dirty = dirty, .fill_level = level, .prefetched = prefetched},
          start, timed);
    return r;
}

/* A demand miss in lv at cycle t: wait for an MSHR if all are busy, fill. */
static mem_result miss(memsys *m, level *lv, uint64_t tag, uint64_t t, bool timed, bool dirty)
{
    (*lv->misses)++;
    unsigned slot = 0;
    uint64_t start = timed ? busy_pool_claim(&lv->c.mshrs, t, &slot) : 0;
    if (start > t && lv == &m->lv[L1D])
        m->stats.l1d_mshr_full++;
    mem_result r = fill(m, lv, tag, start, slot, timed, dirty, false);
    r.queued = lv == &m->lv[L1D] && start > t ? (uint32_t)(start - t) : 0;
    return r;
}

/* A read for a line missing in the levels above lv (NULL: DRAM). */
static mem_result fetch(memsys *m, level *lv, uint64_t tag, uint64_t t, bool timed)
{
    if (!lv) {
        m->below.dram_reads++;
        return (mem_result){timed ? dram_read(&m->dram, t) : 0, MEM_DRAM, 0};
    }
    (*lv->accesses)++;
    cache_state *l = cache_lookup(&lv->c, tag);
    return l ? hit(lv, l, t, timed) : miss(m, lv, tag, t, timed, false);
}

/* Next-line prefetch into the L1D, issued with a demand miss at cycle t: only
 * if the line is absent and an MSHR is idle (a prefetch never waits). */
static void prefetch(memsys *m, uint64_t tag, uint64_t t, bool timed)
{
    level *l1d = &m->lv[L1D];
    unsigned slot = 0;
    if (cache_peek(&l1d->c, tag) || (timed && !busy_pool_idle(&l1d->c.mshrs, t, &slot)))
        return;
    m->stats.prefetches++;
    fill(m, l1d, tag, t, slot, timed, false, true);
}

/* Out of line, so that the hit path inlined into the public functions stays short. */
__attribute__((noinline)) static mem_result l1_miss(memsys *m, level *lv, uint64_t tag, uint64_t now, bool timed,
                                                    bool write)
{
    mem_result r = miss(m, lv, tag, now, timed, write);
    if (lv == &m->lv[L1D] && m->prefetch_next_line)
        prefetch(m, tag + 1, now, timed);
    return r;
}

static inline mem_result l1_access(memsys *m, level *lv, uint64_t addr, uint64_t now, bool timed, bool write)
{
    if (timed && lv->ideal)
        return (mem_result){now + lv->c.latency, lv->c.level, 0};
    uint64_t tag = addr >> m->line_shift;
    cache_state *l = cache_lookup(&lv->c, tag);
    if (!l)
        return l1_miss(m, lv, tag, now, timed, write);
    l->dirty |= write;
    if (l->prefetched) {
        l->prefetched = 0;
        m->stats.useful_prefetches++;
    }
    if (timed && l->ready > now && lv == &m->lv[L1D])
        m->stats.l1d_mshr_merges++;
    return hit(lv, l, now, timed);
}

static inline mem_result data_access(memsys *m, uint64_t addr, uint64_t now, bool timed, bool write)
{
    if (write)
        m->stats.l1d_stores++;
    else
        m->stats.l1d_loads++;
    return l1_access(m, &m->lv[L1D], addr, now, timed, write);
}

static inline mem_result instr_access(memsys *m, uint64_t addr, uint64_t now, bool timed)
{
    m->stats.l1i_accesses++;
    return l1_access(m, &m->lv[L1I], addr, now, timed, false);
}

mem_result memsys_load(memsys *m, uint64_t addr, uint64_t now) { return data_access(m, addr, now, true, false); }
mem_result memsys_store(memsys *m, uint64_t addr, uint64_t now) { return data_access(m, addr, now, true, true); }
mem_result memsys_ifetch(memsys *m, uint64_t addr, uint64_t now) { return instr_access(m, addr, now, true); }
int memsys_warm_load(memsys *m, uint64_t addr) { return data_access(m, addr, 0, false, false).level; }
int memsys_warm_store(memsys *m, uint64_t addr) { return data_access(m, addr, 0, false, true).level; }
int memsys_warm_ifetch(memsys *m, uint64_t addr) { return instr_access(m, addr, 0, false).level; }
const cache *memsys_l1(const memsys *m, bool instr) { return &m->lv[instr ? L1I : L1D].c; }
void memsys_warm_ifetch_repeated(memsys *m, uint64_t n) { m->stats.l1i_accesses += n; }

void memsys_warm_data_repeated(memsys *m, uint64_t loads, uint64_t stores)
{
    m->stats.l1d_loads += loads;
    m->stats.l1d_stores += stores;
}

void memsys_warm_defer(memsys *m, memsys_log *log) { m->defer = log; }

static inline mem_result warm_access(memsys *m, enum memsys_request_kind kind, uint64_t addr)
{
    switch (kind) {
    case MEMSYS_FETCH: return instr_access(m, addr, 0, false);
    case MEMSYS_STORE: return data_access(m, addr, 0, false, true);
    default: return data_access(m, addr, 0, false, false);
    }
}

int memsys_warm_access(memsys *m, enum memsys_request_kind kind, uint64_t addr)
{
    return warm_access(m, kind, addr).level;
}

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

/* How many requests ahead memsys_warm_below has the host fetch their sets
 * in the level below the L1s: enough for one to arrive while as many are
 * made. Not those of the level below that: most requests hit and need none
 * (pointer chasing over 1 MB was no faster with them, gzip 2% slower). */
enum { BELOW_PREFETCH_AHEAD = 8 };

void memsys_warm_below(memsys *m, const uint64_t *event, int n)
{
    level *below = m->lv[L1D].next; /* the L1I's too */
    for (int i = 0; i < n; i++) {
        if (i + BELOW_PREFETCH_AHEAD < n && below)
            cache_prefetch_set(&below->c, event[i + BELOW_PREFETCH_AHEAD] >> BELOW_TAG_SHIFT);
        uint64_t tag = event[i] >> BELOW_TAG_SHIFT;
        if (event[i] & BELOW_WRITE_BACK)
            write_back(m, below, tag, 0, false);
        else
            fetch(m, below, tag, 0, false);
    }
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
