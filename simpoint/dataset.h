/* Dense row-major vectors with one weight per row: the projected intervals,
 * the k-means centres and the projection matrix all use this shape. */
#ifndef SP_DATASET_H
#define SP_DATASET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct dataset {
    size_t n, d;
    double *x; /* n x d */
    double *w; /* n weights, or NULL */
} dataset;

/* Zero-filled; weights allocated when with_weights. Dies when out of memory. */
void dataset_init(dataset *ds, size_t n, size_t d, bool with_weights);
void dataset_free(dataset *ds);
static inline double *dataset_row(const dataset *ds, size_t i)
{
    return ds->x + i * ds->d;
}
/* Grow to at least n rows (contents kept, new rows zeroed). */
void dataset_reserve(dataset *ds, size_t n);
double dataset_weight_sum(const dataset *ds);

/* SimPoint 3.2's vector files. Text: "<n>[:w]" then per row "[<w> ]<d>: v1 ... vd"
 * at 20 significant digits. Binary (native little-endian): u32 n, u32 has_weights,
 * then per row [f64 w] u32 d, d x f64. Writers are atomic; readers die with
 * "file:line: problem" on malformed input. */
void dataset_write_txt(const char *path, const dataset *ds);
void dataset_write_bin(const char *path, const dataset *ds);
void dataset_read_txt(const char *path, dataset *ds);
void dataset_read_bin(const char *path, dataset *ds);

/* One number per line (vector weights, initial labels); '#' lines and blank lines ignored. */
void write_number_column(const char *path, const double *v, size_t n);
double *read_number_column(const char *path, size_t *n);

#endif
