/* A pool of identical resources, each busy until some cycle: the MSHRs of a
 * cache level, the request slots of DRAM. Pools are small (tens of entries),
 * so a linear scan for the one that frees first beats any priority queue. */
#ifndef RV_UARCH_BUSY_H
#define RV_UARCH_BUSY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "util.h"

typedef struct busy_pool {
    uint64_t *until;   /* cycle each resource frees */
    unsigned n;
} busy_pool;

static inline void busy_pool_init(busy_pool *p, unsigned n)
{
    if (!n) die("a pool of MSHRs or DRAM request slots needs at least one");
    p->until = calloc(n, sizeof *p->until);
    if (!p->until) die("out of memory");
    p->n = n;
}

static inline void busy_pool_free(busy_pool *p) { free(p->until); }

/* Every resource idle from cycle 0 on. */
static inline void busy_pool_clear(busy_pool *p)
{
    for (unsigned i = 0; i < p->n; i++)
        p->until[i] = 0;
}

/* The resource that frees first. */
static inline unsigned busy_pool_earliest(const busy_pool *p)
{
    unsigned best = 0;
    for (unsigned i = 1; i < p->n; i++)
        if (p->until[i] < p->until[best])
            best = i;
    return best;
}

/* Take a resource for a request at cycle t, waiting if all are busy: the
 * cycle the request can start (>= t). Hold it with busy_pool_hold. */
static inline uint64_t busy_pool_claim(const busy_pool *p, uint64_t t, unsigned *slot)
{
    *slot = busy_pool_earliest(p);
    return p->until[*slot] > t ? p->until[*slot] : t;
}

/* A resource idle at cycle t, without waiting: false if none. */
static inline bool busy_pool_idle(const busy_pool *p, uint64_t t, unsigned *slot)
{
    *slot = busy_pool_earliest(p);
    return p->until[*slot] <= t;
}

static inline void busy_pool_hold(busy_pool *p, unsigned slot, uint64_t until) { p->until[slot] = until; }

#endif
