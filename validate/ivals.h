/* The intervals of a sampling configuration, measured in the full run: an
 * interval of N instructions is the sum of N/G consecutive log rows (the
 * last interval may be partial, like the profile's). */
#ifndef VD_IVALS_H
#define VD_IVALS_H

#include "ilog.h"

typedef struct vd_ivals {
    uint64_t interval;
    size_t n;         /* intervals, the partial one included */
    size_t ncounters; /* as in the log */
    double *v;        /* n x ncounters */
} vd_ivals;

/* Fails when INTERVAL is not a multiple of the log's G. */
bool vd_ivals_build(vd_ivals *iv, const vd_log *log, uint64_t interval, vd_diag *d);
void vd_ivals_free(vd_ivals *iv);

static inline const double *vd_ival(const vd_ivals *iv, size_t j)
{
    return iv->v + j * iv->ncounters;
}

/* Instructions of interval J (the counters' column 0). */
static inline double vd_ival_len(const vd_ivals *iv, size_t j)
{
    return vd_ival(iv, j)[0];
}

#endif
