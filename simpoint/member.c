#include "member.h"

#include <stdlib.h>

static int by_key(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

void members_sort(member *m, size_t n)
{
    qsort(m, n, sizeof *m, by_key);
}
