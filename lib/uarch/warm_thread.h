/* Functional warming's branch predictor, TLBs and caches below the L1s on
 * a thread of their own. Their states depend on nothing but what they
 * learn from, each in its own order (the control transfers; the pages
 * translated; the L1s' reads and write-backs, memsys_warm_defer), not on
 * the L1s nor on each other, and they cost warming a good part of its time
 * (TAGE hashes every conditional branch into all its tables). So a warming
 * run gathers them into a batch and hands it over, and goes on executing
 * and warming the L1s while this thread trains the predictor, the TLBs and
 * the levels below in the same orders: they end exactly as
 * bpred_warm_events, tlbs_warm and memsys_warm_below on each would leave
 * them. (The producer, while it waits for the thread, learns from the
 * pages of the batches queued itself: warm_thread.c.) */
#ifndef RV_UARCH_WARM_THREAD_H
#define RV_UARCH_WARM_THREAD_H

#include <string.h>

#include "uarch/bpred.h"
#include "uarch/memsys.h"
#include "uarch/stream_store.h"
#include "uarch/tlb.h"

enum { WARM_BATCH = 1024 /* control transfers, pages, and requests below the L1s handed over at a time at most */ };

/* What a warming run gathers for the thread: the control transfers, the
 * pages and the requests below the L1s of the batch it is writing, straight
 * into the thread's ring (see warm_batch_put_*; memsys writes `below`), and
 * how many of each so far. A page is its address with bit 0 set for an
 * instruction fetch (the I-TLB), clear for data. */
typedef struct warm_batch {
    bp_event *branch;
    uint64_t *page;
    int nbranch, npage;
    memsys_log below;
} warm_batch;

/* Add to w (not full). The thread reads the batch on another core, so the
 * stores stream (stream_store.h; that more than halved a warming run's time
 * spent handing over). An event is streamed as the two 64-bit words it is
 * built in: read as one 16-byte vector, it would first go through memory,
 * where the load waits for two stores it cannot be forwarded from (a tenth
 * of gzip's warming run). */
static inline void warm_batch_put_branch(warm_batch *w, const bp_event *e)
{
#if defined(__x86_64__)
    uint64_t word[2];
    memcpy(word, e, sizeof word);
    uint64_t *to = (uint64_t *)&w->branch[w->nbranch++];
    stream_store_u64(to, word[0]);
    stream_store_u64(to + 1, word[1]);
#else
    w->branch[w->nbranch++] = *e;
#endif
}

static inline void warm_batch_put_page(warm_batch *w, uint64_t page) { stream_store_u64(&w->page[w->npage++], page); }

/* Whether w's requests below the L1s may not have room for another
 * request's: hand it over first. */
static inline bool warm_batch_below_full(const warm_batch *w)
{
    return w->below.n > WARM_BATCH - MEMSYS_BELOW_PER_REQUEST;
}

static inline uint64_t warm_page(bool instr, uint64_t vaddr)
{
    return (vaddr >> TLB_PAGE_SHIFT << TLB_PAGE_SHIFT) | instr;
}

typedef struct warm_thread warm_thread;

/* Start a thread training b and t and warming m below the L1s, which
 * nothing else may touch until warm_thread_stop, but between a
 * warm_thread_drain and the next batch handed over, and open the first
 * batch in w; m's requests below the L1s are deferred to w until
 * warm_thread_stop. NULL when warming is to use one thread (OpenMP's
 * thread count is 1: OMP_NUM_THREADS=1, or one CPU available), runs in an
 * OpenMP team already (sim's regions in parallel) or no thread can be
 * made: then warm b, t and m directly. */
warm_thread *warm_thread_start(bpred *b, tlbs *t, memsys *m, warm_batch *w);

/* Hand over batch w (any part may be full, none more than full), in
 * order after those before, and open the next, empty, in w (waiting while
 * the thread is a ring of batches behind). */
void warm_thread_submit(warm_thread *t, warm_batch *w);

/* Hand over batch w, open the next, and wait until the thread has learnt from
 * everything handed over (but for the conditional branches the predictor
 * has not trained yet: bpred_warm_flush). b and t are then the caller's
 * until it hands over the next batch. */
void warm_thread_drain(warm_thread *t, warm_batch *w);

/* How many batches' pages the producer has learnt from while it waited
 * (for tests and measurements). */
uint64_t warm_thread_producer_pages(const warm_thread *t);

/* Hand over the last batch, wait until the predictor, the TLBs and the
 * levels below the L1s have learnt from all of it (the predictor flushed:
 * bpred_warm_flush), end the thread and make m's requests at once again. */
void warm_thread_stop(warm_thread *t, warm_batch *w);

#endif
