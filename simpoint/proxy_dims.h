/* --proxy-dims S: k-means on the projected BBVs plus one dimension, the
 * proxy CPI of bbv --proxy, scaled robustly so that no single interval sets
 * the scale for the others:
 *
 *   coordinate = (cpi - mean) / scale x S x spread
 *
 * spread is the BBVs' own (weighted RMS distance from their mean), so one
 * scale unit of proxy CPI weighs as much as all the code dimensions together
 * at S = 1. scale is the weighted standard deviation of the proxy CPI
 * winsorised at the median +- 3 MADs (normal-consistent): an outlier such as
 * a start-up interval keeps its own, distant coordinate, but cannot inflate
 * the scale and squeeze every other interval together. It is at least 5% of
 * the median proxy CPI: smaller differences are not worth a cluster (a
 * program whose CPI hardly varies clusters as it would without the proxy).
 *
 * The k that BIC chooses on the extended vectors is never less than the k
 * it chooses on the BBVs alone (search.c, search_choose): a distant
 * interval can win most of the BIC range on its own, and the code's phases
 * must not lose their clusters to it. */
#ifndef SP_PROXY_DIMS_H
#define SP_PROXY_DIMS_H

#include "dataset.h"

/* The scale above of cpi[0..n) with weights w. */
double proxy_scale(const double *cpi, const double *w, size_t n);

/* out = the rows of bbv with the scaled proxy dimension appended (own copies
 * of rows and weights). */
void proxy_extend(const dataset *bbv, const double *cpi, double s, dataset *out);

#endif
