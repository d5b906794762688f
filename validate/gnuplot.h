/* Plots drawn by gnuplot: each plot is NAME.dat (its data) and NAME.gp (a
 * script that draws NAME.svg and NAME.png from it, and can be rerun by
 * hand), written atomically, then rendered. What gnuplot lacks (the
 * program itself, the svg or a png terminal) is said in a warning: the data
 * and scripts are still written. */
#ifndef VD_GNUPLOT_H
#define VD_GNUPLOT_H

#include <stdbool.h>

#include "diag.h"

typedef struct vd_gnuplot {
    bool probed, found, svg;
    const char *png; /* "pngcairo", "png" (libgd) or NULL */
} vd_gnuplot;

/* Find gnuplot and its terminals (once). */
void vd_gnuplot_probe(vd_gnuplot *g, vd_diag *d);
/* DIR/NAME.dat = DATA, DIR/NAME.gp = BODY (gnuplot commands that plot
 * "NAME.dat"), then render. A failed rendering is a warning. */
void vd_plot(vd_gnuplot *g, const char *dir, const char *name, const char *data, const char *body, vd_diag *d);

#endif
