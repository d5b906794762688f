#include "uarch/warm_thread.h"

#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h> /* _mm_pause */
#endif

/* A ring of chunks (batches, as the thread reads them) between the warming
 * run (the producer) and the thread. Each side counts the chunks it has
 * finished with since the start; the producer writes chunk k to
 * ring[k % RING] once the thread is done with chunk k - RING. Waiting spins
 * and then sleeps on a condition variable. Both sides spin for about as
 * long as a run takes to fill several chunks (4000 pauses: some 80 us on
 * an AMD EPYC host), for while the run streams the thread, usually the
 * faster side, waits for each chunk a few microseconds, and waking it
 * costs the run a system call (futex) and the host an interrupt to the
 * other CPU: a shorter spin (200) made lua's warming call futex some 7,900
 * times per 100M instructions, this one some 190. The thread sleeps when
 * the run stops producing (a system call of the guest, the end), and the
 * producer then wakes it once half the ring is full.
 *
 * Either side may learn from a chunk's pages (the TLBs). Which side is the
 * slower one depends on the program, and on this project's 2-CPU VM even
 * changes from run to run: a producer waiting for the thread learns from
 * the pages of the chunks queued (steal_pages) rather than spin, and the
 * thread skips those. The TLBs are small enough to move between the cores
 * cheaply: pointer chasing over 1 MB warmed 15% faster, with nothing lost
 * elsewhere. The caches below the L1s stay on the thread: their state is
 * large, and learning from their requests on both cores halved that
 * speed. Pages are learnt from in chunk order whoever learns them: a side
 * claims chunk k's only once chunk k - 1's are learnt. */
enum { RING = 8, PRODUCER_SPINS = 4000, THREAD_SPINS = 4000, SPINS_PER_STEAL = 64 };

/* Who learns from a chunk's pages. */
enum pages_state { PAGES_OPEN, PAGES_CLAIMED, PAGES_LEARNT };

/* A batch as the thread reads it. */
typedef struct chunk {
    alignas(64) bp_event branch[WARM_BATCH]; /* host cache lines of their own */
    alignas(64) uint64_t page[WARM_BATCH];
    alignas(64) uint64_t below[WARM_BATCH];
    int nbranch, npage, nbelow;
    bool last; /* the run's last chunk: flush and end */
    _Atomic uint32_t pages; /* enum pages_state */
} chunk;

struct warm_thread {
    bpred *bp;
    tlbs *tlb;
    memsys *mem;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    /* each written by one side, on its own host cache line */
    alignas(64) _Atomic uint32_t submitted; /* chunks handed over */
    uint64_t producer_pages;                /* chunks whose pages the producer learnt from */
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

/* Whether this side is to learn from c's pages (the other side has not
 * claimed them). */
static bool claim_pages(chunk *c)
{
    uint32_t open = PAGES_OPEN;
    return atomic_compare_exchange_strong(&c->pages, &open, PAGES_CLAIMED);
}

/* Learn from c's pages (claimed; the previous chunk's are learnt), and
 * publish the TLBs to whoever learns from the next chunk's. */
static void learn_pages(warm_thread *t, chunk *c)
{
    for (int i = 0, n = c->npage; i < n; i++) tlbs_warm(t->tlb, c->page[i] & 1, c->page[i]);
    atomic_store_explicit(&c->pages, PAGES_LEARNT, memory_order_release);
}

/* A chunk counts as learnt from once its pages are too: so the chunk
 * before any chunk not yet counted has had its pages learnt from. */
static void *train(void *arg)
{
    warm_thread *t = arg;
    for (uint32_t next = 0;; next++) {
        if (atomic_load_explicit(&t->submitted, memory_order_acquire) == next)
            wait_for_change(t, &t->submitted, next, THREAD_SPINS);
        chunk *c = &t->ring[next % RING];
        memsys_warm_below(t->mem, c->below, c->nbelow);
        if (claim_pages(c)) learn_pages(t, c);
        bpred_warm_events(t->bp, c->branch, c->nbranch);
        while (atomic_load_explicit(&c->pages, memory_order_acquire) != PAGES_LEARNT)
            cpu_relax(); /* the producer is learning from them: a short wait */
        if (c->last) {
            bpred_warm_flush(t->bp);
            return NULL; /* pthread_join makes all this visible to the producer */
        }
        advance(t, &t->trained, true);
    }
}

/* (The producer) learn from the pages of the first chunk handed over
 * whose pages nobody has claimed, if those of the chunk before it are
 * learnt; whether it did. */
static bool steal_pages(warm_thread *t)
{
    uint32_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
    uint32_t submitted = atomic_load_explicit(&t->submitted, memory_order_relaxed); /* this side's */
    for (uint32_t k = trained; k != submitted; k++) {
        chunk *c = &t->ring[k % RING];
        uint32_t pages = atomic_load_explicit(&c->pages, memory_order_acquire);
        if (pages == PAGES_LEARNT) continue;
        if (pages == PAGES_CLAIMED || !claim_pages(c)) return false; /* the thread's: the next must wait */
        learn_pages(t, c);
        t->producer_pages++;
        return true;
    }
    return false;
}

/* (The producer) wait until the thread has learnt from all the first k
 * chunks but at most `behind`, learning from pages meanwhile; returns how
 * many it has learnt from. */
static uint32_t wait_trained(warm_thread *t, uint32_t k, uint32_t behind)
{
    for (;;) {
        uint32_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
        if (k - trained <= behind) return trained;
        if (steal_pages(t)) continue;
        int spin = 0;
        for (; spin < PRODUCER_SPINS; spin++) {
            if (atomic_load_explicit(&t->trained, memory_order_acquire) != trained) break;
            if (spin % SPINS_PER_STEAL == SPINS_PER_STEAL - 1 && steal_pages(t)) break;
            cpu_relax();
        }
        if (spin == PRODUCER_SPINS) wait_for_change(t, &t->trained, trained, 0); /* sleep */
    }
}

/* Open chunk k (the next to hand over) in w once the thread is done with
 * chunk k - RING, which was in its slot. */
static void open_chunk(warm_thread *t, uint32_t k, warm_batch *w)
{
    wait_trained(t, k, RING - 1);
    chunk *c = &t->ring[k % RING];
    *w = (warm_batch){.branch = c->branch, .page = c->page, .below = {c->below, 0}};
}

warm_thread *warm_thread_start(bpred *b, tlbs *tlb, memsys *m, warm_batch *w)
{
    /* one thread allowed, or already one of several (sim's regions) */
    if (omp_get_max_threads() < 2 || omp_in_parallel()) return NULL;
    warm_thread *t = aligned_alloc(alignof(warm_thread), sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    t->bp = b;
    t->tlb = tlb;
    t->mem = m;
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
    open_chunk(t, 0, w);
    memsys_warm_defer(m, &w->below);
    return t;
}

/* Hand over w's chunk, the last or not; wake: wake the thread whatever is
 * pending (someone will wait for it). Returns the chunks handed over. */
static uint32_t hand_over(warm_thread *t, warm_batch *w, bool last, bool wake)
{
    uint32_t k = atomic_load_explicit(&t->submitted, memory_order_relaxed);
    chunk *c = &t->ring[k % RING];
    stream_store_fence(); /* the streamed stores before the count that publishes them */
    c->nbranch = w->nbranch;
    c->npage = w->npage;
    c->nbelow = w->below.n;
    c->last = last;
    atomic_store_explicit(&c->pages, PAGES_OPEN, memory_order_relaxed); /* published with the count */
    uint32_t trained = atomic_load_explicit(&t->trained, memory_order_relaxed); /* may be behind */
    advance(t, &t->submitted, wake || k + 1 - trained >= RING / 2);
    return k + 1;
}

void warm_thread_submit(warm_thread *t, warm_batch *w) { open_chunk(t, hand_over(t, w, false, false), w); }

void warm_thread_drain(warm_thread *t, warm_batch *w)
{
    uint32_t k = hand_over(t, w, false, true);
    wait_trained(t, k, 0);
    open_chunk(t, k, w);
}

uint64_t warm_thread_producer_pages(const warm_thread *t) { return t->producer_pages; }

void warm_thread_stop(warm_thread *t, warm_batch *w)
{
    hand_over(t, w, true, true);
    *w = (warm_batch){0}; /* its chunk goes with the thread */
    pthread_join(t->thread, NULL);
    memsys_warm_defer(t->mem, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
