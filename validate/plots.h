/* The plots of one validation, in DIR: cpi_clusters (every interval's CPI
 * by cluster with its representative, as Figure C.6 of Paper C),
 * error_breakdown (each headline metric's error, sampling and warm-up) and
 * error_by_cluster (each cluster's share of the CPI error). */
#ifndef VD_PLOTS_H
#define VD_PLOTS_H

#include "analysis.h"
#include "gnuplot.h"

void vd_plots(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d);
/* error_breakdown alone (plot_metrics.c). */
void vd_plot_metric_errors(const vd_analysis *a, vd_gnuplot *g, const char *dir, vd_diag *d);

#endif
