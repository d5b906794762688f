/* fp_flags: square roots behind IEEE-754-quiet comparisons.
 *
 * This models nab of the TEA paper (notes/tea.md §3): RISC-V has no
 * non-signalling flt.d, so GCC brackets every quiet comparison (isless, and
 * the errno check after sqrt) with frflags/fsflags, which a BOOM-like core
 * does not rename: each one flushes the pipeline, and the fsqrt.d between
 * them cannot overlap with anything. The relaxed phase computes the same
 * sum with finite-math, no-errno code (the paper's -ffast-math build): no
 * CSR accesses, so independent square roots overlap.
 *
 * Phases (one cycle per unit of SIZE):
 *     QUIET    sum of +-sqrt(x) chosen by isless(sqrt(x), limit)
 *     RELAXED  the same with plain comparisons and no errno check
 * Cycle: QUIET RELAXED QUIET.
 *
 * Size (retired instructions, bbv --count-only): 8.4 M at SIZE=1; about
 * 8.4 M per unit of SIZE.
 */
#include "common.h"
#include <math.h>
#include <string.h>

#define N 2048
static double xs[N];

static uint64_t bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static uint64_t phase_quiet(int reps, double limit)
{
    double acc = 0.0;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < N; i++) {
            double s = sqrt(xs[i]);
            if (isless(s, limit)) acc += s;
            else acc -= s;
        }
    return bits(acc);
}

__attribute__((optimize("no-math-errno", "finite-math-only")))
static uint64_t phase_relaxed(int reps, double limit)
{
    double acc = 0.0;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < N; i++) {
            double s = sqrt(xs[i]);
            if (s < limit) acc += s;
            else acc -= s;
        }
    return bits(acc);
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    for (int i = 0; i < N; i++)
        xs[i] = 0.5 + (double)((i * 7919) % N) * 1.375;
    uint64_t q = 0, r = 0;
    for (long u = 0; u < size; u++) {
        q = wl_mix(q, phase_quiet(100, 30.0));
        r = wl_mix(r, phase_relaxed(100, 30.0));
        q = wl_mix(q, phase_quiet(100, 30.0));
    }
    wl_print("quiet", q);
    wl_print("relaxed", r);
    return 0;
}
