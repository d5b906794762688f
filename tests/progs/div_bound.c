/* div_bound: independent integer divisions, four per iteration. The core
 * has one divider that is not pipelined, so the loop runs at one division
 * per divide latency whatever the widths, the window or the memory: a
 * sensitivity study must find the divider and nothing else
 * (tests/e2e/sim_sensitivity.sh). Argument: iterations (default 100000). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    volatile long divisor = 7; /* read once: a divisor the compiler cannot strength-reduce */
    long d = divisor, a = 0, b = 0, c = 0, e = 0;
    for (long i = 1; i <= n; i++) {
        a += (i * 13) / d;
        b += (i * 17) / (d + 2);
        c += (i * 19) / (d + 4);
        e += (i * 23) / (d + 6);
    }
    printf("%ld\n", a + b + c + e);
    return 0;
}
