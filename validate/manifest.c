#include "manifest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

enum { C_PROGRAM, C_INTERVAL, C_MAXK, C_BIC, C_SIMPOINTS, C_WEIGHTS, C_LABELS, C_FULL, C_REGIONS, C_METHOD, C_SECONDS,
       NCOLS };
static const char *const names[NCOLS] = {"program", "interval", "max_k", "bic", "simpoints", "weights",
                                         "labels", "full", "regions", "method", "seconds"};
static const bool required[NCOLS] = {[C_INTERVAL] = true, [C_MAXK] = true, [C_SIMPOINTS] = true,
                                     [C_WEIGHTS] = true};
enum { MAXFIELDS = 32 };

typedef struct header {
    int col[MAXFIELDS]; /* column of each field, -1 unknown */
    size_t nfields;
    bool has[NCOLS];
} header;

static bool read_header(header *h, char *line, const vd_manifest *m, size_t lineno, const char *default_full,
                        vd_diag *d)
{
    char *f[MAXFIELDS];
    h->nfields = vd_split(line, '\t', f, MAXFIELDS);
    for (size_t i = 0; i < h->nfields; i++) {
        h->col[i] = -1;
        for (int c = 0; c < NCOLS; c++)
            if (strcmp(f[i], names[c]) == 0)
                h->col[i] = c;
        if (h->col[i] < 0)
            return vd_fail(d, "%s:%zu: unknown column '%s' (expected program, interval, max_k, bic, simpoints, "
                              "weights, labels, full, regions, method, seconds; tab-separated)",
                           m->path, lineno, f[i]);
        if (h->has[h->col[i]])
            return vd_fail(d, "%s:%zu: column '%s' twice", m->path, lineno, f[i]);
        h->has[h->col[i]] = true;
    }
    for (int c = 0; c < NCOLS; c++)
        if (required[c] && !h->has[c])
            return vd_fail(d, "%s:%zu: no '%s' column", m->path, lineno, names[c]);
    if (!h->has[C_FULL] && !default_full)
        return vd_fail(d, "%s:%zu: no 'full' column and no --full", m->path, lineno);
    return true;
}

static bool absent(const char *cell)
{
    return !*cell || strcmp(cell, "-") == 0;
}

static bool read_row(vd_mrow *r, const header *h, char *line, const char *dir, const vd_manifest *m, size_t lineno,
                     const char *default_full, vd_diag *d)
{
    char *f[MAXFIELDS];
    *r = (vd_mrow){.line = lineno, .bic = NAN, .seconds = NAN};
    if (vd_split(line, '\t', f, MAXFIELDS) != h->nfields)
        return vd_fail(d, "%s:%zu: expected %zu tab-separated fields", m->path, lineno, h->nfields);
    char **paths[NCOLS] = {[C_SIMPOINTS] = &r->simpoints, [C_WEIGHTS] = &r->weights, [C_LABELS] = &r->labels,
                           [C_FULL] = &r->full, [C_REGIONS] = &r->regions};
    for (size_t i = 0; i < h->nfields; i++) {
        const char *cell = f[i];
        int c = h->col[i];
        if (absent(cell)) {
            if (required[c])
                return vd_fail(d, "%s:%zu: no %s", m->path, lineno, names[c]);
            continue;
        }
        if (paths[c])
            *paths[c] = vd_resolve(dir, cell);
        else if (c == C_PROGRAM)
            r->program = vd_strdup(cell);
        else if (c == C_METHOD && strpbrk(cell, " ,\"|"))
            return vd_fail(d, "%s:%zu: method: expected a name without spaces, commas, quotes or bars, got '%s'",
                           m->path, lineno, cell);
        else if (c == C_METHOD)
            r->method = vd_strdup(cell);
        else if (c == C_SECONDS && (!vd_parse_real(cell, &r->seconds) || !(r->seconds >= 0)))
            return vd_fail(d, "%s:%zu: seconds: expected a time >= 0, got '%s'", m->path, lineno, cell);
        else if (c == C_INTERVAL && (!parse_count(cell, &r->interval) || r->interval == 0))
            return vd_fail(d, "%s:%zu: interval: expected a positive count, got '%s'", m->path, lineno, cell);
        else if (c == C_MAXK && (!vd_parse_long(cell, &r->max_k) || r->max_k < 1))
            return vd_fail(d, "%s:%zu: max_k: expected a positive whole number, got '%s'", m->path, lineno, cell);
        else if (c == C_BIC && (!vd_parse_real(cell, &r->bic) || r->bic < 0 || r->bic > 1))
            return vd_fail(d, "%s:%zu: bic: expected a threshold in [0, 1], got '%s'", m->path, lineno, cell);
    }
    if (!r->method)
        r->method = vd_strdup("simpoint");
    if (!r->full) {
        if (!default_full)
            return vd_fail(d, "%s:%zu: no full run (and no --full)", m->path, lineno);
        r->full = vd_strdup(default_full);
    }
    return true;
}

static void row_free(vd_mrow *r)
{
    free(r->program);
    free(r->method);
    free(r->simpoints);
    free(r->weights);
    free(r->labels);
    free(r->full);
    free(r->regions);
}

bool vd_manifest_load(vd_manifest *m, const char *path, const char *default_full, vd_diag *d)
{
    memset(m, 0, sizeof *m);
    m->path = vd_strdup(path);
    vd_lines l;
    if (!vd_lines_open(&l, path, d))
        return false;
    char *dir = vd_dirname(path), *line;
    header h = {0};
    bool ok = true, have_header = false;
    while (ok && (line = vd_lines_next(&l))) {
        if (vd_skippable(line))
            continue;
        if (!have_header) {
            ok = have_header = read_header(&h, line, m, l.lineno, default_full, d);
            continue;
        }
        m->rows = vd_realloc(m->rows, (m->n + 1) * sizeof *m->rows);
        ok = read_row(&m->rows[m->n], &h, line, dir, m, l.lineno, default_full, d);
        if (ok)
            m->n++;
        else
            row_free(&m->rows[m->n]);
    }
    vd_lines_close(&l);
    free(dir);
    if (ok && m->n == 0)
        ok = vd_fail(d, "%s: no configurations", path);
    return ok;
}

void vd_manifest_free(vd_manifest *m)
{
    for (size_t i = 0; i < m->n; i++)
        row_free(&m->rows[i]);
    free(m->rows);
    free(m->path);
    memset(m, 0, sizeof *m);
}
