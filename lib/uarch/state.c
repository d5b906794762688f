#include "uarch/state.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void ustate_put(ustate *s, const void *p, size_t n)
{
    if (!n) return; /* memcpy into a NULL buffer is undefined even for 0 bytes */
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->len + n) cap *= 2;
        s->data = realloc(s->data, cap);
        if (!s->data) die("out of memory saving micro-architectural state");
        s->cap = cap;
    }
    memcpy(s->data + s->len, p, n);
    s->len += n;
}

void ustate_put_u64(ustate *s, uint64_t v) { ustate_put(s, &v, sizeof v); }

void ustate_get(ustate *s, void *p, size_t n)
{
    if (!n) return;
    if (s->bad || n > s->len - s->pos) {
        s->bad = true;
        memset(p, 0, n);
        return;
    }
    memcpy(p, s->data + s->pos, n);
    s->pos += n;
}

uint64_t ustate_get_u64(ustate *s)
{
    uint64_t v;
    ustate_get(s, &v, sizeof v);
    return v;
}

void ustate_expect_u64(ustate *s, uint64_t want)
{
    if (ustate_get_u64(s) != want) s->bad = true;
}

void ustate_free(ustate *s)
{
    free(s->data);
    *s = (ustate){0};
}
