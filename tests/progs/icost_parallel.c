/* icost_parallel: a pointer chase that misses every cache beside a chain
 * of dependent divisions of about the same length, independent of each
 * other. Idealising the misses leaves the divisions, idealising the divides
 * leaves the misses: only idealising both saves the time, a parallel
 * interaction (positive icost of dmiss and lgalu; tests/e2e/sim_icost.sh).
 * Argument: steps (default 100000). */
#include <stdio.h>

#include "ring.h"

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 100000;
    struct node *p = ring((8u << 20) / sizeof(struct node), 88172645463325252ull), *start = p;
    volatile long divisor = 3;
    long d = divisor, x = 1000003;
    for (long s = 0; s < steps; s++) {
        p = p->next;
        for (int k = 0; k < 8; k++) x = x / d + 1000003; /* about one miss long */
    }
    printf("%d %ld\n", p == start, x);
    return 0;
}
