/* SonicBOOM's loop predictor, the "L" of its TAGE-L (riscv-boom v3,
 * ifu/bpd/loop.scala): a small table that learns how many times a branch
 * goes one way before it goes the other once (a loop's trip count), and at
 * that count inverts the direction TAGE gives.
 *
 * It has a column per branch slot of each fetch bank, LOOP_SETS entries a
 * column, indexed and tagged by the fetch packet's address. An entry counts
 * the times its branch has been fetched since it last went the other way
 * (s_cnt, speculative: the wrong path counts too, and a rewind restores
 * it); a misprediction of the branch teaches it: the count it had then
 * becomes the trip count (p_cnt) or, when it is the trip count again,
 * confirms it (conf). From conf 7 on, the fetch whose count is the trip
 * count is predicted the other way, and the count starts again.
 *
 * Three simplifications, each of the kind that rarely matters: BOOM trains
 * on a packet's mispredict update every branch of the packet up to the
 * mispredicted one, here only the mispredicted branch learns; BOOM repairs
 * the counts after a misprediction by replaying the FTQ's younger entries,
 * here a rewind restores them exactly; BOOM counts a fetch only where the
 * BTB knew a branch, here every fetch of a branch with an entry counts
 * (a branch gets an entry by being mispredicted, and a loop branch, taken
 * each iteration, stays in the BTB). */
#ifndef RV_UARCH_LOOP_H
#define RV_UARCH_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "uarch/config.h"
#include "uarch/state.h"

#define LOOP_CONFIDENT 7     /* conf from which the entry predicts */
#define LOOP_UNDO 4096       /* fetches a rewind can take back (a power of two) */

typedef struct loop_entry {
    uint16_t tag;
    uint16_t trip;           /* p_cnt: the count the branch went the other way at */
    uint16_t count;          /* s_cnt: fetches since it last did */
    uint8_t conf, age;
} loop_entry;

/* What the prediction read, for the update a misprediction makes. */
typedef struct loop_reading {
    uint16_t count;
    bool flips;              /* it inverted TAGE's direction */
} loop_reading;

typedef struct loop_pred loop_pred;

/* NULL when the configuration has no loop predictor (bpred.loop_sets 0). */
loop_pred *loop_new(const uarch_config *c);
void loop_free(loop_pred *l);
void loop_clear(loop_pred *l);

/* F3: whether the entry of the conditional branch at pc inverts TAGE's
 * direction now; *r keeps what it read. */
bool loop_read(const loop_pred *l, uint64_t pc, loop_reading *r);
/* F4: the branch at pc has been fetched: its entry counts it, or starts
 * counting again after a fetch it inverted. */
void loop_fetched(loop_pred *l, uint64_t pc);
/* The branch at pc was mispredicted (its reading r): its entry learns. */
void loop_mispredicted(loop_pred *l, uint64_t pc, const loop_reading *r);
/* All three at once for n conditional branches at pc[], predicted and
 * resolved in order (functional warming), TAGE's direction wrong for those
 * whose bit is set in tage_wrong: the bits of those whose prediction was
 * wrong. Nothing to rewind. */
uint32_t loop_in_order(loop_pred *l, const uint64_t *pc, int n, uint32_t tage_wrong);

/* The speculative counts now, and back to them (at most LOOP_UNDO fetches
 * later). */
uint64_t loop_mark(const loop_pred *l);
void loop_rewind(loop_pred *l, uint64_t mark);

void loop_save(const loop_pred *l, ustate *s);
void loop_restore(loop_pred *l, ustate *s);

#endif
