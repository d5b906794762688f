/* The dependence-graph model of interaction cost (Fields et al., notes/
 * icost.md §1, §5): five nodes per committed instruction (D dispatch, R
 * ready, E execute, P complete, C commit) and the paper's edges (DD with
 * the front end's miss delay, FBW, CD over the ROB, PD after a mispredicted
 * branch, DR, PR from register producers, RE contention, EP execution
 * latency, PC, CC, CBW), with latencies measured from the detailed core's
 * per-instruction timestamps (the instance probe). One streaming pass
 * evaluates the critical path of every idealisation set at once (an edit
 * per event class, as the table of notes/icost.md §5), so icost needs no
 * re-simulation; sim --icost puts its costs beside re-simulation's. Not
 * modelled: memory dependences through stores, partial misses (PP), and the
 * core's other structures (registers, queues, MSHRs). */
#ifndef SIM_DEPGRAPH_H
#define SIM_DEPGRAPH_H

#include <stdint.h>

#include "../core/probe.h"
#include "uarch/config.h"

enum { DEPGRAPH_MAX_SETS = 128 };

/* The classes the graph can idealise, by icost's names. */
enum graph_class { GC_DL1, GC_DMISS, GC_WIN, GC_BW, GC_BMISP, GC_SHALU, GC_LGALU, GC_IMISS, GC_COUNT };
/* Its class for an icost class name; -1 if the graph cannot idealise it. */
int depgraph_class(const char *name);

typedef struct depgraph_config {
    int nsets;
    unsigned sets[DEPGRAPH_MAX_SETS]; /* bit c: graph_class c idealised; sets[0] = 0, the baseline */
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
} depgraph_result;
void depgraph_finish(depgraph *g, depgraph_result *out); /* frees g */

#endif
