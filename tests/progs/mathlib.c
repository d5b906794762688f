/* mathlib: libm functions, rounding functions under every rounding mode,
 * and floating-point exception flags.  Values are printed with %a (exact)
 * and %.17g so any difference in the emulated FPU shows. */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

/* GCC ignores "#pragma STDC FENV_ACCESS ON": the operands are volatile
 * instead, so no operation is folded at compile time or moved across the
 * fesetround/feclearexcept calls. */

static volatile double vin[] = {0.5, -1.25, 2.0, 1e-310, 3.0, 100.5, -7.75, 1e10};

static void flags(const char *what)
{
    printf("  %-28s flags:%s%s%s%s%s\n", what, fetestexcept(FE_INVALID) ? " invalid" : "",
           fetestexcept(FE_DIVBYZERO) ? " divbyzero" : "",
           fetestexcept(FE_OVERFLOW) ? " overflow" : "",
           fetestexcept(FE_UNDERFLOW) ? " underflow" : "",
           fetestexcept(FE_INEXACT) ? " inexact" : "");
}

int main(void)
{
    printf("elementary functions:\n");
    for (unsigned i = 0; i < sizeof vin / sizeof *vin; i++) {
        double x = vin[i];
        printf("x=%a\n", x);
        printf("  sin %a cos %a tan %a\n", sin(x), cos(x), tan(x));
        printf("  exp %a log %a log2 %a log10 %a\n", exp(x), log(x), log2(x), log10(x));
        printf("  pow(x,1.5) %a pow(2,x) %a sqrt %a cbrt %a\n", pow(x, 1.5), pow(2.0, x),
               sqrt(x), cbrt(x));
        printf("  atan2(x,-0.5) %a hypot(x,3) %a fma(x,x,-1) %a expm1 %a log1p %a\n",
               atan2(x, -0.5), hypot(x, 3.0), fma(x, x, -1.0), expm1(x), log1p(x));
        printf("  sinh %a tanh %a asin(x/1e11) %a fmod(x,0.7) %a\n", sinh(x), tanh(x),
               asin(x / 1e11), fmod(x, 0.7));
    }
    float xf = 0.7f;
    printf("float: sinf %a expf %a sqrtf %a fmaf %a\n", sinf(xf), expf(xf), sqrtf(xf),
           fmaf(xf, xf, -0.49f));
    printf("fma exactness: fma(1+2^-30, 1-2^-30, -1) = %a\n",
           fma(1.0 + 0x1p-30, 1.0 - 0x1p-30, -1.0));

    static const int modes[] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    static const char *mnames[] = {"tonearest", "upward", "downward", "towardzero"};
    static volatile double rv[] = {2.5, -2.5, 3.5, -0.5, 0.49999999999999994, 1.7, -1.7,
                                   4503599627370497.0, -0.0};
    for (int m = 0; m < 4; m++) {
        if (fesetround(modes[m]) != 0)
            printf("fesetround failed\n");
        printf("rounding mode %s (fegetround ok: %s):\n", mnames[m],
               fegetround() == modes[m] ? "yes" : "no");
        for (unsigned i = 0; i < sizeof rv / sizeof *rv; i++) {
            double x = rv[i];
            printf("  %-24.17g ceil %g floor %g round %g trunc %g rint %g nearbyint %g lrint "
                   "%ld llround %lld\n",
                   x, ceil(x), floor(x), round(x), trunc(x), rint(x), nearbyint(x), lrint(x),
                   llround(x));
        }
        volatile double a = 1.0, b = 3.0;
        printf("  1/3 = %a, sqrt(2) = %a, (float)(1/3) = %a\n", a / b, sqrt(2.0 * a),
               (double)(float)(a / b));
    }
    fesetround(FE_TONEAREST);

    printf("exception flags:\n");
    volatile double z = 0.0, one = 1.0, big = DBL_MAX, tiny = DBL_MIN, three = 3.0;
    volatile double r;
    feclearexcept(FE_ALL_EXCEPT);
    flags("after feclearexcept");
    r = one / z;
    flags("1/0");
    feclearexcept(FE_ALL_EXCEPT);
    r = z / z;
    flags("0/0");
    feclearexcept(FE_ALL_EXCEPT);
    r = big * 2.0;
    flags("DBL_MAX*2");
    feclearexcept(FE_ALL_EXCEPT);
    r = tiny / 1e10;
    flags("DBL_MIN/1e10");
    feclearexcept(FE_ALL_EXCEPT);
    r = one / three;
    flags("1/3");
    feclearexcept(FE_ALL_EXCEPT);
    r = sqrt(-one);
    flags("sqrt(-1)");
    feclearexcept(FE_ALL_EXCEPT);
    r = one + one;
    flags("1+1");
    feclearexcept(FE_ALL_EXCEPT);
    r = ceil(2.5);
    flags("ceil(2.5)");
    feclearexcept(FE_ALL_EXCEPT);
    r = rint(2.5);
    flags("rint(2.5)");
    feclearexcept(FE_ALL_EXCEPT);
    r = nearbyint(2.5);
    flags("nearbyint(2.5)");
    feclearexcept(FE_ALL_EXCEPT);
    long l = lrint(1e30);
    flags("lrint(1e30)");
    (void)l;
    (void)r;
    fexcept_t saved;
    feclearexcept(FE_ALL_EXCEPT);
    feraiseexcept(FE_OVERFLOW | FE_INEXACT);
    fegetexceptflag(&saved, FE_ALL_EXCEPT);
    feclearexcept(FE_ALL_EXCEPT);
    fesetexceptflag(&saved, FE_ALL_EXCEPT);
    flags("feraise/fesetexceptflag");
    feclearexcept(FE_ALL_EXCEPT);
    printf("nan checks: isnan %d isinf %d signbit(-0.0) %d copysign %g nextafter %a\n",
           isnan(z / z) != 0, isinf(one / z) != 0, signbit(-z) != 0, copysign(3.0, -z),
           nextafter(one, 2.0));
    printf("fmin(nan,1) %g fmax(-0,0) %g frexp/ldexp %a\n", fmin(NAN, 1.0), fmax(-0.0, 0.0),
           ldexp(0.75, -1074));
    return 0;
}
