/* phases: recurring phases of varying length, A B A C A B A D ...
 *
 * The phase order follows the "ruler" sequence (phase k of a cycle is
 * the number of trailing zero bits of k+1: A B A C A B A D A B A C ...),
 * so A recurs every other phase, B every fourth, C every eighth and D
 * every sixteenth.  Each phase's length is drawn from an LCG: between 1
 * and 4 times a base number of iterations, so the same code recurs with
 * different interval counts, as SimPoint needs.
 *     A  integer histogram of an LCG stream (loads/stores, masks)
 *     B  FP polynomial evaluation (Horner, fmadd chains)
 *     C  block copy and reversal (memcpy/memmove, byte loops)
 *     D  branchy bit manipulation (leading zeros, parity, conditional updates)
 * 16 phases per unit of SIZE; the program prints the phase sequence of
 * the first cycle with lengths, and one checksum per phase kind.
 *
 * Size (retired instructions, measured with bbv --count-only): 25.7 M at
 * SIZE=1 (the test size); 2.08 M + 23.7 M per unit of SIZE, so
 * SIZE=100 is about 2.4 G.
 */
#include "common.h"
#include <string.h>

#define BASE 24000

static uint32_t hist[1024];
static uint8_t blk_a[8192], blk_b[8192];

static uint64_t phase_a(long iters, uint64_t *st)
{
    memset(hist, 0, sizeof hist);
    for (long i = 0; i < iters; i++) {
        uint32_t v = wl_rand(st);
        hist[v & 1023]++;
        hist[(v >> 12) & 1023] += 2;
    }
    uint64_t sum = 0;
    for (int i = 0; i < 1024; i++)
        sum = sum * 31 + hist[i];
    return sum;
}

static uint64_t phase_b(long iters)
{
    static const double c[8] = {0.5, -1.25, 0.75, 2.0, -0.125, 0.0625, 1.5, -0.3};
    double acc = 0.0, x = 0.001;
    for (long i = 0; i < iters; i++) {
        double p = c[0];
        for (int k = 1; k < 8; k++)
            p = p * x + c[k];
        acc += p;
        x += 1e-6;
    }
    uint64_t b;
    memcpy(&b, &acc, sizeof b);
    return b;
}

static uint64_t phase_c(long iters)
{
    uint64_t sum = 0;
    long rounds = iters / 512 + 1;
    for (long r = 0; r < rounds; r++) {
        memcpy(blk_b, blk_a, sizeof blk_a);
        memmove(blk_b + 1, blk_b, sizeof blk_b - 1);
        for (size_t i = 0, j = sizeof blk_a - 1; i < 256; i++, j--) {
            uint8_t t = blk_b[i];
            blk_b[i] = blk_b[j];
            blk_b[j] = t;
        }
        blk_a[r % sizeof blk_a] ^= blk_b[(r * 7) % sizeof blk_b];
        sum += blk_b[r % sizeof blk_b] + blk_a[(r * 13) % sizeof blk_a];
    }
    return sum;
}

static uint64_t phase_d(long iters, uint64_t *st)
{
    uint64_t sum = 0;
    for (long i = 0; i < iters; i++) {
        uint64_t v = ((uint64_t)wl_rand(st) << 32) | wl_rand(st);
        int lz = v ? __builtin_clzll(v) : 64;
        if (__builtin_parityll(v))
            sum += (uint64_t)lz;
        else if (v & 0x100)
            sum ^= v >> 40;
        else
            sum -= v & 0xff;
    }
    return sum;
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    uint64_t len_st = 1234, data_st = 777;
    uint64_t sums[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof blk_a; i++)
        blk_a[i] = (uint8_t)(i * 37 + 11);

    printf("first cycle:");
    for (long u = 0; u < size; u++) {
        for (int k = 0; k < 16; k++) {
            int kind = __builtin_ctz((unsigned)(k + 1));   /* 0=A 1=B 2=C 3=D 4->D */
            if (kind > 3)
                kind = 3;
            long len = BASE * (1 + (long)(wl_rand(&len_st) % 4));
            if (u == 0)
                printf(" %c%ld", 'A' + kind, len / BASE);
            uint64_t v;
            switch (kind) {
            case 0: v = phase_a(len, &data_st); break;
            case 1: v = phase_b(len / 2); break;
            case 2: v = phase_c(len); break;
            default: v = phase_d(len, &data_st); break;
            }
            sums[kind] = wl_mix(sums[kind], v);
        }
    }
    printf("\n");
    wl_print("A-histogram", sums[0]);
    wl_print("B-poly", sums[1]);
    wl_print("C-copy", sums[2]);
    wl_print("D-bits", sums[3]);
    return 0;
}
