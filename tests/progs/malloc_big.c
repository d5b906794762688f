/* malloc_big: large blocks (above the mmap threshold), realloc growth
 * (mremap for mmapped chunks), calloc zeroing, many small allocations,
 * brk growth.  Prints only checks and content checksums. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *yes(int c)
{
    return c ? "yes" : "no";
}

static uint64_t sum_bytes(const unsigned char *p, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i += 4093)
        s = s * 131 + p[i];
    return s;
}

int main(void)
{
    /* 1. one large block, touched on every page */
    size_t big = 8u << 20;
    unsigned char *p = malloc(big);
    printf("malloc 8 MiB: %s\n", yes(p != NULL));
    for (size_t i = 0; i < big; i += 4096)
        p[i] = (unsigned char)(i >> 12);
    uint64_t pages = 0;
    for (size_t i = 0; i < big; i += 4096)
        pages = pages * 131 + p[i];
    printf("8 MiB page checksum: %016llx, untouched bytes zero: %s\n",
           (unsigned long long)pages, yes(sum_bytes(p + 1, big - 4096) == 0));

    /* 2. realloc growth of a large block: contents kept (mremap path) */
    size_t n = 1u << 20;
    unsigned char *q = malloc(n);
    for (size_t i = 0; i < n; i++)
        q[i] = (unsigned char)(i * 7);
    int kept = 1;
    for (int step = 0; step < 5; step++) {
        size_t m = n * 2;
        q = realloc(q, m);
        if (!q) {
            printf("realloc failed\n");
            return 1;
        }
        for (size_t i = 0; i < n; i += 997)
            if (q[i] != (unsigned char)(i * 7))
                kept = 0;
        for (size_t i = n; i < m; i++)
            q[i] = (unsigned char)(i * 7);
        n = m;
    }
    printf("realloc 1 MiB -> %zu MiB keeps contents: %s\n", n >> 20, yes(kept));
    q = realloc(q, 4096);                    /* shrink */
    printf("realloc shrink keeps prefix: %s\n", yes(q && q[4095] == (unsigned char)(4095 * 7)));
    free(q);

    /* 3. calloc returns zeroed memory, also after a free of dirty memory */
    free(p);
    int zero = 1;
    for (int round = 0; round < 3; round++) {
        unsigned char *c = calloc(1, 3u << 20);
        for (size_t i = 0; i < (3u << 20); i += 511)
            if (c[i])
                zero = 0;
        memset(c, 0xab, 3u << 20);
        free(c);
        unsigned char *s = calloc(1000, 40);      /* small, from the heap */
        for (size_t i = 0; i < 40000; i++)
            if (s[i])
                zero = 0;
        memset(s, 0xcd, 40000);
        free(s);
    }
    printf("calloc zeroed: %s\n", yes(zero));

    /* 4. many small allocations of varied sizes, freed in a shuffled order */
    enum { K = 20000 };
    static void *ptrs[K];
    uint64_t st = 1;
    int ok = 1;
    for (int i = 0; i < K; i++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t sz = 1 + (st >> 33) % 300;
        ptrs[i] = malloc(sz);
        if (!ptrs[i])
            ok = 0;
        else
            memset(ptrs[i], i & 0xff, sz);
    }
    for (int i = 0; i < K; i++)
        if (ptrs[i] && *(unsigned char *)ptrs[i] != (i & 0xff))
            ok = 0;
    for (int i = 0; i < K; i += 2)
        free(ptrs[i]);
    for (int i = 0; i < K; i += 2)
        ptrs[i] = malloc(64);
    for (int i = K - 1; i >= 0; i--)
        free(ptrs[i]);
    printf("20000 small allocations: %s\n", yes(ok));

    /* 5. aligned allocation */
    void *a = aligned_alloc(65536, 1u << 20);
    printf("aligned_alloc 64 KiB alignment: %s\n", yes(a && ((uintptr_t)a & 65535) == 0));
    free(a);
    void *m;
    printf("posix_memalign 4096: %s\n",
           yes(posix_memalign(&m, 4096, 100) == 0 && ((uintptr_t)m & 4095) == 0));
    free(m);

    /* 6. huge request fails cleanly */
    void *h = malloc((size_t)1 << 62);
    printf("malloc 2^62 fails: %s\n", yes(h == NULL));
    return 0;
}
