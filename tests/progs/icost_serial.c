/* icost_serial: a load that misses every cache feeds an unpredictable
 * branch. With the branch mispredicted the front end waits for the miss,
 * so the misses cannot overlap: idealising either the misses or the
 * mispredictions removes most of the time, both together little more, a
 * serial interaction (negative icost of dmiss and bmisp;
 * tests/e2e/sim_icost.sh). Argument: loads (default 100000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long loads = argc > 1 ? atol(argv[1]) : 100000;
    size_t n = (8u << 20) / sizeof(uint64_t);
    uint64_t *table = malloc(n * sizeof *table);
    if (!table) return 1;
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) table[i] = r = r * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t idx = 12345, sum = 0;
    for (long i = 0; i < loads; i++) {
        idx ^= idx << 13, idx ^= idx >> 7, idx ^= idx << 17;      /* the address: not from memory */
        uint64_t v = table[(idx >> 11) & (n - 1)];
        if ((v >> 40) & 1) sum += v;                              /* a coin toss on the loaded value */
        else sum ^= v >> 3;
    }
    printf("%llu\n", (unsigned long long)sum);
    return 0;
}
