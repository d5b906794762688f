/* The core's two probes, for the consumers that explain where time goes.
 *
 * The commit probe: what the core publishes about each cycle (the sampler
 * and its profilers, the --commit-trace writer). One view covers one cycle,
 * or a run of identical cycles the core skips over (nothing commits,
 * dispatches or is fetched in them). A consumer says from which cycle on it
 * reads views; the core builds none that nobody reads.
 *
 * The attribution probe: the core's exact (golden) attribution as it
 * charges it, each charge with the PSV of the instruction it goes to (the
 * golden PICS).
 *
 * The instance probe: every fetched instance when it retires or aborts;
 * for the consumers that ask, after a squashed wrong path, what the core did
 * not dispatch of it, executed on the wrong path's registers, and the rest
 * of its path it did not fetch (what a larger window would do). */
#ifndef SIM_PROBE_H
#define SIM_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum { PROBE_MAX_WIDTH = 8 };

/* One dynamic instruction as the probe shows it. Sequence numbers are the
 * instruction counts of the correct path: a squashed and refetched
 * instruction keeps its number. */
typedef struct probe_insn {
    uint64_t seq, pc;
    uint16_t flags;            /* UOP_* of sim/core/core.h at the time of the view */
    uint16_t psv;              /* sim/core/psv.h: committed instructions and the flusher only (final then) */
} probe_insn;

typedef struct commit_view {
    uint64_t cycle, run;       /* cycles [cycle, cycle + run) */
    uint8_t state;             /* enum commit_state */
    uint8_t stack_key;         /* enum stack_key of the cycle-stack component */
    uint8_t ncommit;           /* instructions committed in the cycle, oldest first */
    probe_insn commit[PROBE_MAX_WIDTH];
    uint8_t nhead;             /* Stalled: the oldest ROB entries when commit ended */
    probe_insn head[PROBE_MAX_WIDTH];
    bool has_last_committed;   /* the youngest instruction of the latest earlier cycle that committed */
    probe_insn last_committed;
    bool has_flusher;          /* Flushed: the instruction whose flush emptied the ROB */
    probe_insn flusher;
    uint8_t ndispatch;         /* instructions that entered the ROB this cycle */
    probe_insn dispatch_first, dispatch_last;
    uint8_t nfetch;            /* instructions fetched this cycle */
    probe_insn fetch_first;
    uint64_t fetch_next;       /* the next instruction to fetch: older ones are in flight */
    uint64_t squash_from;      /* instructions from here on were squashed this cycle; UINT64_MAX if none */
} commit_view;

typedef void probe_fn(void *ctx, const commit_view *v);

typedef struct probe_consumer {
    probe_fn *fn;
    void *ctx;
    /* The consumer reads the views of cycles from here on (it may move the
     * value either way as it goes); UINT64_MAX: none for now. */
    const uint64_t *want_from;
} probe_consumer;

/* Time charged to an instruction: when it commits (commits 1), its share
 * of the cycle and the Stalled and Drained cycles it collected; after a
 * flush (commits 0), the Flushed cycles of the flushing instruction. Units
 * are 1/U cycle, by enum commit_state. */
typedef void attribution_fn(void *ctx, uint64_t pc, uint16_t psv, const uint64_t units[ST_COUNT], uint64_t commits);

/* The instance probe: every fetched instance as it leaves the window,
 * retired or aborted (squashed by a flush; its refetch is a new instance),
 * in fetch order, with its timeline (cycles; 0 for stages it never
 * reached). ProfileMe samples these. */
typedef struct instance_record {
    uint64_t instance;         /* fetched instances before it */
    uint64_t seq, pc, mem_addr;
    uint64_t fetched, dispatched, ready, issued, completed, ended; /* ready: every operand (a store's data too) */
    uint64_t issued2;          /* a store whose address and data issued apart: its second half's issue (else 0) */
    uint16_t flags;            /* UOP_* */
    uint8_t mem_level;         /* loads: enum mem_level */
    uint32_t mshr_wait;        /* loads: cycles the L1D miss waited for an MSHR */
    /* A load's memory access as the core scheduled it at dispatch (0: none):
     * its issue and its data's arrival; an aborted load's may lie past its
     * end, and its line's fill goes on then. */
    uint64_t load_issue, load_data;
    uint8_t abort_key;         /* aborted: STK_FLUSHED_* of the flush */
    bool retired, taken, load; /* load: a load (forwarded from a store or not) */
    uint64_t fetch_ready;      /* cycle it reached decode (its packet's arrival) */
    uint32_t packet;           /* its fetch packet's number */
    uint8_t fe_bubbles;        /* fetch cycles lost after it to a late fetch stage's redirect */
    uint8_t cls;               /* enum insn class (lib/decode.h) */
    uint16_t op;               /* enum rv_op (lib/decode.h) */
    uint8_t wake;              /* cycles after completing before its dependents could issue (core_wakeup_delay) */
    bool branch_tag;           /* held a branch tag until it resolved (core_takes_branch_tag) */
    uint8_t dst, src[3];       /* registers, rv_operands numbering (RV_REG_NONE: none) */
    uint64_t history;          /* conditional-branch outcomes before its fetch, newest in bit 0 */
    uint64_t sq_head_seq;      /* the oldest store in the store queue when it ended (UINT64_MAX: none) */
    uint64_t sq_head_done;     /* ... when that store's write completes (UINT64_MAX: not issued yet) */
    uint64_t sq_head_start;    /* ... when it began (issued) */
    uint32_t sq_head_wait;     /* ... its wait for an L1D MSHR (issued) */
    uint8_t l1d_line;          /* enum l1d_line: a retired store's line in the L1D as it committed; a load ahead's at the squash */
    /* The wrong path past what the core dispatched, for the consumers that
     * read it (instance_probe.reads_ahead); 0 elsewhere: */
    uint8_t ahead;             /* enum probe_ahead */
    uint8_t ahead_access;      /* ... its memory access on the wrong path's registers (rv_mem_access; 0: none) */
    uint64_t ahead_addr;       /* ... and its address */
} instance_record;

/* A wrong-path instance the core did not dispatch before its branch
 * resolved: fetched (an instance of the stream, whose access the probe
 * computed), or the rest of the predicted path the core did not fetch
 * (told to the consumers that read ahead alone, after the fetched ones). */
enum probe_ahead { AHEAD_NONE, AHEAD_FETCHED, AHEAD_UNFETCHED };

/* The most wrong-path instructions after a branch the probe tells: the
 * largest ROB (rob.entries), the window a limit study can give. */
enum { PROBE_AHEAD_MAX = 1024 };

/* The unfetched rest of a squashed wrong path, until its branch ends. */
typedef struct probe_ahead_records {
    uint64_t branch;
    size_t n;
    instance_record r[PROBE_AHEAD_MAX];
} probe_ahead_records;

/* A line's state in the L1D (instance_record.l1d_line). */
enum l1d_line { L1D_ABSENT, L1D_PRESENT, L1D_FILLING };

typedef void instance_fn(void *ctx, const instance_record *r);

struct sim_core;
/* Whether some consumer of c's instance probe reads the wrong path ahead. */
bool probe_reads_ahead(const struct sim_core *c);
/* The line of addr in c's L1D now: enum l1d_line (nothing is touched). */
uint8_t probe_l1d_line(const struct sim_core *c, uint64_t addr);

typedef struct instance_probe {
    instance_fn *fn;
    void *ctx;
    bool reads_ahead;          /* it is told the wrong path ahead too (the probe computes it for such only) */
} instance_probe;

typedef struct attribution_probe {
    attribution_fn *fn;
    void *ctx;
} attribution_probe;

#endif
