#include "sp_alloc.h"

#include <stdint.h>
#include <stdlib.h>

#include "util.h"

void *sp_malloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        die("out of memory (%zu bytes)", size);
    return p;
}

void *sp_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die("out of memory (%zu x %zu bytes)", n, size);
    return p;
}

void *sp_realloc_array(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        die("out of memory (%zu x %zu bytes)", n, size);
    size_t bytes = n * size;
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        die("out of memory (%zu x %zu bytes)", n, size);
    return q;
}
