#include "ivals.h"

#include <stdlib.h>
#include <string.h>

bool vd_ivals_build(vd_ivals *iv, const vd_log *log, uint64_t interval, vd_diag *d)
{
    memset(iv, 0, sizeof *iv);
    if (interval == 0 || interval % log->G != 0)
        return vd_fail(d, "the interval size %llu is not a multiple of the full run's log interval %llu (%s)",
                       (unsigned long long)interval, (unsigned long long)log->G, log->path);
    size_t per = (size_t)(interval / log->G);
    iv->interval = interval;
    iv->ncounters = log->ncounters;
    iv->n = (log->nrows + per - 1) / per;
    iv->v = vd_calloc(iv->n * iv->ncounters, sizeof *iv->v);
    for (size_t r = 0; r < log->nrows; r++) {
        const double *row = vd_log_row(log, r);
        double *dst = iv->v + (r / per) * iv->ncounters;
        for (size_t c = 0; c < iv->ncounters; c++)
            dst[c] += row[c];
    }
    return true;
}

void vd_ivals_free(vd_ivals *iv)
{
    free(iv->v);
    memset(iv, 0, sizeof *iv);
}
