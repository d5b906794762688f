/* Functional warming's branch predictor and TLBs on a thread of their own.
 * Their states depend on nothing but what they learn from, each in its own
 * order (the control transfers; the pages translated), not on the caches
 * nor on each other, and they cost warming a good part of its time (TAGE
 * hashes every conditional branch into all its tables). So a warming run
 * gathers them into a batch and hands it over, and goes on executing and
 * warming the caches while this thread trains the predictor and the TLBs in
 * the same orders: they end exactly as bpred_warm_events and tlbs_warm on
 * each would leave them. */
#ifndef RV_UARCH_WARM_THREAD_H
#define RV_UARCH_WARM_THREAD_H

#include <string.h>

#include "uarch/bpred.h"
#include "uarch/tlb.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

enum { WARM_BATCH = 1024 /* control transfers, and pages, handed over at a time at most */ };

/* What a warming run gathers for the thread: the control transfers and the
 * pages of the batch it is writing, straight into the thread's ring (see
 * warm_batch_put_*), and how many of each so far. A page is its address
 * with bit 0 set for an instruction fetch (the I-TLB), clear for data. */
typedef struct warm_batch {
    bp_event *branch;
    uint64_t *page;
    int nbranch, npage;
} warm_batch;

/* Add to w (not full). The thread reads the batch on another core: the
 * stores stream past this core's caches where the host can, for a plain
 * store would first take each host cache line back from that core (which
 * more than doubled a warming run's time spent handing over). An event is
 * streamed as the two 64-bit words it is built in: read as one 16-byte
 * vector, it would first go through memory, where the load waits for two
 * stores it cannot be forwarded from (a tenth of gzip's warming run). */
static inline void warm_batch_put_branch(warm_batch *w, const bp_event *e)
{
#if defined(__x86_64__)
    long long word[2];
    memcpy(word, e, sizeof word);
    long long *to = (long long *)&w->branch[w->nbranch++];
    _mm_stream_si64(to, word[0]);
    _mm_stream_si64(to + 1, word[1]);
#else
    w->branch[w->nbranch++] = *e;
#endif
}

static inline void warm_batch_put_page(warm_batch *w, uint64_t page)
{
#if defined(__x86_64__)
    _mm_stream_si64((long long *)&w->page[w->npage++], (long long)page);
#else
    w->page[w->npage++] = page;
#endif
}

static inline uint64_t warm_page(bool instr, uint64_t vaddr)
{
    return (vaddr >> TLB_PAGE_SHIFT << TLB_PAGE_SHIFT) | instr;
}

typedef struct warm_thread warm_thread;

/* Start a thread training b and t, which nothing else may touch until
 * warm_thread_stop, but between a warm_thread_drain and the next batch
 * handed over, and open the first batch in w. NULL when warming is to use
 * one thread (OpenMP's thread count is 1: OMP_NUM_THREADS=1, or one CPU
 * available), runs in an OpenMP team already (sim's regions in parallel)
 * or no thread can be made: then warm b and t directly. */
warm_thread *warm_thread_start(bpred *b, tlbs *t, warm_batch *w);

/* Hand over batch w (either part may be full, neither more than full), in
 * order after those before, and open the next, empty, in w (waiting while
 * the thread is a ring of batches behind). */
void warm_thread_submit(warm_thread *t, warm_batch *w);

/* Hand over batch w, open the next, and wait until the thread has learnt from
 * everything handed over (but for the conditional branches the predictor
 * has not trained yet: bpred_warm_flush). b and t are then the caller's
 * until it hands over the next batch. */
void warm_thread_drain(warm_thread *t, warm_batch *w);

/* Hand over the last batch, wait until the predictor and the TLBs have
 * learnt from all of it (the predictor flushed: bpred_warm_flush) and end
 * the thread. */
void warm_thread_stop(warm_thread *t, warm_batch *w);

#endif
