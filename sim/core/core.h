/* The detailed out-of-order core. It executes at fetch: the stepping path
 * supplies the correct-path instruction stream, and the pipeline decides
 * when each instruction is fetched, dispatched, issued, completed and
 * committed. The front end predicts as SonicBOOM's does (lib/uarch/bpred.h:
 * micro-BTB, then BTB, then TAGE and the return stack, each later stage
 * redirecting fetch when it disagrees) and trains the predictor at commit.
 * After a mispredicted branch the front end fetches the predicted path,
 * which the core executes until the branch resolves (sim/core/wrong_path.c);
 * then it is squashed and fetch is redirected. Flushes at commit (CSR
 * writes to the FP status, ecall, memory-ordering violations) squash the
 * younger instructions, which are fetched again from the window.
 *
 * The stages run once per cycle in reverse order (commit, store drain,
 * branch resolution, dispatch, fetch), so values move one stage per cycle. Issue is scheduled
 * at dispatch: operands' ready cycles, issue-port slots, unpipelined units
 * and memory latencies give each instruction its issue and completion cycle
 * (oldest first, as dispatch is in order). Cycles in which nothing can
 * happen are skipped in one step: every stage that waits on a future cycle
 * reports it, and the clock jumps to the earliest. */
#ifndef SIM_CORE_H
#define SIM_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "account.h"
#include "decode_cache.h"
#include "probe.h"
#include "psv.h"
#include "exec/exec.h"
#include "exec/exec_spec.h"
#include "uarch/bpred.h"
#include "uarch/uarch.h"

enum uop_flag {
    UOP_PREDICTED = 1 << 0,    /* branch prediction done (a refetch keeps it) */
    UOP_MISPREDICT = 1 << 1,
    UOP_BTB_MISS = 1 << 2,
    UOP_FLUSH_CSR = 1 << 3,    /* flushes the pipeline after commit */
    UOP_EXCEPTION = 1 << 4,    /* ecall/ebreak: exception-like flush after commit */
    UOP_ORDERING = 1 << 5,     /* loaded before an older store's address was known */
    UOP_REPLAYED = 1 << 6,     /* was flushed and replayed for an ordering violation */
    UOP_SERIAL = 1 << 7,       /* dispatches alone into an empty ROB */
    UOP_L1I_MISS = 1 << 8,     /* first instruction of a fetch packet that missed */
    UOP_ITLB_MISS = 1 << 9,
    UOP_DTLB_MISS = 1 << 10,
    UOP_L2TLB_MISS = 1 << 11,  /* a page walk for the data access */
    UOP_FORWARDED = 1 << 12,   /* load data came from the store queue */
    UOP_ITLB_WALK = 1 << 13,   /* a page walk for the fetch packet (first instruction) */
    UOP_TLB_BOUND = 1 << 14,   /* its memory access waited longer for translation than for data */
    UOP_SQ_FULL = 1 << 15,     /* a store that found the store queue full at dispatch */
    UOP_FRONT_END = UOP_PREDICTED | UOP_MISPREDICT | UOP_BTB_MISS | UOP_L1I_MISS | UOP_ITLB_MISS | UOP_ITLB_WALK,
};

enum issue_queue { IQ_INT, IQ_MEM, IQ_FP, IQ_COUNT };

/* The issue and completion time of a wrong-path instruction that will not
 * issue before it is squashed. */
#define CYCLE_NEVER (UINT64_MAX / 4)

/* One dynamic instruction in the window (fetched, not yet committed). */
typedef struct uop {
    rv_dyninst d;
    uint64_t fetch_ready;      /* cycle it leaves decode and may dispatch */
    uint64_t issue, complete;  /* scheduled at dispatch */
    uint64_t fetched, dispatched, ready; /* cycles: fetch, dispatch (rename), operands ready */
    uint64_t instance;         /* fetched instances before this one (a refetch is a new instance) */
    uint64_t history;          /* conditional-branch outcomes before it, newest in bit 0 (at its fetch) */
    uint64_t units[ST_COUNT];  /* attributed time so far, 1/U cycle */
    uint32_t packet;           /* fetch packet number (FTQ occupancy) */
    uint16_t flags;
    uint8_t stall_key;         /* stack component while it stalls at the ROB head */
    uint8_t fe_key;            /* drained component while the front end brings it */
    uint8_t mem_level;         /* loads: enum mem_level */
    uint8_t fe_bubbles;        /* fetch cycles lost after it to a late fetch stage's redirect */
    bool wrong_path;           /* on a mispredicted branch's predicted path (sim/core/wrong_path.c) */
    bool stuck;                /* a wrong-path instruction that cannot execute (exec_spec.h) */
    bool executed;             /* a wrong-path instruction executed (as it reached dispatch) */
    uint16_t wp_fetched;       /* a mispredicted branch: wrong-path instructions fetched after it */
    uint16_t wp_issued;        /* ... and of those, issued before it resolved */
    uint8_t sfb_count;         /* a recoded short forward branch: the instructions it jumps over */
    uint32_t sfb_rds;          /* ... and the integer registers they write (sim/core/sfb.h) */
    uint32_t mshr_wait;        /* loads: cycles the L1D miss waited for an MSHR */
    uint8_t iq;
    uint8_t port;              /* the issue port of its queue it issues on */
    uint64_t issue2;           /* stores: the second half's issue when address and data issue apart, else 0 */
    uint8_t port2;             /* ... and its port */
    uint8_t slot;              /* its place in its decode packet */
    uint32_t row;              /* its ROB row: the decode packet it dispatched with */
    rv_operands ops;           /* registers read and written (rv_operands numbering) */
    uint64_t stq_pos;          /* stores: position in the store queue ring */
} uop;

/* A store from dispatch until its write to the L1D completes. */
typedef struct store_entry {
    uint64_t seq, addr;
    uint64_t addr_ready, data_ready;
    uint64_t done;             /* write complete (UINT64_MAX until issued) */
    uint64_t write_start;      /* when its write began (the probe's) */
    uint32_t write_wait;       /* ... and waited for an L1D MSHR */
    uint8_t size;
    bool committed;
} store_entry;

typedef struct issue_slot {
    uint64_t cycle;
    uint32_t used;             /* ports taken in that cycle, a bit each */
} issue_slot;

enum { ISSUE_HORIZON = 4096 }; /* issue slots are tracked this many cycles ahead */

typedef struct issue_queue_state {
    int entries, width;
    uint64_t *pending;         /* issue cycles of dispatched, not yet issued entries */
    int npending;
    int parked;                /* entries of wrong-path instructions that never issue (CYCLE_NEVER) */
    issue_slot slots[ISSUE_HORIZON];
} issue_queue_state;

/* The commit stage of the current cycle. A run that reaches its target
 * instruction mid-cycle pauses here and the next run resumes the same
 * cycle, so where runs stop never changes the simulation. */
typedef struct commit_cycle {
    bool open;                 /* paused at a target, to be resumed */
    bool charged;              /* the cycle is already counted (at the pause) */
    int n;                     /* instructions committed so far this cycle */
    uop *committed[8];
    uint64_t blocks[8];        /* their dynamic blocks, for the attribution */
    uint16_t psv[8];           /* their PSVs, when a probe reads them */
    uint8_t flush_key;         /* the first flushing committer's cause, pc, block */
    uint64_t flush_pc, flush_block, flush_seq;
    uint16_t flush_psv;
} commit_cycle;

typedef struct sim_core {
    uarch_config cfg;
    uarch *ua;
    rv_proc *proc;
    uint32_t units;            /* U = lcm(1..commit width) */

    uint64_t now;
    uint64_t wake;             /* earliest future cycle a waiting stage named */
    bool active;               /* some stage did something this cycle */

    /* The window: sequence numbers are instruction counts. */
    uop *win;
    uint64_t win_mask;
    uint64_t head, disp, fetch, avail; /* oldest uncommitted / next to dispatch / to fetch / to execute */
    uint64_t fetch_limit;      /* the functional model stops here */
    bool program_ended;        /* the functional model stopped (exit or fault) */

    /* Front end. */
    uint64_t fetch_next;       /* cycle the next packet may be fetched */
    uint64_t icache_free;      /* cycle the I-cache takes a new request (it blocks on a miss) */
    uint64_t fetch_wait;       /* mispredicted branch fetch waits on, UINT64_MAX if none */
    uint32_t packet;
    uint64_t *branches;        /* unresolved branches in fetch order (ring) */
    bp_prediction *predictions; /* each window slot's control transfer's prediction, until it commits */
    decode_cache *decoded;     /* instructions and operands by pc */
    uint64_t br_head, br_tail;
    int fetch_buffer_cap;

    /* The wrong path (sim/core/wrong_path.c). */
    struct {
        bool on;               /* fetch follows the mispredicted branch's prediction */
        bool stopped;          /* it met an instruction it cannot fetch past */
        uint64_t branch;       /* the branch; the wrong path's instructions are numbered after it */
        int branches;          /* conditional branches it fetched (fewer than TAGE_REWIND_MAX) */
        uint64_t fetch_pc;     /* where it fetches next */
        rv_spec spec;          /* its registers and stores, as far as it has dispatched */
        bp_checkpoint bp;      /* the predictor's speculative state after the branch */
        uint32_t packet;       /* the fetch packet and the branch history after it */
        uint64_t history;
        uint64_t reg_ready[64], div_free[8], fdiv_free[8]; /* after the branch's dispatch */
    } wp;

    /* Back end. */
    struct {
        int left;              /* instructions of the decode packet still to dispatch */
        int slot;              /* the next one's place in the packet */
    } dec;
    uint64_t reg_ready[64];
    uint64_t sfb_from, sfb_to; /* the pcs of the shadow of the last recoded branch dispatched */
    uint64_t sfb_ready;        /* when its outcome is known: the shadow executes predicated on it */
    int int_regs_used, fp_regs_used, loads_used;
    bool serial_inflight;
    issue_queue_state iq[IQ_COUNT];
    uint64_t div_free[8], fdiv_free[8];
    store_entry *stq;
    uint64_t stq_head, stq_tail; /* ring positions */
    bool stq_blocked;          /* dispatch waits for store-queue space or drain */

    /* Accounting. */
    counters ctr;
    commit_cycle cc;
    uint8_t flush_key;         /* STK_FLUSHED_* of the last commit cycle, 0 if none */
    uint64_t flush_pc, flush_block, flush_seq;
    uint16_t flush_psv;
    uint64_t drained_pending;  /* Drained units waiting for the next instruction */
    uint64_t block_pc;         /* entry pc of the block being committed */
    uint32_t block_len;
    bool block_ended;          /* the last committed instruction ended its block */
    cost_table by_pc, by_block;

    /* The probes (sim/core/probe.h): the commit probe's consumers and the view of
     * the cycle in progress; the attribution probe. */
    probe_consumer probes[32];
    int nprobes;
    bool probe_psv;            /* some consumer reads PSVs */
    bool view_on;              /* some consumer reads the view being noted */
    commit_view view;
    attribution_probe attribution;

    uint64_t instances;        /* instances fetched so far */
    uint64_t history;          /* global history of conditional branches as fetched */
    instance_probe instance_probes[4];
    int ninstance_probes;
    /* The ends of a squashed wrong path's instances, told once its branch
     * ends (probe_instance_end). */
    struct {
        uint64_t branch;
        instance_record *r;    /* room for a window's worth */
        size_t n;
    } wp_ended;

    /* Loads idealised one static instruction at a time (icost per load):
     * their pcs, sorted; they hit the L1D. */
    const uint64_t *ideal_loads;
    size_t nideal_loads;
    probe_ahead_records ahead; /* the wrong path past what was fetched, for the instance consumers that read it (wrong_path.c) */
} sim_core;

sim_core *core_new(const uarch_config *cfg, uarch *ua, rv_proc *p);
void core_free(sim_core *c);

/* The functional model will not run past this instruction count. */
void core_set_fetch_limit(sim_core *c, uint64_t icount);

/* Simulate until instruction `target` (an instruction count) has committed
 * or the program has ended and drained. When target commits mid-cycle the
 * run pauses inside that cycle, already counted, and the next call resumes
 * it: counters read between calls partition instructions exactly, cycles
 * too (a cycle belongs to the run in which it started committing), and the
 * simulation does not depend on where the calls stop. Returns the committed
 * count. */
uint64_t core_run(sim_core *c, uint64_t target);

/* Finish a cycle paused by core_run without committing more in it: the
 * attribution of the run so far is then complete. */
void core_close_cycle(sim_core *c);

/* Start a measured region: forget the attribution so far (counters are
 * differenced by the caller). */
void core_reset_attribution(sim_core *c);

/* Register a consumer of the per-cycle commit view (sim/core/probe.h); psv:
 * it reads the PSVs of committed instructions and flushers; want_from:
 * where it says from which cycle on it reads views. */
void core_add_probe(sim_core *c, probe_fn *fn, void *ctx, bool psv, const uint64_t *want_from);
/* The loads at these pcs (sorted, kept by the caller) hit the L1D: a limit
 * study per static load. */
void core_set_ideal_loads(sim_core *c, const uint64_t *pcs, size_t n);
/* Register a consumer of the instance probe; reads_ahead: it is told the
 * wrong path past the core's dispatch too (probe.h, enum probe_ahead),
 * which the probe computes at each squash only when some consumer reads
 * it. */
void core_add_instance_probe(sim_core *c, instance_fn *fn, void *ctx, bool reads_ahead);
/* Register the consumer of the attribution probe (one at most). */
void core_set_attribution_probe(sim_core *c, attribution_fn *fn, void *ctx);

/* Committed instruction count (the next instruction to commit). */
static inline uint64_t core_committed(const sim_core *c) { return c->head; }
static inline bool core_done(const sim_core *c) { return c->program_ended && c->head == c->avail; }

/* Internal: stages and helpers shared by core*.c. */
static inline uop *core_uop(const sim_core *c, uint64_t seq) { return &c->win[seq & c->win_mask]; }
/* A window slot made new for the next instruction fetched into it (a copy
 * of a blank one: cheaper than clearing it in place). */
static inline void core_uop_clear(uop *u)
{
    static const uop blank;
    *u = blank;
}
/* Does a control transfer of class cls take one of the core's branch tags
 * (frontend.max_branches) until it resolves? Conditional branches and
 * indirect jumps do, but not a recoded short forward branch (sfb_count),
 * which cannot mispredict (SonicBOOM's micro-op.scala, allocate_brtag). */
static inline bool core_takes_branch_tag(unsigned cls, uint8_t sfb_count)
{
    return (cls == CLS_BRANCH && !sfb_count) || cls == CLS_JALR;
}

/* When branch b, scheduled, resolves: as it executes, after register read. */
static inline uint64_t core_resolves_at(const sim_core *c, const uop *b)
{
    return b->complete + (uint64_t)c->cfg.regread_stages;
}
static inline void core_wake_at(sim_core *c, uint64_t t)
{
    if (t < c->wake) c->wake = t;
}
/* Commits up to target; returns true if it paused there mid-cycle (the
 * other stages of the cycle have not run yet). Counts the cycle otherwise. */
bool core_commit_stage(sim_core *c, uint64_t target);
/* End a paused commit stage as it stands. */
void core_commit_end(sim_core *c);
void core_drain_stores(sim_core *c);
void core_dispatch_stage(sim_core *c);
void core_fetch_stage(sim_core *c);
/* The mispredicted branch fetch waits on resolves: squash the wrong path,
 * redirect fetch. */
void core_resolve_stage(sim_core *c);
/* Wrong path (sim/core/wrong_path.c): start it after fetching the mispredicted
 * branch b; make sure slot c->fetch holds its next instruction (false: it
 * has none: it is decoded at fetch, executed at dispatch); note a
 * dispatched instruction (the branch's dispatch is the
 * state to go back to); squash it when the branch resolves, or drop it
 * with everything from the branch on (a flush from an older instruction). */
void wrong_path_start(sim_core *c, const uop *b);
bool wrong_path_next(sim_core *c);
void wrong_path_dispatched(sim_core *c, const uop *u);
/* Execute a wrong-path instruction as it dispatches (in order): its
 * memory access, and whether it is stuck. */
void wrong_path_execute(sim_core *c, uop *u);
void wrong_path_squash(sim_core *c);
void wrong_path_drop(sim_core *c);
/* When the mispredicted branch the wrong path follows resolves (it has
 * dispatched), else UINT64_MAX: wrong-path work scheduled after it never
 * happens. */
uint64_t wrong_path_cutoff(const sim_core *c);
/* Undo what core_schedule reserved for a squashed instruction: all of it,
 * or only its issue port (a flush at commit, which empties the rest). */
void core_unschedule(sim_core *c, uop *u);
void core_release_port(sim_core *c, const uop *u);
void core_squash(sim_core *c, uint64_t from);
void core_schedule(sim_core *c, uop *u);
/* u's control transfer as the predictor sees it. A recoded short forward
 * branch (sim/core/sfb.h) is no control transfer in BOOM: it never reports
 * its outcome, so the FTQ keeps its prediction, not taken, and that is what
 * the history and the predictor learn when it commits (fetch-target-queue
 * .scala's update from the entry's cfi_idx). False if u is not one. */
static inline bool core_bp_event(const uop *u, bp_event *e)
{
    const rv_insn *in = &u->d.insn;
    if (u->sfb_count) return bpred_event(in, false, in->pc + in->len, e);
    return bpred_event(in, u->d.taken, u->d.next_pc, e);
}

/* u (at c->disp) enters the ROB. */
void core_rob_enter(sim_core *c, uop *u);
/* Charge n cycles in which nothing commits (Stalled, Flushed or Drained);
 * returns the cycle-stack component charged. */
uint8_t core_account_idle(sim_core *c, uint64_t n);
/* icost's operation classes: single-cycle (shalu), multi-cycle integer
 * and FP (lgalu), and CSR accesses (neither). */
enum op_speed { OP_SHORT, OP_LONG, OP_CSR };
enum op_speed core_op_speed(unsigned cls);
/* Cycles after in completes before its dependents may issue: 0 where a
 * result is forwarded (sim/core/dispatch.c). */
unsigned core_wakeup_delay(const uarch_config *k, const rv_insn *in);
/* The PSV of u as it stands (sim/core/psv.h). */
uint16_t core_psv(const uop *u);
/* Probe bookkeeping, cheap no-ops when no consumer reads the view. A view
 * of `run` cycles from `cycle` on begins: is it read? */
void probe_begin_view(sim_core *c, uint64_t cycle, uint64_t run);
void probe_note_commits(sim_core *c, uint8_t stack_key);
void probe_note_squash(sim_core *c, uint64_t from);
/* Per instruction fetched or dispatched: inline, the test of whether any
 * consumer reads the view being most of it. */
void probe_noted_dispatch(sim_core *c, const uop *u);
void probe_noted_fetch(sim_core *c, const uop *u);
static inline void probe_note_dispatch(sim_core *c, const uop *u)
{
    if (c->view_on) probe_noted_dispatch(c, u);
}
static inline void probe_note_fetch(sim_core *c, const uop *u)
{
    if (c->view_on) probe_noted_fetch(c, u);
}
/* An instance leaves the window: retired, or aborted by the flush of
 * stack key abort_key (callers check that an instance probe is attached). */
void probe_instance_end(sim_core *c, const uop *u, bool retired, uint8_t abort_key);
/* The record of u's end, and telling the instance probes of it. */
instance_record probe_instance_record(const sim_core *c, const uop *u, bool retired, uint8_t abort_key);
void probe_instance_emit(sim_core *c, const instance_record *r);
/* Publish the view of the cycle that ends (run 1) or of `run` idle cycles. */
void probe_publish(sim_core *c, uint64_t cycle, uint64_t run);

#endif
