/* chase: a pointer chase over 8 MB of 64-byte nodes linked in one random
 * cycle, so every step is a dependent load that misses the caches: time
 * follows memory latency, not widths (tests/e2e/sim_sensitivity.sh).
 * Argument: steps (default 300000). */
#include <stdio.h>

#include "ring.h"

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 300000;
    struct node *p = ring((8u << 20) / sizeof(struct node), 88172645463325252ull), *start = p;
    for (long s = 0; s < steps; s++) p = p->next;
    printf("%d\n", p == start);
    return 0;
}
