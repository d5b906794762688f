/* Results of the detailed simulator (sim/RESULTS.md): the full run and the
 * simulated regions, one JSON file each, read with jansson. */
#ifndef VD_RESULT_H
#define VD_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

/* Where a counter lives in a result: top level (instructions, cycles), the
 * cycle stack, the commit states or the events. */
typedef enum { VD_TOP, VD_STACK, VD_STATE, VD_EVENT } vd_group;

typedef struct vd_value {
    char *name;
    double value; /* counts are whole; cycles may carry fractions of a cycle */
    vd_group group;
} vd_value;

/* The "region" object a checkpoint carried into sim. */
typedef struct vd_region_meta {
    long long simpoint;
    long cluster;
    double weight;
    uint64_t interval, warmup, start;
    bool extra; /* a cluster member drawn besides its representative (checkpoint --extra-per-cluster) */
} vd_region_meta;

/* How a full run was chunked (sim --full --chunk-insts: "chunked"). */
typedef struct vd_chunked {
    uint64_t chunks;       /* 0: a serial run */
    uint64_t insts, warmup; /* instructions per chunk, detailed warm-up before each */
} vd_chunked;

typedef struct vd_run {
    size_t index; /* position in "results", for messages */
    char *program, *checkpoint, *stopped_by, *warmup_strategy;
    bool has_region;
    vd_region_meta region;
    uint64_t warmup_insts; /* warm-up actually executed before measuring */
    uint64_t start;        /* instruction count where measurement began */
    vd_value *vals;
    size_t nvals;
    double seconds; /* wall time sim took for it (NAN when not recorded) */
    char *log_path; /* full runs: the per-interval log, as sim wrote it */
    uint64_t log_interval;
    vd_chunked chunked;
} vd_run;

typedef struct vd_result {
    char *path, *mode, *digest, *config_source;
    vd_run *runs;
    size_t n;
} vd_result;

/* Read a sim result file; checks its shape, that counts are whole and
 * non-negative, and that the cycle stack and the states sum to the cycles. */
bool vd_result_load(vd_result *r, const char *path, vd_diag *d);
void vd_result_free(vd_result *r);
/* The counter NAME of RUN (top level, stack or event; states as
 * "states.<name>"), or NULL. */
const vd_value *vd_run_find(const vd_run *run, const char *name);

#endif
