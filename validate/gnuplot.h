/* validate's plots go through lib/gnuplot.h; its warnings join the report's. */
#ifndef VD_GNUPLOT_H
#define VD_GNUPLOT_H

#include "../lib/gnuplot.h"
#include "diag.h"

typedef gnuplot vd_gnuplot;

void vd_plot(vd_gnuplot *g, const char *dir, const char *name, const char *data, const char *body, vd_diag *d);

#endif
