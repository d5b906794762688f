/* Proxy metrics per interval from the functional warming model (bbv --proxy).
 *
 * The caches, TLBs and branch predictors that warm checkpoints are built with
 * (lib/uarch) run over the whole program, and at every interval boundary the
 * events of the interval are written beside the .bb file, one line per .bb
 * line: misses at every cache level, TLB misses and page walks, branch
 * mispredictions, and a proxy CPI from a fixed penalty per event, with the
 * latencies of the core configuration:
 *
 *   proxy_cpi = 1 + ( (l1i_misses + l1d_misses) * l2.latency
 *                   + l2_misses * llc.latency
 *                   + llc_misses * dram.latency_ns * core.freq_mhz / 1000
 *                   + (itlb_misses + dtlb_misses) * l2tlb.latency
 *                   + walks * ptw.latency
 *                   + mispredicts * (core.regread_stages + frontend.redirect_penalty
 *                                  + frontend.pipeline_depth + core.decode_stages)
 *                   ) / instructions
 *
 * No overlap between misses is modelled: it is a ranking of intervals by how
 * much their data locality and branch behaviour cost, not a prediction of
 * the detailed core's CPI.
 *
 * Beside it, the long-latency operations the core's functional units take
 * more than a cycle for (integer multiply and divide, every FP operation
 * but loads, stores and moves to memory: the timing classes of lib/decode.h),
 * counted from the retired instructions, and what they cost alone:
 *
 *   long_cpi = sum over those classes of count x (latency - 1) / instructions
 *
 * the latencies the configuration gives the detailed core's units (fu.*),
 * again with nothing overlapped. It is a column of its own: whether and how
 * much of it joins the proxy CPI is simpoint's choice (--proxy-long), the
 * proxy CPI above is unchanged.
 *
 * long_cpi charges every long operation its whole latency, but an
 * out-of-order core overlaps independent ones; what it cannot hide is a
 * dependence chain through them that runs longer than its window, or
 * unpipelined dividers given work faster than they free. So beside it,
 * the cycles of those, from a dataflow model of the retired stream
 * (proxy_exposure, the issue model of sim/core/dispatch.c cut down to the
 * long operations):
 *
 *   exposed_cpi = cycles dispatch stalls on a full reorder buffer / instructions
 *
 * Instructions dispatch core.decode_width a cycle, in order. One issues
 * when its operands are ready; a long operation's result is ready its
 * unit's latency later, and its dependents read it core.regread_stages + 2
 * cycles after that (only the integer ALUs forward, as in the core); every
 * other instruction passes its operands' readiness on and takes no time
 * (memory is proxy_cpi's). FP operations issue at most iq.fp_issue a cycle,
 * multiplies one a cycle; a divide or square root waits for a free
 * unpipelined unit (fu.div_units, fu.fdiv_units), which it holds for its
 * latency. An instruction dispatches no earlier than the one rob.entries
 * before it completes: the time dispatch waits for that is exposed. A
 * serialising instruction (CSR accesses, fences, atomics, system calls)
 * waits for every older one to be done and holds dispatch until it
 * commits; one that flushes (the FP status register's accesses, which
 * the core does not rename, fence.i, system calls) adds the pipeline's
 * refill (frontend.flush_penalty + l1i.latency + frontend.pipeline_depth
 * + core.decode_stages): a drain exposes whatever long latency is in
 * flight, and lp_solve's and potrace's frflags/fsflags cost that often.
 * With nothing in flight the model is idle and costs a test or two per
 * instruction. Format: see README ("bbv --proxy"). */
#ifndef RV_PROXY_H
#define RV_PROXY_H

#include <stdint.h>

#include "decode.h"
#include "exec/exec.h"
#include "outfile.h"
#include "uarch/uarch.h"

typedef struct proxy_counts {
    uint64_t insts;
    uint64_t l1i_misses, l1d_misses, l2_misses, llc_misses;
    uint64_t itlb_misses, dtlb_misses, walks;
    uint64_t mispredicts; /* conditional direction, indirect target and return mispredictions */
    uint64_t ops[CLS_COUNT]; /* retired instructions per timing class */
    uint64_t exposed;        /* proxy_exposure's stalls, in its time units */
} proxy_counts;

/* Cycles charged per event by the model above; op[cls]: per operation of a
 * timing class, its latency beyond one cycle (0 but for the long ones). */
typedef struct proxy_penalties {
    double l1_miss, l2_miss, llc_miss, tlb_miss, walk, mispredict;
    double op[CLS_COUNT];
    double exposed_unit; /* cycles per proxy_exposure time unit */
} proxy_penalties;

/* The dataflow model of exposed_cpi above. Time is counted in units of
 * 1 / (decode_width x fp_issue) cycle, so that both a dispatch slot and an
 * FP issue slot are whole units. */
enum { PROXY_ROB_MAX = 1024 }; /* rob.entries' largest value */
typedef struct proxy_exposure {
    uint64_t t;                    /* when the next instruction dispatches */
    uint64_t seq;                  /* instructions seen */
    uint64_t stalled;              /* time dispatch waited on the reorder buffer */
    uint64_t busy_until;           /* no register is waited for after it */
    uint64_t ready[66];            /* when a register's value can be read: x0-x31, x0's sink, f0-f31 */
    uint64_t fp_next, mul_next;    /* the next free FP and multiply issue slots */
    uint64_t div_free[8], fdiv_free[8]; /* when each divider is free */
    struct { uint64_t seq, done; } late[PROXY_ROB_MAX]; /* instructions done after the window moves past them */
    unsigned late_head, late_count;
    /* the configuration, in time units */
    uint64_t last_done;            /* the latest any instruction seen is done */
    uint64_t dispatch, fp_gap, mul_gap, window, rob; /* rob: in instructions */
    uint64_t cycle, refill;        /* a cycle; a flush's refill of the pipeline */
    uint64_t latency[CLS_COUNT], wakeup;
    unsigned div_units, fdiv_units;
} proxy_exposure;

void proxy_exposure_init(proxy_exposure *x, const uarch_config *c);
/* One retired instruction, in program order. */
void proxy_exposure_step(proxy_exposure *x, const rv_insn *in);

void proxy_penalties_of(const uarch_config *c, proxy_penalties *pen);
/* The warming model's event counts since it was made, with icount
 * instructions; ops: the counts per class since then (NULL: none counted). */
void proxy_counts_read(const uarch *u, uint64_t icount, const uint64_t *ops, proxy_counts *out);
/* Adds instructions [first, first + executed) of b to ops, per class, and
 * runs them through x (NULL: no exposure model). */
void proxy_count_ops(uint64_t *ops, proxy_exposure *x, const rv_block *b, uint32_t first, uint32_t executed);
/* a - b, field by field. */
proxy_counts proxy_counts_sub(const proxy_counts *a, const proxy_counts *b);
double proxy_cpi(const proxy_counts *c, const proxy_penalties *pen);
/* The long-latency operations' cycles per instruction (long_cpi above). */
double proxy_long_cpi(const proxy_counts *c, const proxy_penalties *pen);
/* The exposed long latency's cycles per instruction (exposed_cpi above). */
double proxy_exposed_cpi(const proxy_counts *c, const proxy_penalties *pen);

/* One .proxy file: header lines, then write one line per interval. */
void proxy_write_header(outfile *o, const char *config_name, const uarch_config *c, uint64_t interval);
void proxy_write_line(outfile *o, uint64_t index, const proxy_counts *c, const proxy_penalties *pen);

#endif
