#include "uarch/tage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* A tagged entry: a 3-bit signed direction counter (taken when >= 0) and a
 * 2-bit usefulness counter that protects it from replacement. */
typedef struct tage_entry {
    uint16_t tag;
    int8_t ctr;
    uint8_t u;
} tage_entry;

enum { CTR_MIN = -4, CTR_MAX = 3, U_MAX = 3, BIM_MAX = 3 };

/* Folded histories: the newest len outcomes of the global history
 * xor-folded into width bits, the outcome of age j at bit j % width. Each
 * table folds its history for three uses: the index (log_entries bits) and
 * the tag hash's two parts (tag_bits and tag_bits - 1, combined so that the
 * tag hash differs from the index's even when the widths are equal);
 * foldings that differ in width rarely all confuse the same two histories.
 *
 * Nothing is kept per table. Per use, the fold of the whole history,
 * all(n) (the outcome of age j at bit j % width), is updated once per
 * outcome and remembered in a ring. The outcomes older than len in all(n)
 * are all(n - len) rotated left by len % width, so a table's fold is
 *   all(n) ^ rotl(all(n - len), len % width).
 * That depends on the outcomes only, not on the tables, so the folds of a
 * batch of branches are computed together before any of them is predicted:
 * four branches at a time, one vector lane each (the same table, so the
 * same rotation, in every lane). */
enum { F_INDEX, F_TAG0, F_TAG1, F_USES }; /* widths: the table's row bits, tag bits, tag bits - 1 */
enum { LANES = 4 };
enum { MAX_RINGS = 24 }; /* distinct fold widths: every width is in [1, 24] */
typedef uint32_t lanes __attribute__((vector_size(LANES * sizeof(uint32_t))));

/* A table's geometry and what it hashes with: its entries, its history
 * length, each use's width (keep) and ring, how its folds are rotated out
 * of all(n - len) (left by len % width, so right by width - that), and the
 * pc shift of its index hash. */
typedef struct table_hash {
    uint32_t base;             /* its first entry in t->tab */
    uint32_t len;
    uint32_t keep[F_USES];     /* (1 << width) - 1 */
    uint8_t ring[F_USES];      /* the ring of all() of the use's width */
    bool tag0_is_index;        /* the first tag part folds as wide as the index: the same fold */
    int rotl[F_USES], rotr[F_USES];
    int pc_shift;
} table_hash;

/* A batch's branches in every table: index (in t->tab) and tag,
 * [table][branch], and which tables hold each branch (a bit each). Only an
 * allocation changes a tag, so the matches are found for all branches
 * first and kept current as allocations replace entries. */
typedef struct batch {
    int n;
    uint32_t idx[TAGE_MAX_TABLES][TAGE_BATCH];
    uint32_t tag[TAGE_MAX_TABLES][TAGE_BATCH];
    uint32_t match[TAGE_BATCH];
} batch;

/* A warmed branch between its prediction and its training: what
 * tage_train needs (as the core keeps it from fetch to commit). */
typedef struct delayed_branch {
    uint64_t pc;
    tage_pred p;
    bool taken;
} delayed_branch;

struct tage {
    int ntab, log_bimodal;
    int slot_bits;             /* log2 of the 16-bit parcels in a fetch packet: an entry's slot in its row */
    uint32_t nentries;         /* of all tables */
    uint32_t age_period;       /* updates between agings of the useful counters */
    tage_entry *tab;           /* table i from hash[i].base */
    uint8_t *bimodal;          /* 2-bit counters, taken when >= 2 */
    uint8_t *hist;             /* ring of outcomes (0/1), newest at hist[head] */
    uint32_t hist_mask, head;
    table_hash hash[TAGE_MAX_TABLES];
    /* Uses of the same width, in any table, share all() and its ring:
     * ring r of nrings folds keep_ring[r] bits. */
    int nrings;
    uint32_t keep_ring[MAX_RINGS];
    uint32_t all[MAX_RINGS];   /* all() of the newest outcome, per ring */
    /* all() of every ring for the newest outcomes, [ring][position]: the
     * newest at `newest`, older ones before it. The first LANES - 1 are
     * there twice, at p and p + size, so that four consecutive ones are
     * contiguous from any position. Big enough that a batch's outcomes do
     * not overwrite what its oldest branch reads. */
    uint32_t *all_ring;
    uint32_t ring_size, newest;
    /* The newest 64 outcomes of the history, the newest at bit 63, kept
     * by shift_in; not after a rewind until recent_ok again. Branches in a
     * batch whose pc and newest repeat_len outcomes are those of the
     * branch before them read the same entries (repeat_len: the longest
     * history, 0 when it is longer than 64). */
    uint64_t recent;
    bool recent_ok;
    uint32_t repeat_len;
    uint32_t tick;             /* updates since the last aging */
    uint64_t clock;            /* updates since the tables were new: when an allocation chooses (alloc_random) */
    /* Functional warming's branches predicted but not trained yet, oldest
     * first from pending_head, `delay` at most once one more is predicted
     * (warm_delayed). Not part of the saved state. */
    int delay;
    delayed_branch pending[TAGE_DELAY_MAX];
    uint32_t pending_head, npending;
};

/* A saturating counter's step, without branching: outcomes of hard
 * branches are as hard for the host to predict. */
static inline int sat(int v, bool up, int lo, int hi)
{
    return v + (up & (v < hi)) - (!up & (v > lo));
}

static inline uint32_t mask_bits(int n) { return (1u << n) - 1; }
static inline uint64_t mask_bits64(uint32_t n) { return (UINT64_C(1) << n) - 1; }

/* all() after one more outcome: rotated left by one within the width, the
 * outcome at bit 0 (a >= keep / 2 + 1: the bit rotated round). */
static inline uint32_t next_all(uint32_t a, uint32_t keep, bool taken)
{
    return (((a << 1) & keep) | (a > keep >> 1)) ^ taken;
}

/* The rings' part of shift_in for nrings rings (a constant where it is
 * inlined): outcome by outcome, every ring's all() a step, so that the
 * rings' dependency chains (each step waits for the last) run side by
 * side rather than one after the other. */
static inline __attribute__((always_inline)) void shift_rings(tage *t, uint32_t taken, int n, int nrings)
{
    const uint32_t size = t->ring_size, p = t->newest;
    uint32_t a[MAX_RINGS], keep[MAX_RINGS], *ring[MAX_RINGS];
    for (int r = 0; r < nrings; r++) {
        a[r] = t->all[r];
        keep[r] = t->keep_ring[r];
        ring[r] = &t->all_ring[(size_t)r * 2 * size];
    }
    for (int j = 0; j < n; j++) {
        bool outcome = taken >> j & 1;
        uint32_t q = (p + 1 + (uint32_t)j) & (size - 1);
        bool mirrored = q < LANES - 1; /* see all_ring */
#pragma GCC unroll 4 /* a[] in registers: each step waits for the last, not for a store's forwarding */
        for (int r = 0; r < nrings; r++) {
            a[r] = next_all(a[r], keep[r], outcome);
            ring[r][q] = a[r];
            if (mirrored) ring[r][q + size] = a[r];
        }
    }
    for (int r = 0; r < nrings; r++) t->all[r] = a[r];
}

/* Shift outcomes (bit j of taken the j-th of n) into the history and into
 * all() of every use, remembering each all(). */
static inline __attribute__((always_inline)) void shift_in(tage *t, uint32_t taken, int n)
{
    switch (t->nrings) { /* the usual counts, unrolled */
    case 1: shift_rings(t, taken, n, 1); break;
    case 2: shift_rings(t, taken, n, 2); break;
    case 3: shift_rings(t, taken, n, 3); break;
    case 4: shift_rings(t, taken, n, 4); break;
    default: shift_rings(t, taken, n, t->nrings); break;
    }
    uint32_t head = t->head;
    for (int j = 0; j < n; j++) {
        head = (head + 1) & t->hist_mask;
        t->hist[head] = taken >> j & 1;
    }
    t->newest = (t->newest + (uint32_t)n) & (t->ring_size - 1);
    t->head = head;
    t->recent = t->recent >> n | (uint64_t)taken << (64 - n); /* taken's bits past n go past bit 63 */
}

/* Recompute the ring of folds from the history ring (after a restore or a
 * clear). Only differences of all() count, so it may start from nothing
 * at the oldest outcome the history holds. A restored history need not
 * hold only 0 and 1: an outcome is taken when it is not 0. */
static void refold(tage *t)
{
    memset(t->all, 0, sizeof t->all);
    t->newest = 0;
    t->recent = 0;
    uint32_t newest = t->head;
    for (uint32_t age = t->hist_mask + 1; age-- > 0;) {
        bool taken = t->hist[(newest - age) & t->hist_mask] != 0;
        t->head = (newest - age - 1) & t->hist_mask; /* shift_in rewrites the outcome where it was */
        shift_in(t, taken, 1);
    }
    t->recent_ok = true;
}

void tage_table_geometry(const uarch_config *c, int i, int *log_entries, int *tag_bits)
{
    *log_entries = c->bp_tage_log_entries + (c->bp_tage_large_tables >> i & 1);
    *tag_bits = c->bp_tage_tag_bits + (c->bp_tage_tag_growth ? i / c->bp_tage_tag_growth : 0);
}

/* The ring of all() that folds width bits, a new one if none does yet. */
static uint8_t ring_of_width(tage *t, int width)
{
    uint32_t keep = mask_bits(width);
    int r = 0;
    while (r < t->nrings && t->keep_ring[r] != keep) r++;
    if (r == t->nrings) t->keep_ring[t->nrings++] = keep;
    return (uint8_t)r;
}

/* Each table's geometry, history length and hashing; returns the longest
 * history. */
static int hash_tables(tage *t, const uarch_config *c)
{
    /* History lengths min * (max/min)^(i/(n-1)), kept strictly increasing. */
    int n = t->ntab, lo = c->bp_tage_min_hist, hi = c->bp_tage_max_hist > lo ? c->bp_tage_max_hist : lo, len = 0;
    uint32_t base = 0;
    for (int i = 0; i < n; i++) {
        int log_entries, tag_bits;
        tage_table_geometry(c, i, &log_entries, &tag_bits);
        const int width[F_USES] = {log_entries - t->slot_bits, tag_bits, tag_bits - 1};
        int l = (int)(lo * pow((double)hi / lo, n > 1 ? (double)i / (n - 1) : 0) + 0.5);
        len = l > len ? l : len + 1;
        table_hash *h = &t->hash[i];
        h->base = base;
        base += 1u << log_entries;
        h->len = (uint32_t)len;
        h->pc_shift = abs(width[F_INDEX] - i) + 1;
        h->tag0_is_index = width[F_TAG0] == width[F_INDEX];
        for (int k = 0; k < F_USES; k++) {
            h->keep[k] = mask_bits(width[k]);
            h->ring[k] = ring_of_width(t, width[k]);
            h->rotl[k] = len % width[k];
            h->rotr[k] = width[k] - h->rotl[k];
        }
    }
    t->nentries = base;
    return len;
}

tage *tage_new(const uarch_config *c)
{
    int n = c->bp_tage_tables;
    bool fits = n >= 1 && n <= TAGE_MAX_TABLES && c->bp_tage_log_entries >= 1 && c->bp_tage_min_hist >= 1 &&
                c->bp_bimodal_log_entries >= 0 && c->bp_bimodal_log_entries <= 30;
    for (int i = 0; fits && i < n; i++) {
        int log_entries, tag_bits;
        tage_table_geometry(c, i, &log_entries, &tag_bits);
        fits = tag_bits >= 2 && tag_bits <= 16 && log_entries <= 24; /* all tables' entries fit 32 bits */
    }
    if (!fits) die("bpred: TAGE geometry out of range");
    tage *t = calloc(1, sizeof *t);
    if (!t) die("out of memory");
    t->ntab = n;
    /* A fetch packet's parcels (a power of two, for the slot), fewer than a table's entries. */
    while ((1 << t->slot_bits) < c->fetch_width && t->slot_bits + 1 < c->bp_tage_log_entries) t->slot_bits++;
    t->log_bimodal = c->bp_bimodal_log_entries;
    t->age_period = 1u << (c->bp_tage_log_entries + 8);
    t->delay = c->bp_warm_delay;
    if (t->delay < 0 || t->delay >= TAGE_DELAY_MAX) die("bpred: a warming delay of %d branches is not in 0..%d", t->delay, TAGE_DELAY_MAX - 1);

    int len = hash_tables(t, c);
    t->repeat_len = len <= 64 ? (uint32_t)len : 0;
    uint32_t ring = 1;
    while (ring <= (uint32_t)len + TAGE_MAX_PUSHES) ring <<= 1; /* what a rewind goes back to stays */
    t->hist_mask = ring - 1;
    t->ring_size = 1;
    while (t->ring_size <= (uint32_t)len + TAGE_MAX_PUSHES) t->ring_size <<= 1;

    t->tab = malloc((size_t)t->nentries * sizeof *t->tab);
    t->bimodal = malloc((size_t)1 << t->log_bimodal);
    t->hist = malloc(ring);
    t->all_ring = malloc((size_t)t->nrings * 2 * t->ring_size * sizeof *t->all_ring);
    if (!t->tab || !t->bimodal || !t->hist || !t->all_ring) die("out of memory");
    tage_clear(t);
    return t;
}

void tage_free(tage *t)
{
    if (!t) return;
    free(t->tab);
    free(t->bimodal);
    free(t->hist);
    free(t->all_ring);
    free(t);
}

void tage_clear(tage *t)
{
    memset(t->tab, 0, (size_t)t->nentries * sizeof *t->tab);
    memset(t->bimodal, 2, (size_t)1 << t->log_bimodal); /* weakly taken */
    memset(t->hist, 0, t->hist_mask + 1);
    t->head = 0;
    refold(t);
    t->tick = 0;
    t->clock = 0;
    t->pending_head = t->npending = 0;
}

/* The random bits an allocation chooses its table with. SonicBOOM's LFSR
 * (tage.scala, alloc_lfsr) steps with time, not with allocations, so they
 * depend on when the branch came, here its position among the updates,
 * and not on how many allocations came before: one allocation that differs
 * (the detailed core decides on the prediction it made at fetch, warming
 * on the one in program order, see tage_train) changes no later choice,
 * and a chunk started from warming's tables chooses as the serial run. */
static inline uint32_t alloc_random(const tage *t)
{
    uint64_t x = t->clock + UINT64_C(0x9e3779b97f4a7c15); /* splitmix64's finaliser */
    x = (x ^ x >> 30) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ x >> 27) * UINT64_C(0x94d049bb133111eb);
    return (uint32_t)(x ^ x >> 31);
}

static inline lanes load_lanes(const uint32_t *p)
{
    lanes v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* A table is rows of entries, a row per fetch packet and history (hashed
 * from the packet's address), an entry per 16-bit parcel of the packet: a
 * branch's slot. So branches share the table as SonicBOOM's TAGE-L shares
 * its sets (tage.scala: a set of bankWidth entries, indexed and tagged by
 * the fetch packet), not an entry per branch hashed from its own pc. */
typedef struct branch_addr {
    uint64_t row;    /* the fetch packet: pc / (2 << slot_bits) */
    uint32_t slot;   /* the branch's parcel in it */
} branch_addr;

static inline branch_addr addr_of(const tage *t, uint64_t pc)
{
    uint64_t p = pc >> 1; /* instructions are 2-byte aligned */
    return (branch_addr){p >> t->slot_bits, (uint32_t)(p & mask_bits(t->slot_bits))};
}

/* What four branches are hashed from: the halves of their rows and their
 * slots, and for each use all() of their histories (now) and of the ones
 * len older (old, len being the table's). */
typedef struct hash_input {
    lanes lo, hi, slot;
    lanes now[MAX_RINGS];  /* per ring */
    lanes old[F_USES];     /* per use of the table hashed */
} hash_input;

/* Ring r of all(). */
static inline const uint32_t *ring_at(const tage *t, int r) { return &t->all_ring[(size_t)r * 2 * t->ring_size]; }

/* Table h's fold of one use: only the low width bits count. */
static inline lanes fold_of(const table_hash *h, const hash_input *in, int use)
{
    return in->now[h->ring[use]] ^ ((in->old[use] << h->rotl[use]) | (in->old[use] >> h->rotr[use]));
}

/* Table i's indices (in t->tab) and tags of four branches. */
static inline void hash_table(const tage *t, int i, const hash_input *in, lanes *index, lanes *tag)
{
    const table_hash *h = &t->hash[i];
    lanes index_fold = fold_of(h, in, F_INDEX) & h->keep[F_INDEX];
    lanes tag0 = h->tag0_is_index ? index_fold : fold_of(h, in, F_TAG0);
    lanes tag1 = fold_of(h, in, F_TAG1) & h->keep[F_TAG1];
    /* (uint32_t)(row ^ row >> pc_shift), pc_shift in [1, 31] */
    lanes pc_hash = in->lo ^ in->lo >> h->pc_shift ^ in->hi << (32 - h->pc_shift);
    lanes row = (pc_hash ^ index_fold) & h->keep[F_INDEX];
    *index = (row << t->slot_bits | in->slot) + h->base;
    *tag = (in->lo ^ tag0 ^ tag1 << 1) & h->keep[F_TAG0];
}

/* Table i's tags at four indices. */
static inline lanes tags_at(const tage *t, lanes index)
{
    return (lanes){t->tab[index[0]].tag, t->tab[index[1]].tag, t->tab[index[2]].tag, t->tab[index[3]].tag};
}

/* all() of four branches' histories, `back` outcomes before each: the
 * history's positions are at[], consecutive (one vector load) or not. */
static inline lanes folds_at(const uint32_t *ring, const uint32_t *at, bool consecutive, uint32_t back, uint32_t mask)
{
    if (consecutive) return load_lanes(&ring[(at[0] - back) & mask]);
    return (lanes){ring[(at[0] - back) & mask], ring[(at[1] - back) & mask], ring[(at[2] - back) & mask],
                   ring[(at[3] - back) & mask]};
}

/* Hash branches [0, b->n) of a batch for every table and find where they
 * match: branch j is predicted from the history as it stood after
 * at[j] of the batch's outcomes, all() at `first` + at[j]. p_lo and p_hi:
 * the halves of each branch's row, slot its slot, all to a multiple of four branches
 * (the lanes past n are hashed too, harmlessly). Bit j of repeats: branch
 * j is hashed as branch j - 1 (see repeats_of); four such in a row are
 * copied rather than hashed. */
static void hash_batch(const tage *t, const uint32_t *p_lo, const uint32_t *p_hi, const uint32_t *slot,
                       const uint8_t *at, uint32_t first, uint32_t repeats, batch *b)
{
    const uint32_t ring_mask = t->ring_size - 1;
    for (int j = 0; j < b->n; j += LANES) {
        if ((repeats >> j & 0xf) == 0xf) { /* (never for j = 0) */
            for (int i = 0; i < t->ntab; i++) {
                lanes index = (lanes){0} + b->idx[i][j - 1], tag = (lanes){0} + b->tag[i][j - 1];
                memcpy(&b->idx[i][j], &index, sizeof index);
                memcpy(&b->tag[i][j], &tag, sizeof tag);
            }
            lanes match = (lanes){0} + b->match[j - 1];
            memcpy(&b->match[j], &match, sizeof match);
            continue;
        }
        uint32_t pos[LANES];
        for (int l = 0; l < LANES; l++) pos[l] = first + at[j + l];
        bool consecutive = pos[1] == pos[0] + 1 && pos[2] == pos[0] + 2 && pos[3] == pos[0] + 3;
        hash_input in; /* not initialised whole: the rings past nrings are never read */
        in.lo = load_lanes(&p_lo[j]), in.hi = load_lanes(&p_hi[j]), in.slot = load_lanes(&slot[j]);
        for (int r = 0; r < t->nrings; r++) in.now[r] = folds_at(ring_at(t, r), pos, consecutive, 0, ring_mask);
        lanes match = {0};
        for (int i = 0; i < t->ntab; i++) {
            const table_hash *h = &t->hash[i];
            for (int k = 0; k < F_USES; k++) in.old[k] = folds_at(ring_at(t, h->ring[k]), pos, consecutive, h->len, ring_mask);
            lanes index, tag;
            hash_table(t, i, &in, &index, &tag);
            memcpy(&b->idx[i][j], &index, sizeof index);
            memcpy(&b->tag[i][j], &tag, sizeof tag);
            match |= (lanes)(tags_at(t, index) == tag) & (1u << i);
        }
        memcpy(&b->match[j], &match, sizeof match);
    }
}

/* The same for a batch of one branch at pc, before its outcome is shifted
 * in: its inputs, fresh from the history, go in as scalars (reading them
 * back as vectors from memory just written would stall the host). */
static void hash_one(const tage *t, uint64_t pc, batch *b)
{
    const uint32_t ring_mask = t->ring_size - 1;
    branch_addr a = addr_of(t, pc);
    hash_input in; /* as in hash_batch */
    in.lo = (lanes){(uint32_t)a.row}, in.hi = (lanes){(uint32_t)(a.row >> 32)}, in.slot = (lanes){a.slot};
    for (int r = 0; r < t->nrings; r++) in.now[r] = (lanes){t->all[r]};
    for (int i = 0; i < t->ntab; i++) {
        const table_hash *h = &t->hash[i];
        for (int k = 0; k < F_USES; k++) in.old[k] = (lanes){ring_at(t, h->ring[k])[(t->newest - h->len) & ring_mask]};
        lanes index, tag;
        hash_table(t, i, &in, &index, &tag);
        b->idx[i][0] = index[0];
        b->tag[i][0] = tag[0];
    }
}

/* After a misprediction, give the branch an entry in a table with a longer
 * history than the provider's (tables from `first` on), taking one whose
 * entry is not useful, as SonicBOOM's TAGE chooses (tage.scala): the
 * shortest of a random subset of them, else the shortest. If every
 * candidate is useful and a table provided, the candidates' entries lose
 * their usefulness instead, so that a later try succeeds. The branch is b's
 * j-th. */
static void allocate(tage *t, int first, batch *b, int j, bool taken)
{
    uint32_t free_tabs = 0; /* a bit per candidate whose entry is not useful */
    for (int i = first; i < t->ntab; i++)
        free_tabs |= (uint32_t)(t->tab[b->idx[i][j]].u == 0) << i;
    if (!free_tabs) {
        if (first > 0)
            for (int i = first; i < t->ntab; i++) t->tab[b->idx[i][j]].u = 0;
        return;
    }
    uint32_t some = free_tabs & alloc_random(t);
    int i = __builtin_ctz(some ? some : free_tabs);
    uint32_t index = b->idx[i][j], tag = b->tag[i][j];
    t->tab[index] = (tage_entry){.tag = (uint16_t)tag, .ctr = taken ? 0 : -1, .u = 0};
    /* the batch's later branches at that entry now match it or not */
    for (int k = j + 1; k < b->n; k++) {
        if (b->idx[i][k] == index)
            b->match[k] = (b->match[k] & ~(1u << i)) | (uint32_t)(b->tag[i][k] == tag) << i;
    }
}

/* The prediction when e provides it: its own unless its counter is weak,
 * then the alternate's (alt_pred), as SonicBOOM's TAGE decides. */
static inline bool provided(const tage_entry *e, bool alt_pred)
{
    return e->ctr == 0 || e->ctr == -1 ? alt_pred : e->ctr >= 0;
}

/* Train the provider entry e with the outcome; returns the prediction,
 * its own or the alternate's (alt_pred). Its usefulness moves only when
 * the prediction differs from the alternate's: up when right, down when
 * wrong. */
static bool train_provider(tage_entry *e, bool alt_pred, bool taken)
{
    bool pred = provided(e, alt_pred);
    int u = sat(e->u, pred == taken, 0, U_MAX);
    e->u = (uint8_t)(pred != alt_pred ? u : e->u);
    e->ctr = (int8_t)sat(e->ctr, taken, CTR_MIN, CTR_MAX);
    return pred;
}

/* An update: the allocations' clock moves, and now and then the useful
 * counters age so that entries that were useful once do not block
 * allocation forever. */
static inline void age_useful(tage *t)
{
    t->clock++;
    if (++t->tick >= t->age_period) {
        t->tick = 0;
        for (size_t i = 0; i < t->nentries; i++) t->tab[i].u >>= 1;
    }
}

/* The longest matching table of a match mask, -1 for none. */
static inline int longest_match(uint32_t match) { return 31 - __builtin_clz(match | 1) - (match == 0); }

/* Train branch j of a batch (at p, its pc / 2) with its outcome, the
 * prediction read from the tables as they stand; returns that prediction.
 * wrong_before >= 0: whether an earlier reading (at fetch) was wrong, which
 * decides the allocation instead; -1: this reading's. */
static inline __attribute__((always_inline)) bool predict_train(tage *t, uint64_t p, batch *b, int j, bool taken, int wrong_before)
{
    uint32_t match = b->match[j];
    /* the longest and second-longest matching tables */
    int provider = longest_match(match);
    int alt = longest_match(match & ~(1u << (provider & 31)));
    uint8_t *bim = &t->bimodal[p & mask_bits(t->log_bimodal)];
    bool alt_pred = alt >= 0 ? t->tab[b->idx[alt][j]].ctr >= 0 : *bim >= 2;
    bool pred = alt_pred;
    if (provider >= 0)
        pred = train_provider(&t->tab[b->idx[provider][j]], alt_pred, taken);
    /* The base is SonicBOOM's BIM, which every branch trains (bim.scala),
     * whichever table provided. */
    *bim = (uint8_t)sat(*bim, taken, 0, BIM_MAX);
    bool wrong = wrong_before >= 0 ? wrong_before : pred != taken;
    if (wrong && provider < t->ntab - 1) allocate(t, provider + 1, b, j, taken);
    age_useful(t);
    return pred;
}

/* Would training branch j of b with `taken` once more change nothing,
 * now that it has been trained with it and predicted it right? The bimodal
 * counter and the provider (if any) saturated towards the outcome and,
 * where the provider's usefulness moves, already at its maximum: the same
 * test predict_train's updates make, without making them. */
static inline bool trained_to_fixed_point(const tage *t, uint64_t p, const batch *b, int j, bool taken)
{
    uint32_t match = b->match[j];
    int provider = longest_match(match);
    uint8_t bim = t->bimodal[p & mask_bits(t->log_bimodal)];
    if (bim != (taken ? BIM_MAX : 0)) return false;
    if (provider < 0) return true;
    const tage_entry *e = &t->tab[b->idx[provider][j]];
    if (e->ctr != (taken ? CTR_MAX : CTR_MIN)) return false;
    int alt = longest_match(match & ~(1u << provider));
    bool alt_pred = alt >= 0 ? t->tab[b->idx[alt][j]].ctr >= 0 : bim >= 2;
    return alt_pred == taken || e->u == U_MAX;
}

/* The newest 64 outcomes after the first a (<= 64) of a batch's (bit i
 * of batch the i-th), before being the newest 64 before them; the newest
 * at bit 63. */
static inline uint64_t window_after(uint64_t before, uint64_t batch, unsigned a)
{
    if (a == 0) return before;
    if (a >= 64) return batch;
    return before >> a | batch << (64 - a);
}

/* Rebuild t->recent from the history ring (after a rewind). */
static void recent_from_history(tage *t)
{
    uint64_t r = 0;
    for (uint32_t age = 64; age-- > 0;) r = r >> 1 | (uint64_t)(t->hist[(t->head - age) & t->hist_mask] != 0) << 63;
    t->recent = r;
    t->recent_ok = true;
}

/* Which branches of a batch (bit j for branch j > 0) are hashed as the one
 * before: the same pc, and the same newest repeat_len outcomes (the folds
 * of every table depend on those only, the index and the tag on the folds
 * and the pc), so the same entries and tags. None when the history is
 * longer than 64. */
static uint32_t repeats_of(tage *t, const uint64_t *pc, const uint8_t *at, int n, uint64_t history)
{
    uint32_t same_pc = 0;
    for (int j = 1; j < n; j++) same_pc |= (uint32_t)(pc[j] == pc[j - 1]) << j;
    if (!same_pc || !t->repeat_len) return 0; /* (the usual case of most programs: cheaply done) */
    if (!t->recent_ok) recent_from_history(t);
    uint32_t repeats = 0, shift = 64 - t->repeat_len;
    uint64_t before = t->recent;
    /* A loop of one branch, as the usual case: the outcomes every branch
     * sees all the same (those of before from the first branch's oldest
     * on, and the batch's up to the last branch's) */
    uint32_t oldest = at[0] + shift, last = at[n - 1];
    uint64_t old_mask = oldest < 64 ? ~UINT64_C(0) << oldest : 0, new_mask = last < 64 ? mask_bits64(last) : ~UINT64_C(0);
    if (((before & old_mask) == old_mask && (history & new_mask) == new_mask) || !((before & old_mask) | (history & new_mask)))
        return same_pc;
    for (uint32_t m = same_pc; m; m &= m - 1) {
        int j = __builtin_ctz(m);
        uint64_t w = window_after(before, history, at[j]), last = window_after(before, history, at[j - 1]);
        repeats |= (uint32_t)(((w ^ last) >> shift) == 0) << j;
    }
    return repeats;
}

/* TAGE's prediction for the branch at pc whose entries p names (p->idx,
 * p->tag), read from the tables as they stand now. */
static bool read_prediction(const tage *t, uint64_t pc, const tage_pred *p)
{
    uint32_t match = 0;
    for (int i = 0; i < t->ntab; i++) match |= (uint32_t)(t->tab[p->idx[i]].tag == p->tag[i]) << i;
    int provider = longest_match(match);
    int alt = longest_match(match & ~(1u << (provider & 31)));
    bool alt_pred = alt >= 0 ? t->tab[p->idx[alt]].ctr >= 0 : t->bimodal[(pc >> 1) & mask_bits(t->log_bimodal)] >= 2;
    return provider >= 0 ? provided(&t->tab[p->idx[provider]], alt_pred) : alt_pred;
}

/* Functional warming learns a conditional branch as the detailed core does:
 * predicted now (its allocation decides on this prediction), trained
 * t->delay conditional branches later, as the core trains it at commit
 * while younger branches have been predicted since its fetch. Returns the
 * prediction. */
static bool warm_delayed(tage *t, uint64_t pc, const tage_pred *p, bool taken)
{
    t->pending[(t->pending_head + t->npending) % TAGE_DELAY_MAX] = (delayed_branch){pc, *p, taken};
    if (++t->npending > (uint32_t)t->delay) {
        const delayed_branch *oldest = &t->pending[t->pending_head];
        tage_train(t, oldest->pc, &oldest->p, oldest->taken);
        t->pending_head = (t->pending_head + 1) % TAGE_DELAY_MAX;
        t->npending--;
    }
    return p->taken;
}

/* tage_predict_update_batch with a delay: each branch of b predicted from
 * the tables as the trainings so far left them, then queued. */
static uint32_t warm_batch_delayed(tage *t, const uint64_t *pc, uint32_t taken, const batch *b)
{
    uint32_t wrong = 0;
    for (int j = 0; j < b->n; j++) {
        tage_pred p;
        for (int i = 0; i < t->ntab; i++) p.idx[i] = b->idx[i][j], p.tag[i] = (uint16_t)b->tag[i][j];
        p.taken = read_prediction(t, pc[j], &p);
        bool outcome = taken >> j & 1;
        wrong |= (uint32_t)(p.taken != outcome) << j;
        warm_delayed(t, pc[j], &p, outcome);
    }
    return wrong;
}

uint32_t tage_predict_update_batch(tage *t, const uint64_t *pc, uint32_t taken, const uint8_t *at, int n,
                                   uint64_t history, int nhistory)
{
    uint32_t p_lo[TAGE_BATCH], p_hi[TAGE_BATCH], slot[TAGE_BATCH], first = t->newest;
    uint8_t at4[TAGE_BATCH];
    for (int j = 0; j < n; j++) {
        branch_addr a = addr_of(t, pc[j]);
        p_lo[j] = (uint32_t)a.row;
        p_hi[j] = (uint32_t)(a.row >> 32);
        slot[j] = a.slot;
        at4[j] = at[j];
    }
    for (int j = n; j % LANES; j++) p_lo[j] = p_hi[j] = slot[j] = 0, at4[j] = 0; /* hashed too, to no use */
    uint32_t repeats = repeats_of(t, pc, at, n, history);
    /* The outcomes go into the history first: the tables do not depend on
     * them, and the folds of the later branches do. */
    for (int done = 0; done < nhistory; done += 32)
        shift_in(t, (uint32_t)(history >> done), nhistory - done < 32 ? nhistory - done : 32);
    batch b;
    b.n = n;
    hash_batch(t, p_lo, p_hi, slot, at4, first, repeats, &b);
    if (t->delay) return warm_batch_delayed(t, pc, taken, &b);
    uint32_t wrong = 0;
    /* A repeat of a branch whose training reached a fixed point, with the
     * same outcome, is predicted right and changes nothing but the
     * clocks (the usefulness's aging and the allocations'; a loop of one
     * branch, as the usual case): only they move, and once the aging
     * clock ages the tables the next one is trained in full. */
    bool prev_right = false, fixed = false; /* fixed: known to be, since the last full training */
    for (int j = 0; j < n; j++) {
        bool outcome = taken >> j & 1;
        if (prev_right && (repeats >> j & 1) && outcome == (bool)(taken >> (j - 1) & 1) && t->tick != 0 &&
            (fixed || (fixed = trained_to_fixed_point(t, pc[j] >> 1, &b, j - 1, outcome)))) {
            age_useful(t);
            continue;
        }
        prev_right = predict_train(t, pc[j] >> 1, &b, j, outcome, -1) == outcome;
        wrong |= (uint32_t)!prev_right << j;
        fixed = false;
    }
    return wrong;
}

void tage_predict(const tage *t, uint64_t pc, tage_pred *p)
{
    batch b;
    b.n = 1;
    hash_one(t, pc, &b);
    for (int i = 0; i < t->ntab; i++) p->idx[i] = b.idx[i][0], p->tag[i] = (uint16_t)b.tag[i][0];
    p->taken = read_prediction(t, pc, p);
}

void tage_push_history(tage *t, bool taken) { shift_in(t, taken, 1); }

tage_history tage_history_mark(const tage *t) { return (tage_history){t->head, t->newest}; }

/* The rings still hold every fold the marked history needs: a push
 * overwrites positions more than ring_size - TAGE_BATCH older only. */
void tage_history_rewind(tage *t, tage_history m)
{
    t->head = m.head & t->hist_mask;
    t->newest = m.newest & (t->ring_size - 1);
    t->recent_ok = false;
    for (int r = 0; r < t->nrings; r++) t->all[r] = t->all_ring[(size_t)r * 2 * t->ring_size + t->newest];
}

void tage_train(tage *t, uint64_t pc, const tage_pred *p, bool taken)
{
    batch b;
    b.n = 1;
    b.match[0] = 0;
    for (int i = 0; i < t->ntab; i++) {
        b.idx[i][0] = p->idx[i], b.tag[i][0] = p->tag[i];
        b.match[0] |= (uint32_t)(t->tab[p->idx[i]].tag == p->tag[i]) << i;
    }
    predict_train(t, pc >> 1, &b, 0, taken, p->taken != taken);
}

bool tage_warm_one(tage *t, uint64_t pc, bool taken)
{
    tage_pred p;
    tage_predict(t, pc, &p);
    return warm_delayed(t, pc, &p, taken);
}


void tage_save(const tage *t, ustate *s)
{
    ustate_put(s, t->tab, (size_t)t->nentries * sizeof *t->tab);
    ustate_put(s, t->bimodal, (size_t)1 << t->log_bimodal);
    ustate_put(s, t->hist, t->hist_mask + 1);
    ustate_put_u64(s, t->head);
    ustate_put_u64(s, t->tick);
    ustate_put_u64(s, t->clock);
}

void tage_restore(tage *t, ustate *s)
{
    ustate_get(s, t->tab, (size_t)t->nentries * sizeof *t->tab);
    ustate_get(s, t->bimodal, (size_t)1 << t->log_bimodal);
    ustate_get(s, t->hist, t->hist_mask + 1);
    t->head = (uint32_t)ustate_get_u64(s) & t->hist_mask; /* in range whatever s holds */
    t->tick = (uint32_t)ustate_get_u64(s);
    t->clock = ustate_get_u64(s);
    if (!s->bad) refold(t); /* the folds are a function of the history */
}
