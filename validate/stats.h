/* Statistics for the confidence of an extrapolated CPI: clusters are strata
 * and each contributes one member (its representative) to the estimate
 * sum_k w_k CPI_k. Everything here is seeded and deterministic. */
#ifndef VD_STATS_H
#define VD_STATS_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64: small, fast, and the same sequence on every host. */
typedef struct vd_rng {
    uint64_t state;
} vd_rng;

void vd_rng_seed(vd_rng *r, uint64_t seed);
uint64_t vd_rng_next(vd_rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t vd_rng_below(vd_rng *r, uint64_t n);

/* Population mean and standard deviation (the members are the whole cluster). */
void vd_mean_sd(const double *x, size_t n, double *mean, double *sd);
/* Quantile Q of SORTED[0..n) with linear interpolation (Hyndman-Fan type 7). */
double vd_quantile(const double *sorted, size_t n, double q);

typedef struct vd_stratum {
    double weight;
    const double *cpi; /* CPI of every member interval, in the full run */
    size_t n;
} vd_stratum;

/* Standard error of sum_k w_k CPI_k when each CPI_k is one member drawn at
 * random from stratum k: sqrt(sum_k w_k^2 sigma_k^2). */
double vd_stratified_se(const vd_stratum *s, size_t k);

typedef struct vd_boot {
    size_t n;
    uint64_t seed;
    double mean, sd, lo, median, hi; /* lo/hi: the 2.5% and 97.5% quantiles */
    /* Share of random choices whose error is larger than that of the
     * chosen representatives, ties counting half (a mid-rank): near 0
     * means SimPoint chose badly, about 0.5 as well as chance. */
    double chosen_better_than;
} vd_boot;

/* Draw one random member per stratum, B times; CHOSEN is the estimate with
 * the actual representatives and FULL the true value. */
void vd_bootstrap(const vd_stratum *s, size_t k, size_t B, uint64_t seed, double chosen, double full,
                  vd_boot *out);

#endif
