/* Sanity checks before any number is reported (the analogue of ROIperf's
 * applicability pre-tests, made exact because the simulator is
 * deterministic). Each returns false with the first error in D. */
#ifndef VD_CHECKS_H
#define VD_CHECKS_H

#include "analysis.h"

/* The profile's instruction count equals the full run's, exactly. */
bool vd_check_profile(const vd_full *f, const vd_params *p, vd_diag *d);
/* Every simulation point lies inside the full run; labels cover its intervals. */
bool vd_check_sampling(const vd_sampling *s, const vd_ivals *iv, vd_diag *d);
/* MATCH[i] = the region result of simulation point i: it exists once, names
 * the same cluster and weight, began at its interval and ran exactly it, on
 * the same core configuration as the full run. */
bool vd_match_regions(const vd_full *f, const vd_sampling *s, const vd_ivals *iv, const vd_result *files,
                      size_t nfiles, const vd_params *p, const vd_run **match, vd_diag *d);

#endif
