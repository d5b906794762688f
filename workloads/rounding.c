/* rounding: hot loops calling libm rounding functions.
 *
 * This models the Imagick case of the TIP/TEA papers: glibc's RISC-V
 * ceil/floor/round/trunc/nearbyint save and restore fflags (frflags /
 * fsflags) around an fcvt with a static rounding mode, and rint/lrint
 * read the dynamic rounding mode, so these loops are dense in CSR
 * accesses that serialise a BOOM-like pipeline.
 *
 * Phases (one cycle per unit of SIZE):
 *     CEIL   sum of ceil(x) - floor(y) over a ramp of values
 *     RINT   round, trunc, rint, nearbyint, lrint over the same values
 *     ARITH  the same amount of plain FP arithmetic (polynomial, no
 *            libm calls, no CSR accesses): the contrast phase
 * Cycle: CEIL ARITH RINT CEIL ARITH RINT ARITH.
 *
 * Size (retired instructions, measured with bbv --count-only): 24.3 M at
 * SIZE=1 (the test size); 0.05 M + 24.2 M per unit of SIZE, so
 * SIZE=100 is about 2.4 G.
 */
#include "common.h"
#include <math.h>
#include <string.h>

#define N 4096
static double xs[N];

static uint64_t bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static uint64_t phase_ceil(int reps)
{
    double acc = 0.0;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < N; i++)
            acc += ceil(xs[i]) - floor(xs[i] * 0.75);
    return bits(acc);
}

static uint64_t phase_rint(int reps)
{
    double acc = 0.0;
    long lacc = 0;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < N; i++) {
            double x = xs[i];
            acc += round(x) + trunc(x * 1.5) + rint(x * 0.5) + nearbyint(x * 2.5);
            lacc += lrint(x * 3.25);
        }
    return bits(acc) ^ (uint64_t)lacc;
}

static uint64_t phase_arith(int reps)
{
    double acc = 0.0;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < N; i++) {
            double x = xs[i];
            acc += ((0.5 * x + 1.25) * x - 0.75) * x + 3.0;
        }
    return bits(acc);
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    for (int i = 0; i < N; i++)
        xs[i] = (i - N / 2) * 0.37 + 0.125 * (i % 5);
    uint64_t c = 0, r = 0, a = 0;
    for (long u = 0; u < size; u++) {
        c = wl_mix(c, phase_ceil(40));
        a = wl_mix(a, phase_arith(50));
        r = wl_mix(r, phase_rint(10));
        c = wl_mix(c, phase_ceil(40));
        a = wl_mix(a, phase_arith(50));
        r = wl_mix(r, phase_rint(10));
        a = wl_mix(a, phase_arith(50));
    }
    wl_print("ceil-floor", c);
    wl_print("rint-round", r);
    wl_print("arith", a);
    return 0;
}
