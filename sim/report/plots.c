#include "plots.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plot_draw.h"
#include "plot_function.h"
#include "report_sampled.h"
#include "util.h"

static void error_bars(gnuplot *g, const char *dir, const char *prefix, const sim_result *r, const symbolizer *sym)
{
    plot_text data, body;
    plot_text_open(&data), plot_text_open(&body);
    fprintf(data.f, "# profiler instruction_pct block_pct function_pct\n");
    const sampled_run *run = &r->sampled[0];
    size_t longest = 0;
    for (int i = 0; i < run->nprofs; i++) {
        size_t len = strlen(run->profs[i].name);
        longest = len > longest ? len : longest;
        double err[GRAN_COUNT];
        sampled_errors(r, sym, &run->profs[i], err);
        fprintf(data.f, "\"%s\" %.4f %.4f %.4f\n", run->profs[i].name, 100 * err[GRAN_INSTRUCTION],
                100 * err[GRAN_BLOCK], 100 * err[GRAN_FUNCTION]);
    }
    gnuplot_xtics tics = gnuplot_fit_xtics((size_t)run->nprofs, longest, 1, 840);
    fprintf(body.f, "set title \"Profile error against the golden attribution (a sample every %" PRIu64
                    " cycles)\"\nset style data histograms\nset style histogram clustered gap 1\n"
                    "set style fill solid 0.85 border -1\nset ylabel \"error (%%)\"\nset yrange [0:*]\n"
                    "set grid ytics\n%sset key below horizontal\n"
                    "plot \"@DAT@\" using 2:xtic(%s) title \"instruction\" lc rgb \"#1b9e77\", \"\" using 3 title "
                    "\"basic block\" lc rgb \"#d95f02\", \"\" using 4 title \"function\" lc rgb \"#7570b3\"\n",
            run->cfg.period, tics.set, tics.label);
    plot_draw(g, dir, prefix, "profile_error", &data, &body);
}

static void error_vs_frequency(gnuplot *g, const char *dir, const char *prefix, const sim_result *r,
                               const symbolizer *sym)
{
    plot_text data, body;
    plot_text_open(&data), plot_text_open(&body);
    int nprofs = r->sampled[0].nprofs;
    /* One block per (profiler, periodic|random), separated by blank lines;
     * a profiler's colour and point type together tell it apart. */
    fprintf(data.f, "# hz instruction_error_pct, one block per profiler and mode\n");
    for (int i = 0; i < nprofs; i++)
        for (int random = 0; random < 2; random++) {
            fprintf(data.f, "# %s %s\n", r->sampled[0].profs[i].name, random ? "random" : "periodic");
            for (int k = 1; k < r->nsampled; k++) {
                if (r->sampled[k].cfg.random != random) continue;
                double err[GRAN_COUNT];
                sampled_errors(r, sym, &r->sampled[k].profs[i], err);
                fprintf(data.f, "%g %.4f\n", r->sampled[k].cfg.hz, 100 * err[GRAN_INSTRUCTION]);
            }
            fprintf(data.f, "\n\n");
        }
    fprintf(body.f, "set title \"Instruction-level error against sampling frequency\"\nset logscale x\n"
                    "set xlabel \"sampling frequency (Hz)\"\nset ylabel \"error (%%)\"\nset yrange [0:*]\n"
                    "set grid\nset key outside right\nplot ");
    for (int i = 0; i < nprofs; i++)
        for (int random = 0; random < 2; random++)
            fprintf(body.f, "%s\"@DAT@\" index %d using 1:2 with linespoints lc rgb \"%s\" pt %d dt %d title \"%s%s\"",
                    i || random ? ", " : "", 2 * i + random, gnuplot_colour((size_t)i % GNUPLOT_COLOURS), i + 1,
                    random ? 2 : 1, r->sampled[0].profs[i].name, random ? " (random)" : "");
    fprintf(body.f, "\n");
    plot_draw(g, dir, prefix, "error_vs_frequency", &data, &body);
}

void sim_plots(const char *dir, const sim_result *res, size_t n, const report_ctx *x)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) die("--plots %s: %s", dir, strerror(errno));
    gnuplot g = {0};
    for (size_t i = 0; i < n; i++) {
        const sim_result *r = &res[i];
        if (!r->pcs) continue;
        char prefix[32] = "";
        if (n > 1) snprintf(prefix, sizeof prefix, "r%zu-", i);
        symbolizer sym;
        symbolizer_init(&sym, x->syms, r->blocks, r->nblocks);
        if (r->nsampled) error_bars(&g, dir, prefix, r, &sym);
        if (r->nsampled > 1) error_vs_frequency(&g, dir, prefix, r, &sym);
        plot_hottest_function(&g, dir, prefix, r, &sym);
        symbolizer_free(&sym);
    }
}
