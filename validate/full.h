/* The reference: the full detailed run's result and its per-interval log,
 * loaded and checked together (the log's rows must add up to the result's
 * totals exactly). */
#ifndef VD_FULL_H
#define VD_FULL_H

#include "ilog.h"
#include "metrics.h"
#include "result.h"

/* A full run in chunks (sim --full --chunk-insts) is itself an estimate: each
 * chunk boundary costs at most this many instructions' worth of its time,
 * above the largest measured (8,966 at the default chunking, 17,301 before
 * warming read the wrong paths' code lines: bench/results/chunked_full.md). */
#define VD_CHUNK_BOUNDARY_INSTS 20000

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
/* How far a chunked run's CPI may be from a serial run's, as a fraction
 * (0 for a serial run): VD_CHUNK_BOUNDARY_INSTS per boundary. */
double vd_full_chunked_uncertainty(const vd_full *f);

#endif
