/* The texts of one sim plot, its data and its gnuplot commands, drawn
 * through lib/gnuplot.h as PREFIXNAME in DIR. */
#ifndef SIM_PLOT_DRAW_H
#define SIM_PLOT_DRAW_H

#include <stdio.h>

#include "gnuplot.h"

typedef struct plot_text {
    char *s;
    size_t len;
    FILE *f;
} plot_text;

void plot_text_open(plot_text *t);
/* Draws and frees both texts. "@DAT@" in BODY names the data file. */
void plot_draw(gnuplot *g, const char *dir, const char *prefix, const char *name, plot_text *data, plot_text *body);

#endif
