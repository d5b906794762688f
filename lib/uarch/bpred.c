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

/* The target the BTB holds for pc, without touching its recency. */
static bool btb_lookup(const btb *t, uint64_t pc, uint64_t *target)
{
    const btb_entry *set = &t->e[((pc >> 1) & t->set_mask) * t->ways];
    for (uint32_t w = 0; w < t->ways; w++)
        if (set[w].key == (pc | 1)) {
            *target = set[w].target;
            return true;
        }
    return false;
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

static bool ras_top(const ras *r, uint64_t *addr)
{
    if (!r->count) return false;
    *addr = r->a[r->top];
    return true;
}

static bool ras_pop(ras *r, uint64_t *addr)
{
    if (!r->count) return false;
    *addr = r->a[r->top];
    r->top = r->top ? r->top - 1 : r->n - 1;
    r->count--;
    return true;
}

/* ------------------------------------------------------------ micro-BTB */

/* SonicBOOM's micro-BTB: a few fully associative entries, each a taken
 * branch's target and a 2-bit direction counter, read in the cycle of the
 * fetch itself, so that a hit steers the next fetch without a bubble.
 * Entries are allocated by taken branches; the least recently trained one
 * is replaced. */
typedef struct ubtb_entry {
    uint64_t key;    /* pc | 1, 0 if empty */
    uint64_t target;
    uint64_t stamp;  /* when last trained */
    uint8_t ctr;     /* taken when >= 2 */
} ubtb_entry;

typedef struct ubtb {
    ubtb_entry *e;
    uint32_t n;
    uint64_t clock;
} ubtb;

static ubtb_entry *ubtb_find(const ubtb *u, uint64_t pc)
{
    for (uint32_t i = 0; i < u->n; i++)
        if (u->e[i].key == (pc | 1)) return &u->e[i];
    return NULL;
}

static void ubtb_train(ubtb *u, uint64_t pc, bool taken, uint64_t target)
{
    ubtb_entry *e = ubtb_find(u, pc);
    if (!e) {
        if (!taken) return;
        e = &u->e[0]; /* the least recently trained (an empty entry's stamp is 0) */
        for (uint32_t i = 1; i < u->n; i++)
            if (u->e[i].stamp < e->stamp) e = &u->e[i];
        *e = (ubtb_entry){.key = pc | 1, .target = target, .ctr = 2};
    } else {
        if (taken) e->target = target;
        e->ctr = (uint8_t)(taken ? (e->ctr < 3 ? e->ctr + 1 : 3) : (e->ctr > 0 ? e->ctr - 1 : 0));
    }
    e->stamp = ++u->clock;
}

/* ------------------------------------------------------- global history */

/* SonicBOOM's global history (frontend.scala, GlobalHistory.update) holds
 * one outcome per fetch bank (half a fetch packet) that held conditional
 * branches, not one per branch: 1 when one of them was taken, 0 when none
 * was; a bank without one adds nothing. Every branch of a bank is predicted
 * from the history before the bank. So the outcome of a bank whose
 * branches were not taken goes in when fetch leaves the bank: at the first
 * control transfer in another bank, or at a taken jump, which ends the
 * fetch packet (the next one starts a bank anew). bank_enter and bank_leave
 * give the outcomes to shift in, -1 for none. */
static int bank_enter(bp_bank *h, uint64_t pc, int bank_shift)
{
    uint64_t bank = pc >> bank_shift;
    if (bank == h->bank) return -1;
    int out = h->not_taken ? 0 : -1;
    *h = (bp_bank){.bank = bank};
    return out;
}

static int bank_leave(bp_bank *h, const bp_event *e)
{
    if (!e->taken) {
        h->not_taken = true;
        return -1;
    }
    int out = e->kind == BP_COND ? 1 : h->not_taken ? 0 : -1;
    *h = (bp_bank){.bank = BP_NO_BANK};
    return out;
}

/* ------------------------------------------------------------ predictor */

/* The configuration values that shape the saved state. */
#define BPRED_GEOMETRY(G) \
    G(bp_tage_tables) G(bp_tage_log_entries) G(bp_tage_large_tables) G(bp_tage_tag_bits) G(bp_tage_tag_growth) \
    G(bp_tage_min_hist) \
    G(bp_tage_max_hist) G(bp_bimodal_log_entries) G(bp_bim_log_entries) G(bp_btb_entries) G(bp_btb_ways) \
    G(bp_ras_entries) G(bp_loop_sets) G(fetch_width)
#define COUNT(f) +1
enum { NGEOMETRY = 1 + BPRED_GEOMETRY(COUNT) }; /* a format tag, then the values */
#undef COUNT
#define BPRED_STATE_TAG UINT64_C(0x3864657270627672) /* "rvbpred8" in memory: TAGE's allocation clock */

/* Conditional branches that bpred_warm_events has trained the BTB with but not yet
 * TAGE: their direction is predicted and trained a batch at a time. Their
 * pcs and history positions are the bpred's pending_pc and pending_at. */
typedef struct pending_conds {
    uint32_t taken;        /* bit j: the j-th was taken */
    uint32_t btb_unknown;  /* bit j: it was taken to a target the BTB did not hold */
    int n;
    uint64_t history;      /* the outcomes to shift into the global history, bit i the i-th */
    int nhistory;
} pending_conds;

/* The BIM: SonicBOOM's 2-bit direction counters read with the BTB (F2),
 * trained by every conditional branch (unlike TAGE's base, which learns
 * only when no tagged table provides). */
typedef struct bim {
    uint8_t *ctr;    /* taken when >= 2 */
    uint32_t mask;
} bim;

static bool bim_taken(const bim *m, uint64_t pc) { return m->ctr[(pc >> 1) & m->mask] >= 2; }

static void bim_train(bim *m, uint64_t pc, bool taken)
{
    uint8_t *c = &m->ctr[(pc >> 1) & m->mask];
    *c = (uint8_t)(taken ? (*c < 3 ? *c + 1 : 3) : (*c > 0 ? *c - 1 : 0));
}

struct bpred {
    tage *dir;
    bim bim;
    btb btb;
    ubtb ubtb;
    ras ras;
    loop_pred *loop;       /* NULL without one */
    pending_conds pending;
    uint64_t pending_pc[TAGE_BATCH];
    uint8_t pending_at[TAGE_BATCH]; /* the j-th is predicted after that many of the history's outcomes */
    bp_bank bank;          /* the global history's bank fetch is in */
    int bank_shift;
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
    b->loop = loop_new(c);
    b->bank_shift = floor_log2(uarch_fetch_bank_bytes(c));
    b->bank = (bp_bank){.bank = BP_NO_BANK};
    b->btb = (btb){.e = calloc((size_t)sets * ways, sizeof *b->btb.e), .set_mask = sets - 1, .ways = ways};
    b->ras = (ras){.a = calloc((size_t)c->bp_ras_entries, sizeof *b->ras.a), .n = (uint32_t)c->bp_ras_entries};
    b->ubtb = (ubtb){.e = calloc((size_t)c->bp_ubtb_entries, sizeof *b->ubtb.e), .n = (uint32_t)c->bp_ubtb_entries};
    b->bim = (bim){.ctr = malloc((size_t)1 << c->bp_bim_log_entries), .mask = (1u << c->bp_bim_log_entries) - 1};
    if (!b->btb.e || !b->ras.a || !b->ubtb.e || !b->bim.ctr) die("out of memory");
    memset(b->bim.ctr, 2, (size_t)b->bim.mask + 1); /* weakly taken */
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
    loop_free(b->loop);
    free(b->btb.e);
    free(b->ubtb.e);
    free(b->bim.ctr);
    free(b->ras.a);
    free(b);
}

/* Cold tables (statistics are left alone). */
static void bpred_clear(bpred *b)
{
    tage_clear(b->dir);
    if (b->loop) loop_clear(b->loop);
    b->pending = (pending_conds){0};
    b->bank = (bp_bank){.bank = BP_NO_BANK};
    memset(b->btb.e, 0, btb_size(&b->btb));
    memset(b->ubtb.e, 0, b->ubtb.n * sizeof *b->ubtb.e);
    memset(b->bim.ctr, 2, (size_t)b->bim.mask + 1);
    b->ras.top = b->ras.count = 0;
}

static void push_history(bpred *b, int outcome)
{
    if (outcome >= 0) tage_push_history(b->dir, outcome);
}

/* What e teaches the return stack and the BTB, and how their predictions
 * fared (o.mispredict: a direction already wrong, for BTB misses). */
static void learn_targets(bpred *b, const bp_event *e, bp_outcome *o)
{
    if (e->kind == BP_RET) {
        uint64_t top;
        o->mispredict = !ras_pop(&b->ras, &top) || top != e->target;
        b->stats.returns++;
        b->stats.return_mispredicts += o->mispredict;
    }
    if (e->pushes) ras_push(&b->ras, e->pc + e->len);

    if (e->taken) {
        bool known = btb_train(&b->btb, e->pc, e->target);
        if (e->indirect && e->kind != BP_RET) {
            /* Other indirect jumps, calls included, take their target from the BTB. */
            o->mispredict = !known;
            b->stats.indirect++;
            b->stats.indirect_mispredicts += o->mispredict;
        } else if (!e->indirect && !o->mispredict) {
            /* Direct targets are known at decode: a BTB miss costs only a bubble
             * (and a mispredicted direction pays for the redirect anyway). */
            o->btb_miss = !known;
            b->stats.btb_misses += o->btb_miss;
        }
    }
}

/* The loop predictor's part in a conditional branch at pc predicted and
 * resolved at once (functional warming, bpred_predict_update): TAGE's
 * direction was tage_wrong; whether the prediction was. */
static bool in_order(bpred *b, uint64_t pc, bool tage_wrong)
{
    return b->loop ? loop_in_order(b->loop, &pc, 1, tage_wrong) : tage_wrong;
}

static bp_outcome predict_update(bpred *b, const bp_event *e)
{
    bp_outcome o = {0};
    b->stats.branches++;
    bpred_warm_flush(b); /* TAGE and the history learn in order */
    push_history(b, bank_enter(&b->bank, e->pc, b->bank_shift));
    if (e->kind == BP_COND) {
        bool predicted = tage_warm_one(b->dir, e->pc, e->taken);
        o.mispredict = in_order(b, e->pc, predicted != e->taken);
        bim_train(&b->bim, e->pc, e->taken);
        b->stats.cond++;
        b->stats.cond_mispredicts += o.mispredict;
    }
    push_history(b, bank_leave(&b->bank, e));
    learn_targets(b, e, &o);
    return o;
}

bp_outcome bpred_predict_update(bpred *b, const rv_insn *in, bool taken, uint64_t target)
{
    bp_event e;
    return bpred_event(in, taken, target, &e) ? predict_update(b, &e) : (bp_outcome){0};
}

/* ------------------------------------------------- the detailed core's */

void bpred_predict(bpred *b, const rv_insn *in, bp_prediction *p)
{
    push_history(b, bank_enter(&b->bank, in->pc, b->bank_shift));
    enum bp_kind kind = bpred_kind(in);
    uint64_t next = in->pc + in->len, direct = in->pc + (uint64_t)in->imm;
    bool indirect = rv_ops[in->op].cls == CLS_JALR;
    /* F1: the micro-BTB */
    const ubtb_entry *u = ubtb_find(&b->ubtb, in->pc);
    uint64_t f1 = u && (kind != BP_COND || u->ctr >= 2) ? u->target : next;
    /* F2: the BTB; the BIM gives a conditional branch's direction */
    uint64_t btb_target = 0, f2 = next;
    bool btb_hit = btb_lookup(&b->btb, in->pc, &btb_target), flips = false;
    p->loop = (loop_reading){0};
    if (kind == BP_COND) {
        tage_predict(b->dir, in->pc, &p->dir);
        if (b->loop) flips = loop_read(b->loop, in->pc, &p->loop);
    }
    if (btb_hit && (kind != BP_COND || bim_taken(&b->bim, in->pc))) f2 = btb_target;
    /* F3: TAGE's direction (the loop predictor may invert it), direct
     * targets from predecode, the return stack; other indirect jumps keep
     * the BTB's target (none: fall through). */
    uint64_t f3 = f2, top;
    if (kind == BP_COND) f3 = p->dir.taken != flips ? direct : next;
    else if (!indirect) f3 = direct;
    else if (kind == BP_RET && ras_top(&b->ras, &top)) f3 = top;
    p->next_pc = f3;
    p->bubbles = f2 != f3 ? 2 : f1 != f2 ? 1 : 0;
}

void bpred_speculate(bpred *b, const bp_event *e)
{
    push_history(b, bank_leave(&b->bank, e));
    if (b->loop && e->kind == BP_COND) loop_fetched(b->loop, e->pc);
    uint64_t top;
    if (e->kind == BP_RET) ras_pop(&b->ras, &top);
    if (e->pushes) ras_push(&b->ras, e->pc + e->len);
}

bp_checkpoint bpred_checkpoint(const bpred *b)
{
    return (bp_checkpoint){tage_history_mark(b->dir), b->bank, b->ras.top, b->ras.count, b->ras.a[b->ras.top],
                           b->loop ? loop_mark(b->loop) : 0};
}

void bpred_rewind(bpred *b, const bp_checkpoint *cp)
{
    tage_history_rewind(b->dir, cp->history);
    b->bank = cp->bank;
    b->ras.top = cp->ras_top, b->ras.count = cp->ras_count;
    b->ras.a[b->ras.top] = cp->ras_top_entry;
    if (b->loop) loop_rewind(b->loop, cp->loop_mark);
}

void bpred_resolved_mispredict(bpred *b, const bp_event *e, const bp_prediction *p)
{
    if (b->loop && e->kind == BP_COND) loop_mispredicted(b->loop, e->pc, &p->loop);
}

void bpred_commit(bpred *b, const bp_event *e, const bp_prediction *p)
{
    bp_outcome o = bpred_judge(p, e);
    bpred_stats *s = &b->stats;
    s->branches++;
    s->bubbles += o.bubbles;
    s->btb_misses += o.btb_miss;
    if (e->kind == BP_COND) {
        s->cond++;
        s->cond_mispredicts += o.mispredict;
        tage_train(b->dir, e->pc, &p->dir, e->taken);
        bim_train(&b->bim, e->pc, e->taken);
    } else if (e->kind == BP_RET) {
        s->returns++;
        s->return_mispredicts += o.mispredict;
    } else if (e->indirect) {
        s->indirect++;
        s->indirect_mispredicts += o.mispredict;
    }
    if (e->taken) btb_train(&b->btb, e->pc, e->target);
    ubtb_train(&b->ubtb, e->pc, e->taken, e->target);
}

/* ---------------------------------------------------- functional warming */

static inline void queue_history(pending_conds *q, int outcome)
{
    if (outcome < 0) return;
    q->history |= (uint64_t)outcome << q->nhistory;
    q->nhistory++;
}

/* Train TAGE (and the loop predictor) with the batch q, gathered in
 * pending_pc and pending_at. */
static void flush_pending(bpred *b, pending_conds q)
{
    uint32_t wrong =
        tage_predict_update_batch(b->dir, b->pending_pc, q.taken, b->pending_at, q.n, q.history, q.nhistory);
    /* In order, after TAGE's: the loop predictor only reads its direction. */
    if (b->loop) wrong = loop_in_order(b->loop, b->pending_pc, q.n, wrong);
    b->stats.cond_mispredicts += (uint64_t)__builtin_popcount(wrong);
    /* a BTB miss counts only when the direction was right (as in bpred_predict_update) */
    b->stats.btb_misses += (uint64_t)__builtin_popcount(q.btb_unknown & ~wrong);
}

/* Learn from e with the batch being gathered in *q and the fetch bank in
 * *bank; whether e is a conditional branch (the caller counts). A run of
 * events (bpred_warm_events) keeps both in locals, which stay in
 * registers: in b they would be loaded and stored again every event, as
 * the stores to the tables may alias them (bench/bpred_model.sh: 2-3% of
 * the time a branch). */
static inline bool warm_event(bpred *b, pending_conds *q, bp_bank *bank, const bp_event *e)
{
    queue_history(q, bank_enter(bank, e->pc, b->bank_shift));
    if (e->kind != BP_COND) {
        bp_outcome o = {0};
        learn_targets(b, e, &o); /* TAGE is not involved */
        queue_history(q, bank_leave(bank, e));
        return false;
    }
    bim_train(&b->bim, e->pc, e->taken);
    b->pending_pc[q->n] = e->pc;
    b->pending_at[q->n] = (uint8_t)q->nhistory;
    q->taken |= (uint32_t)e->taken << q->n;
    if (e->taken) q->btb_unknown |= (uint32_t)!btb_train(&b->btb, e->pc, e->target) << q->n;
    queue_history(q, bank_leave(bank, e));
    /* (A batch shifts in at most one outcome per branch, and the open bank's.) */
    if (++q->n == TAGE_BATCH) {
        flush_pending(b, *q);
        *q = (pending_conds){0};
    }
    return true;
}

void bpred_warm_events(bpred *b, const bp_event *e, int n)
{
    pending_conds q = b->pending;
    bp_bank bank = b->bank;
    uint64_t cond = 0;
    for (int i = 0; i < n; i++) cond += warm_event(b, &q, &bank, &e[i]);
    b->pending = q;
    b->bank = bank;
    b->stats.branches += (uint64_t)(n > 0 ? n : 0);
    b->stats.cond += cond;
}

void bpred_warm_flush(bpred *b)
{
    if (!b->pending.n && !b->pending.nhistory) return;
    flush_pending(b, b->pending);
    b->pending = (pending_conds){0};
}

const bpred_stats *bpred_get_stats(const bpred *b) { return &b->stats; }

void bpred_reset_stats(bpred *b) { b->stats = (bpred_stats){0}; }

void bpred_save(const bpred *b, ustate *s)
{
    if (b->pending.n || b->pending.nhistory) die("bpred: saved with branches still to learn from (bpred_warm_flush)");
    ustate_put(s, b->geometry, sizeof b->geometry);
    tage_save(b->dir, s);
    ustate_put(s, b->bim.ctr, (size_t)b->bim.mask + 1);
    ustate_put(s, b->btb.e, btb_size(&b->btb));
    ustate_put(s, b->ras.a, (size_t)b->ras.n * sizeof *b->ras.a);
    ustate_put_u64(s, b->ras.top);
    ustate_put_u64(s, b->ras.count);
    ustate_put_u64(s, b->bank.bank);
    ustate_put_u64(s, b->bank.not_taken);
    if (b->loop) loop_save(b->loop, s);
}

bool bpred_restore(bpred *b, ustate *s)
{
    for (int i = 0; i < NGEOMETRY; i++) ustate_expect_u64(s, b->geometry[i]);
    if (s->bad) return false; /* another geometry: b is untouched */
    b->pending = (pending_conds){0}; /* the restored tables replace whatever they would have learnt */
    tage_restore(b->dir, s);
    ustate_get(s, b->bim.ctr, (size_t)b->bim.mask + 1);
    ustate_get(s, b->btb.e, btb_size(&b->btb));
    ustate_get(s, b->ras.a, (size_t)b->ras.n * sizeof *b->ras.a);
    b->ras.top = (uint32_t)(ustate_get_u64(s) % b->ras.n);
    uint64_t count = ustate_get_u64(s);
    b->ras.count = (uint32_t)(count < b->ras.n ? count : b->ras.n);
    b->bank.bank = ustate_get_u64(s);
    b->bank.not_taken = ustate_get_u64(s) != 0;
    if (b->loop) loop_restore(b->loop, s);
    if (!s->bad) return true;
    bpred_clear(b); /* truncated: cold rather than half restored */
    return false;
}
