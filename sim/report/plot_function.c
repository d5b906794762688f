#include "plot_function.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/psv.h"
#include "plot_draw.h"
#include "report_sampled.h"
#include "gnuplot.h"
#include "util.h"

/* The instructions a per-instruction plot shows: the hottest of the
 * hottest function by the golden attribution, at most as many as the
 * plot has room for, in address order. */
typedef struct hot_pcs {
    char fn[256];
    uint64_t base; /* labels are offsets from it: the function's address */
    uint64_t *pc;
    size_t n, executed;
    double share; /* of the function's time, on the ones shown */
} hot_pcs;

/* Room for level bars and upright labels in a 960-pixel image. */
enum { PROFILE_BARS = 30, STACK_BARS = 12 };

static int by_units_down(const void *x, const void *y)
{
    uint64_t a = cost_total(x), b = cost_total(y);
    return (a < b) - (a > b);
}

static int by_address(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static void hottest_pcs(const sim_result *r, const symbolizer *sym, size_t most, hot_pcs *h)
{
    size_t nfn;
    cost *fns = profile_rollup(sym, GRAN_FUNCTION, r->pcs, r->npcs, &nfn);
    uint64_t fn = nfn ? fns[0].key : 1;
    free(fns);
    const rv_symbol *s = fn == 1 || !sym->syms ? NULL : symtab_find(sym->syms, fn);
    snprintf(h->fn, sizeof h->fn, "%s", s ? s->name : "[unknown]");
    cost *in_fn = golden_by_pc(r->pcs, r->npcs);
    size_t n = 0;
    uint64_t fn_units = 0, shown_units = 0;
    for (size_t i = 0; i < r->npcs; i++)
        if (symbolizer_key(sym, GRAN_FUNCTION, in_fn[i].key) == fn) in_fn[n++] = in_fn[i], fn_units += cost_total(&in_fn[i]);
    qsort(in_fn, n, sizeof *in_fn, by_units_down);
    h->executed = n;
    h->n = n < most ? n : most;
    h->pc = malloc((h->n ? h->n : 1) * sizeof *h->pc);
    if (!h->pc) die("out of memory");
    for (size_t i = 0; i < h->n; i++) h->pc[i] = in_fn[i].key, shown_units += cost_total(&in_fn[i]);
    qsort(h->pc, h->n, sizeof *h->pc, by_address);
    h->base = s ? fn : h->n ? h->pc[0] : 0;
    h->share = fn_units ? (double)shown_units / (double)fn_units : 0;
    free(in_fn);
}

/* "FN: WHAT (the N hottest of its M instructions, P% of its time)". */
static void title(FILE *f, const hot_pcs *h, const char *what)
{
    char fn[256];
    fprintf(f, "set title \"%s: %s", gnuplot_text(fn, sizeof fn, h->fn), what);
    if (h->n < h->executed)
        fprintf(f, " (its %zu hottest instructions of %zu, %.0f%% of its time)", h->n, h->executed, 100 * h->share);
    fprintf(f, "\"\n");
}

/* Sets the x tics for BARS labels like "+0x1a4" along WIDTH pixels;
 * LABEL gets the xtic() argument. */
static void xtics(FILE *f, size_t bars, int width, char *label, size_t size)
{
    gnuplot_xtics t = gnuplot_fit_xtics(bars, strlen("+0x1a4"), 1, width);
    fprintf(f, "%s", t.set);
    snprintf(label, size, "(%s)", t.label);
}

static const sampled_profile *find(const sim_result *r, const char *name)
{
    for (int i = 0; r->nsampled && i < r->sampled[0].nprofs; i++)
        if (!strcmp(r->sampled[0].profs[i].name, name)) return &r->sampled[0].profs[i];
    return NULL;
}

static uint64_t total_of(const cost *pcs, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += cost_total(&pcs[i]);
    return s;
}

static uint64_t units_at(const cost *pcs, size_t n, uint64_t pc)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        if (pics_pc(pcs[i].key) == pc) s += cost_total(&pcs[i]);
    return s;
}

static void function_profile(gnuplot *g, const char *dir, const char *prefix, const sim_result *r,
                             const symbolizer *sym)
{
    const char *names[] = {"golden", "tip", "nci"}, *titles[] = {"golden", "TIP", "NCI"};
    const char *colours[] = {"#444444", "#1b9e77", "#d95f02"};
    const cost *pcs[3] = {r->pcs, NULL, NULL};
    size_t npcs[3] = {r->npcs, 0, 0};
    for (int k = 1; k < 3; k++) {
        const sampled_profile *p = find(r, names[k]);
        if (p) pcs[k] = p->pcs, npcs[k] = p->npcs;
    }
    hot_pcs h;
    hottest_pcs(r, sym, PROFILE_BARS, &h);
    plot_text data, body;
    plot_text_open(&data), plot_text_open(&body);
    fprintf(data.f, "# instruction golden_pct tip_pct nci_pct (shares of each profile's total)\n");
    for (size_t i = 0; i < h.n; i++) {
        fprintf(data.f, "\"+0x%" PRIx64 "\"", h.pc[i] - h.base);
        for (int k = 0; k < 3; k++) {
            uint64_t total = total_of(pcs[k], npcs[k]);
            fprintf(data.f, " %.4f", total ? 100.0 * (double)units_at(pcs[k], npcs[k], h.pc[i]) / (double)total : 0);
        }
        fprintf(data.f, "\n");
    }
    title(body.f, &h, "time per instruction");
    char label[112];
    xtics(body.f, h.n, 840, label, sizeof label);
    fprintf(body.f, "set style data histograms\nset style histogram clustered gap 1\n"
                    "set style fill solid 0.85 border -1\nset ylabel \"share of the run's time (%%)\"\n"
                    "set yrange [0:*]\nset grid ytics\nset key below horizontal\nplot ");
    for (int k = 0; k < 3; k++)
        fprintf(body.f, "%s\"%s\" using %d%s%s title \"%s\" lc rgb \"%s\"", k ? ", " : "", k ? "" : "@DAT@", k + 2,
                k ? "" : ":xtic", k ? "" : label, titles[k], colours[k]);
    fprintf(body.f, "\n");
    plot_draw(g, dir, prefix, "hottest_function", &data, &body);
    free(h.pc);
}

/* The cycle-stack categories of a plot, the largest first (summed over
 * the profiles, each as a share of its total): one colour each, those past
 * the palette summed as "other". */
typedef struct stack_columns {
    uint16_t *cat;
    double *share;
    size_t n, shown;
} stack_columns;

static void add_share(stack_columns *c, uint16_t cat, double share)
{
    for (size_t k = 0; k < c->n; k++)
        if (c->cat[k] == cat) {
            c->share[k] += share;
            return;
        }
    c->cat = realloc(c->cat, (c->n + 1) * sizeof *c->cat);
    c->share = realloc(c->share, (c->n + 1) * sizeof *c->share);
    if (!c->cat || !c->share) die("out of memory");
    c->cat[c->n] = cat, c->share[c->n++] = share;
}

static bool shown(const hot_pcs *h, uint64_t pc)
{
    return bsearch(&pc, h->pc, h->n, sizeof pc, by_address) != NULL;
}

static stack_columns stack_columns_of(const hot_pcs *h, const cost *const pcs[], const size_t npcs[], int nprofs)
{
    stack_columns c = {0};
    for (int s = 0; s < nprofs; s++) {
        uint64_t total = total_of(pcs[s], npcs[s]);
        for (size_t i = 0; i < npcs[s]; i++)
            if (shown(h, pics_pc(pcs[s][i].key)))
                add_share(&c, pics_category(pcs[s][i].key), (double)cost_total(&pcs[s][i]) / (double)total);
    }
    for (size_t i = 1; i < c.n; i++) /* largest first; few categories */
        for (size_t j = i; j > 0 && c.share[j] > c.share[j - 1]; j--) {
            uint16_t t = c.cat[j];
            double v = c.share[j];
            c.cat[j] = c.cat[j - 1], c.share[j] = c.share[j - 1];
            c.cat[j - 1] = t, c.share[j - 1] = v;
        }
    c.shown = c.n <= GNUPLOT_COLOURS ? c.n : GNUPLOT_COLOURS - 1;
    return c;
}

/* The column of a category: its own, or "other" (c->shown). */
static size_t column_of(const stack_columns *c, uint16_t cat)
{
    for (size_t k = 0; k < c->shown; k++)
        if (c->cat[k] == cat) return k;
    return c->shown;
}

static void stack_rows(FILE *f, const hot_pcs *h, const stack_columns *c, const cost *pcs, size_t npcs)
{
    uint64_t total = total_of(pcs, npcs);
    double *row = malloc((c->shown + 1) * sizeof *row);
    if (!row) die("out of memory");
    for (size_t i = 0; i < h->n; i++) {
        memset(row, 0, (c->shown + 1) * sizeof *row);
        for (size_t e = 0; e < npcs; e++)
            if (pics_pc(pcs[e].key) == h->pc[i])
                row[column_of(c, pics_category(pcs[e].key))] += 100.0 * (double)cost_total(&pcs[e]) / (double)total;
        fprintf(f, "\"+0x%" PRIx64 "\"", h->pc[i] - h->base);
        for (size_t k = 0; k < c->shown + (c->shown < c->n); k++) fprintf(f, " %.4f", row[k]);
        fprintf(f, "\n");
    }
    free(row);
}

/* Per-instruction cycle stacks of the hottest function: golden, TEA, IBS,
 * one column per category any of them has there. */
static void function_pics(gnuplot *g, const char *dir, const char *prefix, const sim_result *r, const symbolizer *sym)
{
    const char *names[] = {"golden", "tea", "ibs"}, *titles[] = {"golden", "TEA", "IBS"};
    const cost *pcs[3] = {r->pics};
    size_t npcs[3] = {r->npics};
    const char *shown_titles[3] = {titles[0]};
    int nprofs = 1;
    for (int s = 1; s < 3; s++) {
        const sampled_profile *p = find(r, names[s]);
        if (p && p->events) pcs[nprofs] = p->pcs, npcs[nprofs] = p->npcs, shown_titles[nprofs++] = titles[s];
    }
    hot_pcs h;
    hottest_pcs(r, sym, STACK_BARS, &h);
    stack_columns c = stack_columns_of(&h, pcs, npcs, nprofs);
    plot_text data, body;
    plot_text_open(&data), plot_text_open(&body);
    fprintf(data.f, "# instruction, then each category's share of the run (%%), largest first%s; one block per "
                    "profile\n", c.shown < c.n ? ", the smallest summed as other" : "");
    for (int s = 0; s < nprofs; s++) {
        fprintf(data.f, "# %s\n", shown_titles[s]);
        stack_rows(data.f, &h, &c, pcs[s], npcs[s]);
        fprintf(data.f, "\n\n");
    }
    title(body.f, &h, "per-instruction cycle stacks");
    char label[112];
    xtics(body.f, (size_t)nprofs * (h.n + 1), 560, label, sizeof label);
    fprintf(body.f, "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.85 border -1\n"
                    "set boxwidth 0.8\nset ylabel \"share of the run's time (%%)\"\nset yrange [0:*]\nset grid ytics\n"
                    "set key outside right\nplot ");
    size_t columns = c.shown + (c.shown < c.n);
    for (int s = 0; s < nprofs; s++) {
        fprintf(body.f, "%snewhistogram \"%s\", ", s ? ", " : "", shown_titles[s]);
        for (size_t k = 0; k < columns; k++) {
            char name[160] = "other";
            if (k < c.shown) psv_describe(c.cat[k], name, sizeof name);
            fprintf(body.f, "%s\"@DAT@\" index %d using %zu%s%s lc rgb \"%s\" title \"%s\"", k ? ", " : "", s, k + 2,
                    k ? "" : ":xtic", k ? "" : label, k < c.shown ? gnuplot_colour(k) : "#999999", s ? "" : name);
        }
    }
    fprintf(body.f, "\n");
    plot_draw(g, dir, prefix, "hottest_function_pics", &data, &body);
    free(c.cat);
    free(c.share);
    free(h.pc);
}

void plot_hottest_function(gnuplot *g, const char *dir, const char *prefix, const sim_result *r,
                           const symbolizer *sym)
{
    function_profile(g, dir, prefix, r, sym);
    if (r->pics) function_pics(g, dir, prefix, r, sym);
}
