/* Which checkpoints to take: one per distinct start instruction, each with
 * the regions (simulation point x warm-up) that begin there. */
#ifndef CKPT_PLAN_H
#define CKPT_PLAN_H

#include "ckpt/ckpt.h"

typedef struct ckpt_point {
    uint64_t start;
    ckpt_region *regions;
    int nregions;
} ckpt_point;

typedef struct ckpt_plan {
    ckpt_point *points;
    int n;
    uint64_t chunk, chunk_warmup; /* a chunk plan (lib/ckpt/ckpt_chunks.h): its size C > 0 and warm-up W */
} ckpt_plan;

/* Regions from SimPoint .simpoints/.weights files (matched by cluster id):
 * start = index*interval - warmup, clamped at 0 with the warm-up shortened
 * (gem5's rule). 0, or -1 with "file:line: problem" in err. */
int plan_from_simpoints(ckpt_plan *plan, const char *simpoints, const char *weights, uint64_t interval,
                        const uint64_t *warmups, int nwarmups, char *err, size_t errlen);
/* For each simulation point in the plan, up to per_cluster more members of
 * its cluster (SimPoint's .labels), drawn without replacement with seed,
 * never the last interval (it may be partial), as regions marked extra with
 * the representative's weight and warm-up; every region gets its cluster's
 * size. 0, or -1 with a reason in err. */
int plan_add_extras(ckpt_plan *plan, const char *labels, int per_cluster, uint64_t seed, char *err, size_t errlen);
/* A chunk plan: a checkpoint W before every multiple of C, open-ended (the
 * pass takes them until the program ends). 0, or -1 with a reason. */
int plan_chunks(ckpt_plan *plan, uint64_t C, uint64_t W, char *err, size_t errlen);
/* The i-th checkpoint in start order (a chunk plan makes it when first
 * asked), or NULL past the last; the plan must be sorted. */
ckpt_point *plan_point(ckpt_plan *plan, int i);
/* Add a region; regions with the same start share one checkpoint. */
void plan_add(ckpt_plan *plan, const ckpt_region *r);
/* Order checkpoints by start instruction. */
void plan_sort(ckpt_plan *plan);
void plan_free(ckpt_plan *plan);

#endif
