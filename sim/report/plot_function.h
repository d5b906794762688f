/* The hottest function's per-instruction plots (sim --plots): its time per
 * instruction for the golden attribution, TIP and NCI side by side
 * (hottest_function), and its cycle stacks for the golden PICS, TEA and IBS
 * (hottest_function_pics, the TEA paper's Fig. B.6 shape). Only its hottest
 * instructions, as many as have room for their labels, in address order,
 * labelled by their offset in the function; every category a colour of its
 * own, those past the palette summed as "other". */
#ifndef SIM_PLOT_FUNCTION_H
#define SIM_PLOT_FUNCTION_H

#include "gnuplot.h"
#include "report.h"

void plot_hottest_function(gnuplot *g, const char *dir, const char *prefix, const sim_result *r,
                           const symbolizer *sym);

#endif
