/* warm_model: the warming model's stages alone, on the requests of a
 * pointer chase (bench/warm_model.sh builds and runs it). A random cycle
 * over NODES 64-byte lines, as workloads/ptr_chase.c links its nodes, gives
 * one load a line; chunks of 1024 of them are made as the warming thread
 * makes a chunk (lib/uarch/warm_thread.c): the requests of the L1s
 * (memsys_warm_requests, logging what they need below), those below the L1s
 * (memsys_warm_below), and a D-TLB translation each (tlbs_warm). Each stage
 * of each chunk is timed; a chunk's figure is its fastest over the passes
 * (the model's state is the same from pass to pass, statistically), so that
 * a busy host's interruptions drop out. Prints nanoseconds per request by
 * stage, and the requests below the L1s per request.
 *
 * Usage: warm_model [NODES [PASSES [CHUNKS]]]   (default 16384 (1 MB) 15 400) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "uarch/config.h"
#include "uarch/memsys.h"
#include "uarch/tlb.h"

enum { CHUNK = 1024 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void keep_fastest(double *best, double t)
{
    if (t < *best) *best = t;
}

int main(int argc, char **argv)
{
    int nodes = argc > 1 ? atoi(argv[1]) : 16384, passes = argc > 2 ? atoi(argv[2]) : 15,
        chunks = argc > 3 ? atoi(argv[3]) : 400;
    if (nodes < 2 || passes < 1 || chunks < 1) {
        fprintf(stderr, "warm_model: usage: warm_model [NODES >= 2 [PASSES >= 1 [CHUNKS >= 1]]]\n");
        return 2;
    }
    uarch_config c;
    uarch_config_defaults(&c);
    memsys *m = memsys_new(&c);
    tlbs *t = tlbs_new(&c);
    uint32_t *next = malloc((size_t)nodes * sizeof *next), *perm = malloc((size_t)nodes * sizeof *perm);
    double *best = malloc((size_t)chunks * 3 * sizeof *best);
    if (!next || !perm || !best) {
        fprintf(stderr, "warm_model: out of memory\n");
        return 2;
    }
    /* Sattolo's shuffle: one cycle through every node */
    uint64_t rng = 7;
    for (int i = 0; i < nodes; i++) perm[i] = (uint32_t)i;
    for (int i = nodes - 1; i > 0; i--) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((rng >> 33) % (uint64_t)i);
        uint32_t x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    for (int i = 0; i < nodes; i++) next[perm[i]] = perm[(i + 1) % nodes];
    for (int k = 0; k < chunks * 3; k++) best[k] = 1e9;

    static uint64_t req[CHUNK], below[CHUNK * MEMSYS_BELOW_PER_REQUEST];
    const uint64_t base = 0x20000000;
    uint32_t p = 0;
    for (int pass = 0; pass < passes; pass++)
        for (int k = 0; k < chunks; k++) {
            for (int i = 0; i < CHUNK; i++, p = next[p]) req[i] = memsys_warm_request(MEMSYS_LOAD, base + (uint64_t)p * 64 + 8);
            memsys_log log = {.event = below, .plain = true};
            double t0 = now();
            memsys_warm_requests(m, req, CHUNK, &log);
            double t1 = now();
            memsys_warm_below(m, below, log.n);
            double t2 = now();
            for (int i = 0; i < CHUNK; i++) tlbs_warm(t, false, req[i]);
            double t3 = now();
            keep_fastest(&best[3 * k], t1 - t0);
            keep_fastest(&best[3 * k + 1], t2 - t1);
            keep_fastest(&best[3 * k + 2], t3 - t2);
        }
    double sum[3] = {0, 0, 0}, n = (double)chunks * CHUNK;
    for (int k = 0; k < chunks * 3; k++) sum[k % 3] += best[k];
    const memsys_stats *s = memsys_get_stats(m);
    double all = n * passes;
    printf("ns per request: L1s %.2f, below the L1s %.2f, D-TLB %.2f (per request: L2 accesses %.2f, misses %.2f; "
           "LLC accesses %.2f)\n",
           sum[0] / n * 1e9, sum[1] / n * 1e9, sum[2] / n * 1e9, (double)s->l2_accesses / all,
           (double)s->l2_misses / all, (double)s->llc_accesses / all);
    memsys_free(m);
    tlbs_free(t);
    free(next);
    free(perm);
    free(best);
    return 0;
}
