/* two_chases: two independent pointer chases walked side by side, each
 * over 8 MB of 64-byte nodes in one random cycle. Each step of each is a
 * miss, and the two misses overlap: making one load hit leaves the other
 * missing, so only making both hit saves the time, a parallel interaction
 * (positive icost of the two static loads; tests/e2e/sim_icost.sh).
 * Argument: steps (default 100000). */
#include <stdint.h>
#include <stdio.h>
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

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 100000;
    size_t n = (8u << 20) / sizeof(struct node);
    struct node *p = ring(n, 88172645463325252ull), *q = ring(n, 0x9e3779b97f4a7c15ull);
    for (long s = 0; s < steps; s++) {
        p = p->next;
        q = q->next;
    }
    printf("%d\n", p == q);
    return 0;
}
