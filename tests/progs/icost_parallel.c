/* icost_parallel: a pointer chase that misses every cache beside a chain
 * of dependent divisions of about the same length, independent of each
 * other. Idealising the misses leaves the divisions, idealising the divides
 * leaves the misses: only idealising both saves the time, a parallel
 * interaction (positive icost of dmiss and lgalu; tests/e2e/sim_icost.sh).
 * Argument: steps (default 100000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *next;
    uint64_t pad[7];
};

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 100000;
    size_t n = (8u << 20) / sizeof(struct node);
    struct node *nodes = malloc(n * sizeof *nodes);
    size_t *order = malloc(n * sizeof *order);
    if (!nodes || !order) return 1;
    uint64_t r = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) order[i] = i;
    for (size_t i = n - 1; i > 0; i--) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        size_t j = (size_t)(((unsigned __int128)r * i) >> 64), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (size_t i = 0; i < n; i++) nodes[order[i]].next = &nodes[order[(i + 1) % n]];
    volatile long divisor = 3;
    long d = divisor, x = 1000003;
    struct node *p = &nodes[order[0]];
    for (long s = 0; s < steps; s++) {
        p = p->next;
        for (int k = 0; k < 8; k++) x = x / d + 1000003; /* about one miss long */
    }
    printf("%zu %ld\n", (size_t)(p - nodes), x);
    return 0;
}
