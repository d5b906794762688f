/* The full run's per-interval log (sim --interval-log): a header
 * "interval,start,instructions,cycles,<counters>..." then one row per G
 * committed instructions, the last row possibly shorter. */
#ifndef VD_ILOG_H
#define VD_ILOG_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

typedef struct vd_log {
    char *path;
    uint64_t G;       /* instructions per row (all rows but the last) */
    size_t nrows;
    size_t ncounters; /* every column after interval and start */
    char **names;     /* names[0] = "instructions", names[1] = "cycles" */
    double *v;        /* nrows x ncounters, row-major */
    double *totals;   /* column sums */
} vd_log;

/* Read and check the log: numeric cells, consecutive interval numbers and
 * starts, every row but the last exactly G instructions (G: the full run's
 * "interval_log.interval", or 0 to take the first row's length). */
bool vd_log_load(vd_log *log, const char *path, uint64_t G, vd_diag *d);
void vd_log_free(vd_log *log);
/* Column of counter NAME, or -1. */
long vd_log_column(const vd_log *log, const char *name);

static inline const double *vd_log_row(const vd_log *log, size_t r)
{
    return log->v + r * log->ncounters;
}

#endif
