#include "bic.h"

#include <math.h>

bic_stats bic_score(const dataset *ds, const int *labels, const double *dist2,
                    const double *cluster_weight, size_t k)
{
    double n = (double)ds->n, d = (double)ds->d;
    double W = 0, D = 0;
    for (size_t i = 0; i < ds->n; i++) {
        W += ds->w[i];
        D += ds->w[i] * dist2[i];
    }
    D /= W / n;
    double membership = 0;
    for (size_t i = 0; i < ds->n; i++) {
        double cw = cluster_weight[labels[i]];
        if (cw > 0)
            membership += ds->w[i] / W * log(cw);
    }
    double sigma2 = D / (d * n);
    bic_stats s;
    s.distortion = D;
    s.variance = D / (n - (double)k);
    s.loglik = n * (-d / 2.0 * (log(2.0 * M_PI * sigma2) + 1.0) - log(W) + membership);
    double params = (double)(k - 1) + (double)k * d + 1.0;
    s.bic = s.loglik - params / 2.0 * log(n);
    return s;
}

double bic_threshold(double min, double max, double t)
{
    if (min == max)
        return max;
    if (isinf(max) && max > 0)
        return t > 0 ? max : min;
    return min + t * (max - min);
}
