/* int_compute: integer kernels in alternating phases.
 *
 * Phases (one cycle per unit of SIZE): CRC POP MUL CRC DIV MUL
 *   CRC - bitwise CRC-32 over a 64 KB buffer (shift/xor/branch per bit)
 *   POP - SWAR popcount and bit reversal of 64-bit words
 *   MUL - multiply-heavy 64-bit hash chains (fmix64, mulhu)
 *   DIV - Euclid's gcd and modular reduction (div/rem heavy)
 * CRC and MUL recur within a cycle; the cycle recurs SIZE times.
 *
 * Size (retired instructions, measured with bbv --count-only): 22.1 M at
 * SIZE=1 (the test size); 0.41 M + 21.7 M per unit of SIZE, so
 * SIZE=100 is about 2.2 G.
 * Output: one checksum line per phase kind, then a total.
 */
#include "common.h"
#include <string.h>

#define BUF_BYTES 65536
static uint8_t buf[BUF_BYTES];

static uint32_t crc32_bitwise(const uint8_t *p, size_t n, uint32_t crc)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) {
            if (crc & 1)
                crc = (crc >> 1) ^ 0xedb88320u;
            else
                crc >>= 1;
        }
    }
    return ~crc;
}

static uint64_t popcount_swar(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (x * 0x0101010101010101ULL) >> 56;
}

static uint64_t bitrev64(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    x = ((x >> 8) & 0x00ff00ff00ff00ffULL) | ((x & 0x00ff00ff00ff00ffULL) << 8);
    x = ((x >> 16) & 0x0000ffff0000ffffULL) | ((x & 0x0000ffff0000ffffULL) << 16);
    return (x >> 32) | (x << 32);
}

static uint64_t phase_crc(void)
{
    return crc32_bitwise(buf, BUF_BYTES, 0);
}

static uint64_t phase_pop(void)
{
    const uint64_t *w = (const uint64_t *)buf;
    size_t nw = BUF_BYTES / 8;
    uint64_t sum = 0;
    for (int pass = 0; pass < 12; pass++)
        for (size_t i = 0; i < nw; i++) {
            uint64_t x = w[i] ^ (uint64_t)pass;
            sum += popcount_swar(x) + (bitrev64(x) >> 60);
        }
    return sum;
}

static uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static uint64_t phase_mul(uint64_t seed)
{
    uint64_t a = seed, b = seed ^ 0x1234567, acc = 0;
    for (int i = 0; i < 160000; i++) {
        a = fmix64(a + (uint64_t)i);
        unsigned __int128 p = (unsigned __int128)a * (b | 1);
        b = (uint64_t)(p >> 64) ^ (uint64_t)p;
        acc += a * 31 + b * 17;
    }
    return acc;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint64_t phase_div(uint64_t seed)
{
    uint64_t st = seed, acc = 0;
    for (int i = 0; i < 30000; i++) {
        uint64_t a = ((uint64_t)wl_rand(&st) << 32) | wl_rand(&st);
        uint64_t b = (wl_rand(&st) | 1u);
        acc += gcd64(a, b) + a / b + (a % 1000003u);
    }
    return acc;
}

int main(int argc, char **argv)
{
    long size = wl_size(argc, argv);
    uint64_t st = 42;
    for (size_t i = 0; i < BUF_BYTES; i++)
        buf[i] = (uint8_t)(wl_rand(&st) >> 24);

    uint64_t crc = 0, pop = 0, mul = 0, dv = 0;
    for (long u = 0; u < size; u++) {
        crc = wl_mix(crc, phase_crc());
        buf[u % BUF_BYTES] ^= 0x5a;            /* make each cycle differ */
        pop = wl_mix(pop, phase_pop());
        mul = wl_mix(mul, phase_mul((uint64_t)u));
        crc = wl_mix(crc, phase_crc());
        dv = wl_mix(dv, phase_div((uint64_t)u * 7 + 1));
        mul = wl_mix(mul, phase_mul((uint64_t)u + 1000));
    }
    wl_print("crc", crc);
    wl_print("popcount", pop);
    wl_print("multiply", mul);
    wl_print("divide", dv);
    wl_print("total", crc ^ pop ^ mul ^ dv);
    return 0;
}
