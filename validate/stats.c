#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

void vd_rng_seed(vd_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t vd_rng_next(vd_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t vd_rng_below(vd_rng *r, uint64_t n)
{
    /* Reject the top partial block of values so every residue is equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = vd_rng_next(r);
    while (x >= limit);
    return x % n;
}

void vd_mean_sd(const double *x, size_t n, double *mean, double *sd)
{
    double m = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        m += x[i];
    m = n ? m / (double)n : NAN;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    *sd = n ? sqrt(ss / (double)n) : NAN;
}

double vd_quantile(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

double vd_stratified_se(const vd_stratum *s, size_t k)
{
    double var = 0;
    for (size_t i = 0; i < k; i++) {
        double mean, sd;
        vd_mean_sd(s[i].cpi, s[i].n, &mean, &sd);
        var += s[i].weight * s[i].weight * sd * sd;
    }
    return sqrt(var);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void vd_bootstrap(const vd_stratum *s, size_t k, size_t B, uint64_t seed, double chosen, double full, vd_boot *out)
{
    memset(out, 0, sizeof *out);
    out->n = B;
    out->seed = seed;
    if (B == 0)
        return;
    vd_rng r;
    vd_rng_seed(&r, seed);
    double *est = vd_malloc(B * sizeof *est);
    /* ties (also those reached by other rounding) count half, as in a mid-rank */
    double chosen_err = fabs(chosen - full), tie = 1e-12 * fabs(full);
    double worse = 0;
    for (size_t b = 0; b < B; b++) {
        double e = 0;
        for (size_t i = 0; i < k; i++)
            e += s[i].weight * s[i].cpi[vd_rng_below(&r, s[i].n)];
        est[b] = e;
        double err = fabs(e - full);
        worse += err > chosen_err + tie ? 1 : err >= chosen_err - tie ? 0.5 : 0;
    }
    vd_mean_sd(est, B, &out->mean, &out->sd);
    qsort(est, B, sizeof *est, by_value);
    out->lo = vd_quantile(est, B, 0.025);
    out->median = vd_quantile(est, B, 0.5);
    out->hi = vd_quantile(est, B, 0.975);
    out->chosen_better_than = worse / (double)B;
    free(est);
}
