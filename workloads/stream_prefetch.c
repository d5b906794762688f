/* stream_prefetch: a streaming stencil larger than the last-level cache,
 * with a software prefetch distance.
 *
 * This models lbm of the TEA paper (notes/tea.md §3, Fig. B.11): each
 * iteration reads one cache line from each of two source arrays and writes
 * one line to each of two destination arrays. Without prefetching, the
 * first load of each line misses the LLC and hides the misses of the loads
 * after it; the stores fill the store queue behind it. With distance D > 0
 * the loop first prefetches the source lines D iterations ahead with
 * Zicbop's prefetch.r hint (ori x0, rs1, 1: a no-op for any RV64GC core,
 * a non-blocking fill for the detailed core), so the demand loads hit,
 * while the stores still stream out and the store queue fills instead.
 *
 * `stream_prefetch [SIZE [D]]`: 4 x SIZE sweeps over the 4 x 2 MiB arrays
 * (the LLC is 4 MiB); D is the prefetch distance in iterations (default 0).
 * Output does not depend on D.
 *
 * Size (retired instructions, bbv --count-only): 6.8 M at SIZE=1, D=0.
 */
#include "common.h"
#include <string.h>

#define LINE 8                  /* doubles per 64-byte line */
#define N (256 * 1024)          /* doubles per array: 2 MiB */
static double a[N], b[N], c[N], d[N];

static inline void prefetch_read(const void *p) { __asm__ volatile("ori x0, %0, 1" : : "r"(p)); }

static void sweep(long distance)
{
    for (long i = 0; i < N; i += LINE) {
        long ahead = i + distance * LINE;
        if (distance && ahead < N) prefetch_read(&a[ahead]), prefetch_read(&b[ahead]);
        for (int k = 0; k < LINE; k++) { /* enough work that the next line's loads are outside the ROB */
            double x = a[i + k], y = b[i + k];
            double u = (((0.25 * x + 0.75) * y + 0.5) * x + 0.125) * y;
            double v = (((x * y - 0.5) * x + 0.25) * y - 0.75) * x;
            c[i + k] = u * u + v;
            d[i + k] = v * v - u;
        }
    }
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    long distance = 0;
    if (argc > 2) {
        char *end;
        distance = strtol(argv[2], &end, 10);
        if (*end || distance < 0 || distance > 1024) {
            fprintf(stderr, "usage: %s [SIZE [DISTANCE]]  (DISTANCE: 0..1024 iterations)\n", argv[0]);
            return 2;
        }
    }
    for (long i = 0; i < N; i++) {
        a[i] = (double)(i & 1023) * 0.5;
        b[i] = (double)(i & 511) * 0.25 + 1.0;
    }
    uint64_t sum = 0;
    for (long s = 0; s < 4 * size; s++) {
        sweep(distance);
        for (long i = 0; i < N; i += 4096) sum = wl_mix(sum, (uint64_t)(c[i] * 16) ^ (uint64_t)(d[i] * 4));
    }
    wl_print("stream", sum);
    return 0;
}
