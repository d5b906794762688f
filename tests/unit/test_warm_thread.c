/* Functional warming's second thread (lib/uarch/warm_thread.c): the branch
 * predictor, the TLBs and the caches below the L1s it trains end exactly as
 * training them in order on one thread leaves them, whatever the batches'
 * sizes and whichever side learns from a batch's stages, also when the two
 * share a CPU; and there is no thread when OpenMP is to use one. */
#include <criterion/criterion.h>
#include <omp.h>
#include <sched.h>
#include <string.h>

#include "uarch/warm_thread.h"

static uarch_config defaults(void)
{
    uarch_config c;
    uarch_config_defaults(&c);
    c.bp_tage_log_entries = 6; /* small tables: allocations, aliasing within a batch */
    c.l1d_kib = 4;             /* small caches: evictions and write-backs at every level */
    c.l2_kib = 32;
    c.llc_kib = 128;
    return c;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A mix of conditional branches, calls, returns and indirect jumps over a
 * few dozen pcs, some of them taken to varied targets. */
static rv_insn random_transfer(uint64_t r, bool *taken, uint64_t *target)
{
    uint64_t pc = 0x10000 + (r & 0x3f) * 4;
    *taken = true;
    *target = 0x20000 + (r >> 60) * 0x40;
    switch ((r >> 8) % 5) {
    case 0: return (rv_insn){.op = RV_OP_jal, .rd = 1, .pc = pc, .len = 4};
    case 1: *target = pc + 4; return (rv_insn){.op = RV_OP_jalr, .rd = RV_X_SINK, .rs1 = 1, .pc = pc, .len = 4};
    case 2: return (rv_insn){.op = RV_OP_jalr, .rd = RV_X_SINK, .rs1 = 15, .pc = pc, .len = 2};
    default: *taken = r >> 40 & 1; return (rv_insn){.op = RV_OP_bne, .rs1 = 10, .pc = pc, .len = 4};
    }
}

enum { N = 600000 }; /* enough batches for every size up to WARM_BATCH */
static bp_event branches[N];
static uint64_t pages[N]; /* warm_page()s: over more pages than the TLBs hold */
static uint64_t request[N]; /* memsys_warm_request()s over 1 MiB: fetches, loads, stores, wrong paths' fetches */

static void make_streams(void)
{
    uint64_t seed = 11;
    for (int i = 0; i < N; i++) {
        bool taken;
        uint64_t target, r = xorshift(&seed);
        rv_insn in = random_transfer(r, &taken, &target);
        cr_assert(bpred_event(&in, taken, target, &branches[i]));
        pages[i] = warm_page(r >> 63, (r >> 20 & 0x3ff) << 12 | (r & 0xfff));
        uint64_t addr = (r >> 24 & 0x1ffff) << 3; /* 8-byte aligned */
        enum memsys_request_kind kind = r % 7 == 0    ? MEMSYS_FETCH
                                        : r % 11 == 0 ? MEMSYS_WRONG_PATH
                                        : r % 3 == 0  ? MEMSYS_STORE
                                                      : MEMSYS_LOAD;
        request[i] = memsys_warm_request(kind, addr);
    }
}

/* A request made at once, as a warming run without the thread makes it. */
static void warm_at_once(memsys *m, uint64_t req)
{
    uint64_t addr = req & ~(uint64_t)3;
    switch (req & 3) {
    case MEMSYS_FETCH: memsys_warm_ifetch(m, addr); break;
    case MEMSYS_LOAD: memsys_warm_load(m, addr); break;
    case MEMSYS_WRONG_PATH: memsys_warm_wrong_path(m, addr); break;
    default: memsys_warm_store(m, addr); break;
    }
}

static void expect_same_state(bpred *b1, tlbs *t1, memsys *m1, bpred *b2, tlbs *t2, memsys *m2)
{
    cr_expect(memcmp(memsys_get_stats(m1), memsys_get_stats(m2), sizeof(memsys_stats)) == 0, "cache statistics");
    cr_expect(memcmp(bpred_get_stats(b1), bpred_get_stats(b2), sizeof(bpred_stats)) == 0, "predictor statistics");
    cr_expect(memcmp(tlbs_get_stats(t1), tlbs_get_stats(t2), sizeof(tlb_stats)) == 0, "TLB statistics");
    ustate x = {0}, y = {0};
    bpred_save(b1, &x);
    tlbs_save(t1, &x);
    memsys_save(m1, &x);
    bpred_save(b2, &y);
    tlbs_save(t2, &y);
    memsys_save(m2, &y);
    cr_expect(x.len == y.len && memcmp(x.data, y.data, x.len) == 0, "saved state");
    ustate_free(&x);
    ustate_free(&y);
}

/* Batches of every size, the three parts filled at different rates, the
 * last one short, many more than the ring holds (the producer waits). The
 * data accesses are made here on the L1D, which defers what they need
 * below it to the batch. one_cpu: the thread and the producer share one
 * CPU, so that the thread is off it while the producer waits, and the
 * producer learns from every stage meanwhile. */
static void trains_as_one_thread(bool one_cpu)
{
    make_streams();
    uarch_config c = defaults();
    bpred *direct_bp = bpred_new(&c), *threaded_bp = bpred_new(&c);
    tlbs *direct_tlb = tlbs_new(&c), *threaded_tlb = tlbs_new(&c);
    memsys *direct_mem = memsys_new(&c), *threaded_mem = memsys_new(&c);
    bpred_warm_events(direct_bp, branches, N);
    bpred_warm_flush(direct_bp);
    for (int i = 0; i < N; i++) tlbs_warm(direct_tlb, pages[i] & 1, pages[i]);
    for (int i = 0; i < N; i++) warm_at_once(direct_mem, request[i]);

    omp_set_num_threads(2); /* whatever the CPUs: the thread is what is tested */
    cpu_set_t cpus, one;
    cr_assert(sched_getaffinity(0, sizeof cpus, &cpus) == 0);
    CPU_ZERO(&one);
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &cpus)) {
            CPU_SET(i, &one);
            break;
        }
    if (one_cpu) cr_assert(sched_setaffinity(0, sizeof one, &one) == 0); /* the thread takes the mask it starts with */
    warm_batch w;
    warm_thread *t = warm_thread_start(threaded_bp, threaded_tlb, threaded_mem, &w);
    cr_assert(t, "no thread");
    int nb = 0, np = 0, nd = 0, size = 1;
    while (nb < N - 200 || np < N - 200) {
        /* a batch of `size` branches, a different number of pages, and of
         * requests of the L1s */
        for (int k = 0; k < size && nb < N - 200; k++) warm_batch_put_branch(&w, &branches[nb++]);
        for (int k = 0; k < WARM_BATCH - size && np < N - 200; k++) warm_batch_put_page(&w, pages[np++]);
        for (int k = 0; k < (size * 7) % WARM_BATCH + 1 && nd < N - 200; k++) warm_batch_put_request(&w, request[nd++]);
        warm_thread_submit(t, &w);
        cr_assert(w.nbranch == 0 && w.npage == 0 && w.nrequest == 0, "the next batch is empty");
        size = size % WARM_BATCH + 1;
    }
    while (nb < N) warm_batch_put_branch(&w, &branches[nb++]);
    while (np < N) warm_batch_put_page(&w, pages[np++]);
    while (nd < N) {
        warm_batch_put_request(&w, request[nd++]);
        if (w.nrequest == WARM_BATCH) warm_thread_submit(t, &w);
    }
    /* This producer is far faster than the thread: it waited, and learnt
     * from requests and pages meanwhile, so both sides' learning is what
     * is compared. */
    cr_expect_gt(warm_thread_producer_requests(t), 0, "the producer learnt from no batch's requests");
    cr_expect_gt(warm_thread_producer_pages(t), 0, "the producer learnt from no batch's pages");
    if (one_cpu)
        cr_expect_gt(warm_thread_producer_all(t), 0, "the producer learnt from no batch's branches or requests below the L1s");
    warm_thread_stop(t, &w);
    sched_setaffinity(0, sizeof cpus, &cpus);
    cr_expect(memsys_get_stats(direct_mem)->l2_misses > N / 100 && memsys_get_stats(direct_mem)->dram_writes > N / 100,
              "the accesses reach below the L2 and write back");
    expect_same_state(direct_bp, direct_tlb, direct_mem, threaded_bp, threaded_tlb, threaded_mem);
    /* the thread has ended: requests are made at once again */
    warm_at_once(direct_mem, request[0] ^ 0x100000);
    warm_at_once(threaded_mem, request[0] ^ 0x100000);
    expect_same_state(direct_bp, direct_tlb, direct_mem, threaded_bp, threaded_tlb, threaded_mem);
    bpred_free(direct_bp);
    bpred_free(threaded_bp);
    tlbs_free(direct_tlb);
    tlbs_free(threaded_tlb);
    memsys_free(direct_mem);
    memsys_free(threaded_mem);
}

Test(warm_thread, trains_as_one_thread) { trains_as_one_thread(false); }

Test(warm_thread, trains_as_one_thread_sharing_a_cpu) { trains_as_one_thread(true); }

Test(warm_thread, none_with_one_thread)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    tlbs *tlb = tlbs_new(&c);
    memsys *m = memsys_new(&c);
    omp_set_num_threads(1);
    warm_batch w;
    cr_expect_null(warm_thread_start(b, tlb, m, &w), "OMP_NUM_THREADS=1 means one thread");
    bpred_free(b);
    tlbs_free(tlb);
    memsys_free(m);
}

/* Already one of an OpenMP team (sim's regions in parallel): no more threads. */
Test(warm_thread, none_inside_a_team)
{
    uarch_config c = defaults();
    omp_set_num_threads(2);
    int made = 0, members = 0;
#pragma omp parallel num_threads(2) reduction(+ : made, members)
    {
        bpred *b = bpred_new(&c);
        tlbs *tlb = tlbs_new(&c);
        memsys *m = memsys_new(&c);
        warm_batch none; /* empty */
        warm_thread *t = warm_thread_start(b, tlb, m, &none);
        made += t != NULL;
        members += omp_get_num_threads() > 1;
        if (t) warm_thread_stop(t, &none);
        bpred_free(b);
        tlbs_free(tlb);
        memsys_free(m);
    }
    cr_expect_eq(members, 2, "the team did not have two threads");
    cr_expect_eq(made, 0, "a warming thread inside a team of %d", members);
}
