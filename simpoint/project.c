#include "project.h"

#include <stdint.h>
#include <string.h>

#include "util.h"
#include "sp_alloc.h"

/* Refuse matrices above this size: ids are meant to be dense (see bb_load.c). */
#define MAX_MATRIX_BYTES (UINT64_C(16) << 30)

void projection_init(projection *p, size_t dim, int seed)
{
    memset(p, 0, sizeof *p);
    p->m.d = dim;
    ran2_seed(&p->rng, seed);
}

void projection_load(projection *p, const dataset *m)
{
    memset(p, 0, sizeof *p);
    p->m.n = p->cap = m->n;
    p->m.d = m->d;
    p->m.x = sp_malloc(m->n * m->d * sizeof(double));
    memcpy(p->m.x, m->x, m->n * m->d * sizeof(double));
    p->fixed = true;
}

void projection_free(projection *p)
{
    dataset_free(&p->m);
    p->cap = 0;
}

bool projection_ensure_rows(projection *p, size_t rows)
{
    if (rows <= p->m.n)
        return true;
    if (p->fixed)
        return false;
    if ((uint64_t)rows * p->m.d * sizeof(double) > MAX_MATRIX_BYTES)
        die("block id %zu needs a %zu x %zu projection matrix (over 16 GiB): block ids must be "
            "dense small integers", rows, rows, p->m.d);
    if (rows > p->cap) {
        size_t cap = p->cap ? p->cap : 1024;
        while (cap < rows)
            cap *= 2;
        p->m.x = sp_realloc_array(p->m.x, cap * p->m.d, sizeof(double));
        p->cap = cap;
    }
    double *e = p->m.x + p->m.n * p->m.d, *end = p->m.x + rows * p->m.d;
    for (; e < end; e++)
        *e = (double)ran2_float(&p->rng) * 2.0 - 1.0;
    p->m.n = rows;
    return true;
}

void projection_apply(const projection *p, const bb_pair *pairs, size_t npairs, double row_sum,
                      unsigned id_shift, double *restrict out)
{
    size_t d = p->m.d;
    memset(out, 0, d * sizeof *out);
    for (size_t i = 0; i < npairs; i++) {
        double x = pairs[i].count / row_sum;
        const double *restrict row = p->m.x + ((size_t)pairs[i].id + id_shift - 1) * d;
        size_t j = 0;
        for (; j + 4 <= d; j += 4) { /* unrolled so the compiler pairs them into vector ops */
            out[j] += x * row[j];
            out[j + 1] += x * row[j + 1];
            out[j + 2] += x * row[j + 2];
            out[j + 3] += x * row[j + 3];
        }
        for (; j < d; j++)
            out[j] += x * row[j];
    }
}
