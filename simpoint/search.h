/* Clustering runs (one k, numInitSeeds restarts, the best BIC wins) and the
 * choice of k: SimPoint 3.2's binary search over 1..maxK or an explicit list,
 * then the smallest k whose BIC reaches min + t (max - min).
 *
 * Runs are cached by (k, seed stream) so that sweeps over maxK and BIC
 * thresholds reuse them. By default restart t of k uses a seed derived from
 * (seedkm, k, t), so a k's clustering does not depend on the order of the
 * search. With compat, run r of a search (0-based, in search order) and
 * restart t use seed seedkm + numInitSeeds*r + 2t, as SimPoint 3.2 does. */
#ifndef SP_SEARCH_H
#define SP_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bic.h"
#include "dataset.h"
#include "kmeans.h"

typedef struct cluster_params {
    int num_init_seeds;
    km_init init;
    int max_iters; /* < 0: until convergence */
    bool accel;
    bool compat;
    int32_t seed_km;
    const double *given_centres; /* -loadInitCtrs/-loadInitLabels: the only restart */
} cluster_params;

typedef struct sp_run {
    int k;
    int run_index;      /* compat: position in its search; else -1 */
    int trial;          /* the restart that won */
    int32_t seed;       /* its seed */
    km_stats km;
    bic_stats score;
    double *init_centres, *centres, *weights; /* k x d, k x d, k */
    int *labels;        /* nearest final centre of every interval (whole data) */
    double *dist2;      /* squared distance to it */
} sp_run;

typedef struct clusterer {
    const dataset *full;  /* every interval, with its weight */
    const dataset *train; /* what k-means runs on: full or a -sampleSize sample */
    cluster_params p;
    sp_run **cache;
    size_t ncache;
    int verbose;
} clusterer;

void clusterer_init(clusterer *c, const dataset *full, const dataset *train, const cluster_params *p);
void clusterer_free(clusterer *c);

/* The runs for ks[0..m) (run indexes rs, used only with compat), computing
 * the missing ones with all their restarts in parallel. */
void cluster_runs(clusterer *c, const int *ks, const int *rs, size_t m, sp_run **out);

int32_t trial_seed(const cluster_params *p, int k, int run_index, int trial);

/* Index of the chosen run: the smallest k whose BIC >= bic_threshold(min, max, t),
 * the earliest on equal k. */
size_t select_run(sp_run *const *runs, size_t n, double t);

/* The k values of SimPoint 3.2's binary search, driven one BIC at a time. */
typedef struct ksearch {
    int lo, hi, last;
    int k[64];
    double bic[64];
    int n;
} ksearch;

/* First batch (k = 1, maxK, (1+maxK)/2 without repeats); returns its size. */
int ksearch_begin(ksearch *s, int max_k, int first[3]);
void ksearch_record(ksearch *s, int k, double bic);
/* Next k to try after the recorded runs, or 0 when the search is over. */
int ksearch_next(ksearch *s, double t);

/* Full search for one (maxK, t): fills runs in search order, returns how many. */
size_t search_k(clusterer *c, int max_k, double t, sp_run **runs);
/* search_k and select_run; with floor (a clusterer of the same intervals
 * without --proxy-dims' dimension, or NULL), when floor's own search would
 * choose a larger k, the run of that k is added to runs and chosen. Returns
 * the chosen index; *n is the number of runs. */
size_t search_choose(clusterer *c, clusterer *floor, int max_k, double t, sp_run **runs, size_t *n);
/* Explicit list: runs in list order. */
size_t search_list(clusterer *c, const int *ks, size_t n, sp_run **runs);

#endif
