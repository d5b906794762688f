/* One validation: a sampling configuration (and optionally its simulated
 * regions) against the full run. Everything the reports print is computed
 * here, after the sanity checks, so the writers only format.
 *
 * Errors are fractions of the full-run value, signed (estimate - full) / full
 * (ROIperf prints the opposite sign, (full - estimate) / full), and split:
 *   sampling = (oracle - full) / full   the representatives measured inside
 *                                       the full run (ROIperf's quantity)
 *   warm-up  = (estimate - oracle) / full   what checkpoints and warm-up add
 * so that error = sampling + warm-up exactly. */
#ifndef VD_ANALYSIS_H
#define VD_ANALYSIS_H

#include <math.h>

#include "full.h"
#include "ivals.h"
#include "sampling.h"
#include "stats.h"

typedef struct vd_params {
    const char *name;        /* application name (default: the program's file name) */
    uint64_t warmup;         /* warm-up per region for the cost, without region results, */
    uint64_t warmup_intervals; /* ... or this many intervals (when non-zero) */
    size_t bootstrap;        /* draws; 0 = none */
    uint64_t seed;
    double heavy;            /* a cluster this heavy ... */
    double cov_limit;        /* ... with a CPI CoV this high is flagged */
    double flag_error;       /* a cluster or region contributing this much error is flagged */
    bool allow_mismatch;     /* instruction totals / configurations may differ: warn only */
    bool reweighted;         /* regions of a first stage whose weights a second stage changed */
    bool has_profile;
    uint64_t profile_insts;
    const char *profile_path;
    double profile_seconds;  /* wall time of the profiling run (bbv --summary), NAN if unknown */
    double ckpt_seconds;     /* of taking the checkpoints (checkpoints.json), NAN if unknown */
} vd_params;

void vd_params_defaults(vd_params *p);

typedef struct vd_region_row {
    size_t point;        /* index into the sampling's points */
    const vd_run *run;   /* the simulated region, or NULL */
    uint64_t insts;      /* simulated, or the interval's length without results */
    uint64_t warmup;
    double cycles;       /* simulated (NAN without results) */
    double full_cycles;  /* the same interval in the full run */
    double cpi_sim, cpi_full;
    double multiplier;   /* ROIperf: weight x total instructions / region length */
    double contrib_warmup; /* w (CPI_sim - CPI_full) / CPI_full_run (NAN without results) */
    long cluster_row;    /* index into clusters, -1 without labels */
} vd_region_row;

typedef struct vd_cluster_row {
    long id;
    long point;          /* its representative, or -1 */
    double weight;       /* from .weights (0 without a representative) */
    size_t n;            /* member intervals */
    double insts, cycles;
    double count_weight, length_weight; /* shares among represented clusters */
    double cpi_agg;      /* cycles / instructions of all members */
    double cpi_mean, cpi_sd, cpi_min, cpi_max, cov;
    double *member_cpi;
    double rep_z;        /* (CPI_rep - mean) / sd, NAN when sd = 0 */
    double contrib_sampling; /* (w CPI_rep - cycles / N) / CPI_full_run */
    /* Its two parts: the representative against its cluster, w (CPI_rep -
     * CPI_cluster), and the weight against the cluster's share of the
     * instructions, (w - insts / N) CPI_cluster; both / CPI_full_run. */
    double contrib_rep, contrib_weight;
    bool variable, unrepresentative;
} vd_cluster_row;

typedef struct vd_analysis {
    const vd_full *full;
    const vd_sampling *s;
    vd_params p;
    char *name;
    vd_ivals iv;
    uint64_t partial_len;  /* instructions of the last interval when partial, else 0 */
    bool has_regions, has_labels;
    size_t unlabelled;     /* intervals without a label (the partial one, --drop-partial) */
    double unlabelled_cycles;

    double *oracle, *est;  /* per metric (est NULL without regions) */
    const double *predicted; /* est, or oracle without regions */

    vd_region_row *rows;
    size_t nrows;
    vd_cluster_row *clusters;
    size_t nclusters;
    const char *weights_basis; /* "interval count", "length", or NULL (labels absent / neither) */

    /* cost (LoopPoint's columns) */
    uint64_t sim_insts, sim_insts_warm, longest_region;   /* extra members included */
    double speedup, speedup_nowarm, parallel_speedup, coverage;
    /* Wall time: the full detailed run against the whole sampled flow
     * (profiling, checkpointing and warming, the regions one after the
     * other or side by side); NAN when a part is unknown. */
    double wall_full, wall_regions, wall_longest, wall_speedup, wall_parallel_speedup;
    /* Extra cluster members simulated for the spread (checkpoint
     * --extra-per-cluster): not in the estimate, but in the cost. */
    size_t nextra;
    uint64_t extra_insts, extra_warmup;
    double extra_seconds;
    double projected_cycles;

    /* the whole program's profile rebuilt from the regions (run.c fills it) */
    const struct vd_profiles *profiles;

    /* confidence (labels needed) */
    double se, ci_lo, ci_hi;
    bool ci_covers_full;
    bool ci_covers_oracle;     /* the same interval around the representatives' full-run CPI (no warm-up error) */
    vd_boot boot;
} vd_analysis;

/* Check every input against the others, then compute. REGIONS may be empty. */
bool vd_analyze(vd_analysis *a, const vd_full *full, const vd_sampling *s, const vd_result *regions,
                size_t nregions, const vd_params *p, vd_diag *d);
void vd_analysis_free(vd_analysis *a);

/* The warm-up P plans before an interval beginning at BEGIN: --warmup or
 * --warmup-intervals, clamped at the program's start as checkpoint does. */
uint64_t vd_planned_warmup(const vd_params *p, uint64_t interval, uint64_t begin);

/* Relative error of X against the full-run value FULL (NAN when FULL is 0). */
double vd_rel(double x, double full);

/* Errors of metric M: of the prediction (the estimate, or the oracle
 * without region results), its sampling part and its warm-up part. */
static inline double vd_err(const vd_analysis *a, size_t m)
{
    return vd_rel(a->predicted[m], a->full->values[m]);
}
static inline double vd_err_sampling(const vd_analysis *a, size_t m)
{
    return vd_rel(a->oracle[m], a->full->values[m]);
}
static inline double vd_err_warmup(const vd_analysis *a, size_t m)
{
    double full = a->full->values[m];
    return a->est && full != 0 ? (a->est[m] - a->oracle[m]) / full : NAN;
}

#endif
