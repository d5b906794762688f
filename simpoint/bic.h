/* SimPoint 3.2's Bayesian Information Criterion for a weighted clustering,
 * evaluated on the whole data set (also when k-means ran on a sample):
 *   W = sum w_i, avgW = W/n, D = (sum w_i ||x_i - c_l(i)||^2) / avgW,
 *   sigma2 = D / (d n),
 *   logL = n (-d/2 (ln(2 pi sigma2) + 1) - ln W + sum_i (w_i/W) ln cw_l(i)),
 *          terms with cw <= 0 left out,
 *   BIC = logL - p/2 ln n, with p = (k-1) + k d + 1 free parameters. */
#ifndef SP_BIC_H
#define SP_BIC_H

#include <stddef.h>

#include "dataset.h"

typedef struct bic_stats {
    double bic;
    double loglik;
    double distortion; /* D */
    double variance;   /* D / (n - k), as 3.2 logs it */
} bic_stats;

/* labels/dist2: nearest centre of every row and the squared distance to it;
 * cluster_weight: k weights of the clustering. */
bic_stats bic_score(const dataset *ds, const int *labels, const double *dist2,
                    const double *cluster_weight, size_t k);

/* min + t (max - min), made safe for infinite scores (a zero-distortion
 * clustering scores +inf): then only the infinite scores qualify when t > 0. */
double bic_threshold(double min, double max, double t);

#endif
