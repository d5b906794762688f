/* The reference: the full detailed run's result and its per-interval log,
 * loaded and checked together (the log's rows must add up to the result's
 * totals exactly). */
#ifndef VD_FULL_H
#define VD_FULL_H

#include "ilog.h"
#include "metrics.h"
#include "result.h"

/* A full run in chunks (sim --full --chunk-insts) is itself an estimate: the
 * largest |CPI difference| from the serial run measured at the default
 * chunking (bench/results/chunked_full.md), as a fraction. */
#define VD_CHUNKED_CPI_UNCERTAINTY 0.001

typedef struct vd_full {
    vd_result res;
    const vd_run *run; /* res.runs[0] */
    vd_log log;
    vd_group *groups;  /* of every log column, from the result */
    vd_metrics ms;
    double *values;    /* every metric over the whole run */
    uint64_t insts;
    double cycles;
} vd_full;

/* LOG_PATH NULL: the result's interval_log.path, as written or relative to
 * the result's directory. */
bool vd_full_load(vd_full *f, const char *json, const char *log_path, vd_diag *d);
void vd_full_free(vd_full *f);

#endif
