/* bbv --proxy: basic-block vectors and per-interval proxy metrics in one
 * pass over the fast path. The functional warming model (uarch_warmer, as
 * checkpoint --warm warms it) is a client of bbv_profile_run: it sees
 * every block with the memory accesses and branch outcome the block noted,
 * while the .bb files come from the same counting as plain bbv's. The run
 * stops exactly at every interval boundary, where the model is brought up
 * to date and its counters are read. */
#ifndef RV_PROXY_RUN_H
#define RV_PROXY_RUN_H

#include "bbv_profile.h"
#include "proxy.h"

typedef struct proxy_run {
    uarch u;
    proxy_penalties pen;
    uarch_warmer *warmer;              /* while proxy_run_go runs */
    outfile *outs[BBV_MAX_SIZES];      /* per series, NULL: none */
    proxy_counts last[BBV_MAX_SIZES];  /* the counters where the series' interval began */
    uint64_t ops[CLS_COUNT];           /* retired instructions per timing class, since the start */
    proxy_exposure exposure;           /* the long operations' exposed latency, since the start */
} proxy_run;

/* outs[i] is the .proxy file of bp's series i; headers are written here,
 * and r becomes bp's client. */
void proxy_run_init(proxy_run *r, bbv_profile *bp, const uarch_config *c, const char *config_name,
                    outfile *const *outs);
/* bbv_profile_run with the warming model: p to its end or `limit`
 * instructions. The last, partial interval's line is written by
 * bbv_profile_finish (free r after it). */
enum rv_run_result proxy_run_go(proxy_run *r, bbv_profile *bp, rv_proc *p, uint64_t limit);
void proxy_run_free(proxy_run *r);

#endif
