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
 * proxy CPI above is unchanged. Format: see README ("bbv --proxy"). */
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
} proxy_counts;

/* Cycles charged per event by the model above; op[cls]: per operation of a
 * timing class, its latency beyond one cycle (0 but for the long ones). */
typedef struct proxy_penalties {
    double l1_miss, l2_miss, llc_miss, tlb_miss, walk, mispredict;
    double op[CLS_COUNT];
} proxy_penalties;

void proxy_penalties_of(const uarch_config *c, proxy_penalties *pen);
/* The warming model's event counts since it was made, with icount
 * instructions; ops: the counts per class since then (NULL: none counted). */
void proxy_counts_read(const uarch *u, uint64_t icount, const uint64_t *ops, proxy_counts *out);
/* Adds instructions [first, first + executed) of b to ops, per class. */
void proxy_count_ops(uint64_t *ops, const rv_block *b, uint32_t first, uint32_t executed);
/* a - b, field by field. */
proxy_counts proxy_counts_sub(const proxy_counts *a, const proxy_counts *b);
double proxy_cpi(const proxy_counts *c, const proxy_penalties *pen);
/* The long-latency operations' cycles per instruction (long_cpi above). */
double proxy_long_cpi(const proxy_counts *c, const proxy_penalties *pen);

/* One .proxy file: header lines, then write one line per interval. */
void proxy_write_header(outfile *o, const char *config_name, const uarch_config *c, uint64_t interval);
void proxy_write_line(outfile *o, uint64_t index, const proxy_counts *c, const proxy_penalties *pen);

#endif
