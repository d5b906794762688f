/* Text outputs: a file written atomically (lib/outfile) or stdout ("-"),
 * and number formatting shared by the writers. */
#ifndef VD_SINK_H
#define VD_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "outfile.h"

typedef struct vd_sink {
    outfile *o; /* NULL: stdout */
} vd_sink;

void vd_sink_open(vd_sink *s, const char *path);
void vd_sink_printf(vd_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vd_sink_commit(vd_sink *s);
/* A CSV string cell, quoted as RFC 4180 wants. */
void vd_sink_str(vd_sink *o, const char *s);

/* A growing string (plot data and scripts are built in memory first). */
typedef struct vd_buf {
    char *s;
    size_t n, cap;
} vd_buf;

void vd_buf_printf(vd_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vd_buf_free(vd_buf *b);

/* Formatted numbers in rotating static buffers (valid for the next 32
 * calls), "n/a" for NaN: a fraction as a signed percentage, a fraction as
 * an unsigned one, a number with G significant digits, a whole count
 * with thousands separators, and a CSV cell (%.10g, empty for NaN). */
const char *vd_pct(double fraction);
const char *vd_upct(double fraction);
const char *vd_num(double x, int g);
/* The same as a ratio ("2.43x"), "n/a" for NAN. */
const char *vd_times(double x, int g);
const char *vd_count(double x);
const char *vd_cell(double x);

#endif
