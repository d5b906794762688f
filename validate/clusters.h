/* Per-cluster statistics from the labels and the full run's intervals: the
 * CPI distribution of each cluster, how well its representative stands for
 * it, each cluster's share of the sampling error, the confidence of the
 * estimate (clusters as strata; bootstrap over the representative), and
 * flags for heavy clusters whose CPI varies widely (Paper C §6.2). */
#ifndef VD_CLUSTERS_H
#define VD_CLUSTERS_H

#include "analysis.h"

void vd_clusters(vd_analysis *a, vd_diag *d);
void vd_clusters_free(vd_analysis *a);

#endif
