/* Branch prediction: a TAGE direction predictor (bimodal base plus tagged
 * tables with geometric history lengths), a set-associative BTB for targets
 * and a return-address stack.
 *
 * The detailed core executes at fetch, so the outcome is known when the
 * prediction is made: bpred_predict_update predicts with the current state,
 * compares with the outcome, and trains immediately (the global history is
 * always the correct path's). Functional warming calls the same function. */
#ifndef RV_UARCH_BPRED_H
#define RV_UARCH_BPRED_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "uarch/config.h"
#include "uarch/state.h"

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
    bool btb_miss;    /* taken direct branch/jump whose target was not in the BTB:
                         a short fetch bubble (the target comes from decode) */
} bp_outcome;

typedef struct bpred_stats {
    uint64_t branches;          /* all control transfers */
    uint64_t cond, cond_mispredicts;
    uint64_t indirect, indirect_mispredicts;   /* jalr other than returns */
    uint64_t returns, return_mispredicts;
    uint64_t btb_misses;
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

/* pc: the branch; taken and target: its outcome; next_pc_fallthrough = pc + length. */
bp_outcome bpred_predict_update(bpred *b, const rv_insn *in, bool taken, uint64_t target);

/* The same training for functional warming, without the outcome: TAGE
 * predicts and trains conditional branches a batch at a time (faster), so
 * the tables and statistics are current only after bpred_warm_flush, which
 * must come before they are read or saved (bpred_predict_update flushes
 * itself). */
void bpred_warm(bpred *b, const rv_insn *in, bool taken, uint64_t target);
/* The same for n events in order (a warming thread's batch). */
void bpred_warm_events(bpred *b, const bp_event *e, int n);
void bpred_warm_flush(bpred *b);

const bpred_stats *bpred_get_stats(const bpred *b);
void bpred_reset_stats(bpred *b);

void bpred_save(const bpred *b, ustate *s);
bool bpred_restore(bpred *b, ustate *s);

#endif
