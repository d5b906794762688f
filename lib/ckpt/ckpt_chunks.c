#include "ckpt_chunks.h"

#include <stdio.h>

int ckpt_chunks_check(uint64_t C, uint64_t W, char *err, size_t errlen)
{
    if (C == 0) {
        snprintf(err, errlen, "the chunk size must be positive");
        return -1;
    }
    if (W >= C) {
        /* A longer warm-up would start before the previous chunk's checkpoint. */
        snprintf(err, errlen, "the chunks' warm-up (%llu) must be shorter than a chunk (%llu)", (unsigned long long)W,
                 (unsigned long long)C);
        return -1;
    }
    return 0;
}

uint64_t ckpt_chunk_warmup_default(uint64_t C)
{
    return C / 4 < CKPT_CHUNK_WARMUP_DEFAULT ? C / 4 : CKPT_CHUNK_WARMUP_DEFAULT;
}

ckpt_region ckpt_chunk_region(uint64_t k, uint64_t C, uint64_t W)
{
    uint64_t warm = k ? W : 0;
    return (ckpt_region){
        .simpoint = (long long)k, .cluster = -1, .interval = C, .warmup = warm, .start = k * C - warm, .chunk = true};
}
