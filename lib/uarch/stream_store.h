/* A store for another core to read: where the host can, it streams past
 * this core's caches, for a plain store would first take the host cache
 * line back from the core that read it last. Make the stores visible
 * before publishing them (stream_store_fence, then the atomic count). */
#ifndef RV_UARCH_STREAM_STORE_H
#define RV_UARCH_STREAM_STORE_H

#include <stdint.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

static inline void stream_store_u64(uint64_t *to, uint64_t v)
{
#if defined(__x86_64__)
    _mm_stream_si64((long long *)to, (long long)v);
#else
    *to = v;
#endif
}

static inline void stream_store_fence(void)
{
#if defined(__x86_64__)
    _mm_sfence();
#endif
}

#endif
