#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static char *vformat(const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        die("cannot format a message");
    char *s = vd_malloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *vd_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    return s;
}

bool vd_fail(vd_diag *d, const char *fmt, ...)
{
    if (d->error)
        return false;
    va_list ap;
    va_start(ap, fmt);
    d->error = vformat(fmt, ap);
    va_end(ap);
    return false;
}

void vd_warn(vd_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    d->warnings = vd_realloc(d->warnings, (d->nwarnings + 1) * sizeof *d->warnings);
    d->warnings[d->nwarnings++] = s;
    if (d->echo)
        warn("%s", s);
}

void vd_diag_free(vd_diag *d)
{
    free(d->error);
    for (size_t i = 0; i < d->nwarnings; i++)
        free(d->warnings[i]);
    free(d->warnings);
    memset(d, 0, sizeof *d);
}

void *vd_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

void *vd_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die("out of memory");
    return p;
}

void *vd_realloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

char *vd_strdup(const char *s)
{
    char *c = strdup(s);
    if (!c)
        die("out of memory");
    return c;
}
