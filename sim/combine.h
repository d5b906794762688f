/* Sampled simulation's answer for the whole program, from the regions alone:
 * CPI as the weighted mean of the regions' (weights of the regions given,
 * renormalised), and the golden and sampled profiles combined with each
 * region standing for its cluster's share of time (weight x CPI,
 * lib/profile.h), in cycles per 1,000 instructions. */
#ifndef SIM_COMBINE_H
#define SIM_COMBINE_H

#include <jansson.h>
#include <stdio.h>

#include "report.h"

/* NULL unless there are at least two regions with SimPoint weights. */
json_t *combined_json(const sim_result *res, size_t n, const report_ctx *x);
void combined_summary(FILE *f, const sim_result *res, size_t n);

#endif
