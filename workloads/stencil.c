/* stencil: 2-D heat diffusion (Jacobi iterations) on double grids.
 *
 * Phases (one cycle per unit of SIZE):
 *     SMALL  5-point Jacobi, 64x64 grid (64 KB), many sweeps
 *     LARGE  5-point Jacobi, 512x512 grid (4 MB for two grids), few sweeps
 *     NINE   9-point weighted stencil, 160x160 grid
 * Cycle: SMALL LARGE SMALL NINE LARGE NINE.  Each grid keeps its state
 * across cycles (the heat keeps spreading from the hot west edge).
 *
 * Size (retired instructions, measured with bbv --count-only): 29.2 M at
 * SIZE=1 (the test size); 0.03 M + 29.2 M per unit of SIZE, so
 * SIZE=100 is about 2.9 G.
 */
#include "common.h"
#include <string.h>

struct grid {
    int n;            /* n x n points, border included */
    double *a, *b;    /* current and next */
};

static void grid_init(struct grid *g, int n)
{
    g->n = n;
    g->a = calloc((size_t)n * n, sizeof(double));
    g->b = calloc((size_t)n * n, sizeof(double));
    if (!g->a || !g->b) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (int i = 0; i < n; i++) {             /* hot west edge, warm north */
        g->a[i * n] = g->b[i * n] = 100.0;
        g->a[i] = g->b[i] = 25.0 + 50.0 * i / n;
    }
}

static void jacobi5(struct grid *g, int sweeps)
{
    int n = g->n;
    for (int s = 0; s < sweeps; s++) {
        double *a = g->a, *b = g->b;
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] +
                                       a[i * n + j - 1] + a[i * n + j + 1]);
        g->a = b;
        g->b = a;
    }
}

static void nine_point(struct grid *g, int sweeps)
{
    int n = g->n;
    const double wc = 0.4, we = 0.1, wd = 0.05;   /* 0.4 + 4*0.1 + 4*0.05 = 1 */
    for (int s = 0; s < sweeps; s++) {
        double *a = g->a, *b = g->b;
        for (int i = 1; i < n - 1; i++) {
            const double *up = a + (i - 1) * n, *mid = a + i * n, *dn = a + (i + 1) * n;
            for (int j = 1; j < n - 1; j++)
                b[i * n + j] = wc * mid[j] +
                               we * (up[j] + dn[j] + mid[j - 1] + mid[j + 1]) +
                               wd * (up[j - 1] + up[j + 1] + dn[j - 1] + dn[j + 1]);
        }
        g->a = b;
        g->b = a;
    }
}

static uint64_t grid_sum(const struct grid *g)
{
    double s = 0.0;
    for (int i = 0; i < g->n * g->n; i++)
        s += g->a[i] * (1 + (i & 7));
    uint64_t bits;
    memcpy(&bits, &s, sizeof bits);
    return bits;
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    struct grid small, large, nine;
    grid_init(&small, 64);
    grid_init(&large, 512);
    grid_init(&nine, 160);

    uint64_t cs = 0, cl = 0, cn = 0;
    for (long u = 0; u < size; u++) {
        jacobi5(&small, 30);
        cs = wl_mix(cs, grid_sum(&small));
        jacobi5(&large, 1);
        cl = wl_mix(cl, grid_sum(&large));
        jacobi5(&small, 30);
        cs = wl_mix(cs, grid_sum(&small));
        nine_point(&nine, 10);
        cn = wl_mix(cn, grid_sum(&nine));
        jacobi5(&large, 1);
        cl = wl_mix(cl, grid_sum(&large));
        nine_point(&nine, 10);
        cn = wl_mix(cn, grid_sum(&nine));
    }
    wl_print("jacobi-64", cs);
    wl_print("jacobi-512", cl);
    wl_print("nine-160", cn);
    return 0;
}
