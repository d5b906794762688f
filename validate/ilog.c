#include "ilog.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static const char *const fixed[] = {"interval", "start", "instructions", "cycles"};
enum { NFIXED = 4 };

static bool read_header(vd_log *log, vd_lines *l, vd_diag *d)
{
    char *line = vd_lines_next(l);
    if (!line)
        return vd_fail(d, "%s: empty file (expected a header line)", log->path);
    size_t n = 1;
    for (const char *p = line; *p; p++)
        n += *p == ',';
    char **f = vd_malloc(n * sizeof *f);
    vd_split(line, ',', f, n);
    bool ok = n > NFIXED;
    for (size_t i = 0; ok && i < NFIXED; i++)
        ok = strcmp(f[i], fixed[i]) == 0;
    if (!ok) {
        free(f);
        return vd_fail(d, "%s:1: expected a header starting 'interval,start,instructions,cycles,'", log->path);
    }
    log->ncounters = n - 2;
    log->names = vd_calloc(log->ncounters, sizeof *log->names);
    for (size_t i = 0; ok && i < log->ncounters; i++) {
        const char *name = f[i + 2];
        if (!*name)
            ok = vd_fail(d, "%s:1: column %zu has no name", log->path, i + 3);
        else if (vd_log_column(log, name) >= 0)
            ok = vd_fail(d, "%s:1: column '%s' appears twice", log->path, name);
        else
            log->names[i] = vd_strdup(name);
    }
    free(f);
    return ok;
}

static bool read_row(vd_log *log, vd_lines *l, char *line, char **f, size_t *cap, vd_diag *d)
{
    size_t width = log->ncounters + 2;
    if (vd_split(line, ',', f, width + 1) != width)
        return vd_fail(d, "%s:%zu: expected %zu comma-separated fields", log->path, l->lineno, width);
    uint64_t interval, start;
    if (!vd_parse_u64(f[0], &interval) || !vd_parse_u64(f[1], &start))
        return vd_fail(d, "%s:%zu: interval and start must be whole numbers", log->path, l->lineno);
    if (log->nrows == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        log->v = vd_realloc(log->v, *cap * log->ncounters * sizeof *log->v);
    }
    double *row = log->v + log->nrows * log->ncounters;
    for (size_t c = 0; c < log->ncounters; c++) {
        /* counts are whole; only cycle quantities may be fractional */
        if (!vd_parse_real(f[c + 2], &row[c]) || row[c] < 0 || (c == 0 && row[c] != floor(row[c])))
            return vd_fail(d, "%s:%zu: %s: expected a non-negative number, got '%s'", log->path, l->lineno,
                           log->names[c], f[c + 2]);
    }
    if (interval != log->nrows)
        return vd_fail(d, "%s:%zu: interval %llu where %zu was expected", log->path, l->lineno,
                       (unsigned long long)interval, log->nrows);
    uint64_t expected_start = (uint64_t)log->totals[0];
    if (start != expected_start)
        return vd_fail(d, "%s:%zu: starts at instruction %llu, but the rows before end at %llu", log->path, l->lineno,
                       (unsigned long long)start, (unsigned long long)expected_start);
    if (row[0] == 0)
        return vd_fail(d, "%s:%zu: a row with no instructions", log->path, l->lineno);
    if (log->G == 0)
        log->G = (uint64_t)row[0];
    if (row[0] > (double)log->G)
        return vd_fail(d, "%s:%zu: %.0f instructions in a row of %llu", log->path, l->lineno, row[0],
                       (unsigned long long)log->G);
    for (size_t c = 0; c < log->ncounters; c++)
        log->totals[c] += row[c];
    log->nrows++;
    return true;
}

bool vd_log_load(vd_log *log, const char *path, uint64_t G, vd_diag *d)
{
    memset(log, 0, sizeof *log);
    log->path = vd_strdup(path);
    log->G = G;
    vd_lines l;
    if (!vd_lines_open(&l, path, d))
        return false;
    bool ok = read_header(log, &l, d);
    char **f = ok ? vd_malloc((log->ncounters + 3) * sizeof *f) : NULL;
    if (ok)
        log->totals = vd_calloc(log->ncounters, sizeof *log->totals);
    size_t cap = 0, short_line = 0;
    char *line;
    while (ok && (line = vd_lines_next(&l))) {
        if (!*line)
            continue;
        if (short_line)
            ok = vd_fail(d, "%s:%zu: only the last row may be shorter than %llu instructions", path, short_line,
                         (unsigned long long)log->G);
        else if ((ok = read_row(log, &l, line, f, &cap, d)) && vd_log_row(log, log->nrows - 1)[0] < (double)log->G)
            short_line = l.lineno;
    }
    free(f);
    vd_lines_close(&l);
    if (ok && log->nrows == 0)
        ok = vd_fail(d, "%s: no rows", path);
    return ok;
}

void vd_log_free(vd_log *log)
{
    for (size_t i = 0; i < log->ncounters; i++)
        free(log->names ? log->names[i] : NULL);
    free(log->names);
    free(log->v);
    free(log->totals);
    free(log->path);
    memset(log, 0, sizeof *log);
}

long vd_log_column(const vd_log *log, const char *name)
{
    for (size_t i = 0; i < log->ncounters; i++)
        if (log->names[i] && strcmp(log->names[i], name) == 0)
            return (long)i;
    return -1;
}
