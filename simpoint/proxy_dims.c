#include "proxy_dims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sp_alloc.h"

enum { WINSOR_MADS = 3 };
#define MIN_SCALE_OF_MEDIAN 0.05
#define MAD_TO_SD 1.4826 /* a normal distribution's SD per MAD */

typedef struct weighted {
    double v, w;
} weighted;

static int by_value(const void *a, const void *b)
{
    double x = ((const weighted *)a)->v, y = ((const weighted *)b)->v;
    return (x > y) - (x < y);
}

/* The weighted median of p[0..n) (sorted here): the first value with half
 * the weight at or below it. */
static double weighted_median(weighted *p, size_t n)
{
    qsort(p, n, sizeof *p, by_value);
    double total = 0, below = 0;
    for (size_t i = 0; i < n; i++)
        total += p[i].w;
    for (size_t i = 0; i < n; i++)
        if ((below += p[i].w) >= total / 2)
            return p[i].v;
    return p[n - 1].v;
}

static double weight_of(const double *w, size_t i) { return w ? w[i] : 1; }

double proxy_scale(const double *cpi, const double *w, size_t n)
{
    if (!n)
        return 1;
    weighted *p = sp_malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = (weighted){cpi[i], weight_of(w, i)};
    double median = weighted_median(p, n);
    for (size_t i = 0; i < n; i++)
        p[i] = (weighted){fabs(cpi[i] - median), weight_of(w, i)};
    double reach = WINSOR_MADS * MAD_TO_SD * weighted_median(p, n);
    free(p);
    double sw = 0, wmean = 0, var = 0;
    for (size_t i = 0; i < n; i++) {
        double x = fmin(fmax(cpi[i], median - reach), median + reach), wi = weight_of(w, i);
        sw += wi;
        wmean += wi * x;
    }
    wmean /= sw;
    for (size_t i = 0; i < n; i++) {
        double x = fmin(fmax(cpi[i], median - reach), median + reach) - wmean;
        var += weight_of(w, i) * x * x;
    }
    return fmax(sqrt(var / sw), MIN_SCALE_OF_MEDIAN * median);
}

/* Weighted RMS distance of the rows from their weighted mean. */
static double spread(const dataset *ds)
{
    size_t n = ds->n, d = ds->d;
    double sw = 0, sum = 0;
    double *centre = sp_calloc(d ? d : 1, sizeof *centre);
    for (size_t i = 0; i < n; i++) {
        sw += weight_of(ds->w, i);
        for (size_t j = 0; j < d; j++)
            centre[j] += weight_of(ds->w, i) * dataset_row(ds, i)[j];
    }
    for (size_t j = 0; j < d; j++)
        centre[j] /= sw;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++) {
            double x = dataset_row(ds, i)[j] - centre[j];
            sum += weight_of(ds->w, i) * x * x;
        }
    free(centre);
    return sw > 0 ? sqrt(sum / sw) : 0;
}

void proxy_extend(const dataset *bbv, const double *cpi, double s, dataset *out)
{
    size_t n = bbv->n, d = bbv->d;
    dataset_init(out, n, d + 1, bbv->w != NULL);
    if (bbv->w)
        memcpy(out->w, bbv->w, n * sizeof *out->w);
    double sw = 0, mean = 0;
    for (size_t i = 0; i < n; i++) {
        sw += weight_of(bbv->w, i);
        mean += weight_of(bbv->w, i) * cpi[i];
    }
    mean = sw > 0 ? mean / sw : 0;
    double factor = s * spread(bbv) / proxy_scale(cpi, bbv->w, n);
    for (size_t i = 0; i < n; i++) {
        memcpy(dataset_row(out, i), dataset_row(bbv, i), d * sizeof *out->x);
        dataset_row(out, i)[d] = (cpi[i] - mean) * factor;
    }
}
