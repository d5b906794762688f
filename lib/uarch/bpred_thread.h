/* Functional warming's branch predictor on a thread of its own. The
 * predictor's state depends on nothing but the control transfers it learns
 * from, in order, and costs warming more than the caches do (TAGE hashes
 * every conditional branch into all its tables). So a warming run hands the
 * transfers over a chunk at a time and goes on executing and warming the
 * caches, while this thread trains the predictor with them in the same
 * order: it ends exactly as bpred_warm_event on each would leave it. */
#ifndef RV_UARCH_BPRED_THREAD_H
#define RV_UARCH_BPRED_THREAD_H

#include "uarch/bpred.h"

enum { BPRED_CHUNK = 256 /* events handed over at a time */ };

typedef struct bpred_thread bpred_thread;

/* Start a thread training b, which nothing else may touch until
 * bpred_thread_stop. NULL when warming is to use one thread (OpenMP's
 * thread count is 1: OMP_NUM_THREADS=1, or one CPU available), runs in an
 * OpenMP team already (sim's regions in parallel) or no thread can be
 * made: then train b directly. */
bpred_thread *bpred_thread_start(bpred *b);

/* Hand over n (<= BPRED_CHUNK) events, in order after those before
 * (waiting while the thread is a ring of chunks behind). */
void bpred_thread_submit(bpred_thread *t, const bp_event *e, int n);

/* Hand over the last n events, wait until b has learnt from all of them
 * (flushed: bpred_warm_flush) and end the thread. */
void bpred_thread_stop(bpred_thread *t, const bp_event *e, int n);

#endif
