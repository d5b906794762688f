/* The CPIs sim measured at simulation points (--measured: sim's results on
 * the checkpoints, sim/RESULTS.md), by interval. */
#ifndef SP_MEASURED_H
#define SP_MEASURED_H

#include <stddef.h>

/* CPI per interval (NAN where no result) from the region results in
 * paths[0..npaths), for a profile of n intervals. Dies with the file and
 * the problem when one is not sim's region results, names an interval
 * beyond n, or measures an interval twice. */
double *measured_load(const char *const *paths, size_t npaths, size_t n);

#endif
