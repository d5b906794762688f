/* Sampled simulation's answer for the whole program, from the regions alone:
 * CPI, every cycle-stack component and every event rate as weighted means
 * of the regions' per-instruction figures (weights of the regions given,
 * renormalised), total cycles when the program's instruction count is
 * known, and the golden and sampled profiles combined with each region
 * standing for its cluster's share of time (weight x CPI, lib/profile.h),
 * in cycles per 1,000 instructions. */
#ifndef SIM_COMBINE_H
#define SIM_COMBINE_H

#include <jansson.h>
#include <stdio.h>

#include "report/report.h"

/* NULL unless there are at least two regions with SimPoint weights. */
json_t *combined_json(const sim_result *res, size_t n, uint64_t total_insts, const report_ctx *x);
void combined_summary(FILE *f, const sim_result *res, size_t n, uint64_t total_insts);

#endif
