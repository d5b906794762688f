/* Intervals with a sort key (proxy.c, twostage.c). */
#ifndef SP_MEMBER_H
#define SP_MEMBER_H

#include <stddef.h>

typedef struct member {
    size_t i;      /* interval */
    double key;    /* sort key */
} member;

/* m[0..n) by key, then interval. */
void members_sort(member *m, size_t n);

#endif
