/* Student's t quantiles (simpoint/tquantile.h) against published values. */
#include <criterion/criterion.h>
#include <math.h>

#include "../../simpoint/tquantile.h"

Test(simpoint_tquantile, known_quantiles)
{
    /* 97.5% quantiles (tables of Student's t, 7 digits) */
    static const struct {
        double df, q;
    } known[] = {{1, 12.7062047}, {2, 4.3026527}, {3, 3.1824463}, {5, 2.5705818},
                 {10, 2.2281389}, {30, 2.0422725}, {100, 1.9839715}, {1000, 1.9623391}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        cr_assert_float_eq(t_quantile(0.975, known[i].df), known[i].q, 2e-6, "df %g: %.8f", known[i].df,
                           t_quantile(0.975, known[i].df));
    cr_assert_float_eq(t_quantile(0.95, 4), 2.1318468, 2e-6);
    cr_assert_float_eq(t_quantile(0.975, INFINITY), 1.9599640, 1e-6);
}

Test(simpoint_tquantile, fewer_degrees_of_freedom_than_one)
{
    /* df = 1/2: heavier than the Cauchy; falls as df grows */
    double half = t_quantile(0.975, 0.5);
    cr_assert(isfinite(half) && half > 12.7062047, "%g", half);
    cr_assert(t_quantile(0.975, 0.9) < half && t_quantile(0.975, 0.9) > 12.7062047);
    /* the median is 0 */
    cr_assert_float_eq(t_quantile(0.5, 3), 0, 1e-6);
}

Test(simpoint_tquantile, bad_arguments_are_nan)
{
    cr_assert(isnan(t_quantile(0.975, 0)));
    cr_assert(isnan(t_quantile(0.975, -1)));
    cr_assert(isnan(t_quantile(1, 3)));
    cr_assert(isnan(t_quantile(0.4, 3)));
}
