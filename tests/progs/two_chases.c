/* two_chases: two independent pointer chases walked side by side, each
 * over 8 MB of 64-byte nodes in one random cycle. Each step of each is a
 * miss, and the two misses overlap: making one load hit leaves the other
 * missing, so only making both hit saves the time, a parallel interaction
 * (positive icost of the two static loads; tests/e2e/sim_icost.sh).
 * Argument: steps (default 100000). */
#include <stdio.h>

#include "ring.h"

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
