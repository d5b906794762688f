/* TAGE conditional-branch direction predictor (Seznec and Michaud, "A case
 * for (partially) TAgged GEometric history length branch prediction", JILP
 * 2006): a bimodal base table and tagged tables indexed by the pc hashed
 * with global histories of geometrically increasing lengths. The longest
 * matching table provides the prediction. As in SonicBOOM's TAGE-L, the
 * base is the BIM every conditional branch trains (bim.scala), not a table
 * only the branches no tagged table provides for train (Seznec's): with
 * bpred.bimodal_log_entries = bpred.bim_log_entries it holds what
 * bpred.c's BIM holds, kept here so that a batch trains it in order. Used
 * by the branch predictor (bpred.c) only. */
#ifndef RV_UARCH_TAGE_H
#define RV_UARCH_TAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "uarch/config.h"
#include "uarch/state.h"

enum {
    TAGE_MAX_TABLES = 16,
    TAGE_BATCH = 32,        /* branches; a multiple of 4, at most 32 */
    TAGE_DELAY_MAX = 64,    /* functional warming's conditional branches between prediction and training */
    TAGE_MAX_PUSHES = 64,   /* outcomes shifted into the history by one batch, or between a mark and its rewind */
};

typedef struct tage tage;

/* Geometry from the bp_tage_* and bp_bimodal_log_entries fields. */
tage *tage_new(const uarch_config *c);
/* Tagged table i's size (log2 entries) and tag width: tage_log_entries,
 * doubled for the tables in tage_large_tables, and tage_tag_bits plus one
 * every tage_tag_growth tables. SonicBOOM's TAGE-L (tage.scala) has six
 * tables of 128, 128, 256, 256, 128 and 128 sets of a bank's 4 entries, in
 * each of 2 banks (2^10 or 2^11 entries), tagged with 7, 7, 8, 8, 9 and 9
 * bits. */
void tage_table_geometry(const uarch_config *c, int i, int *log_entries, int *tag_bits);
void tage_free(tage *t);
/* Back to the state of a new predictor. */
void tage_clear(tage *t);

/* Predict n (<= TAGE_BATCH) branches in order, branch j at pc[j], and train
 * each with its outcome (bit j of taken), in less time a branch. The
 * history is not one outcome per branch (bpred.c): the batch shifts
 * nhistory (<= TAGE_MAX_PUSHES) outcomes into it, bit i of history the
 * i-th, and branch j is predicted from the history after at[j] of them
 * (at[] never decreasing). Returns a bit per branch predicted wrong. */
uint32_t tage_predict_update_batch(tage *t, const uint64_t *pc, uint32_t taken, const uint8_t *at, int n,
                                   uint64_t history, int nhistory);

/* The detailed core's use, split as the hardware splits it (BOOM keeps the
 * prediction's metadata in its fetch target queue and trains at commit):
 * tage_predict reads the tables with the history as it stands, which holds
 * the outcomes of the older branches still in flight; tage_push_history
 * adds the branch's own outcome to it at fetch; tage_train trains, when the
 * branch commits, the entries the prediction read (allocating on a
 * misprediction of the prediction made then, as the hardware knows it). */
typedef struct tage_pred {
    uint32_t idx[TAGE_MAX_TABLES];  /* where each table was read */
    uint16_t tag[TAGE_MAX_TABLES];  /* the tags it was looked for with */
    bool taken;                     /* TAGE's prediction */
} tage_pred;
void tage_predict(const tage *t, uint64_t pc, tage_pred *p);
void tage_push_history(tage *t, bool taken);
/* Where the global history stands, to go back to after a misprediction
 * (BOOM repairs its speculative history so); at most TAGE_REWIND_MAX
 * outcomes may be pushed in between. */
typedef struct tage_history {
    uint32_t head, newest;
} tage_history;
enum { TAGE_REWIND_MAX = TAGE_MAX_PUSHES };
tage_history tage_history_mark(const tage *t);
void tage_history_rewind(tage *t, tage_history m);
void tage_train(tage *t, uint64_t pc, const tage_pred *p, bool taken);
/* Functional warming's single branch: predict it and train it (after the
 * delay, see tage.c's warm_delayed); returns the prediction. */
bool tage_warm_one(tage *t, uint64_t pc, bool taken);

/* The tables, history and policy state, without the geometry (the caller
 * records that). restore reads what save wrote for the same geometry; when
 * s runs short it sets s->bad and leaves t in no particular state. */
void tage_save(const tage *t, ustate *s);
void tage_restore(tage *t, ustate *s);

#endif
