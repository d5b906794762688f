/* chase: a pointer chase over 8 MB of 64-byte nodes linked in one random
 * cycle, so every step is a dependent load that misses the caches: time
 * follows memory latency, not widths (tests/e2e/sim_sensitivity.sh).
 * Argument: steps (default 300000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    struct node *next;
    uint64_t pad[7];
};

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 300000;
    size_t n = (8u << 20) / sizeof(struct node);
    struct node *nodes = malloc(n * sizeof *nodes);
    size_t *order = malloc(n * sizeof *order);
    if (!nodes || !order) return 1;
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) order[i] = i;
    for (size_t i = n - 1; i > 0; i--) { /* Sattolo: one cycle through every node */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t j = (size_t)(((unsigned __int128)x * i) >> 64), t = order[i]; /* no divider */
        order[i] = order[j], order[j] = t;
    }
    for (size_t i = 0; i < n; i++) nodes[order[i]].next = &nodes[order[(i + 1) % n]];
    struct node *p = &nodes[order[0]];
    for (long s = 0; s < steps; s++) p = p->next;
    printf("%zu\n", (size_t)(p - nodes));
    return 0;
}
