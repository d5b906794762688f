#include "uarch/bpred.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "uarch/tage.h"
#include "util.h"

_Static_assert(GUEST_VA_SIZE <= UINT64_C(1) << 48 && sizeof(bp_event) == 16, "a bp_event holds any guest pc in 16 bytes");

/* ------------------------------------------------------------------ BTB */

/* A set-associative branch target buffer. Each set is kept in recency order
 * (most recent first), so the last way is the LRU victim; sets are a few
 * ways, and moving entries is cheaper than keeping ages. */
typedef struct btb_entry {
    uint64_t key;    /* pc | 1 (pcs are even, so bit 0 marks a valid entry); 0 if empty */
    uint64_t target;
} btb_entry;

typedef struct btb {
    btb_entry *e;    /* set s at [s * ways] */
    uint32_t set_mask, ways;
} btb;

/* Look pc up, then make pc -> target the set's most recent entry (evicting
 * the LRU one on a miss). True if the BTB already held exactly that. */
static bool btb_train(btb *t, uint64_t pc, uint64_t target)
{
    btb_entry *set = &t->e[((pc >> 1) & t->set_mask) * t->ways];
    uint64_t key = pc | 1;
    uint32_t w = 0;
    while (w < t->ways - 1 && set[w].key != key) w++; /* the hit, else the LRU way */
    bool known = set[w].key == key && set[w].target == target;
    for (; w > 0; w--) set[w] = set[w - 1]; /* a few ways: cheaper than a memmove call */
    set[0] = (btb_entry){key, target};
    return known;
}

static size_t btb_size(const btb *t) { return ((size_t)t->set_mask + 1) * t->ways * sizeof *t->e; }

/* ------------------------------------------------------------------ RAS */

/* A circular return-address stack: pushing onto a full stack overwrites the
 * oldest entry, so after deep recursion the outermost returns find it empty. */
typedef struct ras {
    uint64_t *a;
    uint32_t n, top, count;  /* a[top] is the most recent push when count > 0 */
} ras;

static void ras_push(ras *r, uint64_t addr)
{
    r->top = r->top + 1 == r->n ? 0 : r->top + 1;
    r->a[r->top] = addr;
    if (r->count < r->n) r->count++;
}

static bool ras_pop(ras *r, uint64_t *addr)
{
    if (!r->count) return false;
    *addr = r->a[r->top];
    r->top = r->top ? r->top - 1 : r->n - 1;
    r->count--;
    return true;
}

/* ------------------------------------------------------------ predictor */

/* The configuration values that shape the saved state. */
#define BPRED_GEOMETRY(G) \
    G(bp_tage_tables) G(bp_tage_log_entries) G(bp_tage_tag_bits) G(bp_tage_min_hist) \
    G(bp_tage_max_hist) G(bp_bimodal_log_entries) G(bp_btb_entries) G(bp_btb_ways) G(bp_ras_entries)
#define COUNT(f) +1
enum { NGEOMETRY = 1 + BPRED_GEOMETRY(COUNT) }; /* a format tag, then the values */
#undef COUNT
#define BPRED_STATE_TAG UINT64_C(0x3164657270627672) /* "rvbpred1" in memory */

/* Conditional branches that bpred_warm has trained the BTB with but not yet
 * TAGE: their direction is predicted and trained a batch at a time. */
typedef struct pending_conds {
    uint64_t pc[TAGE_BATCH];
    uint32_t taken;        /* bit j: the j-th was taken */
    uint32_t btb_unknown;  /* bit j: it was taken to a target the BTB did not hold */
    int n;
} pending_conds;

struct bpred {
    tage *dir;
    btb btb;
    ras ras;
    pending_conds pending;
    bpred_stats stats;
    uint64_t geometry[NGEOMETRY];
};

bpred *bpred_new(const uarch_config *c)
{
    uint32_t ways = (uint32_t)c->bp_btb_ways, sets = ways ? (uint32_t)c->bp_btb_entries / ways : 0;
    if (!sets || sets * ways != (uint32_t)c->bp_btb_entries || (sets & (sets - 1)))
        die("bpred: %d BTB entries do not make a power of two sets of %d ways", c->bp_btb_entries,
            c->bp_btb_ways);
    if (c->bp_ras_entries < 1) die("bpred: the return address stack needs at least one entry");

    bpred *b = calloc(1, sizeof *b);
    if (!b) die("out of memory");
    b->dir = tage_new(c);
    b->btb = (btb){.e = calloc((size_t)sets * ways, sizeof *b->btb.e), .set_mask = sets - 1, .ways = ways};
    b->ras = (ras){.a = calloc((size_t)c->bp_ras_entries, sizeof *b->ras.a), .n = (uint32_t)c->bp_ras_entries};
    if (!b->btb.e || !b->ras.a) die("out of memory");
    uint64_t *g = b->geometry;
    *g++ = BPRED_STATE_TAG;
#define GEOMETRY(f) *g++ = (uint64_t)c->f;
    BPRED_GEOMETRY(GEOMETRY)
#undef GEOMETRY
    return b;
}

void bpred_free(bpred *b)
{
    if (!b) return;
    tage_free(b->dir);
    free(b->btb.e);
    free(b->ras.a);
    free(b);
}

/* Cold tables (statistics are left alone). */
static void bpred_clear(bpred *b)
{
    tage_clear(b->dir);
    b->pending = (pending_conds){0};
    memset(b->btb.e, 0, btb_size(&b->btb));
    b->ras.top = b->ras.count = 0;
}

static bp_outcome predict_update(bpred *b, const bp_event *e)
{
    bp_outcome o = {0};
    b->stats.branches++;
    if (e->kind == BP_COND) {
        bpred_warm_flush(b); /* TAGE trains in order */
        o.mispredict = tage_predict_update(b->dir, e->pc, e->taken) != e->taken;
        b->stats.cond++;
        b->stats.cond_mispredicts += o.mispredict;
    }
    if (e->kind == BP_RET) {
        uint64_t top;
        o.mispredict = !ras_pop(&b->ras, &top) || top != e->target;
        b->stats.returns++;
        b->stats.return_mispredicts += o.mispredict;
    }
    if (e->pushes) ras_push(&b->ras, e->pc + e->len);

    if (e->taken) {
        bool known = btb_train(&b->btb, e->pc, e->target);
        if (e->indirect && e->kind != BP_RET) {
            /* Other indirect jumps, calls included, take their target from the BTB. */
            o.mispredict = !known;
            b->stats.indirect++;
            b->stats.indirect_mispredicts += o.mispredict;
        } else if (!e->indirect && !o.mispredict) {
            /* Direct targets are known at decode: a BTB miss costs only a bubble
             * (and a mispredicted direction pays for the redirect anyway). */
            o.btb_miss = !known;
            b->stats.btb_misses += o.btb_miss;
        }
    }
    return o;
}

bp_outcome bpred_predict_update(bpred *b, const rv_insn *in, bool taken, uint64_t target)
{
    bp_event e;
    return bpred_event(in, taken, target, &e) ? predict_update(b, &e) : (bp_outcome){0};
}

static inline void warm_event(bpred *b, const bp_event *e)
{
    if (e->kind != BP_COND) {
        predict_update(b, e); /* TAGE is not involved */
        return;
    }
    b->stats.branches++;
    b->stats.cond++;
    pending_conds *q = &b->pending;
    q->pc[q->n] = e->pc;
    q->taken |= (uint32_t)e->taken << q->n;
    if (e->taken) q->btb_unknown |= (uint32_t)!btb_train(&b->btb, e->pc, e->target) << q->n;
    if (++q->n == TAGE_BATCH) bpred_warm_flush(b);
}

void bpred_warm(bpred *b, const rv_insn *in, bool taken, uint64_t target)
{
    bp_event e;
    if (bpred_event(in, taken, target, &e)) warm_event(b, &e);
}

void bpred_warm_events(bpred *b, const bp_event *e, int n)
{
    for (int i = 0; i < n; i++) warm_event(b, &e[i]);
}

void bpred_warm_flush(bpred *b)
{
    pending_conds *q = &b->pending;
    if (!q->n) return;
    uint32_t wrong = tage_predict_update_batch(b->dir, q->pc, q->taken, q->n);
    b->stats.cond_mispredicts += (uint64_t)__builtin_popcount(wrong);
    /* a BTB miss counts only when the direction was right (as in bpred_predict_update) */
    b->stats.btb_misses += (uint64_t)__builtin_popcount(q->btb_unknown & ~wrong);
    *q = (pending_conds){0};
}

const bpred_stats *bpred_get_stats(const bpred *b) { return &b->stats; }

void bpred_reset_stats(bpred *b) { b->stats = (bpred_stats){0}; }

void bpred_save(const bpred *b, ustate *s)
{
    if (b->pending.n) die("bpred: saved with conditional branches still to train (bpred_warm_flush)");
    ustate_put(s, b->geometry, sizeof b->geometry);
    tage_save(b->dir, s);
    ustate_put(s, b->btb.e, btb_size(&b->btb));
    ustate_put(s, b->ras.a, (size_t)b->ras.n * sizeof *b->ras.a);
    ustate_put_u64(s, b->ras.top);
    ustate_put_u64(s, b->ras.count);
}

bool bpred_restore(bpred *b, ustate *s)
{
    for (int i = 0; i < NGEOMETRY; i++) ustate_expect_u64(s, b->geometry[i]);
    if (s->bad) return false; /* another geometry: b is untouched */
    b->pending = (pending_conds){0}; /* the restored tables replace whatever they would have learnt */
    tage_restore(b->dir, s);
    ustate_get(s, b->btb.e, btb_size(&b->btb));
    ustate_get(s, b->ras.a, (size_t)b->ras.n * sizeof *b->ras.a);
    b->ras.top = (uint32_t)(ustate_get_u64(s) % b->ras.n);
    uint64_t count = ustate_get_u64(s);
    b->ras.count = (uint32_t)(count < b->ras.n ? count : b->ras.n);
    if (!s->bad) return true;
    bpred_clear(b); /* truncated: cold rather than half restored */
    return false;
}
