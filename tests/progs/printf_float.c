/* printf_float: %f %e %g %a %.17g of tricky values. */
#include <float.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    const double vals[] = {0.0, -0.0, 0.1, 0.5, 1.0 / 3.0, 2.0 / 3.0, 1e300, -1e-300,
                           DBL_MIN, 4.9406564584124654e-324, 2.2250738585072009e-308,
                           DBL_MAX, DBL_EPSILON, 123456789.0, 1e21, 1e22, 9007199254740993.0,
                           0.000123456, 5e-5, 2.5, 3.5, -2.5, 1.005, 100.0, INFINITY,
                           -INFINITY, NAN, -NAN};
    int n = (int)(sizeof vals / sizeof *vals);
    for (int i = 0; i < n; i++) {
        double v = vals[i];
        printf("[%2d] f=%f e=%e g=%g\n", i, v, v, v);
        printf("     a=%a .17g=%.17g .0f=%.0f .3e=%.3e 12.4g=[%12.4g] -12.2f=[%-12.2f]\n", v, v,
               v, v, v, v);
    }
    /* float arguments are promoted to double */
    float f = 0.1f;
    printf("float 0.1f: %.20f %a\n", f, f);
    printf("FLT_MAX %e FLT_MIN %e FLT_TRUE_MIN %e\n", FLT_MAX, FLT_MIN, (double)FLT_TRUE_MIN);
    /* long double is binary128 on riscv64 */
    long double ld = 1.0L / 3.0L;
    printf("long double 1/3: %.30Lf\n", ld);
    printf("long double %%La of 0.1L: %La\n", 0.1L);
    printf("%+.3f % .3f %08.3f %#g %#.0f\n", 3.14159, 3.14159, -3.14159, 1.0, 2.0);
    printf("rounding: %.0f %.0f %.0f %.0f %.1f %.2f\n", 0.5, 1.5, 2.5, -0.5, 0.05, 0.125);
    /* strtod round trip */
    char buf[64];
    int ok = 1;
    for (int i = 0; i < n; i++) {
        if (isnan(vals[i]))
            continue;
        snprintf(buf, sizeof buf, "%.17g", vals[i]);
        double back;
        sscanf(buf, "%lf", &back);
        if (back != vals[i] || signbit(back) != signbit(vals[i]))
            ok = 0;
    }
    printf("%%.17g round trip: %s\n", ok ? "yes" : "no");
    return 0;
}
