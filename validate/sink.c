#include "sink.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "util.h"

void vd_sink_open(vd_sink *s, const char *path)
{
    s->o = strcmp(path, "-") == 0 ? NULL : outfile_open(path);
}

void vd_sink_printf(vd_sink *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (s->o) {
        char *text;
        if (vasprintf(&text, fmt, ap) < 0)
            die("out of memory");
        outfile_write(s->o, text, strlen(text));
        free(text);
    } else {
        vfprintf(stdout, fmt, ap);
    }
    va_end(ap);
}

void vd_sink_commit(vd_sink *s)
{
    if (s->o)
        outfile_commit(s->o);
    else
        fflush(stdout);
    s->o = NULL;
}

void vd_sink_str(vd_sink *o, const char *s)
{
    vd_sink_printf(o, "\"");
    for (const char *q; (q = strchr(s, '"')); s = q + 1)
        vd_sink_printf(o, "%.*s\"\"", (int)(q - s), s);
    vd_sink_printf(o, "%s\"", s);
}

static char *slot(void)
{
    static char ring[32][64];
    static unsigned next;
    return ring[next++ % 32];
}

const char *vd_pct(double fraction)
{
    char *b = slot();
    if (isnan(fraction))
        return "n/a";
    snprintf(b, 64, "%+.2f%%", 100 * fraction);
    return b;
}

const char *vd_upct(double fraction)
{
    char *b = slot();
    if (isnan(fraction))
        return "n/a";
    snprintf(b, 64, "%.2f%%", 100 * fraction);
    return b;
}

const char *vd_num(double x, int g)
{
    char *b = slot();
    if (isnan(x))
        return "n/a";
    snprintf(b, 64, "%.*g", g, x);
    return b;
}

const char *vd_times(double x, int g)
{
    char *b = slot();
    if (isnan(x))
        return "n/a";
    snprintf(b, 64, "%.*gx", g, x);
    return b;
}

const char *vd_count(double x)
{
    char *b = slot();
    if (isnan(x))
        return "n/a";
    char digits[40];
    snprintf(digits, sizeof digits, "%.0f", x);
    size_t n = strlen(digits), start = digits[0] == '-', o = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > start && (n - i) % 3 == 0)
            b[o++] = ',';
        b[o++] = digits[i];
    }
    b[o] = '\0';
    return b;
}

const char *vd_cell(double x)
{
    char *b = slot();
    if (isnan(x) || isinf(x))
        return "";
    snprintf(b, 64, "%.10g", x);
    return b;
}

void vd_buf_printf(vd_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text;
    if (vasprintf(&text, fmt, ap) < 0)
        die("out of memory");
    va_end(ap);
    size_t len = strlen(text);
    if (b->n + len + 1 > b->cap) {
        b->cap = 2 * (b->n + len + 1);
        b->s = vd_realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, text, len + 1);
    b->n += len;
    free(text);
}

void vd_buf_free(vd_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->n = b->cap = 0;
}
