/* Microarchitectural sensitivity (Gus, notes/gus.md §3-§4): the same
 * program or regions simulated again with one resource, group or limit
 * study changed (sim/whatif/resources.h), against the baseline. For each variant:
 * its CPI (regions weighted), the speedup s = CPI_base / CPI_variant - 1,
 * the elasticity s / (effective scale - 1), a bottleneck flag when s
 * exceeds a threshold, the spread of s over the regions, and the
 * instructions whose time changed most (the golden attribution per pc,
 * baseline against variant), which Gus cannot show. Every variant x region
 * runs in parallel; results do not depend on the thread count. */
#ifndef SIM_SENSITIVITY_H
#define SIM_SENSITIVITY_H

#include <jansson.h>
#include <stdio.h>

#include "../report/report.h"
#include "resources.h"
#include "what_if.h"

typedef struct sensitivity_options {
    variant *variants;
    int nvariants;
    double threshold;          /* a bottleneck speeds up by more than this (fraction; default 0.01) */
    size_t top;                /* instructions listed per variant (differential profile) */
} sensitivity_options;

typedef struct variant_outcome {
    const variant *v;
    what_if run;               /* its results (none if skipped) and how it was warmed */
    double cpi, speedup, elasticity, min_speedup, max_speedup;
    bool bottleneck;
    const struct variant_outcome *against; /* its baseline: NULL for the main one */
} variant_outcome;

typedef struct sensitivity {
    variant_outcome *out;
    int n;
    /* Warm checkpoints hold state of the baseline's geometry: variants of
     * another geometry re-warm functionally, against the baseline re-warmed
     * the same way (run only when such variants exist). */
    variant rewarm_variant;
    variant_outcome rewarm;
    double base_cpi, threshold;
    size_t top;
    const sim_result *base;
    size_t nbase;
} sensitivity;

/* Runs every variant of so over what base (n results) came from. */
void sensitivity_run(sensitivity *s, const sim_options *o, const sim_target *t, const sim_result *base, size_t n,
                     const sensitivity_options *so);
json_t *sensitivity_json(const sensitivity *s, const report_ctx *x);
void sensitivity_print(FILE *f, const sensitivity *s, const report_ctx *x);
void sensitivity_free(sensitivity *s);

#endif
