/* The warmable micro-architectural state of one core: caches, TLBs and
 * branch predictors, built from a configuration. The detailed core times
 * accesses through it; functional warming feeds it from the fast path
 * (uarch_warm_run: translated blocks and the memory accesses they note) or
 * from the stepping path (uarch_warm) at a fraction of the detailed cost,
 * and a warm checkpoint stores it. */
#ifndef RV_UARCH_H
#define RV_UARCH_H

#include "exec/exec.h"
#include "uarch/bpred.h"
#include "uarch/config.h"
#include "uarch/memsys.h"
#include "uarch/tlb.h"

typedef struct uarch {
    uarch_config cfg;
    memsys *mem;
    tlbs *tlb;
    bpred *bp;
    uint64_t fetch_block; /* last fetch block warmed, so a block costs one I-side access */
    unsigned fetch_bytes; /* a fetch block: 2 bytes per instruction of the fetch width */
    int fetch_shift;      /* log2(fetch_bytes), or -1 when that is not a power of two */
    unsigned line_shift;  /* log2(cache line size) */
    bool fetch_in_lines;  /* fetch blocks are a power of two >= 4 bytes, no bigger than a line */
} uarch;

void uarch_init(uarch *u, const uarch_config *c);
void uarch_destroy(uarch *u);

/* Update caches, TLBs and predictors for one executed instruction. */
void uarch_warm(uarch *u, const rv_dyninst *d);

/* Run the process to icount == limit (or its end) on the fast path,
 * warming all the way exactly as uarch_warm on every instruction would.
 * A run of a million instructions or more trains the branch predictor, the
 * TLBs and the caches below the L1s on a second thread (warm_thread.h),
 * done when this returns.
 * Returns the instructions executed. */
uint64_t uarch_warm_run(uarch *u, rv_proc *p, uint64_t limit);

/* The same warming from a run of one's own (bbv --proxy), which calls
 * uarch_warmer_block from its block hook. While the warmer lives it owns
 * p->trace and u, which is up to date (statistics included) only after
 * uarch_warmer_sync, until the next block. thread: whether the branch
 * predictor, the TLBs and the caches below the L1s may train on a second
 * thread (a long run). */
typedef struct uarch_warmer uarch_warmer;
uarch_warmer *uarch_warmer_new(uarch *u, rv_proc *p, bool thread);
void uarch_warmer_block(void *warmer, rv_block *b, uint32_t first, uint64_t start_icount, uint32_t executed);
void uarch_warmer_sync(uarch_warmer *w);
/* Leaves u up to date and p->trace NULL. */
void uarch_warmer_free(uarch_warmer *w);

/* Warm state with the configuration digest in front: restore fails (false,
 * with a reason) when the digest or any geometry differs. */
void uarch_save(const uarch *u, ustate *s);
bool uarch_restore(uarch *u, ustate *s, char *err, size_t errlen);

#endif
