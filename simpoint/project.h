/* Random projection of L1-normalised basic-block vectors to a few dimensions.
 * The matrix has one row per block id (row id-1), filled row-major from ran2
 * seeded with -seedproj, entries ran2*2-1 in [-1, 1): SimPoint 3.2's matrix.
 * Rows are generated lazily as larger ids appear, which draws the same stream
 * as generating all of them up front, so the input is read only once. */
#ifndef SP_PROJECT_H
#define SP_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "bb_parse.h"
#include "dataset.h"
#include "ran2.h"

typedef struct projection {
    dataset m;     /* rows x dim (m.n = rows generated or loaded) */
    size_t cap;    /* rows allocated */
    ran2 rng;
    bool fixed;    /* loaded from a file: cannot grow */
} projection;

void projection_init(projection *p, size_t dim, int seed);
/* Use a saved matrix (SimPoint vector-file format, one row per block id). */
void projection_load(projection *p, const dataset *m);
void projection_free(projection *p);
/* Make rows for ids 1..rows exist; false if the matrix is fixed and too small.
 * Dies if the matrix would not fit in memory. */
bool projection_ensure_rows(projection *p, size_t rows);
/* out[0..dim) = sum over pairs of (count/row_sum) * row(id + id_shift - 1),
 * accumulated in pair order. */
void projection_apply(const projection *p, const bb_pair *pairs, size_t npairs, double row_sum,
                      unsigned id_shift, double *restrict out);

#endif
