#include "plots.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gnuplot.h"
#include "../core/psv.h"
#include "report_sampled.h"
#include "util.h"

/* A text built with stdio. */
typedef struct text {
    char *s;
    size_t len;
    FILE *f;
} text;

static void text_open(text *t)
{
    *t = (text){0};
    if (!(t->f = open_memstream(&t->s, &t->len))) die("out of memory");
}

static const char *text_done(text *t)
{
    fclose(t->f);
    t->f = NULL;
    return t->s;
}

static char *plot_name(const char *prefix, const char *name)
{
    char *s;
    if (asprintf(&s, "%s%s", prefix, name) < 0) die("out of memory");
    return s;
}

static void draw(gnuplot *g, const char *dir, const char *prefix, const char *name, text *data, text *body)
{
    char *full = plot_name(prefix, name);
    /* The script refers to its data as NAME.dat. */
    text_done(data);
    text_done(body);
    char *script = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&script, &n);
    if (!f) die("out of memory");
    for (const char *p = body->s; *p; p++) {
        if (!strncmp(p, "@DAT@", 5)) fprintf(f, "%s.dat", full), p += 4;
        else fputc(*p, f);
    }
    fclose(f);
    gnuplot_plot(g, dir, full, data->s, script);
    free(script);
    free(data->s);
    free(body->s);
    free(full);
}

static void error_bars(gnuplot *g, const char *dir, const char *prefix, const sim_result *r, const symbolizer *sym)
{
    text data, body;
    text_open(&data), text_open(&body);
    fprintf(data.f, "# profiler instruction_pct block_pct function_pct\n");
    const sampled_run *run = &r->sampled[0];
    for (int i = 0; i < run->nprofs; i++) {
        double err[GRAN_COUNT];
        sampled_errors(r, sym, &run->profs[i], err);
        fprintf(data.f, "\"%s\" %.4f %.4f %.4f\n", run->profs[i].name, 100 * err[GRAN_INSTRUCTION],
                100 * err[GRAN_BLOCK], 100 * err[GRAN_FUNCTION]);
    }
    fprintf(body.f, "set title \"Profile error against the golden attribution (a sample every %" PRIu64
                    " cycles)\"\nset style data histograms\nset style histogram clustered gap 1\n"
                    "set style fill solid 0.85 border -1\nset ylabel \"error (%%)\"\nset yrange [0:*]\n"
                    "set grid ytics\nset xtics rotate by -35 scale 0\nset key top left\n"
                    "plot \"@DAT@\" using 2:xtic(1) title \"instruction\" lc rgb \"#1b9e77\", \"\" using 3 title "
                    "\"basic block\" lc rgb \"#d95f02\", \"\" using 4 title \"function\" lc rgb \"#7570b3\"\n",
            run->cfg.period);
    draw(g, dir, prefix, "profile_error", &data, &body);
}

static void error_vs_frequency(gnuplot *g, const char *dir, const char *prefix, const sim_result *r,
                               const symbolizer *sym)
{
    text data, body;
    text_open(&data), text_open(&body);
    int nprofs = r->sampled[0].nprofs;
    /* One block per (profiler, periodic|random), separated by blank lines. */
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
            fprintf(body.f, "%s\"@DAT@\" index %d using 1:2 with linespoints lc %d dt %d title \"%s%s\"",
                    i || random ? ", " : "", 2 * i + random, i + 1, random ? 2 : 1, r->sampled[0].profs[i].name,
                    random ? " (random)" : "");
    fprintf(body.f, "\n");
    draw(g, dir, prefix, "error_vs_frequency", &data, &body);
}

static const sampled_profile *find(const sim_result *r, const char *name)
{
    for (int i = 0; r->nsampled && i < r->sampled[0].nprofs; i++)
        if (!strcmp(r->sampled[0].profs[i].name, name)) return &r->sampled[0].profs[i];
    return NULL;
}

static uint64_t units_at(const cost *pcs, size_t n, uint64_t pc, uint16_t category, bool any_category)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        if (pics_pc(pcs[i].key) == pc && (any_category || pics_category(pcs[i].key) == category)) s += cost_total(&pcs[i]);
    return s;
}

static uint64_t total_of(const cost *pcs, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += cost_total(&pcs[i]);
    return s;
}

/* The executed pcs of the hottest function, in address order. */
static size_t hottest_function_pcs(const sim_result *r, const symbolizer *sym, uint64_t **out, char *name, size_t size)
{
    size_t nfn;
    cost *fns = profile_rollup(sym, GRAN_FUNCTION, r->pcs, r->npcs, &nfn);
    uint64_t fn = nfn ? fns[0].key : 1;
    free(fns);
    const rv_symbol *s = fn == 1 || !sym->syms ? NULL : symtab_find(sym->syms, fn);
    snprintf(name, size, "%s", s ? s->name : "[unknown]");
    cost *by_pc = golden_by_pc(r->pcs, r->npcs);
    uint64_t *pcs = malloc((r->npcs ? r->npcs : 1) * sizeof *pcs);
    if (!pcs) die("out of memory");
    size_t n = 0;
    for (size_t i = 0; i < r->npcs; i++)
        if (symbolizer_key(sym, GRAN_FUNCTION, by_pc[i].key) == fn) pcs[n++] = by_pc[i].key;
    free(by_pc);
    *out = pcs;
    return n;
}

static void function_profile(gnuplot *g, const char *dir, const char *prefix, const sim_result *r,
                             const symbolizer *sym)
{
    const char *names[] = {"golden", "tip", "nci"};
    const cost *pcs[3] = {r->pcs, NULL, NULL};
    size_t npcs[3] = {r->npcs, 0, 0};
    for (int k = 1; k < 3; k++) {
        const sampled_profile *p = find(r, names[k]);
        if (p) pcs[k] = p->pcs, npcs[k] = p->npcs;
    }
    char fn[256];
    uint64_t *in_fn;
    size_t n = hottest_function_pcs(r, sym, &in_fn, fn, sizeof fn);
    text data, body;
    text_open(&data), text_open(&body);
    fprintf(data.f, "# instruction golden_pct tip_pct nci_pct (shares of each profile's total)\n");
    uint64_t totals[3];
    for (int k = 0; k < 3; k++) totals[k] = total_of(pcs[k], npcs[k]);
    for (size_t i = 0; i < n; i++) {
        fprintf(data.f, "\"+0x%" PRIx64 "\"", in_fn[i] - in_fn[0]);
        for (int k = 0; k < 3; k++)
            fprintf(data.f, " %.4f", totals[k] ? 100.0 * (double)units_at(pcs[k], npcs[k], in_fn[i], 0, true) / (double)totals[k] : 0);
        fprintf(data.f, "\n");
    }
    fprintf(body.f, "set title \"%s: time per instruction\"\nset style data histograms\n"
                    "set style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
                    "set ylabel \"share of the run's time (%%)\"\nset yrange [0:*]\nset grid ytics\n"
                    "set xtics rotate by -60 scale 0 font \",8\"\nset key top right\n"
                    "plot \"@DAT@\" using 2:xtic(1) title \"golden\" lc rgb \"#444444\", \"\" using 3 title \"TIP\" "
                    "lc rgb \"#1b9e77\", \"\" using 4 title \"NCI\" lc rgb \"#d95f02\"\n",
            fn);
    draw(g, dir, prefix, "hottest_function", &data, &body);
    free(in_fn);
}

static bool in_list(const uint64_t *pcs, size_t n, uint64_t pc)
{
    for (size_t i = 0; i < n; i++)
        if (pcs[i] == pc) return true;
    return false;
}

/* Per-instruction cycle stacks of the hottest function: golden, TEA, IBS,
 * one column per category any of them has there. */
static void function_pics(gnuplot *g, const char *dir, const char *prefix, const sim_result *r, const symbolizer *sym)
{
    char fn[256];
    uint64_t *in_fn;
    size_t n = hottest_function_pcs(r, sym, &in_fn, fn, sizeof fn);
    const char *names[] = {"golden", "tea", "ibs"}, *titles[] = {"golden", "TEA", "IBS"};
    const cost *pcs[3] = {r->pics, NULL, NULL};
    size_t npcs[3] = {r->npics, 0, 0};
    for (int s = 1; s < 3; s++) {
        const sampled_profile *p = find(r, names[s]);
        if (p && p->events) pcs[s] = p->pcs, npcs[s] = p->npcs;
    }
    uint16_t cats[64];
    int ncats = 0;
    for (int s = 0; s < 3; s++)
        for (size_t i = 0; i < npcs[s] && ncats < 64; i++) {
            uint16_t c = pics_category(pcs[s][i].key);
            bool seen = !in_list(in_fn, n, pics_pc(pcs[s][i].key));
            for (int k = 0; k < ncats && !seen; k++) seen = cats[k] == c;
            if (!seen) cats[ncats++] = c;
        }
    text data, body;
    text_open(&data), text_open(&body);
    fprintf(data.f, "# instruction, then each category's share of the run (%%), one block per profile\n");
    int blocks[3], nblocks = 0;
    for (int s = 0; s < 3; s++) {
        if (!pcs[s]) continue;
        uint64_t total = total_of(pcs[s], npcs[s]);
        fprintf(data.f, "# %s\n", names[s]);
        for (size_t i = 0; i < n; i++) {
            fprintf(data.f, "\"+0x%" PRIx64 "\"", in_fn[i] - in_fn[0]);
            for (int c = 0; c < ncats; c++)
                fprintf(data.f, " %.4f",
                        total ? 100.0 * (double)units_at(pcs[s], npcs[s], in_fn[i], cats[c], false) / (double)total : 0);
            fprintf(data.f, "\n");
        }
        fprintf(data.f, "\n\n");
        blocks[nblocks++] = s;
    }
    fprintf(body.f, "set title \"%s: per-instruction cycle stacks\"\nset style data histograms\n"
                    "set style histogram rowstacked\nset style fill solid 0.85 border -1\nset boxwidth 0.8\n"
                    "set ylabel \"share of the run's time (%%)\"\nset yrange [0:*]\nset grid ytics\n"
                    "set xtics rotate by -60 scale 0 font \",8\"\nset key outside right\nplot ",
            fn);
    for (int b = 0; b < nblocks; b++) {
        fprintf(body.f, "%snewhistogram \"%s\", ", b ? ", " : "", titles[blocks[b]]);
        for (int c = 0; c < ncats; c++) {
            char label[160];
            psv_describe(cats[c], label, sizeof label);
            fprintf(body.f, "%s\"@DAT@\" index %d using %d%s lc %d title \"%s\"", c ? ", " : "", b, c + 2,
                    c ? "" : ":xtic(1)", c + 1, b ? "" : label);
        }
    }
    fprintf(body.f, "\n");
    draw(g, dir, prefix, "hottest_function_pics", &data, &body);
    free(in_fn);
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
        function_profile(&g, dir, prefix, r, &sym);
        if (r->pics) function_pics(&g, dir, prefix, r, &sym);
        symbolizer_free(&sym);
    }
}
