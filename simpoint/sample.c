#include "sample.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ran2.h"
#include "sp_alloc.h"

/* qsort_r comparator: heavier rows first, then by index. */
static int by_weight_desc(const void *a, const void *b, void *weights)
{
    const double *w = weights;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (w[i] != w[j])
        return w[i] > w[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

void sample_rows(const dataset *full, size_t m, int32_t seed, dataset *sample)
{
    size_t n = full->n, positive = 0;
    size_t *order = sp_malloc(n * sizeof *order);
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
        positive += full->w[i] > 0;
    }
    if (m > positive)
        m = positive;
    qsort_r(order, n, sizeof *order, by_weight_desc, full->w);
    double *cum = sp_malloc(n * sizeof *cum), total = 0;
    for (size_t i = 0; i < n; i++)
        cum[i] = total += full->w[order[i]];
    bool *chosen = sp_calloc(n, sizeof *chosen);
    ran2 r;
    ran2_seed(&r, seed);
    for (size_t got = 0; got < m;) {
        double u = (double)ran2_float(&r) * total;
        size_t lo = 0, hi = n - 1; /* first position whose cumulative weight exceeds u */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cum[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        size_t row = order[lo];
        if (!chosen[row] && full->w[row] > 0) {
            chosen[row] = true;
            got++;
        }
    }
    double picked = 0;
    for (size_t i = 0; i < n; i++)
        if (chosen[i])
            picked += full->w[i];
    dataset_init(sample, m, full->d, true);
    for (size_t i = 0, j = 0; i < n; i++)
        if (chosen[i]) {
            memcpy(dataset_row(sample, j), dataset_row(full, i), full->d * sizeof(double));
            sample->w[j++] = full->w[i] / picked;
        }
    free(order);
    free(cum);
    free(chosen);
}
