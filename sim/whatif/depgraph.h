/* The dependence-graph model of interaction cost (Fields et al., notes/
 * icost.md §1, §5): five nodes per committed instruction (D dispatch, R
 * ready, E execute, P complete, C commit) and a fetch node per packet, with
 * the paper's edges (DD with the front end's miss delay, PD after a
 * mispredicted branch, DR, PR from register producers, RE contention, EP
 * execution latency, PP between loads of one cache line, PC, CC, CBW) and
 * the core's resources as edges from the instruction that frees an entry
 * to the one that takes it (ROB rows, physical registers, the load queue,
 * the issue queues, L1D MSHRs), and the wrong path after a mispredicted
 * branch (the ROB rows, registers, load-queue and issue-queue entries it
 * holds until the squash, the L1D MSHRs its misses hold past it, the
 * lines and pages it brings, as far as each set's window and its
 * branch's resolution let it go, past what the core dispatched too:
 * the probe tells the rest of the path, executed on the wrong path's
 * registers, sim/core/probe.h). Latencies come from the detailed
 * core's per-instruction timestamps (the instance probe). One streaming pass
 * evaluates the critical path of every idealisation set at once, so icost
 * needs no re-simulation; sim --icost puts its costs beside
 * re-simulation's. sim/RESULTS.md lists what is not modelled. */
#ifndef SIM_DEPGRAPH_H
#define SIM_DEPGRAPH_H

#include <stdint.h>

#include "../core/probe.h"
#include "uarch/config.h"

enum { DEPGRAPH_MAX_SETS = 128, DEPGRAPH_MAX_LOADS = 8 };

/* The classes the graph can idealise, by icost's names. */
enum graph_class { GC_DL1, GC_DMISS, GC_WIN, GC_BW, GC_BMISP, GC_SHALU, GC_LGALU, GC_IMISS, GC_COUNT };
/* Its class for an icost class name; -1 if the graph cannot idealise it. */
int depgraph_class(const char *name);
/* The set bit that idealises config load k (its loads hit the L1D). */
static inline unsigned depgraph_load_bit(int k) { return 1u << (GC_COUNT + k); }

typedef struct depgraph_config {
    int nsets;
    unsigned sets[DEPGRAPH_MAX_SETS]; /* bit c: graph_class c idealised; sets[0] = 0, the baseline */
    int nloads;
    uint64_t loads[DEPGRAPH_MAX_LOADS]; /* static loads a set can idealise (depgraph_load_bit) */
} depgraph_config;

typedef struct depgraph depgraph;

depgraph *depgraph_new(const depgraph_config *cfg, const uarch_config *core);
void depgraph_begin(depgraph *g);
instance_fn depgraph_instance;

typedef struct depgraph_result {
    int nsets;
    unsigned sets[DEPGRAPH_MAX_SETS];
    uint64_t cycles[DEPGRAPH_MAX_SETS]; /* critical path length of each set's graph */
    uint64_t instructions;
    double seconds;            /* host time spent in the graph */
} depgraph_result;
void depgraph_finish(depgraph *g, depgraph_result *out); /* frees g */

#endif
