/* A SimPoint sampling configuration as simpoint wrote it: .simpoints
 * ("<interval> <cluster>"), .weights ("<weight> <cluster>") and optionally
 * .labels ("<cluster> [<distance>]" per interval), plus the interval size. */
#ifndef VD_SAMPLING_H
#define VD_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

typedef struct vd_point {
    uint64_t index;    /* interval index of the representative */
    long cluster;
    double weight;     /* normalised: the weights sum to 1 */
    double raw_weight; /* as written in the file */
    size_t sp_line, w_line;
} vd_point;

typedef struct vd_sampling {
    char *simpoints, *weights, *labels; /* paths; labels NULL when absent */
    uint64_t interval;
    vd_point *pts; /* in .simpoints order */
    size_t npts;
    long *label;   /* cluster of every interval (labels given) */
    size_t nlabels;
    double weight_sum; /* of the file, before normalising */
} vd_sampling;

/* Read and cross-check the files: numbers well formed, one representative
 * and one weight per cluster, weights summing to 1 (renormalised with a
 * warning when off by more than rounding, an error when off by over 1%),
 * every representative labelled with its own cluster. */
bool vd_sampling_load(vd_sampling *s, const char *simpoints, const char *weights, const char *labels,
                      uint64_t interval, vd_diag *d);
void vd_sampling_free(vd_sampling *s);

/* The profile's instruction count from bbv's --summary JSON ("instructions")
 * or simpoint's --json ("input": {"instructions"}), and a check that the
 * profile was cut into intervals of the size given (bbv: one of its
 * "intervals"; simpoint: as many intervals as that size makes of its
 * instructions); interval 0 skips the check. *seconds (unless NULL):
 * the wall time of the profiling run ("wall_seconds" of bbv --summary),
 * NAN when the file does not say. */
bool vd_read_profile_total(const char *path, uint64_t interval, uint64_t *out, double *seconds, vd_diag *d);
/* The wall time of taking the checkpoints (checkpoints.json: fast-forward
 * and writing seconds); false with a reason when the file is not one, or
 * not of these checkpoints: taken of another program than the one the
 * region results ran (program; NULL: not known), for another interval size,
 * or at other simulation points or clusters than s's. */
bool vd_read_checkpoints(const char *path, const vd_sampling *s, const char *program, double *seconds, vd_diag *d);

#endif
