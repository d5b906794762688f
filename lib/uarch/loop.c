#include "uarch/loop.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define LOOP_TAG_BITS 10     /* loop.scala: tagSz */
#define LOOP_COUNT_MASK 0x3ff /* its counts are 10 bits */
#define LOOP_AGE_MAX 7

/* Where an entry is. */
typedef struct loop_geometry {
    loop_entry *e;           /* [bank][slot][set] */
    int set_bits, packet_shift, bank_shift;
    unsigned sets, slots, banks;
} loop_geometry;

/* What a fetch changed, for a rewind. */
typedef struct loop_undo {
    loop_entry *e;
    uint16_t count;
    uint8_t age;
} loop_undo;

struct loop_pred {
    loop_geometry g;
    loop_undo undo[LOOP_UNDO];
    uint64_t fetches;
};

static size_t table_bytes(const loop_geometry *g) { return (size_t)g->banks * g->slots * g->sets * sizeof *g->e; }

loop_pred *loop_new(const uarch_config *c)
{
    if (!c->bp_loop_sets) return NULL;
    if (c->bp_loop_sets & (c->bp_loop_sets - 1)) die("bpred: %d loop predictor sets are not a power of two", c->bp_loop_sets);
    loop_pred *l = calloc(1, sizeof *l);
    if (!l) die("out of memory");
    unsigned packet = uarch_fetch_packet_bytes(c), bank = uarch_fetch_bank_bytes(c), sets = (unsigned)c->bp_loop_sets;
    /* A column per halfword a branch can start at, in each bank. */
    l->g = (loop_geometry){.set_bits = floor_log2(sets), .packet_shift = floor_log2(packet),
                           .bank_shift = floor_log2(bank), .sets = sets, .slots = bank / 2, .banks = packet / bank};
    if (!(l->g.e = calloc(1, table_bytes(&l->g)))) die("out of memory");
    return l;
}

void loop_free(loop_pred *l)
{
    if (!l) return;
    free(l->g.e);
    free(l);
}

void loop_clear(loop_pred *l)
{
    memset(l->g.e, 0, table_bytes(&l->g));
    l->fetches = 0;
}

/* The entry of the branch at pc: its bank's column for its slot, the set
 * and tag from the fetch packet's address (every bank of a packet shares
 * the index; loop.scala: f2_req_idx). */
static inline loop_entry *entry_in(const loop_geometry *g, uint64_t pc, uint16_t *tag)
{
    uint64_t idx = pc >> g->packet_shift;
    *tag = (uint16_t)((idx >> g->set_bits) & ((1u << LOOP_TAG_BITS) - 1));
    unsigned bank = (unsigned)(pc >> g->bank_shift) & (g->banks - 1), slot = (unsigned)(pc >> 1) & (g->slots - 1);
    return &g->e[((size_t)bank * g->slots + slot) * g->sets + (idx & (g->sets - 1))];
}

static inline bool inverts(const loop_entry *e, uint16_t tag)
{
    return e->tag == tag && e->count == e->trip && e->conf == LOOP_CONFIDENT;
}

bool loop_read(const loop_pred *l, uint64_t pc, loop_reading *r)
{
    uint16_t tag;
    const loop_entry *e = entry_in(&l->g, pc, &tag);
    r->count = e->count;
    r->flips = inverts(e, tag);
    return r->flips;
}

/* F4's update of an entry whose tag is the fetched branch's. */
static inline void count_fetch(loop_entry *e, bool inverted)
{
    if (inverted) {
        e->age = LOOP_AGE_MAX;
        e->count = 0;
    } else {
        e->count = (e->count + 1) & LOOP_COUNT_MASK;
        if (e->age < LOOP_AGE_MAX) e->age++;
    }
}

void loop_fetched(loop_pred *l, uint64_t pc)
{
    uint16_t tag;
    loop_entry *e = entry_in(&l->g, pc, &tag);
    if (e->tag != tag) return;
    l->undo[l->fetches++ & (LOOP_UNDO - 1)] = (loop_undo){e, e->count, e->age};
    count_fetch(e, inverts(e, tag));
}

/* loop.scala's update on a misprediction, case by case: the branch's
 * entry read count when it was predicted. */
static void learn(loop_entry *e, uint16_t tag, uint16_t count)
{
    bool hit = e->tag == tag, same_trip = e->trip == count;
    if (e->conf == LOOP_CONFIDENT) {
        if (hit) e->count = 0, e->conf = 0; /* it was sure, and wrong (or TAGE was): start over */
        return;                              /* a confident entry is not evicted */
    }
    if (e->conf && hit) {
        if (same_trip) e->conf++;            /* the trip count again: more confident */
        else e->conf = 0, e->trip = count;
        e->count = 0;
    } else if (e->conf) {
        if (!e->age) *e = (loop_entry){.tag = tag, .trip = count, .conf = 1}; /* replace an old entry */
        else e->age--;
    } else if (hit) {
        if (same_trip) e->conf = 1;
        else e->trip = count;
        e->age = LOOP_AGE_MAX, e->count = 0;
    } else {
        *e = (loop_entry){.tag = tag, .trip = count, .conf = 1, .age = LOOP_AGE_MAX};
    }
}

void loop_mispredicted(loop_pred *l, uint64_t pc, const loop_reading *r)
{
    uint16_t tag;
    loop_entry *e = entry_in(&l->g, pc, &tag);
    learn(e, tag, r->count);
}

uint32_t loop_in_order(loop_pred *l, const uint64_t *pc, int n, uint32_t tage_wrong)
{
    uint32_t wrong = 0;
    const loop_geometry g = l->g; /* a copy the entries' stores cannot change: kept in registers */
    for (int j = 0; j < n; j++) {
        uint16_t tag;
        loop_entry *e = entry_in(&g, pc[j], &tag);
        bool hit = e->tag == tag, tage_was_wrong = tage_wrong >> j & 1;
        if (!hit && !tage_was_wrong) continue; /* the usual case: nothing to count, nothing to learn */
        if (hit && !tage_was_wrong) {
            /* A run of fetches of this branch that TAGE got right (a loop of
             * one branch): counted at once when none of them is at the count
             * the entry inverts at. */
            int k = j + 1;
            while (k < n && pc[k] == pc[j] && !(tage_wrong >> k & 1)) k++;
            unsigned run = (unsigned)(k - j), to_trip = (unsigned)(e->trip - e->count) & LOOP_COUNT_MASK;
            if (e->conf != LOOP_CONFIDENT || to_trip >= run) {
                e->count = (uint16_t)((e->count + run) & LOOP_COUNT_MASK);
                e->age = (uint8_t)(e->age + run < LOOP_AGE_MAX ? e->age + run : LOOP_AGE_MAX);
                j = k - 1;
                continue;
            }
        }
        uint16_t count = e->count;
        bool inverted = inverts(e, tag);
        if (hit) count_fetch(e, inverted);
        if (tage_was_wrong != inverted) {
            wrong |= 1u << j;
            learn(e, tag, count);
        }
    }
    return wrong;
}

uint64_t loop_mark(const loop_pred *l) { return l->fetches; }

void loop_rewind(loop_pred *l, uint64_t mark)
{
    if (l->fetches - mark > LOOP_UNDO) die("loop predictor: a rewind past %d fetches", LOOP_UNDO);
    while (l->fetches > mark) {
        const loop_undo *u = &l->undo[--l->fetches & (LOOP_UNDO - 1)];
        u->e->count = u->count, u->e->age = u->age;
    }
}

void loop_save(const loop_pred *l, ustate *s)
{
    ustate_put(s, l->g.e, table_bytes(&l->g));
}

void loop_restore(loop_pred *l, ustate *s)
{
    ustate_get(s, l->g.e, table_bytes(&l->g));
    l->fetches = 0;
}
