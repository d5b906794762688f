/* Functional warming's model on a thread besides the warming run's. The
 * branch predictor, the TLBs and the caches depend on nothing but what
 * they learn from, each in its own order (the control transfers; the
 * pages translated; the requests of the L1s, and the reads and write-backs
 * those make below them), not on each other, but for the levels below the
 * L1s on the L1s' misses; and they cost warming most of its time (TAGE
 * hashes every conditional branch into all its tables). So a warming run
 * gathers them into a batch and hands it over, and goes on executing while
 * the model learns from the batches in the same orders: it ends exactly
 * as bpred_warm_events, tlbs_warm and memsys_warm_requests then
 * memsys_warm_below would leave it. The run filters the requests of the
 * L1s that would only be counted (memsys_mru_view) and counts those
 * itself. The thread learns from everything, but for what the run learns
 * from while it waits for the thread: the L1s' requests and the pages of
 * the batches queued, and everything while the thread seems to be off its
 * CPU (warm_thread.c). */
#ifndef RV_UARCH_WARM_THREAD_H
#define RV_UARCH_WARM_THREAD_H

#include <string.h>

#include "uarch/bpred.h"
#include "uarch/memsys.h"
#include "uarch/stream_store.h"
#include "uarch/tlb.h"

enum { WARM_BATCH = 1024 /* control transfers, pages, and requests of the L1s handed over at a time at most */ };

/* What a warming run gathers for the thread: the control transfers, the
 * pages and the requests of the L1s (memsys_warm_request) of the batch it
 * is writing, straight into the thread's ring (see warm_batch_put_*), and
 * how many of each so far. A page is its address with bit 0 set for an
 * instruction fetch (the I-TLB), clear for data. plain: a batch the run
 * learns from itself (no thread), written with plain stores. */
typedef struct warm_batch {
    bp_event *branch;
    uint64_t *page, *request;
    int nbranch, npage, nrequest;
    bool plain;
} warm_batch;

/* A word of w: the thread reads the batch on another core, so the stores
 * stream (stream_store.h; that more than halved a warming run's time spent
 * handing over); a batch learnt from on this core (plain) is read back
 * from this core's caches. */
static inline void warm_batch_store(const warm_batch *w, uint64_t *to, uint64_t v)
{
    if (w->plain)
        *to = v;
    else
        stream_store_u64(to, v);
}

/* Add to w (not full). An event is stored as the two 64-bit words it is
 * built in: read as one 16-byte vector, it would first go through memory,
 * where the load waits for two stores it cannot be forwarded from (a tenth
 * of gzip's warming run). */
static inline void warm_batch_put_branch(warm_batch *w, const bp_event *e)
{
    uint64_t word[2];
    memcpy(word, e, sizeof word);
    uint64_t *to = (uint64_t *)&w->branch[w->nbranch++];
    warm_batch_store(w, to, word[0]);
    warm_batch_store(w, to + 1, word[1]);
}

static inline void warm_batch_put_page(warm_batch *w, uint64_t page) { warm_batch_store(w, &w->page[w->npage++], page); }
static inline void warm_batch_put_request(warm_batch *w, uint64_t request)
{
    warm_batch_store(w, &w->request[w->nrequest++], request);
}

static inline uint64_t warm_page(bool instr, uint64_t vaddr)
{
    return (vaddr >> TLB_PAGE_SHIFT << TLB_PAGE_SHIFT) | instr;
}

typedef struct warm_thread warm_thread;

/* Start a thread training b and t and warming m, which nothing else may
 * touch until warm_thread_stop, but between a warm_thread_drain and the
 * next batch handed over, and open the first batch in w. NULL when warming
 * is to use one thread (OpenMP's thread count is 1: OMP_NUM_THREADS=1, or
 * one CPU available), runs in an OpenMP team already (sim's regions in
 * parallel) or no thread can be made: then warm b, t and m directly. */
warm_thread *warm_thread_start(bpred *b, tlbs *t, memsys *m, warm_batch *w);

/* Hand over batch w (any part may be full, none more than full), in
 * order after those before, and open the next, empty, in w (waiting while
 * the thread is a ring of batches behind). */
void warm_thread_submit(warm_thread *t, warm_batch *w);

/* Hand over batch w, open the next, and wait until the model has learnt
 * from everything handed over (but for the conditional branches the
 * predictor has not trained yet: bpred_warm_flush). b, t and m are then
 * the caller's until it hands over the next batch. */
void warm_thread_drain(warm_thread *t, warm_batch *w);

/* How many batches' requests of the L1s, and pages, the producer has
 * learnt from while it waited, and their requests below the L1s and
 * branches, which it learns from only while the thread seems to be off its
 * CPU (for tests and measurements). */
uint64_t warm_thread_producer_requests(const warm_thread *t);
uint64_t warm_thread_producer_pages(const warm_thread *t);
uint64_t warm_thread_producer_all(const warm_thread *t);

/* Hand over the last batch, wait until the model has learnt from all of it
 * (the predictor flushed: bpred_warm_flush) and end the thread. */
void warm_thread_stop(warm_thread *t, warm_batch *w);

#endif
