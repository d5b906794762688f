#include "gnuplot.h"

static void to_diag(void *ctx, const char *msg) { vd_warn(ctx, "%s", msg); }

void vd_plot(vd_gnuplot *g, const char *dir, const char *name, const char *data, const char *body, vd_diag *d)
{
    g->warn = to_diag, g->ctx = d;
    gnuplot_plot(g, dir, name, data, body);
}
