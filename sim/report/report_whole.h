/* The whole program rebuilt from SimPoint regions, as one sim_result that
 * the reports show like a full run's: each representative region stands for
 * its cluster's share of the time (weight x CPI, lib/profile.h), its golden
 * profile, PICS and sampled profiles combined so; counters are per
 * WHOLE_INSTRUCTIONS instructions. Extra members of clusters are left out
 * (they measure the spread within a cluster, not its weight). */
#ifndef SIM_REPORT_WHOLE_H
#define SIM_REPORT_WHOLE_H

#include <stdbool.h>

#include "../run.h"

enum { WHOLE_INSTRUCTIONS = 1000 };

/* False (out untouched) unless there are two or more weighted regions that
 * all ran with their golden profile. */
bool whole_from_regions(const sim_result *res, size_t n, sim_result *out);
void whole_free(sim_result *w);

#endif
