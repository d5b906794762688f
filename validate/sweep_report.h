/* The reports of a sweep: Markdown, CSV (every program x configuration, and
 * every configuration aggregated over the programs), JSON and plots. */
#ifndef VD_SWEEP_REPORT_H
#define VD_SWEEP_REPORT_H

#include <jansson.h>

#include "gnuplot.h"
#include "sink.h"
#include "sweep.h"

void vd_sweep_md(const vd_sweep *sw, const char *path);
/* Its warnings section (sweep_warnings.c). */
void vd_sweep_md_warnings(vd_sink *o, const vd_sweep *sw);
/* PREFIX.rows.csv and PREFIX.configs.csv */
void vd_sweep_csv(const vd_sweep *sw, const char *prefix);
json_t *vd_sweep_json(const vd_sweep *sw);
/* pareto, heatmap_mean[_bicT], heatmap_max[_bicT], cost_by_interval, per_program */
void vd_sweep_plots(const vd_sweep *sw, vd_gnuplot *g, const char *dir, vd_diag *d);

#endif
