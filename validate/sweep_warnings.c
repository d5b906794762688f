/* sweep.md's warnings, grouped: a sweep repeats the same few warnings over
 * many configurations (384 lines of three kinds, on two programs x 60
 * configurations), so warnings that differ only in their numbers and file
 * names are counted together, each kind with one example and the configurations it
 * came from. sweep.json keeps every warning. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "sweep_report.h"

enum { MAX_KINDS = 30 };

typedef struct kind {
    char *shape;         /* the text with every number written '#' */
    const char *example; /* the first one */
    long example_row;    /* its configuration, -1: the sweep's own */
    size_t count, first; /* first: its place among the kinds found */
    size_t *rows;        /* the configurations, each once, in row order */
    size_t nrows;
} kind;

typedef struct kinds {
    kind *k;
    size_t n;
} kinds;

static bool number_starts(const char *text, const char *p)
{
    if (isdigit((unsigned char)*p))
        return true;
    bool sign = (*p == '+' || *p == '-') && isdigit((unsigned char)p[1]);
    return sign && (p == text || p[-1] == ' ' || p[-1] == '(');
}

/* TEXT with every file name (a word with a '/') as '@' and every number
 * (digits, a point between digits, a sign before them) as '#'. */
static char *shape_of(const char *text)
{
    char *s = vd_malloc(strlen(text) + 1), *o = s;
    for (const char *p = text; *p;) {
        size_t word = strcspn(p, " ");
        if (memchr(p, '/', word)) {
            *o++ = '@';
            p += word;
        } else if (number_starts(text, p)) {
            p++;
            while (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1])))
                p++;
            *o++ = '#';
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return s;
}

static void add(kinds *ks, const char *text, long row)
{
    char *shape = shape_of(text);
    kind *k = NULL;
    for (size_t i = 0; i < ks->n && !k; i++)
        if (strcmp(ks->k[i].shape, shape) == 0)
            k = &ks->k[i];
    if (k) {
        free(shape);
    } else {
        ks->k = vd_realloc(ks->k, (ks->n + 1) * sizeof *ks->k);
        k = &ks->k[ks->n++];
        *k = (kind){.shape = shape, .example = text, .example_row = row, .first = ks->n - 1};
    }
    k->count++;
    if (row >= 0 && (!k->nrows || k->rows[k->nrows - 1] != (size_t)row)) {
        k->rows = vd_realloc(k->rows, (k->nrows + 1) * sizeof *k->rows);
        k->rows[k->nrows++] = (size_t)row;
    }
}

/* The configurations' warnings, then the sweep's own (the notes past them). */
static kinds collect(const vd_sweep *sw)
{
    kinds ks = {0};
    size_t from_rows = 0;
    for (size_t r = 0; r < sw->n; r++)
        for (size_t w = 0; w < sw->rows[r].nwarnings; w++, from_rows++)
            add(&ks, sw->rows[r].warnings[w], (long)r);
    for (size_t i = from_rows; i < sw->notes.nwarnings; i++)
        add(&ks, sw->notes.warnings[i], -1);
    return ks;
}

static int by_count_down(const void *x, const void *y)
{
    const kind *a = x, *b = y;
    if (a->count != b->count)
        return a->count < b->count ? 1 : -1;
    return (a->first > b->first) - (a->first < b->first);
}

static void kinds_free(kinds *ks)
{
    for (size_t i = 0; i < ks->n; i++) {
        free(ks->k[i].shape);
        free(ks->k[i].rows);
    }
    free(ks->k);
}

/* "phases at 1M" (", BIC 0.8", ", method M" when the sweep has several). */
static void print_setting(vd_sink *o, const vd_sweep *sw, const vd_sweep_row *r)
{
    char iv[32];
    vd_sink_printf(o, "%s at %s", r->program, vd_short_count(iv, sizeof iv, r->m->interval));
    if (sw->nbics > 1)
        vd_sink_printf(o, ", BIC %g", r->m->bic);
    if (sw->nmethods > 1)
        vd_sink_printf(o, ", method %s", r->m->method);
}

static bool same_setting(const vd_sweep_row *a, const vd_sweep_row *b)
{
    return strcmp(a->program, b->program) == 0 && a->m->interval == b->m->interval &&
           vd_same_bic(a->m->bic, b->m->bic) && strcmp(a->m->method, b->m->method) == 0;
}

static int by_maxk(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

/* "MaxK 2, 5-9, 12": runs of consecutive values as ranges. */
static void print_maxks(vd_sink *o, long *k, size_t n)
{
    qsort(k, n, sizeof *k, by_maxk);
    vd_sink_printf(o, "MaxK ");
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && k[j + 1] == k[j] + 1)
            j++;
        vd_sink_printf(o, "%s%ld", i ? ", " : "", k[i]);
        if (j > i)
            vd_sink_printf(o, "%s%ld", j > i + 1 ? "-" : ", ", k[j]);
        i = j + 1;
    }
}

/* The configurations of a kind: by program, interval (BIC, method), their MaxKs. */
static void print_configurations(vd_sink *o, const vd_sweep *sw, const kind *k)
{
    bool *done = vd_calloc(k->nrows, sizeof *done);
    long *maxks = vd_malloc(k->nrows * sizeof *maxks);
    const char *sep = "";
    for (size_t i = 0; i < k->nrows; i++) {
        if (done[i])
            continue;
        const vd_sweep_row *first = &sw->rows[k->rows[i]];
        size_t n = 0;
        for (size_t j = i; j < k->nrows; j++)
            if (!done[j] && same_setting(first, &sw->rows[k->rows[j]]))
                done[j] = true, maxks[n++] = sw->rows[k->rows[j]].m->max_k;
        vd_sink_printf(o, "%s", sep);
        print_setting(o, sw, first);
        vd_sink_printf(o, ": ");
        print_maxks(o, maxks, n);
        sep = "; ";
    }
    free(done);
    free(maxks);
}

static void print_kind(vd_sink *o, const vd_sweep *sw, const kind *k)
{
    if (k->count > 1)
        vd_sink_printf(o, "- **%zu ×** (%zu configuration%s), e.g. ", k->count, k->nrows, k->nrows == 1 ? "" : "s");
    else
        vd_sink_printf(o, "- ");
    if (k->example_row >= 0) {
        const vd_sweep_row *r = &sw->rows[k->example_row];
        print_setting(o, sw, r);
        vd_sink_printf(o, ", MaxK %ld: ", r->m->max_k);
    }
    vd_sink_printf(o, "%s\n", k->example);
    if (k->count > 1 && k->nrows) {
        vd_sink_printf(o, "  - from ");
        print_configurations(o, sw, k);
        vd_sink_printf(o, "\n");
    }
}

void vd_sweep_md_warnings(vd_sink *o, const vd_sweep *sw)
{
    if (!sw->notes.nwarnings)
        return;
    kinds ks = collect(sw);
    qsort(ks.k, ks.n, sizeof *ks.k, by_count_down);
    vd_sink_printf(o, "## Warnings (%zu, of %zu kind%s)\n\n", sw->notes.nwarnings, ks.n, ks.n == 1 ? "" : "s");
    vd_sink_printf(o, "Warnings that differ only in their numbers and file names are one kind, most frequent first: "
                      "its count, "
                      "one of them, and the configurations it came from (every warning is in the JSON report).\n\n");
    for (size_t i = 0; i < ks.n && i < MAX_KINDS; i++)
        print_kind(o, sw, &ks.k[i]);
    if (ks.n > MAX_KINDS)
        vd_sink_printf(o, "- ... and %zu more kinds in the JSON report\n", ks.n - MAX_KINDS);
    vd_sink_printf(o, "\n");
    kinds_free(&ks);
}
