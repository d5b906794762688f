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

enum { CTR_MIN = -4, CTR_MAX = 3, U_MAX = 3, BIM_MAX = 3, ALT_MIN = -8, ALT_MAX = 7 };

/* Folded histories: the newest len outcomes of the global history
 * xor-folded into width bits, the outcome of age j at bit j % width. They
 * are kept current one outcome at a time: rotate in the newest, cancel the
 * one leaving the window. Each table folds its history into the index width
 * and into two tag widths (tag_bits and tag_bits - 1, combined so that the
 * tag hash differs from the index's even when the widths are equal); foldings
 * that differ in width rarely all confuse the same two histories.
 *
 * The three are lanes of a four-lane record with bit masks instead of
 * widths, so that updating them is one branch-free 16-byte vector operation
 * (the fourth lane is idle); this runs for every table on every branch. */
enum { F_INDEX, F_TAG0, F_TAG1, F_LANES = 4 };

typedef struct folds {
    uint32_t comp[F_LANES];
    uint32_t out[F_LANES];   /* 1 << (len % width): where the leaving outcome sits */
    uint32_t top[F_LANES];   /* 1 << width: where a rotated bit lands before wrapping to bit 0 */
    uint8_t width[F_LANES];
} folds;

struct tage {
    int ntab, log_entries, tag_bits, log_bimodal;
    uint32_t age_period;       /* updates between agings of the useful counters */
    tage_entry *tab;           /* table i at [i << log_entries] */
    uint8_t *bimodal;          /* 2-bit counters, taken when >= 2 */
    uint8_t *hist;             /* ring of outcomes (0/1), newest at hist[head] */
    uint32_t hist_mask, head;
    uint32_t len[TAGE_MAX_TABLES];   /* history length of each table */
    folds fold[TAGE_MAX_TABLES];
    int8_t use_alt;            /* >= 0: trust the alternate prediction over a new, weak provider */
    uint32_t tick;             /* updates since the last aging */
    uint32_t rng;              /* xorshift32, for allocation choices */
};

static inline int sat(int v, bool up, int lo, int hi)
{
    return up ? (v < hi ? v + 1 : v) : (v > lo ? v - 1 : v);
}

static inline uint32_t mask_bits(int n) { return (1u << n) - 1; }

static inline unsigned hist_at(const tage *t, uint32_t age)
{
    return t->hist[(t->head - age) & t->hist_mask];
}

/* Recompute the folds from the history ring (after a restore). */
static void refold(tage *t)
{
    for (int i = 0; i < t->ntab; i++) {
        folds *f = &t->fold[i];
        for (int k = 0; k < F_LANES; k++) {
            f->comp[k] = 0;
            for (uint32_t j = 0; j < t->len[i]; j++)
                f->comp[k] ^= (uint32_t)hist_at(t, j) << (j % f->width[k]);
        }
    }
}

tage *tage_new(const uarch_config *c)
{
    int n = c->bp_tage_tables;
    if (n < 1 || n > TAGE_MAX_TABLES || c->bp_tage_tag_bits < 2 || c->bp_tage_tag_bits > 16 ||
        c->bp_tage_log_entries < 1 || c->bp_tage_log_entries > 24 || c->bp_tage_min_hist < 1 ||
        c->bp_bimodal_log_entries < 0 || c->bp_bimodal_log_entries > 30)
        die("bpred: TAGE geometry out of range");
    tage *t = calloc(1, sizeof *t);
    if (!t) die("out of memory");
    t->ntab = n;
    t->log_entries = c->bp_tage_log_entries;
    t->tag_bits = c->bp_tage_tag_bits;
    t->log_bimodal = c->bp_bimodal_log_entries;
    t->age_period = 1u << (t->log_entries + 8);

    /* History lengths min * (max/min)^(i/(n-1)), kept strictly increasing. */
    int lo = c->bp_tage_min_hist, hi = c->bp_tage_max_hist > lo ? c->bp_tage_max_hist : lo, len = 0;
    for (int i = 0; i < n; i++) {
        int l = (int)(lo * pow((double)hi / lo, n > 1 ? (double)i / (n - 1) : 0) + 0.5);
        len = l > len ? l : len + 1;
        t->len[i] = (uint32_t)len;
        const int width[F_LANES] = {t->log_entries, t->tag_bits, t->tag_bits - 1, 1};
        for (int k = 0; k < F_LANES; k++) {
            t->fold[i].out[k] = 1u << len % width[k];
            t->fold[i].top[k] = 1u << width[k];
            t->fold[i].width[k] = (uint8_t)width[k];
        }
    }
    uint32_t ring = 1;
    while (ring <= (uint32_t)len) ring <<= 1;
    t->hist_mask = ring - 1;

    t->tab = malloc(((size_t)n << t->log_entries) * sizeof *t->tab);
    t->bimodal = malloc((size_t)1 << t->log_bimodal);
    t->hist = malloc(ring);
    if (!t->tab || !t->bimodal || !t->hist) die("out of memory");
    tage_clear(t);
    return t;
}

void tage_free(tage *t)
{
    if (!t) return;
    free(t->tab);
    free(t->bimodal);
    free(t->hist);
    free(t);
}

void tage_clear(tage *t)
{
    memset(t->tab, 0, ((size_t)t->ntab << t->log_entries) * sizeof *t->tab);
    memset(t->bimodal, 2, (size_t)1 << t->log_bimodal); /* weakly taken */
    memset(t->hist, 0, t->hist_mask + 1);
    t->head = 0;
    refold(t);
    t->use_alt = 0;
    t->tick = 0;
    t->rng = 0x2545f491;
}

static inline uint32_t table_index(const tage *t, int i, uint64_t p)
{
    uint32_t h = (uint32_t)(p ^ (p >> (abs(t->log_entries - i) + 1))) ^ t->fold[i].comp[F_INDEX];
    return ((uint32_t)i << t->log_entries) | (h & mask_bits(t->log_entries));
}

static inline uint16_t table_tag(const tage *t, int i, uint64_t p)
{
    const folds *f = &t->fold[i];
    uint32_t h = (uint32_t)p ^ f->comp[F_TAG0] ^ (f->comp[F_TAG1] << 1);
    return (uint16_t)(h & mask_bits(t->tag_bits));
}

static inline uint32_t next_random(tage *t)
{
    uint32_t x = t->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return t->rng = x;
}

/* After a misprediction, give the branch an entry in a table with a longer
 * history than the provider's (tables from `first` on), taking one whose
 * entry is not useful. Usually the shortest such table, sometimes the next:
 * always the shortest lets two branches evict each other there forever. If
 * every candidate is useful, age them instead so that a later try succeeds. */
static void allocate(tage *t, int first, const uint32_t *idx, const uint16_t *tag, bool taken)
{
    int free_tab[2], nfree = 0;
    for (int i = first; i < t->ntab && nfree < 2; i++)
        if (t->tab[idx[i]].u == 0) free_tab[nfree++] = i;
    if (nfree == 0) {
        for (int i = first; i < t->ntab; i++) t->tab[idx[i]].u--;
        return;
    }
    int i = free_tab[nfree == 2 && (next_random(t) & 3) == 0];
    t->tab[idx[i]] = (tage_entry){.tag = tag[i], .ctr = taken ? 0 : -1, .u = 0};
}

static void push_history(tage *t, bool taken)
{
    /* Locals: the byte-typed ring may alias anything, which would otherwise
     * make the compiler reload t's fields after every store. */
    uint8_t *hist = t->hist;
    uint32_t mask = t->hist_mask, head = (t->head + 1) & mask, in = taken;
    int n = t->ntab;
    hist[head] = taken;
    t->head = head;
    for (int i = 0; i < n; i++) {
        folds *f = &t->fold[i];
        uint32_t out = -(uint32_t)hist[(head - t->len[i]) & mask];
        for (int k = 0; k < F_LANES; k++) {
            uint32_t c = ((f->comp[k] << 1) | in) ^ (f->out[k] & out);
            uint32_t wrap = c & f->top[k];
            f->comp[k] = c ^ wrap ^ (wrap != 0);
        }
    }
}

bool tage_predict_update(tage *t, uint64_t pc, bool taken)
{
    uint64_t p = pc >> 1; /* instructions are 2-byte aligned */
    uint32_t idx[TAGE_MAX_TABLES];
    uint16_t tag[TAGE_MAX_TABLES];
    int provider = -1, alt = -1; /* longest and second-longest matching tables */
    for (int i = t->ntab - 1; i >= 0; i--) {
        idx[i] = table_index(t, i, p);
        tag[i] = table_tag(t, i, p);
        if (t->tab[idx[i]].tag == tag[i]) {
            if (provider < 0) provider = i;
            else if (alt < 0) alt = i;
        }
    }
    uint8_t *bim = &t->bimodal[p & mask_bits(t->log_bimodal)];
    bool alt_pred = alt >= 0 ? t->tab[idx[alt]].ctr >= 0 : *bim >= 2;
    bool pred = alt_pred;

    if (provider >= 0) {
        tage_entry *e = &t->tab[idx[provider]];
        bool prov_pred = e->ctr >= 0;
        /* A fresh entry that has not yet proven itself: maybe trust the alternate. */
        bool fresh = e->u == 0 && (e->ctr == 0 || e->ctr == -1);
        pred = fresh && t->use_alt >= 0 ? alt_pred : prov_pred;
        if (fresh && prov_pred != alt_pred)
            t->use_alt = (int8_t)sat(t->use_alt, alt_pred == taken, ALT_MIN, ALT_MAX);
        if (prov_pred != alt_pred) e->u = (uint8_t)sat(e->u, prov_pred == taken, 0, U_MAX);
        e->ctr = (int8_t)sat(e->ctr, taken, CTR_MIN, CTR_MAX);
    } else {
        *bim = (uint8_t)sat(*bim, taken, 0, BIM_MAX);
    }
    if (pred != taken && provider < t->ntab - 1) allocate(t, provider + 1, idx, tag, taken);

    /* Age the useful counters now and then so that entries that were useful
     * once do not block allocation forever. */
    if (++t->tick >= t->age_period) {
        t->tick = 0;
        size_t n = (size_t)t->ntab << t->log_entries;
        for (size_t i = 0; i < n; i++) t->tab[i].u >>= 1;
    }
    push_history(t, taken);
    return pred;
}

void tage_save(const tage *t, ustate *s)
{
    ustate_put(s, t->tab, ((size_t)t->ntab << t->log_entries) * sizeof *t->tab);
    ustate_put(s, t->bimodal, (size_t)1 << t->log_bimodal);
    ustate_put(s, t->hist, t->hist_mask + 1);
    ustate_put_u64(s, t->head);
    ustate_put_u64(s, (uint8_t)t->use_alt);
    ustate_put_u64(s, t->tick);
    ustate_put_u64(s, t->rng);
}

void tage_restore(tage *t, ustate *s)
{
    ustate_get(s, t->tab, ((size_t)t->ntab << t->log_entries) * sizeof *t->tab);
    ustate_get(s, t->bimodal, (size_t)1 << t->log_bimodal);
    ustate_get(s, t->hist, t->hist_mask + 1);
    t->head = (uint32_t)ustate_get_u64(s) & t->hist_mask; /* in range whatever s holds */
    t->use_alt = (int8_t)(uint8_t)ustate_get_u64(s);
    t->tick = (uint32_t)ustate_get_u64(s);
    t->rng = (uint32_t)ustate_get_u64(s);
    if (!s->bad) refold(t); /* the folds are a function of the history */
}
