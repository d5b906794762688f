/* Weighted k-means as SimPoint 3.2 runs it: nearest centre by squared
 * Euclidean distance (lowest index wins ties), centres = weighted means of
 * their members summed in row order (an empty cluster's centre becomes the
 * zero vector), stop when an update leaves every centre exactly unchanged or
 * after max_iters updates.
 * The accelerated variant (Hamerly's bounds plus centre-to-centre pruning,
 * with a safety margin for rounding) skips only distance computations it can
 * prove unnecessary, so it produces bit-identical centres and labels. Every
 * distance is summed in the same fixed order, and sums never depend on the
 * thread count. */
#ifndef SP_KMEANS_H
#define SP_KMEANS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataset.h"

typedef enum km_init { KM_INIT_SAMP, KM_INIT_FF, KM_INIT_PP } km_init;

/* Choose k initial centres among the rows of `ds` with a fresh ran2(seed):
 * samp: k draws of randInt() % n, with replacement (as 3.2);
 * ff: first drawn, then each next the row farthest from its nearest centre;
 * pp: k-means++ (first drawn, then by weight x squared distance). */
void km_init_centres(const dataset *ds, size_t k, km_init how, int32_t seed, double *centres);

/* Centres and weights of the groups given by labels in [0, k). */
void km_update(const dataset *ds, const int *labels, size_t k, double *centres, double *weights);

typedef struct km_stats {
    int iterations; /* updates done */
    bool converged; /* the last update changed nothing */
} km_stats;

/* Iterate from `centres` (k x d, updated in place); `weights` gets the
 * cluster weights of the last update and `labels` (if not NULL) the labels of
 * the last assignment. When the run converged those are the nearest final
 * centres. max_iters < 0: no limit. */
km_stats km_run(const dataset *ds, size_t k, double *centres, double *weights, int *labels,
                int max_iters, bool accel);

/* For every row: the nearest centre and the squared distance to it. Runs in
 * parallel unless called from inside a parallel region. */
void km_assign(const dataset *ds, const double *centres, size_t k, int *labels, double *dist2);

/* dist2[i] = squared distance from row i to centre labels[i]. */
void km_distances(const dataset *ds, const double *centres, const int *labels, double *dist2);

double km_dist2(const double *a, const double *b, size_t d);

#endif
