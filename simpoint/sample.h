/* -sampleSize: k-means on a weighted random subsample of the intervals.
 * Draws by weight (inverse CDF over the weights sorted in descending order,
 * binary search) with ran2(seedsample) until m distinct rows are chosen; each
 * chosen row's weight is divided by the total weight chosen. */
#ifndef SP_SAMPLE_H
#define SP_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "dataset.h"

/* The sample, rows in their original order. m is capped at the rows with a
 * positive weight. */
void sample_rows(const dataset *full, size_t m, int32_t seed, dataset *sample);

#endif
