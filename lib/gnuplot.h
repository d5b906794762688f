/* Plots drawn by gnuplot: each plot is NAME.dat (its data) and NAME.gp (a
 * script that draws NAME.svg and NAME.png from it, and can be rerun by
 * hand), written atomically, then rendered. What gnuplot lacks (the
 * program itself, the svg or a png terminal) is said in a warning: the data
 * and scripts are still written. */
#ifndef RV_GNUPLOT_H
#define RV_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>

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

/* Tick labels along an x axis that never overlap: NAME_SET is the "set
 * xtics" command, LABEL the argument of xtic() that writes column COL.
 * N labels, the longest LONGEST characters, along an axis about WIDTH
 * pixels long (the images are 960x540): level when they fit side by side,
 * else upright; only every STEP-th when even upright ones would touch. */
typedef struct gnuplot_xtics {
    char set[96], label[96];
    unsigned step;
    bool upright;
    int height_lines; /* what they take below the axis, in lines of text */
} gnuplot_xtics;
gnuplot_xtics gnuplot_fit_xtics(size_t n, size_t longest, int col, int width);

/* s as text gnuplot takes literally inside a double-quoted string of a
 * script or a data file, into buf (n bytes, truncated): gnuplot runs a
 * command between backquotes even inside double quotes, so a name from the
 * user or the program (a file, a symbol) could run commands. A backquote
 * becomes ', a double quote ', a backslash / and a control character ?
 * (a newline would end the command). Returns buf. */
const char *gnuplot_text(char *buf, size_t n, const char *s);

/* Colours a reader tells apart, one per series: the I-th, or NULL past
 * the last (GNUPLOT_COLOURS of them). */
#define GNUPLOT_COLOURS 12
const char *gnuplot_colour(size_t i);

#endif
