#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool vd_lines_open(vd_lines *l, const char *path, vd_diag *d)
{
    memset(l, 0, sizeof *l);
    l->path = path;
    l->f = fopen(path, "r");
    if (!l->f)
        return vd_fail(d, "%s: %s", path, strerror(errno));
    return true;
}

char *vd_lines_next(vd_lines *l)
{
    ssize_t n = getline(&l->buf, &l->cap, l->f);
    if (n < 0)
        return NULL;
    l->lineno++;
    while (n > 0 && (l->buf[n - 1] == '\n' || l->buf[n - 1] == '\r'))
        l->buf[--n] = '\0';
    return l->buf;
}

void vd_lines_close(vd_lines *l)
{
    if (l->f)
        fclose(l->f);
    free(l->buf);
    memset(l, 0, sizeof *l);
}

bool vd_skippable(const char *line)
{
    line += strspn(line, " \t");
    return *line == '\0' || *line == '#';
}

size_t vd_split(char *line, char sep, char **fields, size_t max)
{
    size_t n = 0;
    if (sep) {
        while (n < max) {
            fields[n++] = line;
            char *end = n < max ? strchr(line, sep) : NULL;
            if (!end)
                break;
            *end = '\0';
            line = end + 1;
        }
        return n;
    }
    while (n < max) {
        line += strspn(line, " \t");
        if (!*line)
            break;
        fields[n++] = line;
        if (n == max)
            break;
        line += strcspn(line, " \t");
        if (*line)
            *line++ = '\0';
    }
    return n;
}

bool vd_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = (uint64_t)v;
    return true;
}

bool vd_parse_long(const char *s, long *out)
{
    if (!s || !(isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))))
        return false;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool vd_parse_real(const char *s, double *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool vd_parse_percent(const char *s, double *out)
{
    size_t n = strlen(s);
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n + 1);
    if (buf[n - 1] == '%')
        buf[n - 1] = '\0';
    double v;
    if (!vd_parse_real(buf, &v) || v < 0)
        return false;
    *out = v / 100;
    return true;
}

char *vd_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return vd_strdup(".");
    if (slash == path)
        return vd_strdup("/");
    return vd_format("%.*s", (int)(slash - path), path);
}

char *vd_resolve(const char *dir, const char *path)
{
    if (path[0] == '/' || !dir || strcmp(dir, ".") == 0)
        return vd_strdup(path);
    return vd_format("%s/%s", dir, path);
}

const char *vd_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}
