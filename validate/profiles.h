/* Profiles through sampled simulation: the whole-program profile rebuilt
 * from the regions (each standing for its cluster's share of time, weight x
 * CPI) against the full run's golden profile, with the TIP paper's error at
 * instruction, block and function level, for the golden attribution of the
 * regions and for every sampled time profile they carry; and the functions
 * and blocks the methodology over- and under-states. Read from the same sim
 * result files as the rest of validate (sim --profile-top 0 for complete
 * lists; a truncated list makes the error approximate, and says so). */
#ifndef VD_PROFILES_H
#define VD_PROFILES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "sink.h"

typedef struct vd_profile_diff {
    char *name;
    double full, sampled;      /* shares of the time */
} vd_profile_diff;

enum { VD_PROFILE_DIFFS = 5 };

typedef struct vd_profile_cmp {
    char *name;                /* "golden" (the regions' own) or a profiler */
    double err[3];             /* instruction, block, function */
    vd_profile_diff functions[VD_PROFILE_DIFFS], blocks[VD_PROFILE_DIFFS]; /* largest |difference| first */
    size_t nfunctions, nblocks;
    size_t regions, few_samples; /* sampled: regions, and those with fewer samples than sim's samples_enough */
    uint64_t fewest;           /* the fewest samples of a region */
} vd_profile_cmp;

typedef struct vd_profiles {
    bool present;              /* the full run and the regions all have profiles */
    bool complete;             /* every list was complete */
    vd_profile_cmp *cmp;
    size_t n;
} vd_profiles;

/* Not present (no error) when a file has no profile; false on bad input. */
bool vd_profiles_compare(vd_profiles *p, const char *full, const char **regions, size_t nregions, vd_diag *d);
void vd_profiles_free(vd_profiles *p);
void vd_profiles_md(vd_sink *o, const vd_profiles *p);
json_t *vd_profiles_json(const vd_profiles *p);
void vd_profiles_csv(vd_sink *o, const vd_profiles *p);

#endif
