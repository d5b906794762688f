#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "outfile.h"

const char *util_progname = "rvsim";
int util_die_status = 1;

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
    fflush(stdout);
    fprintf(stderr, "%s: %s", util_progname, prefix);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

noreturn void die_status(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("", fmt, ap);
    va_end(ap);
    outfile_abort_all();
    exit(status);
}

const char *not_stdout(const char *opt, const char *arg, const char *what)
{
    if (strcmp(arg, "-") == 0)
        die("%s: '-' (standard output) cannot stand for %s", opt, what);
    return arg;
}

noreturn void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("", fmt, ap);
    va_end(ap);
    outfile_abort_all();
    exit(util_die_status);
}

void warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("warning: ", fmt, ap);
    va_end(ap);
}

bool parse_count(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    uint64_t mult = 1;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': mult = 1000ULL; end++; break;
    case 'M': case 'm': mult = 1000000ULL; end++; break;
    case 'G': case 'g': mult = 1000000000ULL; end++; break;
    case 'T': case 't': mult = 1000000000000ULL; end++; break;
    default: return false;
    }
    if (*end != '\0' || (v && mult > UINT64_MAX / v))
        return false;
    *out = (uint64_t)v * mult;
    return true;
}

int parse_count_list(const char *s, uint64_t *out, int max)
{
    int n = 0;
    char buf[64];
    while (*s) {
        size_t len = 0;
        while (s[len] && s[len] != ',')
            len++;
        if (len == 0 || len >= sizeof buf || n == max)
            return 0;
        for (size_t i = 0; i < len; i++)
            buf[i] = s[i];
        buf[len] = '\0';
        if (!parse_count(buf, &out[n++]))
            return 0;
        s += len;
        if (*s == ',' && *++s == '\0')
            return 0;
    }
    return n;
}

bool parse_int(const char *s, long long *out)
{
    if (!s || !*s)
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || *end || v != v)
        return false;
    *out = v;
    return true;
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *temp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) die("out of memory");
    return d;
}

void *grow_array(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return p;
    *cap = *cap ? 2 * *cap : 256;
    if (*cap < need) *cap = need;
    if (!(p = realloc(p, *cap * size))) die("out of memory");
    return p;
}

uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
