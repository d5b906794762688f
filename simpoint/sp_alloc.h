/* Allocation that dies with "out of memory" instead of returning NULL
 * (a generic helper kept in simpoint/ because lib/ is owned by others). */
#ifndef SP_ALLOC_H
#define SP_ALLOC_H

#include <stddef.h>

void *sp_malloc(size_t size);
void *sp_calloc(size_t n, size_t size);
/* realloc to n * size bytes, checking the multiplication for overflow. */
void *sp_realloc_array(void *p, size_t n, size_t size);

#endif
