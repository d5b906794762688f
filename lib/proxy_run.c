#include "proxy_run.h"

#include <string.h>

static void warm(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    proxy_run *r = ctx;
    uarch_warmer_block(r->warmer, b, first, start, executed);
    proxy_count_ops(r->ops, &r->exposure, b, first, executed);
}

/* An interval of series i ended: its events are the counters' growth. */
static void closed(void *ctx, int i, uint64_t index, uint64_t retired)
{
    proxy_run *r = ctx;
    proxy_counts now;
    if (r->warmer) uarch_warmer_sync(r->warmer); /* else the run is over: up to date */
    proxy_counts_read(&r->u, retired, r->ops, &now);
    now.exposed = r->exposure.stalled;
    proxy_counts c = proxy_counts_sub(&now, &r->last[i]);
    if (r->outs[i])
        proxy_write_line(r->outs[i], index, &c, &r->pen);
    r->last[i] = now;
}

void proxy_run_init(proxy_run *r, bbv_profile *bp, const uarch_config *c, const char *config_name,
                    outfile *const *outs)
{
    memset(r, 0, sizeof *r);
    uarch_init(&r->u, c);
    proxy_penalties_of(c, &r->pen);
    proxy_exposure_init(&r->exposure, c);
    for (int i = 0; i < bp->nseries; i++) {
        r->outs[i] = outs[i];
        r->last[i].insts = bp->retired;
        if (outs[i])
            proxy_write_header(outs[i], config_name, c, bp->series[i].size);
    }
    bbv_profile_attach(bp, &(bbv_client){.block = warm, .closed = closed, .ctx = r});
}

/* The shortest intervals worth the warming thread. On sort (bbv --proxy,
 * 2 cores) it took 1.7x less time than one thread with intervals of 1M
 * and 1.4x with 100k, but 1.3x more with 10k. */
enum { THREAD_MIN_INTERVAL = 100000 };

enum rv_run_result proxy_run_go(proxy_run *r, bbv_profile *bp, rv_proc *p, uint64_t limit)
{
    /* A thread for the predictor, TLBs, L2 and LLC, as a long warming run has,
     * unless intervals are short: the model is brought up to date at the
     * end of each, waiting for the thread (THREAD_MIN_INTERVAL). */
    uint64_t shortest = UINT64_MAX;
    for (int i = 0; i < bp->nseries; i++)
        if (bp->series[i].size < shortest) shortest = bp->series[i].size;
    r->warmer = uarch_warmer_new(&r->u, p, shortest >= THREAD_MIN_INTERVAL);
    enum rv_run_result res = bbv_profile_run(bp, p, limit);
    uarch_warmer_free(r->warmer);
    r->warmer = NULL;
    return res;
}

void proxy_run_free(proxy_run *r)
{
    uarch_destroy(&r->u);
    memset(r, 0, sizeof *r);
}
