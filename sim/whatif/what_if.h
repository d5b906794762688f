/* What-if runs: the baseline's program (--full) or regions simulated again
 * under other core configurations, every (configuration, region) pair in
 * parallel (OpenMP; results do not depend on the thread count), with the
 * golden attribution only. Runs warmed functionally whose configurations
 * agree on the cache, TLB and predictor geometry share one warm-up per
 * region. The engine of --sensitivity and --icost. */
#ifndef SIM_WHAT_IF_H
#define SIM_WHAT_IF_H

#include "../run.h"

/* What the baseline ran: the program (--full) or the checkpoints. */
typedef struct sim_target {
    bool full;
    int argc;
    char **argv;
} sim_target;

typedef struct what_if {
    uarch_config cfg;
    enum warmup_mode warmup;
    const uint64_t *ideal_loads; /* loads that hit the L1D (sorted pcs), if any */
    size_t nideal_loads;
    const depgraph_config *graph; /* the dependence graph to build on the way (icost per load), or NULL */
    sim_result *res;           /* one per region, in sim_regions' order (one for --full) */
    size_t n;
    char *failed;              /* the first failing region's reason, NULL if none */
} what_if;

/* Runs each of runs[0..nruns) over t's nregions regions; label names the
 * progress line. Dies if t no longer has nregions regions. */
void what_if_run(const sim_options *o, const sim_target *t, size_t nregions, what_if *const *runs, int nruns,
                 const char *label);
void what_if_free(what_if *w);

/* A region's weight in the whole: its SimPoint weight, 1 without one, 0 for
 * an extra member of a cluster (it measures the cluster's spread only). */
double result_weight(const sim_result *r);
double result_cpi(const sim_result *r);
/* A per-instruction figure of a set of results: each region's (of_region)
 * weighted by result_weight, or the one --full run's. */
double results_weighted(const sim_result *res, size_t n, double (*of_region)(const sim_result *));
/* Their CPI (results_weighted of result_cpi). */
double results_cpi(const sim_result *res, size_t n);

#endif
