/* Shared helpers for the workloads: size argument, deterministic LCG,
 * checksum printing.  Kept tiny on purpose: each workload is one file. */
#ifndef WORKLOADS_COMMON_H
#define WORKLOADS_COMMON_H
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* `prog [SIZE]`: SIZE is a positive integer scale factor (default 1). */
static long wl_size(int argc, char **argv)
{
    if (argc < 2)
        return 1;
    char *end;
    long n = strtol(argv[1], &end, 10);
    if (*end != '\0' || n <= 0) {
        fprintf(stderr, "usage: %s [SIZE]  (SIZE: positive integer)\n", argv[0]);
        exit(2);
    }
    return n;
}

/* 64-bit LCG (Knuth's MMIX constants); returns the high 32 bits. */
static inline uint32_t wl_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*state >> 32);
}

/* Fold a value into a running checksum. */
static inline uint64_t wl_mix(uint64_t sum, uint64_t v)
{
    sum ^= v + 0x9e3779b97f4a7c15ULL + (sum << 6) + (sum >> 2);
    return sum;
}

static void wl_print(const char *phase, uint64_t sum)
{
    printf("%-12s %016" PRIx64 "\n", phase, sum);
}
#endif
