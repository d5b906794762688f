/* Inclusive time per function (perf report --children) from a run's
 * calling contexts (sim/profilers/callstack.h): every charge counts for the
 * function of its instruction and for every function on its context's path,
 * each once. */
#ifndef SIM_REPORT_INCLUSIVE_H
#define SIM_REPORT_INCLUSIVE_H

#include <jansson.h>
#include <stdbool.h>

#include "outfile.h"
#include "report.h"

/* Keyed by function (symbolizer_key), units by commit state, largest first. */
cost *inclusive_by_function(const symbolizer *sym, const call_profile *cp, size_t *n);
uint64_t call_profile_total(const call_profile *cp);
/* The whole program's contexts from the regions' (NULL when one has none):
 * each region's charges scaled to weight x CPI of `total` units, as
 * profile_combine scales profiles. */
call_profile *call_profile_combine(const region_profile *regions, const call_profile *const *calls, size_t n,
                                   double total);
/* The Markdown table: inclusive and self time of the ROWS functions with
 * the most inclusive time; `cycles` names the unit. */
void inclusive_md(outfile *o, const sim_result *r, const symbolizer *sym, size_t rows, const char *cycles,
                  bool from_regions);
/* The same as a JSON list (name, cycles, self_cycles), the first TOP (0: all). */
json_t *inclusive_json(const sim_result *r, const symbolizer *sym, size_t top);

#endif
