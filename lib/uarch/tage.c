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
 * This runs for every table on every branch, so the folds of four tables
 * share a vector per width (one rotation by the same amount for all four),
 * and the update leaves what a prediction combines them into ready. */
enum { GROUP = 4, NGROUPS = TAGE_MAX_TABLES / GROUP };
typedef uint32_t lanes __attribute__((vector_size(GROUP * sizeof(uint32_t))));

enum { F_INDEX, F_TAG0, F_TAG1, F_KINDS }; /* widths log_entries, tag_bits, tag_bits - 1 */

typedef struct fold_group {
    lanes fold[F_KINDS];
    lanes out[F_KINDS];   /* 1 << (len % width): where the leaving outcome sits */
    lanes base;           /* table << log_entries */
} fold_group;

struct tage {
    int ntab, log_entries, tag_bits, log_bimodal;
    uint32_t age_period;       /* updates between agings of the useful counters */
    tage_entry *tab;           /* table i at [i << log_entries] */
    uint8_t *bimodal;          /* 2-bit counters, taken when >= 2 */
    uint8_t *hist;             /* ring of outcomes (0/1), newest at hist[head] */
    uint32_t hist_mask, head;
    /* The ring again as 32-bit words, each minus its outcome (all ones when
     * taken), twice over so that the outcome of age a (< the ring's size) is
     * at now[-a] with now = &mirror[head + size]: no wrapping, and ready to
     * mask where it goes in a fold. */
    uint32_t *mirror;
    uint32_t len[TAGE_MAX_TABLES];     /* history length of each table (0 past ntab) */
    uint8_t pc_shift[TAGE_MAX_TABLES]; /* the index hashes pc with pc >> this */
    fold_group fold[NGROUPS];
    int width[F_KINDS];
    lanes keep[F_KINDS];       /* (1 << width) - 1 */
    /* From the folds, for the next prediction: index fold | base, and the tag hash. */
    uint32_t index_fold[TAGE_MAX_TABLES], tag_fold[TAGE_MAX_TABLES];
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

static int ngroups(const tage *t) { return (t->ntab + GROUP - 1) / GROUP; }

static void derive_folds(tage *t, int g)
{
    const fold_group *f = &t->fold[g];
    lanes index = f->fold[F_INDEX] | f->base, tag = f->fold[F_TAG0] ^ (f->fold[F_TAG1] << 1);
    memcpy(&t->index_fold[g * GROUP], &index, sizeof index);
    memcpy(&t->tag_fold[g * GROUP], &tag, sizeof tag);
}

/* Only the low width bits count (a restored ring need not hold only 0
 * and 1): the update keeps the fold within them. */
static uint32_t fold_of(const tage *t, uint32_t len, int width)
{
    uint32_t c = 0;
    for (uint32_t j = 0; j < len; j++)
        c ^= (uint32_t)hist_at(t, j) << (j % width);
    return c & mask_bits(width);
}

/* Recompute the mirror and the folds from the history ring (after a restore). */
static void refold(tage *t)
{
    uint32_t size = t->hist_mask + 1;
    for (uint32_t k = 0; k < size; k++)
        t->mirror[k] = t->mirror[k + size] = -(uint32_t)t->hist[k];
    for (int i = 0; i < t->ntab; i++) {
        for (int k = 0; k < F_KINDS; k++)
            t->fold[i / GROUP].fold[k][i % GROUP] = fold_of(t, t->len[i], t->width[k]);
    }
    for (int g = 0; g < ngroups(t); g++)
        derive_folds(t, g);
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

    const int width[F_KINDS] = {t->log_entries, t->tag_bits, t->tag_bits - 1};
    for (int k = 0; k < F_KINDS; k++) {
        t->width[k] = width[k];
        t->keep[k] = (lanes){0} + mask_bits(width[k]);
    }
    /* History lengths min * (max/min)^(i/(n-1)), kept strictly increasing. */
    int lo = c->bp_tage_min_hist, hi = c->bp_tage_max_hist > lo ? c->bp_tage_max_hist : lo, len = 0;
    for (int i = 0; i < n; i++) {
        int l = (int)(lo * pow((double)hi / lo, n > 1 ? (double)i / (n - 1) : 0) + 0.5);
        len = l > len ? l : len + 1;
        t->len[i] = (uint32_t)len;
        t->pc_shift[i] = (uint8_t)(abs(t->log_entries - i) + 1);
        fold_group *f = &t->fold[i / GROUP];
        for (int k = 0; k < F_KINDS; k++)
            f->out[k][i % GROUP] = 1u << len % t->width[k];
        f->base[i % GROUP] = (uint32_t)i << t->log_entries;
    }
    uint32_t ring = 1;
    while (ring <= (uint32_t)len) ring <<= 1;
    t->hist_mask = ring - 1;

    t->tab = malloc(((size_t)n << t->log_entries) * sizeof *t->tab);
    t->bimodal = malloc((size_t)1 << t->log_bimodal);
    t->hist = malloc(ring);
    t->mirror = malloc(2 * (size_t)ring * sizeof *t->mirror);
    if (!t->tab || !t->bimodal || !t->hist || !t->mirror) die("out of memory");
    tage_clear(t);
    return t;
}

void tage_free(tage *t)
{
    if (!t) return;
    free(t->tab);
    free(t->bimodal);
    free(t->hist);
    free(t->mirror);
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
    uint32_t free_tabs = 0; /* a bit per candidate whose entry is not useful */
    for (int i = first; i < t->ntab; i++)
        free_tabs |= (uint32_t)(t->tab[idx[i]].u == 0) << i;
    if (!free_tabs) {
        for (int i = first; i < t->ntab; i++) t->tab[idx[i]].u--;
        return;
    }
    uint32_t second = free_tabs & (free_tabs - 1);
    int i = __builtin_ctz(second && (next_random(t) & 3) == 0 ? second : free_tabs);
    t->tab[idx[i]] = (tage_entry){.tag = tag[i], .ctr = taken ? 0 : -1, .u = 0};
}

/* A fold (< 1 << width) rotated left by one within its width, then the
 * bits of in_out flipped (the newest outcome at bit 0, the leaving one
 * where it sits). */
static inline lanes rotate_in(lanes fold, lanes keep, int width, lanes in_out)
{
    return ((fold << 1) & keep) ^ (fold >> (width - 1)) ^ in_out;
}

static void push_history(tage *t, bool taken)
{
    uint32_t mask = t->hist_mask, head = (t->head + 1) & mask;
    int n = ngroups(t);
    t->hist[head] = taken;
    t->head = head;
    uint32_t *now = &t->mirror[head + mask + 1];
    now[0] = now[-(int64_t)mask - 1] = -(uint32_t)taken;
    const lanes in = (lanes){0} + (uint32_t)taken;
    const int wi = t->width[F_INDEX], w0 = t->width[F_TAG0], w1 = t->width[F_TAG1];
    const lanes ki = t->keep[F_INDEX], k0 = t->keep[F_TAG0], k1 = t->keep[F_TAG1];
    for (int g = 0; g < n; g++) {
        fold_group *f = &t->fold[g];
        const uint32_t *len = &t->len[g * GROUP];
        /* the outcomes leaving the four tables' windows, all ones if taken */
        lanes out = {now[-(int64_t)len[0]], now[-(int64_t)len[1]], now[-(int64_t)len[2]], now[-(int64_t)len[3]]};
        f->fold[F_INDEX] = rotate_in(f->fold[F_INDEX], ki, wi, in ^ (out & f->out[F_INDEX]));
        f->fold[F_TAG0] = rotate_in(f->fold[F_TAG0], k0, w0, in ^ (out & f->out[F_TAG0]));
        f->fold[F_TAG1] = rotate_in(f->fold[F_TAG1], k1, w1, in ^ (out & f->out[F_TAG1]));
        derive_folds(t, g);
    }
}

bool tage_predict_update(tage *t, uint64_t pc, bool taken)
{
    uint64_t p = pc >> 1; /* instructions are 2-byte aligned */
    uint32_t idx[TAGE_MAX_TABLES];
    uint16_t tag[TAGE_MAX_TABLES];
    /* Which tables hold the branch, a bit each, found without branching on
     * each table: the host could not predict those branches. */
    uint32_t match = 0, index_mask = mask_bits(t->log_entries), ptag = (uint32_t)p & mask_bits(t->tag_bits);
    for (int i = 0; i < t->ntab; i++) {
        idx[i] = ((uint32_t)(p ^ (p >> t->pc_shift[i])) & index_mask) ^ t->index_fold[i];
        tag[i] = (uint16_t)(ptag ^ t->tag_fold[i]);
        match |= (uint32_t)(t->tab[idx[i]].tag == tag[i]) << i;
    }
    /* the longest and second-longest matching tables, -1 for none */
    int provider = 31 - __builtin_clz(match | 1) - (match == 0);
    uint32_t rest = match & ~(1u << (provider & 31));
    int alt = 31 - __builtin_clz(rest | 1) - (rest == 0);
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
