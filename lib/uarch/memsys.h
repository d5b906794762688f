/* The memory hierarchy of the detailed core: L1I, L1D (with MSHRs and a
 * next-line prefetcher), L2, LLC and DRAM with latency and bandwidth.
 *
 * Timing requests carry the cycle they are made ("now") and return the cycle
 * the data is available. The core makes requests in program order, not
 * strictly in time order, so each cache line remembers the cycle its fill
 * completes: a later request for a line still in flight merges with it (an
 * MSHR hit) instead of missing again. MSHRs, DRAM request slots and DRAM
 * bandwidth are reserved over time, so a request that finds them all busy
 * waits for the earliest to free.
 *
 * Warming requests update only what a later timing run depends on (tags,
 * LRU order, dirty bits, prefetches) and cost no time. Their lines are
 * ready at once, so an L1 line filled by warming keeps no fill level (it
 * is the level below's, whatever served the fill), and the L1s need
 * nothing from below: warming can make the requests below the L1s later,
 * on another thread (memsys_warm_defer). Addresses are guest
 * virtual addresses (user-mode simulation: virtual = physical). Writes are
 * write-back, write-allocate. */
#ifndef RV_UARCH_MEMSYS_H
#define RV_UARCH_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>

#include "uarch/cache.h"
#include "uarch/config.h"
#include "uarch/state.h"

/* Where a request was satisfied. */
enum mem_level { MEM_L1, MEM_L2, MEM_LLC, MEM_DRAM, MEM_LEVELS };

typedef struct mem_result {
    uint64_t ready;   /* cycle the data can be used */
    uint8_t level;    /* enum mem_level; a merge with an in-flight fill reports the fill's level */
    uint32_t queued;  /* cycles an L1D miss waited for an MSHR */
} mem_result;

/* Counted for timing and warming requests alike (reset between phases). An
 * access that merges with a fill in flight is not a miss at that level.
 * Prefetches count in the levels below the L1D like demand misses; write-backs
 * between cache levels are not accesses. */
typedef struct memsys_stats {
    uint64_t l1i_accesses, l1i_misses;
    uint64_t l1d_loads, l1d_stores, l1d_misses;   /* misses: loads and stores (merges not counted) */
    uint64_t l1d_mshr_merges, l1d_mshr_full;      /* requests that merged / waited for a free MSHR */
    uint64_t l2_accesses, l2_misses;
    uint64_t llc_accesses, llc_misses;
    uint64_t prefetches, useful_prefetches;       /* issued / later hit by a demand access */
    uint64_t dram_reads, dram_writes;             /* line transfers (writes: dirty evictions from the LLC) */
} memsys_stats;

typedef struct memsys memsys;

memsys *memsys_new(const uarch_config *c);
void memsys_free(memsys *m);

mem_result memsys_load(memsys *m, uint64_t addr, uint64_t now);
/* A committed store writing the L1D; ready = when the write is done. */
mem_result memsys_store(memsys *m, uint64_t addr, uint64_t now);
mem_result memsys_ifetch(memsys *m, uint64_t addr, uint64_t now);

/* Functional warming: same state changes, no timing. Return enum mem_level
 * (while deferred, memsys_warm_defer: MEM_L1 on a hit, else the level
 * below the L1s). */
int memsys_warm_load(memsys *m, uint64_t addr);
int memsys_warm_store(memsys *m, uint64_t addr);
int memsys_warm_ifetch(memsys *m, uint64_t addr);
/* The L1I (instr) or the L1D, for a warming run to see which of its
 * accesses would change nothing but the access counts (memsys_warm_is_repeat)
 * and to count those with the *_repeated functions instead. */
const cache *memsys_l1(const memsys *m, bool instr);

/* Whether a warming access (a store: write) to line `tag` of L1 c would
 * hit the most recently used way and leave it as it is: no reordering, the
 * dirty bit set already or not to be, no prefetch mark to clear. */
static inline bool memsys_warm_is_repeat(const cache *c, uint64_t tag, bool write)
{
    uint64_t pos = cache_mru(c, tag);
    return pos != CACHE_ABSENT && !(c->flags[pos] & CACHE_PREFETCHED) && (c->flags[pos] & CACHE_DIRTY || !write);
}

/* Deferred warming. While log is set, the reads and write-backs a warming
 * request makes below the L1s are appended to it, in order (at most
 * MEMSYS_BELOW_PER_REQUEST per request), instead of being made; hand them
 * to memsys_warm_below, in the same order, on any one thread. The L1s and
 * the levels below share nothing, not even counters, so warming requests
 * and memsys_warm_below may run at the same time on two threads; anything
 * else (statistics, save, timing requests) waits until the levels below
 * have caught up. NULL: make them at once again. */
typedef struct memsys_log {
    uint64_t *event;   /* written with stream_store_u64 (another core reads them), */
    int n;
    bool plain;        /* or with plain stores (this core will) */
} memsys_log;
enum { MEMSYS_BELOW_PER_REQUEST = 4 };
void memsys_warm_defer(memsys *m, memsys_log *log);
void memsys_warm_below(memsys *m, const uint64_t *event, int n);

/* Warming requests of the L1s gathered to be made later, maybe on another
 * thread: the address with its kind in the low two bits (a line is at
 * least 16 bytes, so the line stays the same). MEMSYS_WRONG_PATH: a line
 * the detailed core's front end fetches when it goes the wrong way at a
 * conditional branch (memsys_warm_wrong_path). */
enum memsys_request_kind { MEMSYS_FETCH, MEMSYS_LOAD, MEMSYS_STORE, MEMSYS_WRONG_PATH };
static inline uint64_t memsys_warm_request(enum memsys_request_kind kind, uint64_t addr)
{
    return (addr & ~(uint64_t)3) | kind;
}
/* The code line at addr, which the detailed core's front end fetches
 * after mispredicting a conditional branch (the way the branch did not
 * go): functional warming follows the correct path only, so it would never
 * bring in the lines only wrong paths fetch, which a serial detailed run
 * finds in its L2 and LLC when the correct path or a later wrong path goes
 * there (bench/results/chunk_state.md). Read into the levels below the L1s
 * if the first of them lacks it (a line there is left where it is in the
 * LRU order: a wrong path fetches it only now and then); the L1s and every
 * count untouched (the statistics are the program's own requests). */
void memsys_warm_wrong_path(memsys *m, uint64_t addr);
/* One warming request of that kind made now: memsys_warm_ifetch, _load,
 * _store or _wrong_path. */
int memsys_warm_access(memsys *m, enum memsys_request_kind kind, uint64_t addr);
/* Make requests req[0, n) of the L1s in order, deferring what they need
 * below the L1s to `below` (room for MEMSYS_BELOW_PER_REQUEST each; NULL:
 * made at once too). */
void memsys_warm_requests(memsys *m, const uint64_t *req, int n, memsys_log *below);

/* What a warming run that leaves the L1s to another thread knows of each
 * set of one: the line its own last request there made the most recently
 * used, and whether that request set its dirty bit; or nothing (after a
 * next-line prefetch may have filled the set). So a request that finds
 * that line again (a load, or a store to it dirty already) is a repeat
 * (memsys_warm_is_repeat) and only needs counting; the L1s may know of
 * more repeats, which they then make as hits. */
typedef struct memsys_mru_view {
    uint64_t *mru;      /* per set: line << 1 | dirty; MRU_UNKNOWN: nothing known */
    uint64_t set_mask;
    unsigned line_shift;
    bool prefetch_next; /* a missing line's request may prefetch the next into its set (the L1D's) */
} memsys_mru_view;
#define MEMSYS_MRU_UNKNOWN UINT64_MAX
/* A view of L1 `instr` (the L1I, else the L1D) knowing nothing; free with free(v->mru). */
void memsys_mru_view_init(const memsys *m, bool instr, memsys_mru_view *v);

static inline bool memsys_mru_view_is_repeat(const memsys_mru_view *v, uint64_t addr, bool write)
{
    uint64_t line = addr >> v->line_shift, known = v->mru[line & v->set_mask];
    return known >> 1 == line && (known & 1 || !write);
}

/* After a request that was no repeat, handed over to be made. Its miss
 * prefetches the next line only if that line is absent: not when the view
 * knows it, the most recent of its set, which then stays as it is. (Else
 * each request that was no repeat left another set unknown, whose next
 * request was then no repeat either: over 4 KB, a pointer chase's hits
 * went on reaching the L1D all the run.) */
static inline void memsys_mru_view_note(memsys_mru_view *v, uint64_t addr, bool write)
{
    uint64_t line = addr >> v->line_shift, *next = &v->mru[(line + 1) & v->set_mask];
    v->mru[line & v->set_mask] = line << 1 | write; /* a load leaves the dirty bit as it was: unknown */
    if (v->prefetch_next && *next >> 1 != line + 1) *next = MEMSYS_MRU_UNKNOWN;
}

/* n more warming fetches, and loads and stores, that were repeats. */
void memsys_warm_ifetch_repeated(memsys *m, uint64_t n);
void memsys_warm_data_repeated(memsys *m, uint64_t loads, uint64_t stores);

/* Forget in-flight fills and reservations (MSHRs, DRAM): every line is ready
 * at cycle 0. Needed before timing requests restart from a smaller cycle than
 * earlier ones did (e.g. a new detailed region counting from 0); a region
 * that continues the cycle count needs nothing. */
void memsys_quiesce(memsys *m);

const memsys_stats *memsys_get_stats(memsys *m);
void memsys_reset_stats(memsys *m);

/* Warm state (tags, LRU, dirty bits; no in-flight requests). restore
 * returns false if the state was saved under a different geometry. Restored
 * lines are ready at cycle 0. */
void memsys_save(const memsys *m, ustate *s);
bool memsys_restore(memsys *m, ustate *s);

#endif
