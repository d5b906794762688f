/* bbv --proxy: basic-block vectors and per-interval proxy metrics in one
 * pass over the stepping path (rv_step_many), every instruction also
 * feeding the functional warming model (uarch_warm).
 *
 * The .bb files are the ones bbv_profile_run writes on the fast path, byte
 * for byte: blocks are cut where the decoder cuts them (after a control
 * transfer or a block-ending instruction, at RV_BLOCK_MAX_INSNS, and where
 * a signal handler starts or a fault interrupts), and ids are given in the
 * fast path's order: a block executed whole gets its id when the run stops
 * at the next interval boundary (or progress point) or drops its decoded
 * code (fence.i, a system call that changes executable memory), in order of
 * first execution; a block first executed in part (cut by a boundary, a
 * fault or a handler) gets it at once. Known limit: the riscv_flush_icache
 * system call also drops decoded code, unseen here (ids may then come in
 * another order; tests/e2e/bbv_proxy.sh compares the two paths). */
#ifndef RV_PROXY_RUN_H
#define RV_PROXY_RUN_H

#include <stdbool.h>

#include "bbv_profile.h"
#include "proxy.h"

typedef struct proxy_pending {
    uint64_t pc;
    uint32_t len;
    uint64_t count;
} proxy_pending;

enum { PROXY_LEN_CACHE = 4096 };
typedef struct proxy_len_entry {
    uint64_t pc;
    uint32_t len;
} proxy_len_entry;

typedef struct proxy_run {
    bbv_profile *bp;
    const rv_proc *p;
    uarch u;
    proxy_penalties pen;
    outfile *outs[BBV_MAX_SIZES];   /* per series, NULL: none */
    proxy_counts last[BBV_MAX_SIZES];
    uint64_t index[BBV_MAX_SIZES];  /* lines written */
    /* the block executing */
    bool in_block, whole;
    uint64_t blk_pc, next_pc;
    uint32_t len, unreported;
    /* blocks without an id executed whole since the last boundary */
    proxy_pending *pending;
    size_t npending, cap;
    uint32_t *slot;                 /* open addressing: pending index + 1 */
    uint32_t mask;
    /* decoded block lengths by start pc, valid while the code is unchanged */
    proxy_len_entry len_cache[PROXY_LEN_CACHE];
    uint64_t len_changes, fences;
} proxy_run;

/* outs[i] is the .proxy file of bp's series i; headers are written here. */
void proxy_run_init(proxy_run *r, bbv_profile *bp, const uarch_config *c, const char *config_name,
                    outfile *const *outs);
/* Run p to its end or `limit` instructions, profiling and warming. */
enum rv_run_result proxy_run_go(proxy_run *r, rv_proc *p, uint64_t limit);
/* The last, partial interval's line (unless drop_partial); call before bbv_profile_finish. */
void proxy_run_finish(proxy_run *r, bool drop_partial);
void proxy_run_free(proxy_run *r);

#endif
