#include "proxy_run.h"

#include <string.h>

static void warm(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    (void)start;
    proxy_run *r = ctx;
    uarch_warm_block(&r->u, r->p, &r->trace, b, first, executed);
}

/* An interval of series i ended: its events are the counters' growth. */
static void closed(void *ctx, int i, uint64_t index, uint64_t retired)
{
    proxy_run *r = ctx;
    proxy_counts now;
    uarch_warm_flush(&r->u);
    proxy_counts_read(&r->u, retired, &now);
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
    for (int i = 0; i < bp->nseries; i++) {
        r->outs[i] = outs[i];
        r->last[i].insts = bp->retired;
        if (outs[i])
            proxy_write_header(outs[i], config_name, c, bp->series[i].size);
    }
    bbv_profile_attach(bp, &(bbv_client){.block = warm, .closed = closed, .ctx = r});
}

enum rv_run_result proxy_run_go(proxy_run *r, bbv_profile *bp, rv_proc *p, uint64_t limit)
{
    r->p = p;
    p->trace = &r->trace;
    enum rv_run_result res = bbv_profile_run(bp, p, limit);
    p->trace = NULL;
    return res;
}

void proxy_run_free(proxy_run *r)
{
    uarch_destroy(&r->u);
    memset(r, 0, sizeof *r);
}
