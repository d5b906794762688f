/* The memory hierarchy's timing model (lib/uarch/memsys.c), with known
 * answers under the default configuration:
 *   L1D hit 4, L1I hit 1, L2 +14, LLC +30, DRAM +135 (42 ns at 3.2 GHz,
 *   rounded up), a 64-byte line on the channel for 8 cycles (25.6 GB/s);
 *   L1 64 sets x 8 ways, L2 1024 x 8, LLC 8192 x 8. */
#include <criterion/criterion.h>
#include <string.h>

#include "uarch/memsys.h"

enum {
    L1D_HIT = 4,
    L2_HIT = 4 + 14,
    LLC_HIT = 4 + 14 + 30,
    DRAM_LOAD = 4 + 14 + 30 + 135,
    IFETCH_DRAM = 1 + 14 + 30 + 135,
    XFER = 8,
};

/* distances that map to the same set of a level (sets x line size) */
#define L1_SET_STRIDE (64 * 64)
#define L2_SET_STRIDE (1024 * 64)
#define LLC_SET_STRIDE (8192 * 64)

#define BASE 0x10000000ULL

static uarch_config defaults(void)
{
    uarch_config c;
    uarch_config_defaults(&c);
    return c;
}

/* Small caches: random requests miss every level, and dirty lines are
 * written back all the way to DRAM. */
static uarch_config small_caches(void)
{
    uarch_config c = defaults();
    c.l1d_kib = c.l1i_kib = 4;
    c.l2_kib = 32;
    c.llc_kib = 128;
    return c;
}

/* The defaults without the prefetcher, whose extra fills would blur most answers. */
static memsys *plain(void)
{
    uarch_config c = defaults();
    c.prefetch_next_line = 0;
    return memsys_new(&c);
}

static void expect(mem_result r, uint64_t ready, int level)
{
    cr_expect_eq(r.ready, ready, "ready %llu, expected %llu", (unsigned long long)r.ready,
                 (unsigned long long)ready);
    cr_expect_eq(r.level, level, "level %d, expected %d", r.level, level);
}

/* Evict x from every level whose sets are `stride` apart (and those above)
 * with 8 conflicting lines. Odd multiples of the stride: a line an earlier
 * call with a smaller stride brought in would not be new. */
static void evict(memsys *m, uint64_t x, uint64_t stride)
{
    for (uint64_t k = 1; k < 16; k += 2)
        memsys_warm_load(m, x + k * stride);
}

/* ---------------------------------------------------------------- latency */

Test(memsys, load_hit_latency)
{
    memsys *m = plain();
    expect(memsys_load(m, BASE, 0), DRAM_LOAD, MEM_DRAM);
    expect(memsys_load(m, BASE + 8, 1000), 1000 + L1D_HIT, MEM_L1);
    expect(memsys_load(m, BASE + 63, 2000), 2000 + L1D_HIT, MEM_L1);
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect_eq(s->l1d_loads, 3);
    cr_expect_eq(s->l1d_misses, 1);
    cr_expect_eq(s->dram_reads, 1);
    memsys_free(m);
}

Test(memsys, miss_latency_of_each_level)
{
    memsys *m = plain();
    uint64_t x = BASE + 5 * 64;
    memsys_warm_load(m, x);
    evict(m, x, L1_SET_STRIDE);
    expect(memsys_load(m, x, 1000), 1000 + L2_HIT, MEM_L2);
    evict(m, x, L2_SET_STRIDE);
    expect(memsys_load(m, x, 2000), 2000 + LLC_HIT, MEM_LLC);
    evict(m, x, LLC_SET_STRIDE);
    expect(memsys_load(m, x, 3000), 3000 + DRAM_LOAD, MEM_DRAM);
    memsys_free(m);
}

Test(memsys, absent_levels_are_skipped)
{
    uarch_config c = defaults();
    c.prefetch_next_line = 0;
    c.l2_kib = 0;
    memsys *m = memsys_new(&c);
    expect(memsys_load(m, BASE, 0), 4 + 30 + 135, MEM_DRAM);
    evict(m, BASE, L1_SET_STRIDE);
    expect(memsys_load(m, BASE, 1000), 1000 + 4 + 30, MEM_LLC);
    cr_expect_eq(memsys_get_stats(m)->l2_accesses, 0);
    memsys_free(m);

    c.llc_kib = 0;
    m = memsys_new(&c);
    expect(memsys_load(m, BASE, 0), 4 + 135, MEM_DRAM);
    memsys_free(m);
}

Test(memsys, dram_latency_rounds_up_to_whole_cycles)
{
    uarch_config c = defaults();
    c.prefetch_next_line = 0;
    c.l2_kib = c.llc_kib = 0;
    c.freq_mhz = 1000;
    c.dram_latency_ns = 50;   /* exactly 50 cycles */
    memsys *m = memsys_new(&c);
    expect(memsys_load(m, BASE, 0), 4 + 50, MEM_DRAM);
    memsys_free(m);
    c.freq_mhz = 1500;        /* 75 cycles */
    c.dram_latency_ns = 51;   /* 76.5 -> 77 cycles */
    m = memsys_new(&c);
    expect(memsys_load(m, BASE, 0), 4 + 77, MEM_DRAM);
    memsys_free(m);
}

Test(memsys, store_allocates_and_owns_the_line)
{
    memsys *m = plain();
    expect(memsys_store(m, BASE, 0), DRAM_LOAD, MEM_DRAM);
    expect(memsys_store(m, BASE + 16, 500), 500 + L1D_HIT, MEM_L1);
    expect(memsys_load(m, BASE + 32, 600), 600 + L1D_HIT, MEM_L1);
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect_eq(s->l1d_stores, 2);
    cr_expect_eq(s->l1d_loads, 1);
    cr_expect_eq(s->l1d_misses, 1);
    memsys_free(m);
}

Test(memsys, ifetch_latency_and_shared_l2)
{
    memsys *m = plain();
    expect(memsys_ifetch(m, BASE, 0), IFETCH_DRAM, MEM_DRAM);
    expect(memsys_ifetch(m, BASE + 4, 200), 201, MEM_L1);
    /* the data side misses its own L1 but finds the line in the shared L2 */
    expect(memsys_load(m, BASE, 300), 300 + L2_HIT, MEM_L2);
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect_eq(s->l1i_accesses, 2);
    cr_expect_eq(s->l1i_misses, 1);
    cr_expect_eq(s->l2_accesses, 2);
    cr_expect_eq(s->l2_misses, 1);
    memsys_free(m);
}

Test(memsys, data_miss_merges_with_instruction_fill_in_l2)
{
    memsys *m = plain();
    /* L1I at 0, L2 at 1, LLC at 15, DRAM at 45: ready 180 */
    expect(memsys_ifetch(m, BASE, 0), IFETCH_DRAM, MEM_DRAM);
    /* the L1D misses at 5 and reaches the L2 at 9, where the fill is in flight */
    expect(memsys_load(m, BASE, 5), IFETCH_DRAM, MEM_DRAM);
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect_eq(s->l2_misses, 1);
    cr_expect_eq(s->dram_reads, 1);
    cr_expect_eq(s->l1d_mshr_merges, 0, "a merge in the L2 is not an L1D merge");
    memsys_free(m);
}

/* -------------------------------------------------------- replacement */

Test(memsys, lru_evicts_least_recently_used)
{
    memsys *m = plain();
    uint64_t a[10];
    for (int i = 0; i < 10; i++)
        a[i] = BASE + (uint64_t)i * L1_SET_STRIDE;
    for (int i = 0; i < 8; i++)
        cr_expect_eq(memsys_warm_load(m, a[i]), MEM_DRAM);
    cr_expect_eq(memsys_warm_load(m, a[0]), MEM_L1);   /* a[1] is now the LRU */
    memsys_warm_load(m, a[8]);                          /* evicts a[1] */
    memsys_warm_load(m, a[9]);                          /* evicts a[2] */
    cr_expect_eq(memsys_warm_load(m, a[0]), MEM_L1);
    for (int i = 3; i < 10; i++)
        cr_expect_eq(memsys_warm_load(m, a[i]), MEM_L1, "a[%d]", i);
    cr_expect_eq(memsys_warm_load(m, a[1]), MEM_L2);   /* evicts a[0], the LRU again */
    cr_expect_eq(memsys_warm_load(m, a[2]), MEM_L2);   /* evicts a[3] */
    cr_expect_eq(memsys_warm_load(m, a[0]), MEM_L2);
    cr_expect_eq(memsys_warm_load(m, a[4]), MEM_L2);
    memsys_free(m);
}

Test(memsys, dirty_eviction_writes_dram)
{
    uarch_config c = defaults();
    c.prefetch_next_line = 0;
    c.l2_kib = c.llc_kib = 0;
    memsys *m = memsys_new(&c);
    memsys_warm_store(m, BASE);
    for (uint64_t k = 1; k < 8; k++)
        memsys_warm_load(m, BASE + k * L1_SET_STRIDE);
    cr_expect_eq(memsys_get_stats(m)->dram_writes, 0);
    memsys_warm_load(m, BASE + 8 * L1_SET_STRIDE);
    cr_expect_eq(memsys_get_stats(m)->dram_writes, 1);
    /* clean lines leave silently */
    for (uint64_t k = 9; k < 40; k++)
        memsys_warm_load(m, BASE + k * L1_SET_STRIDE);
    cr_expect_eq(memsys_get_stats(m)->dram_writes, 1);
    cr_expect_eq(memsys_get_stats(m)->dram_reads, 40);
    memsys_free(m);
}

Test(memsys, dirty_line_is_written_to_dram_once_through_every_level)
{
    memsys *m = plain();
    memsys_store(m, BASE, 0);
    memsys_store(m, BASE + 8, 1000);
    for (uint64_t k = 1; k <= 64; k++)
        memsys_load(m, BASE + k * LLC_SET_STRIDE, 1000 + 1000 * k);
    cr_expect_eq(memsys_get_stats(m)->dram_writes, 1);
    /* and it really left: the next read comes from DRAM */
    cr_expect_eq(memsys_load(m, BASE, 100000).level, MEM_DRAM);
    memsys_free(m);
}

Test(memsys, write_back_dirties_the_copy_below)
{
    uarch_config c = defaults();
    c.prefetch_next_line = 0;
    c.llc_kib = 0;
    memsys *m = memsys_new(&c);
    memsys_warm_store(m, BASE);
    evict(m, BASE, L1_SET_STRIDE);   /* into the L2's clean copy */
    cr_expect_eq(memsys_get_stats(m)->dram_writes, 0);
    evict(m, BASE, L2_SET_STRIDE);
    cr_expect_eq(memsys_get_stats(m)->dram_writes, 1);
    memsys_free(m);
}

/* ---------------------------------------------------- MSHRs and DRAM */

Test(memsys, mshr_merge_returns_the_fill_time)
{
    memsys *m = plain();
    expect(memsys_load(m, BASE, 0), DRAM_LOAD, MEM_DRAM);
    expect(memsys_load(m, BASE, 10), DRAM_LOAD, MEM_DRAM);
    expect(memsys_store(m, BASE + 40, 50), DRAM_LOAD, MEM_DRAM);
    /* within the hit latency of the fill: still a merge, at the hit latency */
    expect(memsys_load(m, BASE, DRAM_LOAD - 1), DRAM_LOAD - 1 + L1D_HIT, MEM_DRAM);
    expect(memsys_load(m, BASE, DRAM_LOAD), DRAM_LOAD + L1D_HIT, MEM_L1);
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect_eq(s->l1d_misses, 1);
    cr_expect_eq(s->l1d_mshr_merges, 3);
    cr_expect_eq(s->dram_reads, 1);
    memsys_free(m);
}

Test(memsys, mshr_exhaustion_waits_for_the_first_to_free)
{
    memsys *m = plain();   /* 8 L1D MSHRs */
    for (uint64_t i = 0; i < 8; i++)
        expect(memsys_load(m, BASE + i * 64, 0), DRAM_LOAD + i * XFER, MEM_DRAM);
    cr_expect_eq(memsys_get_stats(m)->l1d_mshr_full, 0);
    /* the first MSHR frees at 183; the 9th miss starts then */
    expect(memsys_load(m, BASE + 8 * 64, 0), DRAM_LOAD + DRAM_LOAD, MEM_DRAM);
    cr_expect_eq(memsys_get_stats(m)->l1d_mshr_full, 1);
    /* a hit needs no MSHR */
    expect(memsys_load(m, BASE, 500), 500 + L1D_HIT, MEM_L1);
    memsys_free(m);
}

Test(memsys, dram_bandwidth_spaces_back_to_back_misses)
{
    memsys *m = plain();
    for (uint64_t i = 0; i < 6; i++)
        expect(memsys_load(m, BASE + i * 64, 0), DRAM_LOAD + i * XFER, MEM_DRAM);
    memsys_free(m);
}

Test(memsys, dram_bandwidth_keeps_fractional_cycles)
{
    uarch_config c = defaults();
    c.prefetch_next_line = 0;
    c.dram_mb_per_s = 16384;   /* 64 bytes x 3200 MHz / 16384 MB/s = 12.5 cycles a line */
    memsys *m = memsys_new(&c);
    const uint64_t want[] = {183, 196, 208, 221, 233, 246};   /* 183 + 12.5 i, rounded up */
    for (uint64_t i = 0; i < 6; i++)
        expect(memsys_load(m, BASE + i * 64, 0), want[i], MEM_DRAM);
    memsys_free(m);
}

Test(memsys, dram_queue_bounds_outstanding_requests)
{
    uarch_config c = defaults();
    c.prefetch_next_line = 0;
    c.dram_queue = 2;
    memsys *m = memsys_new(&c);
    expect(memsys_load(m, BASE, 0), DRAM_LOAD, MEM_DRAM);
    expect(memsys_load(m, BASE + 64, 0), DRAM_LOAD + XFER, MEM_DRAM);
    /* reaches DRAM at 48, waits for the first request to finish at 183 */
    expect(memsys_load(m, BASE + 128, 0), DRAM_LOAD + 135, MEM_DRAM);
    memsys_free(m);
}

Test(memsys, earlier_request_uses_an_idle_channel_gap)
{
    memsys *m = plain();
    expect(memsys_load(m, BASE, 1000), 1000 + DRAM_LOAD, MEM_DRAM);
    /* made later in program order but for an earlier cycle: not queued behind */
    expect(memsys_load(m, BASE + 64, 0), DRAM_LOAD, MEM_DRAM);
    /* a transfer that would overlap the first one's waits for it */
    expect(memsys_load(m, BASE + 128, 1000 - 3), 1000 + DRAM_LOAD + XFER, MEM_DRAM);
    memsys_free(m);
}

Test(memsys, dirty_write_back_takes_channel_time)
{
    uarch_config c = defaults();
    c.prefetch_next_line = 0;
    c.l2_kib = c.llc_kib = 0;
    c.l1d_kib = 1;
    c.l1d_ways = 1;   /* 16 sets: lines 1 KiB apart conflict */
    memsys *m = memsys_new(&c);
    memsys_warm_store(m, BASE);
    /* the miss at 0 evicts the dirty line: the write takes the channel at
     * [0, 8), the read's transfer is at [131, 139) */
    expect(memsys_load(m, BASE + 1024, 0), 4 + 135, MEM_DRAM);
    cr_expect_eq(memsys_get_stats(m)->dram_writes, 1);
    /* a read whose transfer would overlap a write waits for it */
    memsys_warm_store(m, BASE + 2048 + 64);
    memsys_load(m, BASE + 3072 + 64, 865);   /* evicts it: the write takes [865, 873) */
    /* reaches DRAM at 734; its transfer would be [861, 869) */
    expect(memsys_load(m, BASE + 5 * 64, 730), 873 + XFER, MEM_DRAM);
    cr_expect_eq(memsys_get_stats(m)->dram_writes, 2);
    memsys_free(m);
}

/* ------------------------------------------------------------ prefetch */

Test(memsys, next_line_prefetch_makes_a_hit)
{
    uarch_config c = defaults();
    memsys *m = memsys_new(&c);
    expect(memsys_load(m, BASE, 0), DRAM_LOAD, MEM_DRAM);
    cr_expect_eq(memsys_get_stats(m)->prefetches, 1);
    /* the prefetch left with the demand miss and came second on the channel */
    expect(memsys_load(m, BASE + 64, 100), DRAM_LOAD + XFER, MEM_DRAM);
    expect(memsys_load(m, BASE + 64, 500), 500 + L1D_HIT, MEM_L1);
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect_eq(s->useful_prefetches, 1, "counted once");
    cr_expect_eq(s->prefetches, 1, "hits do not prefetch");
    cr_expect_eq(s->l1d_misses, 1);
    cr_expect_eq(s->l1d_mshr_merges, 1);
    memsys_free(m);
}

Test(memsys, prefetch_skips_present_lines)
{
    uarch_config c = defaults();
    memsys *m = memsys_new(&c);
    memsys_warm_load(m, BASE + 64);   /* prefetches BASE + 128 */
    memsys_warm_load(m, BASE);        /* BASE + 64 is present: no prefetch */
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect_eq(s->prefetches, 1);
    cr_expect_eq(memsys_warm_load(m, BASE + 128), MEM_L1);
    cr_expect_eq(s->useful_prefetches, 1);
    memsys_free(m);
}

Test(memsys, prefetch_never_waits_for_an_mshr)
{
    uarch_config c = defaults();
    c.l1d_mshrs = 2;
    memsys *m = memsys_new(&c);
    expect(memsys_load(m, BASE, 0), DRAM_LOAD, MEM_DRAM);   /* prefetches BASE + 64 */
    cr_expect_eq(memsys_get_stats(m)->prefetches, 1);
    /* both MSHRs busy: this miss waits for the first (183), its prefetch is dropped */
    uint64_t far = BASE + 8 * L1_SET_STRIDE;
    expect(memsys_load(m, far, 10), DRAM_LOAD + DRAM_LOAD, MEM_DRAM);
    cr_expect_eq(memsys_get_stats(m)->l1d_mshr_full, 1);
    cr_expect_eq(memsys_get_stats(m)->prefetches, 1);
    expect(memsys_load(m, far + 64, 5000), 5000 + DRAM_LOAD, MEM_DRAM);
    cr_expect_eq(memsys_get_stats(m)->prefetches, 2);
    memsys_free(m);
}

/* --------------------------------------------------- working-set sweeps */

/* Chase a random cyclic permutation of the lines of `bytes` (every set gets
 * the same number of lines, each revisited in the same order, so true LRU
 * either keeps all of a set's lines or none); after one pass, every load
 * must hit `level` at `latency`. */
static void sweep(uint64_t bytes, int level, uint64_t latency)
{
    memsys *m = plain();
    uint64_t n = bytes / 64;
    uint64_t *order = malloc(n * sizeof *order);
    cr_assert_not_null(order);
    for (uint64_t i = 0; i < n; i++)
        order[i] = BASE + i * 64;
    uint64_t rng = 88172645463325252ULL;
    for (uint64_t i = n - 1; i > 0; i--) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        uint64_t j = rng % (i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    uint64_t now = 0;
    for (uint64_t i = 0; i < n; i++)
        now = memsys_load(m, order[i], now).ready;
    int wrong = 0;
    for (uint64_t i = 0; i < n; i++) {
        mem_result r = memsys_load(m, order[i], now);
        wrong += r.level != level || r.ready != now + latency;
        now = r.ready;
    }
    cr_expect_eq(wrong, 0, "%llu KiB: %d of %llu loads not at level %d in %llu cycles",
                 (unsigned long long)bytes >> 10, wrong, (unsigned long long)n, level,
                 (unsigned long long)latency);
    free(order);
    memsys_free(m);
}

Test(memsys, sweep_just_under_l1) { sweep(28 << 10, MEM_L1, L1D_HIT); }
Test(memsys, sweep_just_over_l1) { sweep(40 << 10, MEM_L2, L2_HIT); }
Test(memsys, sweep_just_under_l2) { sweep(480 << 10, MEM_L2, L2_HIT); }
Test(memsys, sweep_just_over_l2) { sweep(576 << 10, MEM_LLC, LLC_HIT); }
Test(memsys, sweep_just_under_llc) { sweep(3584 << 10, MEM_LLC, LLC_HIT); }
Test(memsys, sweep_just_over_llc) { sweep(4608 << 10, MEM_DRAM, DRAM_LOAD); }

/* ------------------------------------------------------ warm state */

/* A reproducible mix of instruction fetches, loads and stores: a hot region,
 * a wide one, and sequential runs for the prefetcher. */
typedef struct access_gen {
    uint64_t rng;
} access_gen;

static uint64_t gen_next(access_gen *g, int *kind)
{
    g->rng ^= g->rng << 13, g->rng ^= g->rng >> 7, g->rng ^= g->rng << 17;
    uint64_t r = g->rng;
    *kind = (int)(r % 3);
    switch ((r >> 8) % 4) {
    case 0: return BASE + (r >> 16) % (16 << 10);
    case 1: return BASE + (r >> 16) % (12 << 20);
    case 2: return BASE + (1 << 20) + ((r >> 16) % 4096) * 64;
    default: return 0x400000 + (r >> 16) % (256 << 10);
    }
}

static void warm(memsys *m, uint64_t seed, int n)
{
    access_gen g = {seed};
    for (int i = 0; i < n; i++) {
        int kind;
        uint64_t a = gen_next(&g, &kind);
        if (kind == 0) memsys_warm_ifetch(m, a);
        else if (kind == 1) memsys_warm_load(m, a);
        else memsys_warm_store(m, a);
    }
}

/* Timed accesses; returns how many results differ from `other` (if given). */
static int run_timed(memsys *m, memsys *other, uint64_t seed, int n)
{
    access_gen g = {seed};
    int differ = 0;
    for (int i = 0; i < n; i++) {
        int kind;
        uint64_t a = gen_next(&g, &kind), now = (uint64_t)i * 3;
        mem_result (*access)(memsys *, uint64_t, uint64_t) =
            kind == 0 ? memsys_ifetch : kind == 1 ? memsys_load : memsys_store;
        mem_result r = access(m, a, now);
        if (other) {
            mem_result o = access(other, a, now);
            differ += r.ready != o.ready || r.level != o.level;
        }
    }
    return differ;
}

Test(memsys, warm_save_restore_gives_identical_results)
{
    uarch_config c = defaults();
    memsys *a = memsys_new(&c), *b = memsys_new(&c), *cold = memsys_new(&c);
    warm(a, 1, 300000);
    ustate s = {0};
    memsys_save(a, &s);
    cr_assert(memsys_restore(b, &s));
    cr_expect_eq(s.pos, s.len, "restore reads all that save wrote");
    memsys_reset_stats(a);
    memsys_reset_stats(b);
    cr_expect_eq(run_timed(a, b, 2, 100000), 0);
    cr_expect_eq(memcmp(memsys_get_stats(a), memsys_get_stats(b), sizeof(memsys_stats)), 0);
    cr_expect_gt(memsys_get_stats(a)->dram_writes, 0);
    cr_expect_gt(memsys_get_stats(a)->useful_prefetches, 0);
    /* a second round trip is byte-exact */
    warm(a, 3, 100000);
    ustate s2 = {0}, s3 = {0};
    memsys_save(a, &s2);
    cr_assert(memsys_restore(b, &s2));
    memsys_save(b, &s3);
    cr_expect(s2.len == s3.len && memcmp(s2.data, s3.data, s2.len) == 0);
    /* and the warm state matters */
    cr_expect_gt(run_timed(b, cold, 4, 20000), 1000);
    ustate_free(&s);
    ustate_free(&s2);
    ustate_free(&s3);
    memsys_free(a);
    memsys_free(b);
    memsys_free(cold);
}

/* Warming requests take a path of their own (memsys.c), which must leave
 * the state and counts timing requests leave when nothing waits (requests
 * far apart: every MSHR idle, so every prefetch issues), but for the fill
 * levels of L1 lines (warming keeps the level below the L1s'). */
Test(memsys, warming_leaves_the_state_timing_leaves)
{
    uarch_config c = small_caches();
    memsys *warmed = memsys_new(&c), *timed = memsys_new(&c);
    access_gen g = {11};
    int levels_differ = 0;
    for (int i = 0; i < 200000; i++) {
        int kind;
        uint64_t a = gen_next(&g, &kind), now = (uint64_t)i * 100000;
        int w = kind == 0 ? memsys_warm_ifetch(warmed, a) : kind == 1 ? memsys_warm_load(warmed, a)
                                                                   : memsys_warm_store(warmed, a);
        mem_result r = kind == 0 ? memsys_ifetch(timed, a, now) : kind == 1 ? memsys_load(timed, a, now)
                                                                         : memsys_store(timed, a, now);
        levels_differ += w != r.level;
    }
    cr_expect_eq(levels_differ, 0, "%d requests served from another level", levels_differ);
    const memsys_stats *a = memsys_get_stats(warmed), *b = memsys_get_stats(timed);
    cr_expect(a->llc_misses > 1000 && a->dram_writes > 1000 && a->prefetches > 1000 && a->useful_prefetches > 100);
    cr_expect_eq(memcmp(a, b, sizeof *a), 0, "the counts differ");
    ustate sa = {0}, sb = {0};
    memsys_save(warmed, &sa);
    memsys_save(timed, &sb);
    cr_assert_eq(sa.len, sb.len);
    /* magic, line size, four geometries; then each line's tag and flags,
     * the L1I's and the L1D's first: their fill levels left out */
    size_t l1_lines = 2 * (4 << 10) / 64, header = 8 + 8 + 4 * 16, differ = 0;
    for (size_t i = header; i < sa.len; i++) {
        bool l1_flags = i < header + 9 * l1_lines && (i - header) % 9 == 8;
        uint8_t mask = l1_flags ? (uint8_t)(CACHE_DIRTY | CACHE_PREFETCHED) : 0xff;
        differ += (sa.data[i] & mask) != (sb.data[i] & mask);
    }
    cr_expect_eq(differ, 0, "%zu bytes of the states differ", differ);
    ustate_free(&sa);
    ustate_free(&sb);
    memsys_free(warmed);
    memsys_free(timed);
}

/* A line's fill cycle stays with it while warming requests reorder its set
 * (the cycles move only once a timing request has set one, cache.h). */
Test(memsys, warming_keeps_a_fill_in_flight_with_its_line)
{
    memsys *m = plain();
    memsys_load(m, BASE, 1000); /* from DRAM, in flight until 1000 + DRAM_LOAD */
    for (int k = 1; k <= 3; k++)
        memsys_warm_load(m, BASE + (uint64_t)k * LLC_SET_STRIDE); /* the same set everywhere: BASE moves down */
    memsys_warm_load(m, BASE + LLC_SET_STRIDE); /* and again, a hit below it */
    expect(memsys_load(m, BASE, 1010), 1000 + DRAM_LOAD, MEM_DRAM);
    memsys_quiesce(m);
    expect(memsys_load(m, BASE, 10), 10 + L1D_HIT, MEM_L1);
    memsys_free(m);
}

Test(memsys, restored_lines_are_ready_at_cycle_zero)
{
    memsys *a = plain(), *b = plain();
    memsys_load(a, BASE, 1000000);   /* in flight until 1000183 */
    ustate s = {0};
    memsys_save(a, &s);
    cr_assert(memsys_restore(b, &s));
    expect(memsys_load(b, BASE, 10), 10 + L1D_HIT, MEM_L1);
    ustate_free(&s);
    memsys_free(a);
    memsys_free(b);
}

Test(memsys, restore_into_another_geometry_fails)
{
    uarch_config c = defaults();
    memsys *a = memsys_new(&c);
    memsys_warm_load(a, BASE);
    ustate s = {0};
    memsys_save(a, &s);
    uarch_config other[4] = {c, c, c, c};
    other[0].l1d_ways = 4;
    other[1].llc_kib = 0;
    other[2].line_bytes = 128;
    other[3].l2_kib = 1024;
    for (int i = 0; i < 4; i++) {
        memsys *b = memsys_new(&other[i]);
        memsys_warm_load(b, BASE + 4096);
        s.pos = 0;
        s.bad = false;
        cr_expect_not(memsys_restore(b, &s), "geometry %d", i);
        cr_expect_eq(memsys_warm_load(b, BASE + 4096), MEM_L1, "geometry %d: left as it was", i);
        memsys_free(b);
    }
    /* latencies and sizes of queues are not geometry */
    uarch_config same = c;
    same.l2_latency = 20;
    same.l1d_mshrs = 2;
    memsys *b = memsys_new(&same);
    s.pos = 0;
    s.bad = false;
    cr_expect(memsys_restore(b, &s));
    memsys_free(b);
    ustate_free(&s);
    memsys_free(a);
}

Test(memsys, restore_of_damaged_state_fails_cold)
{
    memsys *a = plain(), *b = plain();
    memsys_warm_ifetch(a, BASE);   /* the first L1I way of set 0 */
    memsys_warm_load(b, BASE + 4096);
    ustate s = {0};
    memsys_save(a, &s);
    ustate cut = {.data = s.data, .len = s.len - 1};
    cr_expect_not(memsys_restore(b, &cut));
    cr_expect_eq(memsys_warm_load(b, BASE + 4096), MEM_DRAM, "cold after a failed restore");
    /* a line in the wrong set */
    size_t header = 2 * 8 + 4 * 16;
    uint64_t tag;
    memcpy(&tag, s.data + header, 8);
    cr_assert_eq(tag, BASE >> 6);
    ustate bad = {.data = s.data, .len = s.len};
    cr_assert(memsys_restore(b, &bad));
    tag += 1;
    memcpy(s.data + header, &tag, 8);
    bad = (ustate){.data = s.data, .len = s.len};
    cr_expect_not(memsys_restore(b, &bad));
    /* a line twice in its set */
    memsys_warm_ifetch(a, BASE + L1_SET_STRIDE); /* the L1I's set 0: BASE + 4096, then BASE */
    ustate two = {0};
    memsys_save(a, &two);
    bad = (ustate){.data = two.data, .len = two.len};
    cr_assert(memsys_restore(b, &bad));
    memcpy(two.data + header + 9, two.data + header, 8); /* the second way's tag: the first's */
    bad = (ustate){.data = two.data, .len = two.len};
    cr_expect_not(memsys_restore(b, &bad));
    ustate_free(&two);
    ustate_free(&s);
    memsys_free(a);
    memsys_free(b);
}

Test(memsys, quiesce_forgets_fills_in_flight)
{
    memsys *m = plain();
    memsys_load(m, BASE, 1000000);
    expect(memsys_load(m, BASE, 10), 1000000 + DRAM_LOAD, MEM_DRAM);
    memsys_quiesce(m);
    expect(memsys_load(m, BASE, 10), 10 + L1D_HIT, MEM_L1);
    /* and the MSHRs: eight new misses at cycle 0 do not wait */
    for (uint64_t i = 1; i <= 8; i++)
        memsys_load(m, BASE + i * 64, 1000000);
    memsys_quiesce(m);
    expect(memsys_load(m, BASE + 9 * 64, 0), DRAM_LOAD, MEM_DRAM);
    memsys_free(m);
}

Test(memsys, warming_reports_levels_and_counts_stats)
{
    memsys *m = plain();
    cr_expect_eq(memsys_warm_load(m, BASE), MEM_DRAM);
    cr_expect_eq(memsys_warm_store(m, BASE), MEM_L1);
    cr_expect_eq(memsys_warm_ifetch(m, BASE), MEM_L2);
    cr_expect_eq(memsys_warm_ifetch(m, BASE), MEM_L1);
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect_eq(s->l1d_loads, 1);
    cr_expect_eq(s->l1d_stores, 1);
    cr_expect_eq(s->l1i_accesses, 2);
    cr_expect_eq(s->l1d_misses + s->l1i_misses, 2);
    cr_expect_eq(s->dram_reads, 1);
    memsys_reset_stats(m);
    cr_expect_eq(s->l1d_loads, 0);
    /* warm fills are ready at once */
    expect(memsys_load(m, BASE, 0), L1D_HIT, MEM_L1);
    memsys_free(m);
}

/* State and counts of m, to compare. */
static void save_all(memsys *m, ustate *s)
{
    memsys_save(m, s);
    ustate_put(s, memsys_get_stats(m), sizeof(memsys_stats));
}

static bool same_state(const ustate *a, const ustate *b) { return a->len == b->len && !memcmp(a->data, b->data, a->len); }

/* A wrong path's fetch brings its line into the levels below the L1s, so
 * that the correct path's first fetch of it hits the L2 where a serial
 * detailed run, whose front end fetched it on a wrong path, has it; the
 * L1I and every count untouched. */
Test(memsys, wrong_path_fetch_fills_the_levels_below_the_l1s)
{
    memsys *m = plain();
    memsys_warm_wrong_path(m, BASE);
    const memsys_stats *s = memsys_get_stats(m);
    cr_expect(s->l1i_accesses + s->l2_accesses + s->llc_accesses + s->dram_reads == 0, "counted nothing");
    cr_expect_null(cache_peek(memsys_l1(m, true), BASE / 64), "the L1I does not have it");
    cr_expect_eq(memsys_warm_ifetch(m, BASE), MEM_L2);
    memsys_reset_stats(m);
    memsys_warm_wrong_path(m, BASE + LLC_SET_STRIDE);
    memsys_warm_wrong_path(m, BASE + 64);
    expect(memsys_load(m, BASE + 64, 0), L2_HIT, MEM_L2);
    memsys_free(m);
}

/* A line the L2 has already stays where it is in its set's order (a wrong
 * path fetches it now and then, not as often as the warming run meets the
 * branch): nothing changes. Nor without levels below the L1s. */
Test(memsys, wrong_path_fetch_of_a_line_below_changes_nothing)
{
    memsys *m = plain();
    memsys_warm_ifetch(m, BASE);
    memsys_warm_ifetch(m, BASE + L2_SET_STRIDE);
    ustate before = {0}, after = {0};
    save_all(m, &before);
    memsys_warm_wrong_path(m, BASE);
    save_all(m, &after);
    cr_expect(same_state(&before, &after), "the state or the counts changed");
    memsys_free(m);
    uarch_config c = defaults();
    c.l2_kib = c.llc_kib = 0;
    m = memsys_new(&c);
    ustate_free(&before), ustate_free(&after);
    save_all(m, &before);
    memsys_warm_wrong_path(m, BASE);
    save_all(m, &after);
    cr_expect(same_state(&before, &after), "without levels below the L1s");
    ustate_free(&before), ustate_free(&after);
    memsys_free(m);
}

/* What memsys_warm_is_repeat approves changes nothing but an access count:
 * random warming fetches, loads and stores over twice the lines small L1s
 * hold (with the prefetcher: its marks and fills), the state saved around
 * each approved one; and it approves most accesses to the line just used. */
Test(memsys, repeats_change_only_access_counts)
{
    uarch_config c = defaults();
    c.l1i_kib = c.l1d_kib = 1; /* 8 sets x 2 ways */
    c.l1i_ways = c.l1d_ways = 2;
    c.l2_kib = 4;
    c.l2_ways = 4;
    c.llc_kib = 16;
    memsys *m = memsys_new(&c);
    uint64_t seed = 7, approved = 0, last_line = 0, again = 0, again_approved = 0;
    for (int i = 0; i < 20000; i++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        int kind = (int)(seed % 3); /* 0 fetch, 1 load, 2 store */
        uint64_t line = (seed >> 8) % 4 == 0 ? last_line : BASE / 64 + (seed >> 16) % 32;
        const cache *l1 = memsys_l1(m, kind == 0);
        bool repeat = memsys_warm_is_repeat(l1, line, kind == 2);
        ustate before = {0}, after = {0};
        memsys_stats counts = *memsys_get_stats(m);
        if (repeat) memsys_save(m, &before);
        int level = kind == 0 ? memsys_warm_ifetch(m, line * 64) : kind == 1 ? memsys_warm_load(m, line * 64)
                                                                          : memsys_warm_store(m, line * 64);
        if (repeat) {
            approved++;
            memsys_save(m, &after);
            cr_assert_eq(level, MEM_L1);
            cr_assert(before.len == after.len && memcmp(before.data, after.data, before.len) == 0,
                      "access %d changed the state", i);
            counts.l1i_accesses += kind == 0;
            counts.l1d_loads += kind == 1;
            counts.l1d_stores += kind == 2;
            cr_assert(memcmp(&counts, memsys_get_stats(m), sizeof counts) == 0, "access %d changed other counts", i);
        }
        again += line == last_line;
        again_approved += line == last_line && repeat;
        last_line = line;
        ustate_free(&before);
        ustate_free(&after);
    }
    cr_expect_gt(approved, 2000, "only %llu approved", (unsigned long long)approved);
    cr_expect_gt(again_approved * 2, again, "the line just used: %llu of %llu approved", (unsigned long long)again_approved,
                 (unsigned long long)again);
    memsys_free(m);
}

/* ------------------------------------------------------ deferred warming */

/* Requests below the L1s deferred to a log and made later, a few requests'
 * worth at a time, leave the hierarchy and its counts as making them at
 * once does: reads and write-backs (stores evict dirty lines), prefetches,
 * fetches, wrong paths' fetches, every level missing. */
Test(memsys, deferred_warming_ends_as_immediate)
{
    uarch_config c = small_caches();
    memsys *now = memsys_new(&c), *later = memsys_new(&c);
    enum { REQUESTS = 200000, ROOM = 64 * MEMSYS_BELOW_PER_REQUEST };
    uint64_t event[ROOM];
    memsys_log log = {.event = event};
    memsys_warm_defer(later, &log);
    uint64_t seed = 5;
    for (int i = 0; i < REQUESTS; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t addr = BASE + (seed >> 20 & 0xfffff), kind = seed >> 60;
        for (memsys *m = now; m; m = m == now ? later : NULL) {
            if (kind < 5) memsys_warm_store(m, addr);
            else if (kind < 13) memsys_warm_load(m, addr);
            else if (kind < 14) memsys_warm_wrong_path(m, addr & ~(uint64_t)3);
            else memsys_warm_ifetch(m, addr & ~(uint64_t)3);
        }
        cr_assert(log.n <= ROOM);
        if (log.n > ROOM - MEMSYS_BELOW_PER_REQUEST || seed >> 58 == 0) {
            memsys_warm_below(later, event, log.n);
            log.n = 0;
        }
    }
    memsys_warm_below(later, event, log.n);
    memsys_warm_defer(later, NULL);
    const memsys_stats *a = memsys_get_stats(now), *b = memsys_get_stats(later);
    cr_expect(a->llc_misses > REQUESTS / 100 && a->dram_writes > REQUESTS / 100 && a->prefetches > REQUESTS / 100,
              "every level missed, dirty lines reached DRAM, the prefetcher ran");
    cr_expect(memcmp(a, b, sizeof *a) == 0, "the counts");
    ustate x = {0}, y = {0};
    memsys_save(now, &x);
    memsys_save(later, &y);
    cr_expect(x.len == y.len && memcmp(x.data, y.data, x.len) == 0, "the lines");
    ustate_free(&x);
    ustate_free(&y);
    memsys_free(now);
    memsys_free(later);
}

/* What a warming run knows of the L1s' most recently used lines
 * (memsys_mru_view) never calls a request a repeat that the L1s would
 * change beyond a count: with and without the next-line prefetcher, and
 * with one set, where the prefetch lands in the set of the line it follows
 * (so the view knows nothing of the L1D after a request it could not call
 * a repeat). And it knows of most of the repeats there are: as many as
 * a run's next few requests to the same line make. */
static void expect_view_sound(uarch_config c, bool knows_most)
{
    memsys *m = memsys_new(&c);
    memsys_mru_view iview, dview;
    memsys_mru_view_init(m, true, &iview);
    memsys_mru_view_init(m, false, &dview);
    const cache *l1i = memsys_l1(m, true), *l1d = memsys_l1(m, false);
    uint64_t seed = 9, known = 0, repeats = 0, line = 0;
    for (int i = 0; i < 200000; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        /* runs of eight requests to a line: one of four lines 64 bytes
         * apart, or now and then anywhere in 64 KiB */
        if (i % 8 == 0) line = seed >> 61 == 0 ? seed >> 20 & 0x3ff : seed >> 24 & 0x3;
        uint64_t addr = BASE + line * 64 + (seed >> 30 & 0x3f), kind = seed >> 56 & 7;
        bool instr = kind == 0, write = kind >= 5;
        memsys_mru_view *v = instr ? &iview : &dview;
        bool exact = memsys_warm_is_repeat(instr ? l1i : l1d, addr >> 6, write);
        repeats += exact;
        if (memsys_mru_view_is_repeat(v, addr, write)) {
            cr_assert(exact, "request %d (%s %#llx) called a repeat", i, instr ? "fetch" : write ? "store" : "load",
                      (unsigned long long)addr);
            known++;
            continue;
        }
        memsys_mru_view_note(v, addr, write);
        uint64_t req[1] = {memsys_warm_request(instr ? MEMSYS_FETCH : write ? MEMSYS_STORE : MEMSYS_LOAD, addr)};
        memsys_warm_requests(m, req, 1, NULL);
    }
    cr_expect(known > repeats * 3 / 4 || !knows_most, "the view knew of %llu of %llu repeats", (unsigned long long)known,
              (unsigned long long)repeats);
    free(iview.mru);
    free(dview.mru);
    memsys_free(m);
}

Test(memsys, mru_view_knows_only_repeats)
{
    uarch_config c = defaults();
    expect_view_sound(c, true);
    c.prefetch_next_line = false;
    expect_view_sound(c, true);
    c.prefetch_next_line = true;
    c.l1d_kib = 1;
    c.l1d_ways = 1024 / c.line_bytes; /* one set */
    expect_view_sound(c, false);
}

/* cache_lookup_wide (the lookups below the L1s) against cache_lookup: the
 * same position, and the same tags, flags and order after every lookup and
 * every fill of a miss, on requests that hit every place of a set's order,
 * with 8 ways (the SSE2 search) and 4 (the loop). */
static void expect_wide_lookup_as_plain(unsigned ways)
{
    cache a, b;
    cache_init(&a, "plain", 16 * ways * 64, ways, 64, 1, 1, MEM_L2);
    cache_init(&b, "wide", 16 * ways * 64, ways, 64, 1, 1, MEM_L2);
    uint64_t seed = 5, hits = 0;
    for (int i = 0; i < 100000; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t tag = (seed >> 40) % (16 * (ways + 3)); /* some more lines than the cache holds */
        uint64_t pa = cache_lookup(&a, tag), pb = cache_lookup_wide(&b, tag);
        cr_assert_eq(pa, pb, "lookup %d of line %llu: position %llu, the plain lookup's %llu", i, (unsigned long long)tag,
                     (unsigned long long)pb, (unsigned long long)pa);
        if (pa == CACHE_ABSENT) {
            cache_line line = {.tag = tag, .flags = (uint8_t)(seed >> 20 & 1)};
            cache_victim va = cache_insert(&a, &line), vb = cache_insert(&b, &line);
            cr_assert(va.tag == vb.tag && va.dirty == vb.dirty, "fill %d evicted another line", i);
        } else {
            hits++;
        }
        size_t n = 16 * ways;
        cr_assert(memcmp(a.tags, b.tags, n * sizeof *a.tags) == 0 && memcmp(a.flags, b.flags, n) == 0 &&
                      memcmp(a.order, b.order, n) == 0,
                  "the state differs after lookup %d", i);
    }
    cr_expect(hits > 10000 && hits < 90000, "%llu hits of 100000", (unsigned long long)hits);
    cache_free(&a);
    cache_free(&b);
}

Test(memsys, wide_lookup_finds_and_orders_as_the_plain_one)
{
    expect_wide_lookup_as_plain(8);
    expect_wide_lookup_as_plain(4);
}
