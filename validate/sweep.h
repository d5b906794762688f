/* Sweep mode: many sampling configurations (interval size x MaxK x BIC
 * threshold) of one or more programs, each validated arithmetically on its
 * program's full-run log, then aggregated over the programs as Paper C does:
 * mean and largest |CPI error| against the instructions to simulate, the
 * Pareto front, and the cheapest configuration within an error target. */
#ifndef VD_SWEEP_H
#define VD_SWEEP_H

#include "analysis.h"
#include "manifest.h"

typedef struct vd_sweep_row {
    const vd_mrow *m;
    char *program;
    size_t k;                 /* simulation points */
    double insts;             /* of the whole program */
    uint64_t sim, sim_warm, longest;
    double speedup, speedup_nowarm, parallel_speedup;
    double cpi_full, cpi_oracle, err_sampling;
    double ci_half;           /* 95% half-width / CPI (labels), else NAN */
    double bound;             /* |sampling error| + ci_half (ci_half left out when NAN) */
    double coverage;
    bool has_regions;
    double cpi_est, err, err_warmup; /* with region results, else NAN */
    char **warnings;          /* its validation's own, unprefixed */
    size_t nwarnings;
} vd_sweep_row;

typedef struct vd_sweep_cfg {
    uint64_t interval;
    long max_k;
    double bic;               /* NAN when not given */
    const char *method;       /* how the points were chosen (manifest "method") */
    bool named_method;        /* the sweep has several methods: names say which */
    double seconds;           /* choosing the points, all programs (NAN unless every row says) */
    size_t nprog, k_total;    /* k_total: simulation points of all programs together */
    size_t k_min, k_max;      /* k of one program: never added up across programs */
    size_t *rows;             /* its rows, one per program */
    double mean_abs, max_abs, rms; /* of the sampling error over the programs */
    double mean_bound;        /* of bound: what the target is checked against */
    size_t no_interval;       /* rows without a confidence interval (no labels, or one interval a cluster) */
    double sim, sim_warm, insts, speedup;
    bool complete;            /* every program has this configuration */
    bool pareto, meets;
    size_t nregions;          /* rows with region results ... */
    double mean_abs_est, mean_abs_warmup; /* ... and their errors */
} vd_sweep_cfg;

typedef struct vd_sweep {
    const vd_manifest *manifest;
    vd_params p;
    vd_sweep_row *rows;
    size_t n;
    vd_sweep_cfg *cfgs;
    size_t ncfg;
    char **programs;
    size_t nprog;
    uint64_t *intervals;      /* distinct, ascending */
    size_t nintervals;
    long *maxks;
    size_t nmaxks;
    double *bics;             /* distinct; NAN counts as one value */
    size_t nbics;
    const char **methods;     /* distinct, in manifest order; the first is the baseline's */
    size_t nmethods;
    double target;
    long best, most_accurate; /* configurations, -1 when none */
    long *best_by_interval, *baseline_by_interval, *best_by_program;
    long baseline_maxk;
    double baseline_bic;
    vd_diag notes;            /* every configuration's warnings, prefixed by it, in row order; then the sweep's own */
} vd_sweep;

bool vd_sweep_run(vd_sweep *sw, const vd_manifest *m, const vd_params *p, double target, long baseline_maxk,
                  double baseline_bic, vd_diag *d);
void vd_sweep_free(vd_sweep *sw);

/* The Pareto front in ascending cost (a new array of N pointers). */
const vd_sweep_cfg **vd_sweep_front(const vd_sweep *sw, size_t *n);

/* "10M", "1.5G", "4096": an instruction count for labels. */
const char *vd_short_count(char *buf, size_t n, uint64_t v);
/* The configuration's name, e.g. "interval 10M, MaxK 8, BIC 0.9" (", method M"
 * when the sweep compares methods). */
const char *vd_cfg_name(char *buf, size_t n, const vd_sweep_cfg *c);
bool vd_same_bic(double a, double b);

#endif
