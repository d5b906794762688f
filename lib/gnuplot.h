/* Plots drawn by gnuplot: each plot is NAME.dat (its data) and NAME.gp (a
 * script that draws NAME.svg and NAME.png from it, and can be rerun by
 * hand), written atomically, then rendered. What gnuplot lacks (the
 * program itself, the svg or a png terminal) is said in a warning: the data
 * and scripts are still written. */
#ifndef RV_GNUPLOT_H
#define RV_GNUPLOT_H

#include <stdbool.h>

typedef struct gnuplot {
    bool probed, found, svg;
    const char *png;                          /* "pngcairo", "png" (libgd) or NULL */
    void (*warn)(void *ctx, const char *msg); /* NULL: warn() on stderr */
    void *ctx;
} gnuplot;

/* Find gnuplot and its terminals (once). */
void gnuplot_probe(gnuplot *g);
/* DIR/NAME.dat = DATA, DIR/NAME.gp = BODY (gnuplot commands that plot
 * "NAME.dat"), then render. A failed rendering is a warning. */
void gnuplot_plot(gnuplot *g, const char *dir, const char *name, const char *data, const char *body);

#endif
