#include "uarch/bpred_thread.h"

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

/* A ring of chunks between the warming run (the producer) and the thread.
 * Each side counts the chunks it has finished with since the start; the
 * producer writes chunk k to ring[k % RING] once the thread is done with
 * chunk k - RING. Waiting spins a little (each side usually has a CPU of
 * its own) and then sleeps on a condition variable. */
enum { RING = 32, SPINS = 4000 };

typedef struct chunk {
    alignas(64) bp_event e[BPRED_CHUNK]; /* host cache lines of its own */
    int n;
    bool last; /* the run's last chunk: flush and end */
} chunk;

struct bpred_thread {
    bpred *b;
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

/* Copy n events into a chunk. Streamed past the host's caches where the
 * host can: the thread reads the chunk on another core, and a plain store
 * would first take each line back from that core's cache (which more than
 * doubled the producer's time). */
static void copy_events(chunk *c, const bp_event *e, int n)
{
#if defined(__x86_64__)
    size_t bytes = (size_t)n * sizeof *e;
    const char *from = (const char *)e;
    char *to = (char *)c->e;
    size_t i = 0;
    for (; i + 16 <= bytes; i += 16) _mm_stream_si128((__m128i *)(to + i), _mm_loadu_si128((const __m128i *)(from + i)));
    memcpy(to + i, from + i, bytes - i);
    _mm_sfence(); /* the streamed stores before the count that publishes them */
#else
    memcpy(c->e, e, (size_t)n * sizeof *e);
#endif
    c->n = n;
}

/* Wait until *count is no longer `seen`; returns its new value. A side
 * about to sleep counts itself in `sleepers` before its last look, and
 * advance() looks at `sleepers` after its update (both sequentially
 * consistent), so one of them always sees the other. */
static uint32_t wait_for_change(bpred_thread *t, _Atomic uint32_t *count, uint32_t seen)
{
    uint32_t now;
    for (int i = 0; i < SPINS; i++) {
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

/* One more chunk finished with on this side (count is this side's). */
static void advance(bpred_thread *t, _Atomic uint32_t *count)
{
    atomic_fetch_add(count, 1);
    if (atomic_load(&t->sleepers)) {
        pthread_mutex_lock(&t->lock);
        pthread_cond_broadcast(&t->wake);
        pthread_mutex_unlock(&t->lock);
    }
}

static void *train(void *arg)
{
    bpred_thread *t = arg;
    for (uint32_t next = 0;; next++) {
        if (atomic_load_explicit(&t->submitted, memory_order_acquire) == next)
            wait_for_change(t, &t->submitted, next);
        const chunk *c = &t->ring[next % RING];
        for (int i = 0, n = c->n; i < n; i++) bpred_warm_event(t->b, &c->e[i]);
        if (c->last) {
            bpred_warm_flush(t->b);
            return NULL; /* pthread_join makes all this visible to the producer */
        }
        advance(t, &t->trained);
    }
}

bpred_thread *bpred_thread_start(bpred *b)
{
    /* one thread allowed, or already one of several (sim's regions) */
    if (omp_get_max_threads() < 2 || omp_in_parallel()) return NULL;
    bpred_thread *t = aligned_alloc(alignof(bpred_thread), sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    t->b = b;
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
    return t;
}

/* Hand over the next chunk: n events, the last ones or not. */
static void hand_over(bpred_thread *t, const bp_event *e, int n, bool last)
{
    uint32_t k = atomic_load_explicit(&t->submitted, memory_order_relaxed);
    uint32_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
    while (k - trained >= RING) trained = wait_for_change(t, &t->trained, trained);
    chunk *c = &t->ring[k % RING];
    copy_events(c, e, n);
    c->last = last;
    advance(t, &t->submitted);
}

void bpred_thread_submit(bpred_thread *t, const bp_event *e, int n) { hand_over(t, e, n, false); }

void bpred_thread_stop(bpred_thread *t, const bp_event *e, int n)
{
    hand_over(t, e, n, true);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
