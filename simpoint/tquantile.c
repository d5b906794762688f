#include "tquantile.h"

#include <math.h>
#include <stdbool.h>

/* P(T > t) for t = sqrt(df) / tan(phi). With t = sqrt(df) tan(theta) the
 * density is proportional to cos(theta)^(df - 1): near the tail (phi =
 * pi/2 - theta) sin(phi)^(df - 1), smooth enough for Simpson's rule from
 * df = 2 up. Below, it is steep or singular at 0, and phi = u^(1/df) makes
 * the integrand (sin(a) / a)^(df - 1) / df with a = u^(1/df): bounded on
 * [0, phi^df]. */
static double tail(double phi, double df)
{
    double norm = exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(M_PI);
    bool steep = df < 2;
    const int n = 2000; /* even */
    double top = steep ? pow(phi, df) : phi, h = top / n, s = 0;
    for (int i = 0; i <= n; i++) {
        double f;
        if (steep) {
            double a = pow(i * h, 1 / df);
            f = a > 0 ? pow(sin(a) / a, df - 1) / df : 1 / df;
        } else
            f = pow(sin(i * h), df - 1);
        s += (i == 0 || i == n ? 1 : i % 2 ? 4 : 2) * f;
    }
    return norm * s * h / 3;
}

double t_quantile(double p, double df)
{
    if (!(p >= 0.5 && p < 1) || !(df > 0))
        return NAN;
    if (df > 1000) { /* the normal's quantile, by bisection on erfc, and the Cornish-Fisher expansion in 1/df */
        double lo = 0, hi = 40;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            *(0.5 * erfc(mid / M_SQRT2) > 1 - p ? &lo : &hi) = mid;
        }
        double z = (lo + hi) / 2, z2 = z * z;
        return z + z * (z2 + 1) / (4 * df) + z * ((5 * z2 + 16) * z2 + 3) / (96 * df * df);
    }
    /* tail(phi) grows with phi (t falls): bisect for tail = 1 - p */
    double lo = 0, hi = M_PI / 2;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        *(tail(mid, df) < 1 - p ? &lo : &hi) = mid;
    }
    double phi = (lo + hi) / 2;
    return phi > 0 ? sqrt(df) / tan(phi) : INFINITY;
}
