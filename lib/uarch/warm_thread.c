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
 * Either side may learn from a chunk's requests of the L1s and from its
 * pages (the TLBs): its stages. Which side is the slower one depends on the
 * program, and on this project's 2-CPU VM even changes from run to run: a
 * producer waiting for the thread learns from the stages of the chunks
 * queued (steal_stage) rather than spin, and the thread skips those. The
 * L1s and the TLBs are small enough to move between the cores cheaply
 * (bench/warm_ab.sh, median of 5, MIPS, against the L1s on the producer
 * and all else on the thread: pointer chasing over 1 MB 50.0 -> 62.0, gzip
 * 118 -> 139, bzip2 245 -> 261, no program slower). The caches below the
 * L1s stay on the thread: their state is large, and learning from their
 * requests on both cores halved pointer chasing's speed.
 * A stage is learnt from in chunk order whoever learns it: a side claims
 * chunk k's only once chunk k - 1's is learnt. The levels below learn from
 * chunk k's requests of the L1s once those are made; a thread that finds
 * the producer making them learns from the chunk's branches meanwhile
 * rather than wait (pointer chasing over 64 KB: 4-10% faster in A/B runs;
 * no program measurably slower). */
enum { RING = 8, PRODUCER_SPINS = 4000, THREAD_SPINS = 4000, SPINS_PER_STEAL = 64 };

enum stage { STAGE_L1, STAGE_PAGES, STAGES };
/* Who learns from a chunk's stage. */
enum stage_state { STAGE_OPEN, STAGE_CLAIMED, STAGE_LEARNT };

/* A batch as the thread reads it. */
typedef struct chunk {
    alignas(64) bp_event branch[WARM_BATCH]; /* host cache lines of their own */
    alignas(64) uint64_t page[WARM_BATCH];
    alignas(64) uint64_t request[WARM_BATCH];
    alignas(64) uint64_t below[WARM_BATCH * MEMSYS_BELOW_PER_REQUEST]; /* what the requests make */
    int nbranch, npage, nrequest, nbelow;
    bool last; /* the run's last chunk: flush and end */
    _Atomic uint32_t stage[STAGES]; /* enum stage_state */
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
    uint64_t stolen[STAGES];                /* chunks whose stage the producer learnt from */
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

/* Whether this side is to learn from c's stage (the other side has not
 * claimed it). */
static bool claim(chunk *c, enum stage s)
{
    uint32_t open = STAGE_OPEN;
    return atomic_compare_exchange_strong(&c->stage[s], &open, STAGE_CLAIMED);
}

/* Learn from c's stage (claimed; the previous chunk's is learnt), and
 * publish what it changed to whoever learns from the next. */
static void learn(warm_thread *t, chunk *c, enum stage s)
{
    if (s == STAGE_L1) {
        memsys_log below = {.event = c->below};
        memsys_warm_requests(t->mem, c->request, c->nrequest, &below);
        c->nbelow = below.n;
        stream_store_fence(); /* the log's streamed stores before the state that publishes them */
    } else {
        for (int i = 0, n = c->npage; i < n; i++) tlbs_warm(t->tlb, c->page[i] & 1, c->page[i]);
    }
    atomic_store_explicit(&c->stage[s], STAGE_LEARNT, memory_order_release);
}

static bool learnt(chunk *c, enum stage s)
{
    return atomic_load_explicit(&c->stage[s], memory_order_acquire) == STAGE_LEARNT;
}

/* (The thread) wait until c's stage is learnt from: by the producer, if
 * it claimed it, which is learning from it now (a short wait). */
static void wait_learnt(chunk *c, enum stage s)
{
    while (!learnt(c, s)) cpu_relax();
}

/* A chunk counts as learnt from once its stages are too: so the chunk
 * before any chunk not yet counted has had its stages learnt from. */
static void *train(void *arg)
{
    warm_thread *t = arg;
    for (uint32_t next = 0;; next++) {
        if (atomic_load_explicit(&t->submitted, memory_order_acquire) == next)
            wait_for_change(t, &t->submitted, next, THREAD_SPINS);
        chunk *c = &t->ring[next % RING];
        if (claim(c, STAGE_L1)) learn(t, c, STAGE_L1);
        /* the producer learning from the L1s' requests: the branches,
         * which do not depend on them, first */
        bool branches_first = !learnt(c, STAGE_L1);
        if (branches_first) bpred_warm_events(t->bp, c->branch, c->nbranch);
        wait_learnt(c, STAGE_L1);
        memsys_warm_below(t->mem, c->below, c->nbelow);
        if (claim(c, STAGE_PAGES)) learn(t, c, STAGE_PAGES);
        if (!branches_first) bpred_warm_events(t->bp, c->branch, c->nbranch);
        wait_learnt(c, STAGE_PAGES);
        if (c->last) {
            bpred_warm_flush(t->bp);
            return NULL; /* pthread_join makes all this visible to the producer */
        }
        advance(t, &t->trained, true);
    }
}

/* (The producer) learn from stage s of the first chunk handed over whose
 * stage s nobody has claimed, if that of the chunk before it is learnt;
 * whether it did. */
static bool steal_stage(warm_thread *t, enum stage s)
{
    uint32_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
    uint32_t submitted = atomic_load_explicit(&t->submitted, memory_order_relaxed); /* this side's */
    for (uint32_t k = trained; k != submitted; k++) {
        chunk *c = &t->ring[k % RING];
        uint32_t state = atomic_load_explicit(&c->stage[s], memory_order_acquire);
        if (state == STAGE_LEARNT) continue;
        if (state == STAGE_CLAIMED || !claim(c, s)) return false; /* the thread's: the next must wait */
        learn(t, c, s);
        t->stolen[s]++;
        return true;
    }
    return false;
}

/* The requests of the L1s first: the thread needs them before the levels below. */
static bool steal(warm_thread *t) { return steal_stage(t, STAGE_L1) || steal_stage(t, STAGE_PAGES); }

/* (The producer) wait until the thread has learnt from all the first k
 * chunks but at most `behind`, learning from their stages meanwhile;
 * returns how many it has learnt from. */
static uint32_t wait_trained(warm_thread *t, uint32_t k, uint32_t behind)
{
    for (;;) {
        uint32_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
        if (k - trained <= behind) return trained;
        if (steal(t)) continue;
        int spin = 0;
        for (; spin < PRODUCER_SPINS; spin++) {
            if (atomic_load_explicit(&t->trained, memory_order_acquire) != trained) break;
            if (spin % SPINS_PER_STEAL == SPINS_PER_STEAL - 1 && steal(t)) break;
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
    *w = (warm_batch){.branch = c->branch, .page = c->page, .request = c->request};
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
    c->nrequest = w->nrequest;
    c->last = last;
    for (int s = 0; s < STAGES; s++)
        atomic_store_explicit(&c->stage[s], STAGE_OPEN, memory_order_relaxed); /* published with the count */
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

uint64_t warm_thread_producer_requests(const warm_thread *t) { return t->stolen[STAGE_L1]; }
uint64_t warm_thread_producer_pages(const warm_thread *t) { return t->stolen[STAGE_PAGES]; }

void warm_thread_stop(warm_thread *t, warm_batch *w)
{
    hand_over(t, w, true, true);
    *w = (warm_batch){0}; /* its chunk goes with the thread */
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
