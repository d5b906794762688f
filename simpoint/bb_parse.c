#include "bb_parse.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static size_t skip_spaces(const char *s, size_t len, size_t i)
{
    while (i < len && is_space(s[i]))
        i++;
    return i;
}

/* A count: plain digits on the fast path, anything else strtod accepts
 * (decimals, exponents) on the slow one. Negative, NaN and infinite counts are errors. */
static bool parse_count_value(const char *s, size_t len, size_t *i, double *out)
{
    size_t j = *i;
    uint64_t v = 0;
    while (j < len && is_digit(s[j]) && v < (UINT64_C(1) << 52))
        v = v * 10 + (uint64_t)(s[j++] - '0');
    if (j > *i && (j == len || is_space(s[j]) || s[j] == ':')) {
        *out = (double)v;
        *i = j;
        return true;
    }
    char tmp[64];
    size_t n = 0;
    for (j = *i; j < len && !is_space(s[j]) && s[j] != ':' && n < sizeof tmp - 1; j++)
        tmp[n++] = s[j];
    tmp[n] = '\0';
    char *end;
    double d = strtod(tmp, &end);
    if (n == 0 || *end || !(d >= 0) || d > 1e300)
        return false;
    *out = d;
    *i = j;
    return true;
}

static bool fail(bb_line_info *info, const char *what, size_t col)
{
    info->error = what;
    info->error_col = col + 1;
    return false;
}

bool bb_parse_interval(const char *s, size_t len, bb_pair *pairs, bb_line_info *info)
{
    memset(info, 0, sizeof *info);
    info->min_id = UINT32_MAX;
    const char *nul = memchr(s, '\0', len); /* C's string functions would end the line there */
    if (nul)
        return fail(info, "NUL byte in a text file", (size_t)(nul - s));
    size_t i = 1; /* past the 'T' */
    for (;;) {
        i = skip_spaces(s, len, i);
        if (i == len)
            break;
        if (s[i] != ':')
            return fail(info, "expected ':' before a block id", i);
        i = skip_spaces(s, len, i + 1);
        if (i == len || !is_digit(s[i]))
            return fail(info, i < len && s[i] == '-' ? "negative block id" : "expected a block id", i);
        size_t start = i;
        uint64_t id = 0;
        while (i < len && is_digit(s[i])) {
            id = id * 10 + (uint64_t)(s[i++] - '0');
            if (id > BB_MAX_ID)
                return fail(info, "block id too large", start);
        }
        i = skip_spaces(s, len, i);
        if (i == len || s[i] != ':')
            return fail(info, "expected ':' after a block id", i);
        i = skip_spaces(s, len, i + 1);
        double count;
        start = i;
        if (i == len || !parse_count_value(s, len, &i, &count))
            return fail(info, "expected a non-negative count", start);
        bb_pair *p = &pairs[info->npairs++];
        p->id = (uint32_t)id;
        p->count = count;
        info->sum += count;
        if (p->id < info->min_id)
            info->min_id = p->id;
        if (p->id > info->max_id)
            info->max_id = p->id;
    }
    if (info->npairs == 0)
        return fail(info, "interval with no blocks (SimPoint 3.2 silently stops reading here)", 0);
    if (!(info->sum > 0))
        return fail(info, "interval with zero instructions", 0);
    if (!(info->sum < 1e300))
        return fail(info, "interval count overflows", 0);
    return true;
}

uint64_t bb_partial_marker(const char *s, size_t len)
{
    static const char tag[] = "# partial interval:";
    size_t n = sizeof tag - 1;
    if (len <= n || memcmp(s, tag, n) != 0)
        return 0;
    uint64_t v = 0;
    size_t i = skip_spaces(s, len, n);
    while (i < len && is_digit(s[i]))
        v = v * 10 + (uint64_t)(s[i++] - '0');
    return v;
}
