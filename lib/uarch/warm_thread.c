#include "uarch/warm_thread.h"

#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h> /* _mm_pause */
#endif

/* A ring of chunks (batches, as the thread reads them) between the warming
 * run (the producer) and the thread. The producer counts the chunks it
 * has handed over; `trained` counts the first chunks learnt from whole;
 * the producer writes chunk k to ring[k % RING] once chunk k - RING is
 * learnt from. Waiting spins and then sleeps on a condition variable.
 * Both sides spin for about as long as a run takes to fill several chunks
 * (4000 pauses: some 80 us on an AMD EPYC host), for while the run streams
 * the thread, usually the faster side, waits for each chunk a few
 * microseconds, and waking it costs the run a system call (futex) and the
 * host an interrupt to the other CPU: a shorter spin (200) made lua's
 * warming call futex some 7,900 times per 100M instructions, this one some
 * 190. The thread sleeps when the run stops producing (a system call of
 * the guest, the end), and the producer then wakes it once half the ring
 * is full.
 *
 * A chunk is learnt from in stages: the requests of the L1s, its pages
 * (the TLBs), the requests those make below the L1s, its branches. A
 * stage is learnt from in chunk order whoever learns it: a side claims
 * chunk k's only once chunk k - 1's is learnt (and chunk k's requests
 * below the L1s only once its requests of the L1s are made). Which side is
 * the slower one depends on the program, and on this project's 2-CPU VM
 * even changes from run to run: a producer waiting for the thread learns
 * from the stages of the chunks queued (steal) rather than spin, and the
 * thread skips those. The L1s and the TLBs are small enough to move
 * between the cores cheaply (bench/warm_ab.sh, median of 5, MIPS, against
 * the L1s on the producer and all else on the thread: pointer chasing over
 * 1 MB 50.0 -> 62.0, gzip 118 -> 139, bzip2 245 -> 261, no program
 * slower). The caches below the L1s and the predictor stay on the thread
 * while it runs: their state is large, and learning from their requests
 * on both cores halved pointer chasing's speed. But when the thread has
 * not finished a chunk for as long as the producer spins, it is taken to
 * be off its CPU (the host busy with other work: both sides then share
 * one CPU, or less), and the producer learns from those stages too rather
 * than sleep, so that the run goes on as fast as on one thread. A thread
 * that finds the producer making a chunk's requests of the L1s learns
 * from the chunk's branches meanwhile rather than wait (pointer chasing
 * over 64 KB: 4-10% faster in A/B runs; no program measurably slower).
 *
 * A chunk's stage is a word: the chunk's number and the stage's state.
 * Since the producer may learn from every stage of a chunk and reuse its
 * slot for a later chunk while the thread still looks at it, a claim
 * names the chunk, and a stage whose slot holds a later chunk was learnt
 * from. */
enum { RING = 8, PRODUCER_SPINS = 4000, THREAD_SPINS = 4000, SPINS_PER_STEAL = 64, SPINS_PER_YIELD = 256 };

/* The stages in the order the thread tries them. */
enum stage { STAGE_L1, STAGE_BELOW, STAGE_PAGES, STAGE_BRANCHES, STAGES };
/* Who learns from a chunk's stage. */
enum stage_state { STAGE_OPEN, STAGE_CLAIMED, STAGE_LEARNT };

/* A batch as the thread reads it. */
typedef struct chunk {
    alignas(64) bp_event branch[WARM_BATCH]; /* host cache lines of their own */
    alignas(64) uint64_t page[WARM_BATCH];
    alignas(64) uint64_t request[WARM_BATCH];
    alignas(64) uint64_t below[WARM_BATCH * MEMSYS_BELOW_PER_REQUEST]; /* what the requests make */
    int nbranch, npage, nrequest, nbelow;
    _Atomic uint64_t stage[STAGES]; /* chunk number << 2 | enum stage_state */
} chunk;

struct warm_thread {
    bpred *bp;
    tlbs *tlb;
    memsys *mem;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    /* each written by one side but `trained`, on its own host cache line */
    alignas(64) _Atomic uint64_t submitted; /* chunks handed over */
    _Atomic uint64_t last;                  /* the run's last chunk, once handed over; else UINT64_MAX */
    uint64_t stolen[STAGES];                /* chunks whose stage the producer learnt from */
    uint64_t thread_seen;                   /* thread_learnt when the producer last looked */
    bool stalled;                           /* the thread learnt nothing for as long as the producer spins */
    alignas(64) _Atomic uint64_t trained;   /* the first chunks learnt from whole */
    alignas(64) _Atomic uint64_t thread_learnt; /* stages the thread learnt from */
    alignas(64) _Atomic uint64_t producer_learnt; /* stages the producer learnt from */
    alignas(64) _Atomic int sleepers;       /* sides asleep on `wake` */
    chunk ring[RING];
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__)
    _mm_pause();
#endif
}

static inline uint64_t stage_word(uint64_t k, enum stage_state state) { return k << 2 | state; }
static inline chunk *chunk_of(warm_thread *t, uint64_t k) { return &t->ring[k % RING]; }

/* Whether chunk k's stage s is learnt from (its slot may hold a later chunk by now). */
static bool learnt(warm_thread *t, uint64_t k, enum stage s)
{
    uint64_t word = atomic_load_explicit(&chunk_of(t, k)->stage[s], memory_order_acquire);
    return word == stage_word(k, STAGE_LEARNT) || word >> 2 > k;
}

/* Whether the run is over: its last chunk learnt from. */
static bool over(warm_thread *t)
{
    return atomic_load_explicit(&t->trained, memory_order_acquire) > atomic_load(&t->last);
}

/* Wake whoever sleeps on `wake`. */
static void wake_sleepers(warm_thread *t)
{
    if (!atomic_load(&t->sleepers)) return;
    pthread_mutex_lock(&t->lock);
    pthread_cond_broadcast(&t->wake);
    pthread_mutex_unlock(&t->lock);
}

/* Sleep (after `spins` pauses) until *count is no longer `seen`, or the
 * run is over; returns *count. A side about to sleep counts itself in
 * `sleepers` before its last look, and the sides look at `sleepers` after
 * their updates (both sequentially consistent), so one of them always
 * sees the other. While it spins, it yields its CPU now and then: on a
 * busy host both sides may share one CPU, and the other side, which it
 * waits for, then runs (else the thread spun away a fifth of the CPU time
 * of a run on one CPU); on a CPU of its own, the yield returns at once. */
static uint64_t wait_for_change(warm_thread *t, _Atomic uint64_t *count, uint64_t seen, int spins)
{
    uint64_t now;
    for (int i = 0; i < spins; i++) {
        if ((now = atomic_load_explicit(count, memory_order_acquire)) != seen || over(t)) return now;
        if (i % SPINS_PER_YIELD == SPINS_PER_YIELD - 1)
            sched_yield();
        else
            cpu_relax();
    }
    pthread_mutex_lock(&t->lock);
    atomic_fetch_add(&t->sleepers, 1);
    while ((now = atomic_load(count)) == seen && !over(t)) pthread_cond_wait(&t->wake, &t->lock);
    atomic_fetch_sub(&t->sleepers, 1);
    pthread_mutex_unlock(&t->lock);
    return now;
}

/* Count the first chunks now learnt from whole, whichever side finished them. */
static void settle(warm_thread *t)
{
    for (;;) {
        uint64_t k = atomic_load(&t->trained);
        if (k == atomic_load(&t->submitted)) return;
        for (int s = 0; s < STAGES; s++)
            if (!learnt(t, k, s)) return;
        if (atomic_compare_exchange_strong(&t->trained, &k, k + 1)) wake_sleepers(t);
    }
}

/* Learn from chunk k's stage s (claimed), and publish what it changed to
 * whoever learns from the next. */
static void learn(warm_thread *t, uint64_t k, enum stage s)
{
    chunk *c = chunk_of(t, k);
    switch (s) {
    case STAGE_L1: {
        memsys_log below = {.event = c->below};
        memsys_warm_requests(t->mem, c->request, c->nrequest, &below);
        c->nbelow = below.n;
        stream_store_fence(); /* the log's streamed stores before the state that publishes them */
        break;
    }
    case STAGE_BELOW: memsys_warm_below(t->mem, c->below, c->nbelow); break;
    case STAGE_PAGES: tlbs_warm_pages(t->tlb, c->page, c->npage); break;
    default:
        bpred_warm_events(t->bp, c->branch, c->nbranch);
        if (k == atomic_load(&t->last)) bpred_warm_flush(t->bp);
        break;
    }
    atomic_store_explicit(&c->stage[s], stage_word(k, STAGE_LEARNT), memory_order_release);
}

/* Learn from chunk k's stage s (handed over) if nobody has claimed it and
 * it may be learnt from now; whether this side (thread: the thread) did. */
static bool try_learn(warm_thread *t, uint64_t k, enum stage s, bool thread)
{
    if (k > 0 && !learnt(t, k - 1, s)) return false;
    if (s == STAGE_BELOW && !learnt(t, k, STAGE_L1)) return false;
    uint64_t open = stage_word(k, STAGE_OPEN);
    if (!atomic_compare_exchange_strong(&chunk_of(t, k)->stage[s], &open, stage_word(k, STAGE_CLAIMED)))
        return false;
    learn(t, k, s);
    atomic_fetch_add(thread ? &t->thread_learnt : &t->producer_learnt, 1);
    if (!thread) wake_sleepers(t); /* a thread waiting for this stage */
    settle(t);
    return true;
}

/* Learn from what of chunk k this side may; whether chunk k is learnt
 * from whole. */
static bool work_on(warm_thread *t, uint64_t k)
{
    bool whole = true;
    for (int s = 0; s < STAGES; s++)
        if (!learnt(t, k, s) && !try_learn(t, k, s, true)) whole = false;
    return whole;
}

/* The thread: the chunks in order, each stage it can claim; a stage the
 * producer has claimed, it waits for, learning from the chunk's others. */
static void *train(void *arg)
{
    warm_thread *t = arg;
    for (uint64_t k = 0;;) {
        uint64_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
        if (k < trained) k = trained; /* the producer learnt from those whole */
        if (over(t)) return NULL; /* pthread_join makes the model visible to the producer */
        if (k == atomic_load_explicit(&t->submitted, memory_order_acquire)) {
            wait_for_change(t, &t->submitted, k, THREAD_SPINS);
            continue;
        }
        uint64_t producer_learnt = atomic_load(&t->producer_learnt);
        if (work_on(t, k))
            k++;
        else /* the producer learns from one of its stages */
            wait_for_change(t, &t->producer_learnt, producer_learnt, THREAD_SPINS);
    }
}

/* (The producer) learn from a stage of the first chunks handed over that
 * nobody has claimed, the requests of the L1s first (the levels below need
 * them), then the pages, and with `all` the requests below the L1s and
 * the branches too; whether it did. */
static bool steal(warm_thread *t, bool all)
{
    uint64_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
    uint64_t submitted = atomic_load_explicit(&t->submitted, memory_order_relaxed); /* this side's */
    static const enum stage order[] = {STAGE_L1, STAGE_PAGES, STAGE_BELOW, STAGE_BRANCHES};
    for (int i = 0; i < (all ? STAGES : 2); i++)
        for (uint64_t k = trained; k != submitted; k++) {
            if (learnt(t, k, order[i])) continue;
            if (!try_learn(t, k, order[i], false)) break; /* claimed, or not to be learnt yet: the next must wait */
            t->stolen[order[i]]++;
            return true;
        }
    return false;
}

/* (The producer) wait until the first k chunks are learnt from but at most
 * `behind`, learning from their stages meanwhile; returns how many are.
 * Once it has spun that long with the thread learning nothing, it learns
 * from every stage until the thread learns again, and sleeps only if the
 * thread has claimed all there is. */
static uint64_t wait_trained(warm_thread *t, uint64_t k, uint64_t behind)
{
    for (;;) {
        uint64_t trained = atomic_load_explicit(&t->trained, memory_order_acquire);
        if (k - trained <= behind) return trained;
        uint64_t thread_learnt = atomic_load_explicit(&t->thread_learnt, memory_order_relaxed);
        if (thread_learnt != t->thread_seen) { /* the thread runs */
            t->thread_seen = thread_learnt;
            t->stalled = false;
        }
        if (steal(t, t->stalled)) continue;
        int spin = 0;
        for (; spin < PRODUCER_SPINS; spin++) {
            if (atomic_load_explicit(&t->trained, memory_order_acquire) != trained) break;
            if (spin % SPINS_PER_STEAL == SPINS_PER_STEAL - 1 && steal(t, t->stalled)) break;
            cpu_relax();
        }
        if (spin < PRODUCER_SPINS) continue;
        if (!t->stalled && atomic_load_explicit(&t->thread_learnt, memory_order_relaxed) == t->thread_seen) {
            t->stalled = true; /* off its CPU, or far behind */
            continue;
        }
        wait_for_change(t, &t->trained, trained, 0); /* sleep */
    }
}

/* Open chunk k (the next to hand over) in w once chunk k - RING, which was
 * in its slot, is learnt from. */
static void open_chunk(warm_thread *t, uint64_t k, warm_batch *w)
{
    wait_trained(t, k, RING - 1);
    chunk *c = chunk_of(t, k);
    *w = (warm_batch){.branch = c->branch, .page = c->page, .request = c->request};
}

warm_thread *warm_thread_start(bpred *b, tlbs *tlb, memsys *m, warm_batch *w)
{
    /* one thread allowed, or already one of several (sim's regions) */
    if (omp_get_max_threads() < 2 || omp_in_parallel()) return NULL;
    warm_thread *t = aligned_alloc(alignof(warm_thread), sizeof *t);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    atomic_init(&t->last, UINT64_MAX);
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
static uint64_t hand_over(warm_thread *t, warm_batch *w, bool last, bool wake)
{
    uint64_t k = atomic_load_explicit(&t->submitted, memory_order_relaxed);
    chunk *c = chunk_of(t, k);
    stream_store_fence(); /* the streamed stores before the count that publishes them */
    c->nbranch = w->nbranch;
    c->npage = w->npage;
    c->nrequest = w->nrequest;
    for (int s = 0; s < STAGES; s++) /* published with the count */
        atomic_store_explicit(&c->stage[s], stage_word(k, STAGE_OPEN), memory_order_relaxed);
    if (last) atomic_store(&t->last, k);
    uint64_t trained = atomic_load_explicit(&t->trained, memory_order_relaxed); /* may be behind */
    atomic_fetch_add(&t->submitted, 1);
    if (wake || k + 1 - trained >= RING / 2) wake_sleepers(t);
    return k + 1;
}

void warm_thread_submit(warm_thread *t, warm_batch *w) { open_chunk(t, hand_over(t, w, false, false), w); }

void warm_thread_drain(warm_thread *t, warm_batch *w)
{
    uint64_t k = hand_over(t, w, false, true);
    wait_trained(t, k, 0);
    open_chunk(t, k, w);
}

uint64_t warm_thread_producer_requests(const warm_thread *t) { return t->stolen[STAGE_L1]; }
uint64_t warm_thread_producer_pages(const warm_thread *t) { return t->stolen[STAGE_PAGES]; }
uint64_t warm_thread_producer_all(const warm_thread *t) { return t->stolen[STAGE_BELOW] + t->stolen[STAGE_BRANCHES]; }

void warm_thread_stop(warm_thread *t, warm_batch *w)
{
    wait_trained(t, hand_over(t, w, true, true), 0);
    *w = (warm_batch){0}; /* its chunk goes with the thread */
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
