#include "uarch/warm_thread.h"

#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/* A ring of chunks (batches, as the thread reads them) between the warming
 * run (the producer) and the thread. Each side counts the chunks it has
 * finished with since the start; the producer writes chunk k to
 * ring[k % RING] once the thread is done with chunk k - RING. Waiting spins
 * a little and then sleeps on a condition variable. The producer, the
 * warming run itself, spins longer; the thread, usually the faster side,
 * soon sleeps, and the producer wakes it only once half the ring is full,
 * so that it sleeps (and wakes) once per half a ring rather than per chunk. */
enum { RING = 32, PRODUCER_SPINS = 4000, THREAD_SPINS = 200 };

typedef struct chunk {
    warm_batch batch;
    bool last; /* the run's last chunk: flush and end */
} chunk;

struct warm_thread {
    bpred *bp;
    tlbs *tlb;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    /* each written by one side, on its own host cache line */
    alignas(64) _Atomic uint32_t submitted; /* chunks handed over */
    alignas(64) _Atomic uint32_t trained;   /* chunks learnt from */
    alignas(64) _Atomic int sleepers;       /* sides asleep on `wake` */
    chunk ring[RING];
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__)
    _mm_pause();
#endif
}

/* Copy n bytes to a chunk (to, 16-byte aligned). Streamed past the host's
 * caches where the host can: the thread reads the chunk on another core,
 * and a plain store would first take each line back from that core's cache
 * (which more than doubled the producer's time). */
static void stream(void *to, const void *from, size_t n)
{
#if defined(__x86_64__)
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_stream_si128((__m128i *)((char *)to + i), _mm_loadu_si128((const __m128i *)((const char *)from + i)));
    memcpy((char *)to + i, (const char *)from + i, n - i);
#else
    memcpy(to, from, n);
#endif
}

static void copy_batch(warm_batch *to, const warm_batch *w)
{
    stream(to->branch, w->branch, (size_t)w->nbranch * sizeof *w->branch);
    stream(to->page, w->page, (size_t)w->npage * sizeof *w->page);
#if defined(__x86_64__)
    _mm_sfence(); /* the streamed stores before the count that publishes them */
#endif
    to->nbranch = w->nbranch;
    to->npage = w->npage;
}

/* Wait until *count is no longer `seen`; returns its new value. A side
 * about to sleep counts itself in `sleepers` before its last look, and
 * advance() looks at `sleepers` after its update (both sequentially
 * consistent), so one of them always sees the other. */
static uint32_t wait_for_change(warm_thread *t, _Atomic uint32_t *count, uint32_t seen, int spins)
{
    uint32_t now;
    for (int i = 0; i < spins; i++) {
        if ((now = atomic_load_explicit(count, memory_order_acquire)) != seen) return now;
        cpu_relax();
    }
    pthread_mutex_lock(&t->lock);
    atomic_fetch_add(&t->sleepers, 1);
    while ((now = atomic_load(count)) == seen) pthread_cond_wait(&t->wake, &t->lock);
    atomic_fetch_sub(&t->sleepers, 1);
    pthread_mutex_unlock(&t->lock);
    return now;
}

/* One more chunk finished with on this side (count is this side's); wake:
 * whether to wake the other side if it sleeps. */
static void advance(warm_thread *t, _Atomic uint32_t *count, bool wake)
{
    atomic_fetch_add(count, 1);
    if (wake && atomic_load(&t->sleepers)) {
        pthread_mutex_lock(&t->lock);
        pthread_cond_broadcast(&t->wake);
        pthread_mutex_unlock(&t->lock);
    }
}

static void *train(void *arg)
{
    warm_thread *t = arg;
    for (uint32_t next = 0;; next++) {
        if (atomic_load_explicit(&t->submitted, memory_order_acquire) == next)
            wait_for_change(t, &t->submitted, next, THREAD_SPINS);
        const chunk *c = &t->ring[next % RING];
        const warm_batch *w = &c->batch;
        for (int i = 0, n = w->npage; i < n; i++) tlbs_warm(t->tlb, w->page[i] & 1, w->page[i]);
        for (int i = 0, n = w->nbranch; i < n; i++) bpred_warm_event(t->bp, &w->branch[i]);
        if (c->last) {
            bpred_warm_flush(t->bp);
            return NULL; /* pthread_join makes all this visible to the producer */
        }
        advance(t, &t->trained, true);
    }
}

warm_thread *warm_thread_start(bpred *b, tlbs *tlb)
{
    /* one thread allowed, or already one of several (sim's regions) */
    if (omp_get_max_threads() < 2 || omp_in_parallel()) return NULL;
    warm_thread *t = aligned_alloc(alignof(warm_thread), sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    t->bp = b;
    t->tlb = tlb;
    /* Signals are the guest's business and the main thread's: the thread takes none. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    bool made = pthread_mutex_init(&t->lock, NULL) == 0 && pthread_cond_init(&t->wake, NULL) == 0 &&
                pthread_create(&t->thread, NULL, train, t) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!made) {
        free(t); /* on Linux a mutex and a condition variable hold nothing to destroy */
        return NULL;
    }
    pthread_setname_np(t->thread, "rv-warm"); /* as top and perf show it */
    return t;
}

/* (The producer) wait until the thread has learnt from all the first k
 * chunks but at most `behind`; returns how many it has learnt from. */
static uint32_t wait_trained(warm_thread *t, uint32_t k, uint32_t behind)
{
    uint32_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
    while (k - trained > behind) trained = wait_for_change(t, &t->trained, trained, PRODUCER_SPINS);
    return trained;
}

/* Hand over batch w as the next chunk, the last or not, and empty it;
 * wake: wake the thread whatever is pending (someone will wait for it). */
static void hand_over(warm_thread *t, warm_batch *w, bool last, bool wake)
{
    uint32_t k = atomic_load_explicit(&t->submitted, memory_order_relaxed);
    uint32_t trained = wait_trained(t, k, RING - 1); /* chunk k - RING's slot is free */
    chunk *c = &t->ring[k % RING];
    copy_batch(&c->batch, w);
    c->last = last;
    /* trained may be behind: the chunks pending are at most this many */
    advance(t, &t->submitted, wake || k + 1 - trained >= RING / 2);
    w->nbranch = w->npage = 0;
}

void warm_thread_submit(warm_thread *t, warm_batch *w) { hand_over(t, w, false, false); }

void warm_thread_drain(warm_thread *t, warm_batch *w)
{
    hand_over(t, w, false, true);
    wait_trained(t, atomic_load_explicit(&t->submitted, memory_order_relaxed), 0);
}

void warm_thread_stop(warm_thread *t, warm_batch *w)
{
    hand_over(t, w, true, true);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
