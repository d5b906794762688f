#include "plot_draw.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void plot_text_open(plot_text *t)
{
    *t = (plot_text){0};
    if (!(t->f = open_memstream(&t->s, &t->len))) die("out of memory");
}

static void plot_text_done(plot_text *t)
{
    fclose(t->f);
    t->f = NULL;
}

void plot_draw(gnuplot *g, const char *dir, const char *prefix, const char *name, plot_text *data, plot_text *body)
{
    char *full;
    if (asprintf(&full, "%s%s", prefix, name) < 0) die("out of memory");
    plot_text_done(data);
    plot_text_done(body);
    /* The script refers to its data as NAME.dat. */
    plot_text script;
    plot_text_open(&script);
    for (const char *p = body->s; *p; p++) {
        if (!strncmp(p, "@DAT@", 5)) fprintf(script.f, "%s.dat", full), p += 4;
        else fputc(*p, script.f);
    }
    plot_text_done(&script);
    gnuplot_plot(g, dir, full, data->s, script.s);
    free(script.s);
    free(data->s);
    free(body->s);
    free(full);
}
