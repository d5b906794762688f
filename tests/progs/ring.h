/* A ring of n 64-byte nodes linked in one random cycle (Sattolo's shuffle,
 * seeded, with no division), so walking it is a chain of dependent loads to
 * unpredictable lines: the pointer chases of the sensitivity and icost
 * known-answer programs. */
#ifndef TEST_PROGS_RING_H
#define TEST_PROGS_RING_H

#include <stdint.h>
#include <stdlib.h>

struct node {
    struct node *next;
    uint64_t pad[7];
};

static struct node *ring(size_t n, uint64_t seed)
{
    struct node *nodes = malloc(n * sizeof *nodes);
    size_t *order = malloc(n * sizeof *order);
    if (!nodes || !order) exit(1);
    for (size_t i = 0; i < n; i++) order[i] = i;
    for (size_t i = n - 1; i > 0; i--) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        size_t j = (size_t)(((unsigned __int128)seed * i) >> 64), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (size_t i = 0; i < n; i++) nodes[order[i]].next = &nodes[order[(i + 1) % n]];
    struct node *start = &nodes[order[0]];
    free(order);
    return start;
}

#endif
