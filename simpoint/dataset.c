#include "dataset.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "util.h"
#include "sp_alloc.h"

void dataset_init(dataset *ds, size_t n, size_t d, bool with_weights)
{
    ds->n = n;
    ds->d = d;
    ds->x = sp_calloc(n * d, sizeof *ds->x);
    ds->w = with_weights ? sp_calloc(n, sizeof *ds->w) : NULL;
}

void dataset_free(dataset *ds)
{
    free(ds->x);
    free(ds->w);
    ds->x = ds->w = NULL;
    ds->n = 0;
}

void dataset_reserve(dataset *ds, size_t n)
{
    if (n <= ds->n)
        return;
    ds->x = sp_realloc_array(ds->x, n * ds->d, sizeof *ds->x);
    memset(ds->x + ds->n * ds->d, 0, (n - ds->n) * ds->d * sizeof *ds->x);
    if (ds->w) {
        ds->w = sp_realloc_array(ds->w, n, sizeof *ds->w);
        memset(ds->w + ds->n, 0, (n - ds->n) * sizeof *ds->w);
    }
    ds->n = n;
}

double dataset_weight_sum(const dataset *ds)
{
    double s = 0;
    for (size_t i = 0; i < ds->n; i++)
        s += ds->w ? ds->w[i] : 1.0;
    return s;
}

/* Loaded values stay within this magnitude, so that no sum of weights and
 * no squared distance overflows (inf or NaN would reach the outputs). */
#define MAX_MAGNITUDE 1e15

static bool plausible(double v)
{
    return fabs(v) <= MAX_MAGNITUDE; /* false for NaN too */
}

/* Every value and weight of a loaded dataset, checked as it arrives. */
static void check_rows(const char *path, const dataset *ds)
{
    for (size_t i = 0; i < ds->n; i++) {
        if (ds->w && !plausible(ds->w[i]))
            die("%s: row %zu: weight %g is out of range (finite, at most %g in magnitude)", path, i + 1, ds->w[i],
                MAX_MAGNITUDE);
        const double *r = dataset_row(ds, i);
        for (size_t j = 0; j < ds->d; j++)
            if (!plausible(r[j]))
                die("%s: row %zu: value %g is out of range (finite, at most %g in magnitude)", path, i + 1, r[j],
                    MAX_MAGNITUDE);
    }
}

/* ------------------------------------------------------------------ text */

void dataset_write_txt(const char *path, const dataset *ds)
{
    outfile *o = outfile_open(path);
    outfile_printf(o, ds->w ? "%zu:w\n" : "%zu\n", ds->n);
    for (size_t i = 0; i < ds->n; i++) {
        if (ds->w)
            outfile_printf(o, "%.20g ", ds->w[i]);
        outfile_printf(o, "%zu:", ds->d);
        const double *r = dataset_row(ds, i);
        for (size_t j = 0; j < ds->d; j++)
            outfile_printf(o, " %.20g", r[j]);
        outfile_write(o, "\n", 1);
    }
    outfile_commit(o);
}

/* A whitespace-separated token reader over a whole text file, counting lines. */
typedef struct tokens {
    const char *path;
    char *text, *p;
    long line;
} tokens;

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open %s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = sp_malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0)
            buf = sp_realloc_array(buf, cap *= 2, 1);
    }
    if (ferror(f))
        die("cannot read %s: %s", path, strerror(errno));
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void tokens_open(tokens *t, const char *path)
{
    size_t len;
    t->path = path;
    t->text = t->p = slurp(path, &len);
    if (strlen(t->text) != len)
        die("%s: binary data in a text file", path);
    t->line = 1;
}

static void skip_space(tokens *t)
{
    for (;;) {
        while (*t->p == ' ' || *t->p == '\t' || *t->p == '\r' || *t->p == '\n') {
            if (*t->p == '\n')
                t->line++;
            t->p++;
        }
        if (*t->p != '#')
            return;
        while (*t->p && *t->p != '\n')
            t->p++;
    }
}

static double next_number(tokens *t, const char *what)
{
    skip_space(t);
    if (!*t->p)
        die("%s:%ld: unexpected end of file, expected %s", t->path, t->line, what);
    char *end;
    errno = 0;
    double v = strtod(t->p, &end);
    if (end == t->p || errno == ERANGE)
        die("%s:%ld: expected %s", t->path, t->line, what);
    if (!plausible(v))
        die("%s:%ld: %s out of range (finite, at most %g in magnitude)", t->path, t->line, what, MAX_MAGNITUDE);
    t->p = end;
    return v;
}

static size_t next_size(tokens *t, const char *what)
{
    double v = next_number(t, what);
    if (v < 0 || v != (double)(size_t)v || v > 1e12)
        die("%s:%ld: bad %s", t->path, t->line, what);
    return (size_t)v;
}

static void expect_char(tokens *t, char c)
{
    skip_space(t);
    if (*t->p != c)
        die("%s:%ld: expected '%c'", t->path, t->line, c);
    t->p++;
}

void dataset_read_txt(const char *path, dataset *ds)
{
    tokens t;
    tokens_open(&t, path);
    size_t n = next_size(&t, "the number of rows");
    bool weighted = false;
    if (*t.p == ':') {
        t.p++;
        if (*t.p != 'w')
            die("%s:%ld: expected ':w' after the row count", path, t.line);
        t.p++;
        weighted = true;
    }
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        double w = weighted ? next_number(&t, "a row weight") : 0;
        size_t rd = next_size(&t, "the row dimension");
        expect_char(&t, ':');
        if (i == 0) {
            d = rd;
            dataset_init(ds, n, d, weighted);
        } else if (rd != d) {
            die("%s:%ld: row has %zu values, earlier rows have %zu", path, t.line, rd, d);
        }
        if (weighted)
            ds->w[i] = w;
        double *r = dataset_row(ds, i);
        for (size_t j = 0; j < d; j++)
            r[j] = next_number(&t, "a vector value");
    }
    if (n == 0)
        die("%s: no rows", path);
    skip_space(&t);
    if (*t.p)
        die("%s:%ld: unexpected data after %zu rows", path, t.line, n);
    free(t.text);
}

double *read_number_column(const char *path, size_t *n)
{
    tokens t;
    tokens_open(&t, path);
    size_t cap = 1024;
    double *v = sp_malloc(cap * sizeof *v);
    *n = 0;
    for (;;) {
        skip_space(&t);
        if (!*t.p)
            break;
        if (*n == cap)
            v = sp_realloc_array(v, cap *= 2, sizeof *v);
        v[(*n)++] = next_number(&t, "a number");
    }
    free(t.text);
    if (*n == 0)
        die("%s: no values", path);
    return v;
}

void write_number_column(const char *path, const double *v, size_t n)
{
    outfile *o = outfile_open(path);
    for (size_t i = 0; i < n; i++)
        outfile_printf(o, "%.20g\n", v[i]);
    outfile_commit(o);
}

/* ---------------------------------------------------------------- binary */

void dataset_write_bin(const char *path, const dataset *ds)
{
    outfile *o = outfile_open(path);
    uint32_t head[2] = {(uint32_t)ds->n, ds->w != NULL};
    uint32_t d = (uint32_t)ds->d;
    outfile_write(o, head, sizeof head);
    for (size_t i = 0; i < ds->n; i++) {
        if (ds->w)
            outfile_write(o, &ds->w[i], sizeof(double));
        outfile_write(o, &d, sizeof d);
        outfile_write(o, dataset_row(ds, i), ds->d * sizeof(double));
    }
    outfile_commit(o);
}

static void read_exact(FILE *f, const char *path, void *buf, size_t len, size_t row)
{
    if (fread(buf, 1, len, f) != len)
        die("%s: truncated binary vector file (at row %zu)", path, row);
}

void dataset_read_bin(const char *path, dataset *ds)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open %s: %s", path, strerror(errno));
    uint32_t head[2], d = 0;
    read_exact(f, path, head, sizeof head, 0);
    if (head[0] == 0 || head[1] > 1)
        die("%s: bad binary vector header", path);
    for (size_t i = 0; i < head[0]; i++) {
        double w = 0;
        if (head[1])
            read_exact(f, path, &w, sizeof w, i);
        uint32_t rd;
        read_exact(f, path, &rd, sizeof rd, i);
        if (i == 0) {
            if (rd == 0 || rd > (1u << 24))
                die("%s: bad row dimension %u", path, rd);
            d = rd;
            dataset_init(ds, head[0], d, head[1]);
        } else if (rd != d) {
            die("%s: row %zu has %u values, earlier rows have %u", path, i, rd, d);
        }
        if (head[1])
            ds->w[i] = w;
        read_exact(f, path, dataset_row(ds, i), d * sizeof(double), i);
    }
    if (fgetc(f) != EOF)
        die("%s: unexpected data after %u rows", path, head[0]);
    fclose(f);
    check_rows(path, ds);
}
