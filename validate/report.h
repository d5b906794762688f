/* The reports of one validation: Markdown for people, CSV and JSON for
 * machines. Each writes atomically; "-" is stdout. */
#ifndef VD_REPORT_H
#define VD_REPORT_H

#include <jansson.h>

#include "analysis.h"

void vd_report_md(const vd_analysis *a, const vd_diag *d, const char *path);
/* PREFIX.summary.csv (one line, LoopPoint's and ROIperf's columns first),
 * PREFIX.metrics.csv, PREFIX.regions.csv and, with labels, PREFIX.clusters.csv
 * (a PREFIX ending in '/' is a directory: DIR/summary.csv, ...). */
void vd_report_csv(const vd_analysis *a, const char *prefix);
json_t *vd_report_json(const vd_analysis *a, const vd_diag *d);

#endif
