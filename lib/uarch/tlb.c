#include "uarch/tlb.h"

#include <limits.h>
#include <stdlib.h>

#include "util.h"

#define NO_PAGE UINT64_MAX   /* vpn of an empty entry: no page number is all ones */

/* A fully associative L1 TLB. LRU by use stamps (which the warm state
 * keeps) rather than by reordering, since a TLB can have thousands of
 * entries; the entry used last is checked first and, being the most recent
 * already, needs no new stamp. While no page is in two entries (always, but
 * for a restored state that says otherwise) a hash of the page numbers
 * finds a page's entry, or that there is none, without reading all of
 * them, as a miss otherwise must; with duplicates the first entry holding
 * the page is searched for.
 *
 * A miss's victim is the least recently used entry: the least stamp, the
 * first entry of those with it. Two ways find it:
 *
 * - The log. Every stamp is the clock's next value, so a log of which entry
 *   took each stamp, indexed by the stamp modulo its size, holds the last
 *   stamps in order. No entry has a stamp below `log_from`; the victim is
 *   the entry of the first stamp from there on that is still its entry's. A
 *   use costs a store, a miss a few loads. The log serves while every stamp
 *   from log_from on is in it and no entry is empty (empty entries share stamp
 *   0): an entry left unused while the log wraps around ends it.
 * - The scan, otherwise. It finds the TLB_OLDEST least (stamp, entry) in
 *   order, and the misses after it take them in turn, each that still has
 *   the stamp it had then: stamps only grow, so an entry not among them is
 *   still newer, and one among them that has been used since is skipped.
 *   A scan that finds every stamp within the log's reach rebuilds the log.
 *
 * (A search of every stamp on every miss grows with the entries: warming a
 * 16 MB working set with a 2048-entry D-TLB ran at 5 MIPS, at 25 with the
 * scan. Keeping the entries linked in stamp order made misses cheaper but
 * cost every hit a relink, even done lazily: bzip2's warming 4-7% slower.
 * The scan's partial sort of random stamps mispredicts most of its
 * branches: on a pointer chase over 256 pages it was half of the TLBs' time.) */
#define NO_ENTRY UINT_MAX    /* the end of a hash chain */
enum { TLB_OLDEST = 16 };
typedef struct l1_tlb {
    uint64_t *vpn;
    uint64_t *last_use;  /* LRU stamp; 0: never used */
    uint64_t *ready;     /* cycle the translation arrives (in flight while > now) */
    bool *walked;        /* the fill needed a page walk: reported to requests that merge with it */
    unsigned n, mru;
    /* the oldest entries at the last scan, oldest first, and their stamps
     * then; the next miss looks from next_oldest */
    unsigned oldest[TLB_OLDEST], noldest, next_oldest;
    uint64_t oldest_stamp[TLB_OLDEST];
    /* log[s & log_mask]: the entry given stamp s, for every s from log_from on
     * while in_log */
    unsigned *log, log_mask;
    uint64_t log_from;
    bool in_log;
    bool unique;         /* no page number in two entries */
    /* the entries holding a page, chained from head[vpn & hash_mask] */
    unsigned *head, *chain, hash_mask;
    uint64_t clock;      /* last stamp given */
    uint64_t *accesses, *misses;
} l1_tlb;

/* A direct-mapped L2 TLB entry; only page walks fill it. */
typedef struct l2_entry {
    uint64_t vpn, ready;
} l2_entry;

struct tlbs {
    l1_tlb itlb, dtlb;
    l2_entry *l2;
    unsigned nl2;        /* 0: no L2 TLB */
    uint64_t l2_latency, walk_latency;
    bool ideal;          /* a limit study: every timed translation hits the L1 TLB */
    tlb_stats stats;
};

static void *alloc_array(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) die("out of memory for the TLBs");
    return p;
}

static inline unsigned *l1_bucket(l1_tlb *l, uint64_t vpn) { return &l->head[vpn & l->hash_mask]; }

static void l1_index(l1_tlb *l, unsigned i)
{
    unsigned *b = l1_bucket(l, l->vpn[i]);
    l->chain[i] = *b;
    *b = i;
}

static void l1_unindex(l1_tlb *l, unsigned i)
{
    unsigned *p = l1_bucket(l, l->vpn[i]);
    while (*p != i)
        p = &l->chain[*p];
    *p = l->chain[i];
}

/* What the entries' pages and stamps give, from scratch (after a clear or a
 * restore): the hash of the pages, whether any page is in two entries (its
 * bucket holds it already), and no scan of the oldest yet. */
static void l1_rebuild(l1_tlb *l)
{
    for (unsigned b = 0; b <= l->hash_mask; b++)
        l->head[b] = NO_ENTRY;
    l->unique = true;
    for (unsigned i = 0; i < l->n; i++) {
        if (l->vpn[i] == NO_PAGE)
            continue;
        for (unsigned j = *l1_bucket(l, l->vpn[i]); j != NO_ENTRY; j = l->chain[j])
            l->unique &= l->vpn[j] != l->vpn[i];
        l1_index(l, i);
    }
    l->noldest = l->next_oldest = 0;
    l->in_log = false;   /* until a scan finds the stamps within its reach */
}

static void l1_set(l1_tlb *l, unsigned i, uint64_t vpn, uint64_t last_use, uint64_t ready, bool walked)
{
    l->vpn[i] = vpn;
    l->last_use[i] = last_use;
    l->ready[i] = ready;
    l->walked[i] = walked;
}

static void l1_clear(l1_tlb *l)
{
    for (unsigned i = 0; i < l->n; i++)
        l1_set(l, i, NO_PAGE, 0, 0, false);
    l1_rebuild(l);
    l->mru = 0;
    l->clock = 0;
}

static void l2_clear(tlbs *t)
{
    for (unsigned i = 0; i < t->nl2; i++)
        t->l2[i] = (l2_entry){.vpn = NO_PAGE};
}

static void l1_init(l1_tlb *l, int entries, uint64_t *accesses, uint64_t *misses)
{
    l->n = (unsigned)entries;
    l->vpn = alloc_array(l->n, sizeof *l->vpn);
    l->last_use = alloc_array(l->n, sizeof *l->last_use);
    l->ready = alloc_array(l->n, sizeof *l->ready);
    l->walked = alloc_array(l->n, sizeof *l->walked);
    /* a power of two, eight times the entries (at least twice, beyond 16
     * KB of heads): chains of one page, mostly, whose walks (a miss's
     * lookup, the victim's unlinking) the host predicts; with twice the
     * entries, warming a pointer chase over 256 pages spent a third of its
     * D-TLB fills walking chains */
    unsigned buckets = 2;
    while ((buckets < 8 * l->n && buckets < 4096) || buckets < 2 * l->n)
        buckets *= 2;
    l->hash_mask = buckets - 1;
    l->head = alloc_array(buckets, sizeof *l->head);
    l->chain = alloc_array(l->n, sizeof *l->chain);
    unsigned log_size = 64;   /* a power of two, at least four stamps per entry */
    while (log_size < 4 * l->n)
        log_size *= 2;
    l->log_mask = log_size - 1;
    l->log = alloc_array(log_size, sizeof *l->log);
    l->accesses = accesses;
    l->misses = misses;
    l1_clear(l);
}

static void l1_free(l1_tlb *l)
{
    free(l->vpn);
    free(l->last_use);
    free(l->ready);
    free(l->walked);
    free(l->head);
    free(l->chain);
    free(l->log);
}

tlbs *tlbs_new(const uarch_config *c)
{
    if (c->itlb_entries < 1 || c->dtlb_entries < 1)
        die("an L1 TLB needs at least one entry");
    if (c->l2tlb_entries < 0 || (c->l2tlb_entries & (c->l2tlb_entries - 1)))
        die("the L2 TLB's entries must be a power of two (or 0 for none)");
    tlbs *t = alloc_array(1, sizeof *t);
    l1_init(&t->itlb, c->itlb_entries, &t->stats.itlb_accesses, &t->stats.itlb_misses);
    l1_init(&t->dtlb, c->dtlb_entries, &t->stats.dtlb_accesses, &t->stats.dtlb_misses);
    t->ideal = c->ideal_tlb;
    t->nl2 = (unsigned)c->l2tlb_entries;
    t->l2 = alloc_array(t->nl2, sizeof *t->l2);
    l2_clear(t);
    t->l2_latency = (uint64_t)c->l2tlb_latency;
    t->walk_latency = (uint64_t)c->ptw_latency;
    return t;
}

void tlbs_free(tlbs *t)
{
    if (!t) return;
    l1_free(&t->itlb);
    l1_free(&t->dtlb);
    free(t->l2);
    free(t);
}

/* The entry the log says took stamp log_from. */
static inline unsigned l1_log_oldest(const l1_tlb *l) { return l->log[l->log_from & l->log_mask]; }

/* Whether that entry still has the stamp (it is the least recently used). */
static inline bool l1_log_oldest_in_use(const l1_tlb *l) { return l->last_use[l1_log_oldest(l)] == l->log_from; }

/* The log cannot take stamp s without losing log_from's: move log_from
 * past the stamps no entry has any more, or leave the log if log_from's
 * entry still has its stamp. */
static void l1_log_make_room(l1_tlb *l, uint64_t s)
{
    while (s - l->log_from > l->log_mask) {
        if (l1_log_oldest_in_use(l)) {
            l->in_log = false;
            l->noldest = l->next_oldest = 0;
            return;
        }
        l->log_from++;
    }
}

/* Entry i is the most recently used. */
static inline void l1_stamp(l1_tlb *l, unsigned i)
{
    uint64_t s = ++l->clock;
    l->last_use[i] = s;
    if (!l->in_log)
        return;
    if (s - l->log_from > l->log_mask)
        l1_log_make_room(l, s);
    l->log[s & l->log_mask] = i;   /* harmless if the log was just left */
}

/* The entry holding vpn (made the most recently used), or -1. */
static inline int l1_lookup(l1_tlb *l, uint64_t vpn)
{
    if (l->vpn[l->mru] == vpn)
        return (int)l->mru;
    int hit = -1;
    if (l->unique) {
        for (unsigned i = *l1_bucket(l, vpn); i != NO_ENTRY; i = l->chain[i])
            if (l->vpn[i] == vpn) {
                hit = (int)i;
                break;
            }
    } else {
        for (unsigned i = 0; hit < 0 && i < l->n; i++)
            if (l->vpn[i] == vpn)
                hit = (int)i;
    }
    if (hit >= 0) {
        l1_stamp(l, (unsigned)hit);
        l->mru = (unsigned)hit;
    }
    return hit;
}

/* Find the TLB_OLDEST least (stamp, entry), in order. */
static void l1_scan_oldest(l1_tlb *l)
{
    unsigned n = 0;
    for (unsigned i = 0; i < l->n; i++) {
        uint64_t stamp = l->last_use[i];
        if (n == TLB_OLDEST && stamp >= l->oldest_stamp[n - 1])
            continue;   /* mostly: once full, few entries are older than its last */
        unsigned k = n < TLB_OLDEST ? n++ : n - 1;
        for (; k > 0 && l->oldest_stamp[k - 1] > stamp; k--) {
            l->oldest[k] = l->oldest[k - 1];
            l->oldest_stamp[k] = l->oldest_stamp[k - 1];
        }
        l->oldest[k] = i;
        l->oldest_stamp[k] = stamp;
    }
    l->noldest = n;
    l->next_oldest = 0;
}

/* After a scan: if no entry is empty and every stamp is within the log's
 * reach, write the log from the stamps and use it. Two entries with one
 * stamp (a restored state may say so) would share a slot: no log then. */
static void l1_try_log(l1_tlb *l)
{
    uint64_t oldest = l->oldest_stamp[0];
    if (oldest == 0 || l->clock - oldest > l->log_mask)
        return;
    for (unsigned i = 0; i < l->n; i++)
        l->log[l->last_use[i] & l->log_mask] = i;
    for (unsigned i = 0; i < l->n; i++)
        if (l->log[l->last_use[i] & l->log_mask] != i)
            return;
    l->log_from = oldest;
    l->in_log = true;
}

/* The least recently used entry by the log (l->in_log): its oldest stamp
 * an entry still has, the fields in locals (a store through one of the
 * arrays might change them, for all the compiler knows). */
static inline unsigned l1_victim_logged(l1_tlb *l)
{
    const unsigned *log = l->log, mask = l->log_mask;
    const uint64_t *last_use = l->last_use;
    uint64_t from = l->log_from;
    while (last_use[log[from & mask]] != from)
        from++;
    l->log_from = from;
    return log[from & mask];
}

/* The least recently used entry (empty entries were never used): the
 * scan's, out of line (l1_victim). */
static unsigned l1_victim_scanned(l1_tlb *l)
{
    for (;;) {
        if (l->in_log)
            return l1_victim_logged(l);
        while (l->next_oldest < l->noldest) {
            unsigned k = l->next_oldest++, i = l->oldest[k];
            if (l->last_use[i] == l->oldest_stamp[k])
                return i;
        }
        l1_scan_oldest(l);
        l1_try_log(l);
    }
}

/* The least recently used entry: the log's inline, else the scan's. */
static inline unsigned l1_victim(l1_tlb *l) { return l->in_log ? l1_victim_logged(l) : l1_victim_scanned(l); }

static inline void l1_fill(l1_tlb *l, uint64_t vpn, uint64_t ready, bool walked)
{
    unsigned victim = l1_victim(l);
    if (l->vpn[victim] != NO_PAGE)
        l1_unindex(l, victim);
    l1_set(l, victim, vpn, 0, ready, walked);
    l1_stamp(l, victim);
    l1_index(l, victim);
    l->mru = victim;
}

/* The L2 TLB entry a page can be in: a mask, as the entries are a power of
 * two, rather than a 64-bit division on every L1 TLB miss. */
static inline unsigned l2_slot(const tlbs *t, uint64_t vpn) { return (unsigned)(vpn & (t->nl2 - 1)); }

/* An L1 miss at cycle now: the L2 TLB, then the walker (which fills the L2
 * TLB). A walk still in flight in the L2 TLB is waited for, not repeated. */
static inline tlb_result l2_translate(tlbs *t, uint64_t vpn, uint64_t now, bool timed)
{
    uint64_t after_l2 = now + (t->nl2 ? t->l2_latency : 0);
    l2_entry *e = t->nl2 ? &t->l2[l2_slot(t, vpn)] : NULL;
    if (e && e->vpn == vpn) {
        bool walking = timed && e->ready > after_l2;
        return (tlb_result){walking ? e->ready : after_l2, true, walking};
    }
    t->stats.l2_misses++;
    tlb_result r = {after_l2 + t->walk_latency, true, true};
    if (e)
        *e = (l2_entry){vpn, timed ? r.ready : 0};
    return r;
}

/* `timed` false: functional warming, all cycles 0. */
__attribute__((always_inline)) static inline tlb_result translate(tlbs *t, bool instr, uint64_t vaddr, uint64_t now, bool timed)
{
    l1_tlb *l1 = instr ? &t->itlb : &t->dtlb;
    uint64_t vpn = vaddr >> TLB_PAGE_SHIFT;
    (*l1->accesses)++;
    int e = l1_lookup(l1, vpn);
    if (e >= 0) {
        if (timed && l1->ready[e] > now)   /* merge with the translation in flight */
            return (tlb_result){l1->ready[e], true, l1->walked[e]};
        return (tlb_result){now, false, false};
    }
    (*l1->misses)++;
    tlb_result r = l2_translate(t, vpn, now, timed);
    l1_fill(l1, vpn, timed ? r.ready : 0, r.l2_miss);
    return r;
}

tlb_result tlbs_translate(tlbs *t, bool instr, uint64_t vaddr, uint64_t now)
{
    if (t->ideal)
        return (tlb_result){now, false, false};
    return translate(t, instr, vaddr, now, true);
}

void tlbs_warm(tlbs *t, bool instr, uint64_t vaddr) { translate(t, instr, vaddr, 0, false); }

void tlbs_warm_pages(tlbs *t, const uint64_t *page, int n)
{
    for (int i = 0; i < n; i++) translate(t, page[i] & 1, page[i], 0, false);
}

void tlbs_warm_repeated(tlbs *t, bool instr, uint64_t n) { *(instr ? &t->itlb : &t->dtlb)->accesses += n; }

const tlb_stats *tlbs_get_stats(const tlbs *t) { return &t->stats; }
void tlbs_reset_stats(tlbs *t) { t->stats = (tlb_stats){0}; }

void tlbs_quiesce(tlbs *t)
{
    for (unsigned i = 0; i < t->itlb.n; i++)
        t->itlb.ready[i] = 0;
    for (unsigned i = 0; i < t->dtlb.n; i++)
        t->dtlb.ready[i] = 0;
    for (unsigned i = 0; i < t->nl2; i++)
        t->l2[i].ready = 0;
}

/* ---------------------------------------------------------- warm state */

#define TLBS_STATE_MAGIC 0x31534254ULL   /* "TBS1" */

static void l1_save(const l1_tlb *l, ustate *s)
{
    ustate_put_u64(s, l->clock);
    for (unsigned i = 0; i < l->n; i++) {
        ustate_put_u64(s, l->vpn[i]);
        ustate_put_u64(s, l->last_use[i]);
    }
}

static void l1_restore(l1_tlb *l, ustate *s)
{
    l->clock = ustate_get_u64(s);
    l->mru = 0;
    for (unsigned i = 0; i < l->n; i++) {
        uint64_t vpn = ustate_get_u64(s), last_use = ustate_get_u64(s);
        /* a stamp from the future would break LRU order; an empty entry is never used */
        if (last_use > l->clock || (vpn == NO_PAGE) != (last_use == 0))
            s->bad = true;
        l1_set(l, i, vpn, last_use, 0, false);
        if (last_use > l->last_use[l->mru])
            l->mru = i;
    }
    l1_rebuild(l);
}

void tlbs_save(const tlbs *t, ustate *s)
{
    ustate_put_u64(s, TLBS_STATE_MAGIC);
    ustate_put_u64(s, t->itlb.n);
    ustate_put_u64(s, t->dtlb.n);
    ustate_put_u64(s, t->nl2);
    l1_save(&t->itlb, s);
    l1_save(&t->dtlb, s);
    for (unsigned i = 0; i < t->nl2; i++)
        ustate_put_u64(s, t->l2[i].vpn);
}

bool tlbs_restore(tlbs *t, ustate *s)
{
    ustate_expect_u64(s, TLBS_STATE_MAGIC);
    ustate_expect_u64(s, t->itlb.n);
    ustate_expect_u64(s, t->dtlb.n);
    ustate_expect_u64(s, t->nl2);
    if (s->bad)
        return false;   /* another geometry: leave the TLBs as they were */
    l1_restore(&t->itlb, s);
    l1_restore(&t->dtlb, s);
    for (unsigned i = 0; i < t->nl2; i++) {
        uint64_t vpn = ustate_get_u64(s);
        if (vpn != NO_PAGE && l2_slot(t, vpn) != i)
            s->bad = true;
        t->l2[i] = (l2_entry){.vpn = vpn};
    }
    if (s->bad) {   /* damaged: start cold rather than half restored */
        l1_clear(&t->itlb);
        l1_clear(&t->dtlb);
        l2_clear(t);
    }
    return !s->bad;
}
