/* Functional warming's branch predictor and TLBs on a thread of their own.
 * Their states depend on nothing but what they learn from, each in its own
 * order (the control transfers; the pages translated), not on the caches
 * nor on each other, and they cost warming a good part of its time (TAGE
 * hashes every conditional branch into all its tables). So a warming run
 * gathers them into a batch and hands it over, and goes on executing and
 * warming the caches while this thread trains the predictor and the TLBs in
 * the same orders: they end exactly as bpred_warm_event and tlbs_warm on
 * each would leave them. */
#ifndef RV_UARCH_WARM_THREAD_H
#define RV_UARCH_WARM_THREAD_H

#include <stdalign.h>

#include "uarch/bpred.h"
#include "uarch/tlb.h"

enum { WARM_BATCH = 256 /* control transfers, and pages, handed over at a time at most */ };

/* What a warming run gathers for the thread, and the thread reads. A page
 * is its address with bit 0 set for an instruction fetch (the I-TLB), clear
 * for data. */
typedef struct warm_batch {
    int nbranch, npage;
    alignas(64) bp_event branch[WARM_BATCH]; /* host cache lines of their own */
    alignas(64) uint64_t page[WARM_BATCH];
} warm_batch;

static inline uint64_t warm_page(bool instr, uint64_t vaddr)
{
    return (vaddr >> TLB_PAGE_SHIFT << TLB_PAGE_SHIFT) | instr;
}

typedef struct warm_thread warm_thread;

/* Start a thread training b and t, which nothing else may touch until
 * warm_thread_stop, but between a warm_thread_drain and the next batch
 * handed over. NULL when warming is to use one thread (OpenMP's
 * thread count is 1: OMP_NUM_THREADS=1, or one CPU available), runs in an
 * OpenMP team already (sim's regions in parallel) or no thread can be
 * made: then warm b and t directly. */
warm_thread *warm_thread_start(bpred *b, tlbs *t);

/* Hand over batch w (either part may be full, neither more than full), in
 * order after those before, and empty it (waiting while the thread is a
 * ring of batches behind). */
void warm_thread_submit(warm_thread *t, warm_batch *w);

/* Hand over batch w, empty it, and wait until the thread has learnt from
 * everything handed over (but for the conditional branches the predictor
 * has not trained yet: bpred_warm_flush). b and t are then the caller's
 * until it hands over the next batch. */
void warm_thread_drain(warm_thread *t, warm_batch *w);

/* Hand over the last batch, wait until the predictor and the TLBs have
 * learnt from all of it (the predictor flushed: bpred_warm_flush) and end
 * the thread. */
void warm_thread_stop(warm_thread *t, warm_batch *w);

#endif
