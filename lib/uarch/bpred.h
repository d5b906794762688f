/* Branch prediction: a TAGE direction predictor (bimodal base plus tagged
 * tables with geometric history lengths) with SonicBOOM's loop predictor
 * (uarch/loop.h; together TAGE-L), a set-associative BTB for targets, a
 * small fully associative micro-BTB and a return-address stack.
 *
 * The detailed core uses it as SonicBOOM's front end does (see
 * bp_prediction): bpred_predict at fetch reads every structure without
 * changing any, bpred_speculate then updates the speculative state (the
 * global history, the return stack and the loop predictor's counts) with
 * the branch, bpred_resolved_mispredict teaches the loop predictor when a
 * mispredicted branch resolves, and bpred_commit trains the other tables
 * when the branch commits.
 *
 * Functional warming (bpred_warm_events, and bpred_predict_update, which tests
 * use too) trains at once, in program order, as if every branch committed
 * as it was fetched; it leaves the micro-BTB alone: its 16 entries relearn
 * within the first few loop iterations of a detailed run. */
#ifndef RV_UARCH_BPRED_H
#define RV_UARCH_BPRED_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "uarch/config.h"
#include "uarch/loop.h"
#include "uarch/state.h"
#include "uarch/tage.h"

/* What kind of control transfer an instruction is (RISC-V hint convention:
 * x1/x5 are link registers). */
enum bp_kind {
    BP_NONE,          /* not a control transfer */
    BP_COND,          /* conditional branch */
    BP_JUMP,          /* jal without link */
    BP_CALL,          /* jal/jalr writing x1 or x5 */
    BP_RET,           /* jalr reading x1/x5, not writing a link register (or popping then pushing) */
    BP_INDIRECT,      /* any other jalr */
};
static inline bool bpred_is_link(unsigned r) { return r == 1 || r == 5; }
static inline enum bp_kind bpred_kind(const rv_insn *in)
{
    if (in->op == RV_OP_fallthrough) return BP_NONE; /* a synthetic block end, not a jump */
    switch (rv_ops[in->op].cls) {
    case CLS_BRANCH:
        return BP_COND;
    case CLS_JAL:
        return bpred_is_link(in->rd) ? BP_CALL : BP_JUMP;
    case CLS_JALR:
        /* The ISA manual's return-address-stack hints: reading a link register
         * pops, unless the same link register is written (then it is a call);
         * writing one pushes. A pop-then-push (coroutine switch) is a return. */
        if (bpred_is_link(in->rs1) && !(bpred_is_link(in->rd) && in->rd == in->rs1)) return BP_RET;
        return bpred_is_link(in->rd) ? BP_CALL : BP_INDIRECT;
    default:
        return BP_NONE;
    }
}

typedef struct bp_outcome {
    bool mispredict;  /* wrong direction, or wrong target for an indirect jump or return:
                         fetch must wait for the branch to resolve */
    bool btb_miss;    /* taken, predicted right, but only by the last fetch stage (neither
                         micro-BTB nor BTB knew it): the front end lost two cycles */
    uint8_t bubbles;  /* fetch cycles lost to a later fetch stage overriding an earlier one */
} bp_outcome;

typedef struct bpred_stats {
    uint64_t branches;          /* all control transfers */
    uint64_t cond, cond_mispredicts;
    uint64_t indirect, indirect_mispredicts;   /* jalr other than returns */
    uint64_t returns, return_mispredicts;
    uint64_t btb_misses;
    uint64_t bubbles;           /* fetch cycles lost to overriding predictions (detailed core only) */
} bpred_stats;

typedef struct bpred bpred;

bpred *bpred_new(const uarch_config *c);
void bpred_free(bpred *b);

/* A control transfer as the predictor learns from it: what it needs of the
 * instruction and of its outcome, so that it can learn away from the
 * instruction (later, or on another thread: warm_thread.h). */
typedef struct bp_event {
    uint64_t pc : 48;       /* guest addresses are below 2^38 (bpred.c checks) */
    uint64_t kind : 3;      /* enum bp_kind, never BP_NONE */
    uint64_t taken : 1;     /* always for all but conditional branches */
    uint64_t indirect : 1;  /* a jalr: the target comes from the BTB or the RAS */
    uint64_t pushes : 1;    /* pushes its return address, pc + len, on the RAS */
    uint64_t len : 3;
    uint64_t target;
} bp_event; /* 16 bytes: the warming run hands millions over to its thread */

/* in's event with its outcome (taken, target) in *e; false, and nothing to
 * learn, when in is no control transfer. */
static inline bool bpred_event(const rv_insn *in, bool taken, uint64_t target, bp_event *e)
{
    enum bp_kind kind = bpred_kind(in);
    if (kind == BP_NONE) return false;
    *e = (bp_event){
        .pc = in->pc,
        .target = target,
        .kind = kind,
        .taken = kind != BP_COND || taken, /* jumps always are */
        .indirect = rv_ops[in->op].cls == CLS_JALR,
        .pushes = kind == BP_CALL || (kind == BP_RET && bpred_is_link(in->rd)),
        .len = in->len,
    };
    return true;
}

/* Predict, then train at once with the outcome (taken, target): the
 * functional warming's view of a branch. */
bp_outcome bpred_predict_update(bpred *b, const rv_insn *in, bool taken, uint64_t target);

/* SonicBOOM's fetch pipeline predicts in three stages: the micro-BTB steers
 * the next fetch at once (F1), the BTB with the base bimodal counters a
 * cycle later (F2), TAGE, the return stack and predecode (direct targets)
 * a cycle after that (F3). F3 has the last word; a stage that disagrees
 * with the one before redirects fetch, losing the cycles since. What the
 * prediction read is kept until the branch commits, to train the tables. */
typedef struct bp_prediction {
    uint64_t next_pc;      /* F3's prediction: where fetch continues after the branch */
    uint8_t bubbles;       /* fetch cycles lost to later stages overriding earlier ones (0-2) */
    tage_pred dir;         /* conditional branches: TAGE's reading */
    loop_reading loop;     /* ... and the loop predictor's (uarch/loop.h) */
} bp_prediction;

/* The prediction for the control transfer in (decoded: predecode knows
 * direct targets). The first control transfer fetched in a bank closes the
 * bank fetch was in: its outcome (not taken) goes into the global history
 * before the prediction (see bpred.c, the global history). */
void bpred_predict(bpred *b, const rv_insn *in, bp_prediction *p);
/* The speculative state after fetching e: its outcome goes into the global
 * history (as its bank's, see bpred.c), its call or return into the return
 * stack, a conditional branch's fetch into the loop predictor's count. (The
 * front end fetches past a misprediction only once it is resolved, so the
 * repaired history and stack are the ones the outcome gives.) */
void bpred_speculate(bpred *b, const bp_event *e);
/* A mispredicted branch has resolved (after the rewind to its checkpoint):
 * what learns at once rather than at commit, as in BOOM (the loop
 * predictor). */
void bpred_resolved_mispredict(bpred *b, const bp_event *e, const bp_prediction *p);
/* The speculative state (global history, return stack) to repair after a
 * misprediction: BOOM restores the history and the return stack's top
 * pointer and top entry; deeper entries the wrong path overwrote stay so.
 * Fewer than TAGE_REWIND_MAX conditional branches may be speculated
 * between the checkpoint and its rewind (each adds an outcome to the
 * history at most, and so may the bank fetch was in). */
typedef struct bp_bank {
    uint64_t bank;     /* the fetch bank fetch is in (pc >> its log2 size), BP_NO_BANK after a taken transfer */
    bool not_taken;    /* it holds a conditional branch, not taken, so far */
} bp_bank;
#define BP_NO_BANK UINT64_MAX
typedef struct bp_checkpoint {
    tage_history history;
    bp_bank bank;
    uint32_t ras_top, ras_count;
    uint64_t ras_top_entry;
    uint64_t loop_mark;
} bp_checkpoint;
bp_checkpoint bpred_checkpoint(const bpred *b);
void bpred_rewind(bpred *b, const bp_checkpoint *cp);
/* How the prediction fared against e's outcome (inline: every fetched
 * control transfer asks). */
static inline bp_outcome bpred_judge(const bp_prediction *p, const bp_event *e)
{
    uint64_t next = e->taken ? e->target : e->pc + e->len;
    if (p->next_pc != next) return (bp_outcome){.mispredict = true};
    return (bp_outcome){.btb_miss = e->taken && p->bubbles == 2, .bubbles = p->bubbles};
}
/* e commits: train TAGE, the BTB and the micro-BTB with its outcome, as
 * predicted by p; count it in the statistics. */
void bpred_commit(bpred *b, const bp_event *e, const bp_prediction *p);

/* The same training for functional warming, of n events in order (a
 * warming batch), without the outcome: TAGE predicts and trains conditional
 * branches a batch at a time (faster), so the tables and statistics are
 * current only after bpred_warm_flush, which must come before they are read
 * or saved (bpred_predict_update flushes itself). */
void bpred_warm_events(bpred *b, const bp_event *e, int n);
void bpred_warm_flush(bpred *b);

const bpred_stats *bpred_get_stats(const bpred *b);
void bpred_reset_stats(bpred *b);

void bpred_save(const bpred *b, ustate *s);
bool bpred_restore(bpred *b, ustate *s);

#endif
