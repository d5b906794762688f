/* Plots of sampled profiling (--plots DIR, gnuplot SVG and PNG): the error
 * of every profiler at each granularity (the TIP paper's Figs. A.8-A.10),
 * the error against sampling frequency, periodic and random (Fig. A.11),
 * the per-instruction profile of the hottest function for the golden
 * attribution, TIP and NCI side by side, and its per-instruction cycle
 * stacks for the golden PICS, TEA and IBS (the TEA paper's Fig. B.6 shape).
 * With several results, each result's plots are prefixed "rN-". */
#ifndef SIM_PLOTS_H
#define SIM_PLOTS_H

#include <stddef.h>

#include "report.h"

void sim_plots(const char *dir, const sim_result *res, size_t n, const report_ctx *x);

#endif
