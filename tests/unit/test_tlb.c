/* Translation timing (lib/uarch/tlb.c), with known answers under the default
 * configuration: 32-entry L1 TLBs, a 512-entry direct-mapped L2 TLB 4
 * cycles away and a 60-cycle page walk, over 4 KiB pages. */
#include <criterion/criterion.h>
#include <string.h>

#include "uarch/tlb.h"

enum { L2_HIT = 4, WALK = 4 + 60 };

#define PAGE(n) ((uint64_t)(n) << 12)

static uarch_config defaults(void)
{
    uarch_config c;
    uarch_config_defaults(&c);
    return c;
}

static void expect(tlb_result r, uint64_t ready, bool l1_miss, bool l2_miss)
{
    cr_expect_eq(r.ready, ready, "ready %llu, expected %llu", (unsigned long long)r.ready,
                 (unsigned long long)ready);
    cr_expect_eq(r.l1_miss, l1_miss, "l1_miss %d, expected %d", r.l1_miss, l1_miss);
    cr_expect_eq(r.l2_miss, l2_miss, "l2_miss %d, expected %d", r.l2_miss, l2_miss);
}

Test(tlb, hit_and_miss_latencies)
{
    uarch_config c = defaults();
    tlbs *t = tlbs_new(&c);
    expect(tlbs_translate(t, false, PAGE(7) + 123, 100), 100 + WALK, true, true);
    expect(tlbs_translate(t, false, PAGE(7) + 4095, 200), 200, false, false);
    /* the I-TLB misses too, but the walk filled the shared L2 TLB */
    expect(tlbs_translate(t, true, PAGE(7), 300), 300 + L2_HIT, true, false);
    expect(tlbs_translate(t, true, PAGE(7) + 8, 400), 400, false, false);
    const tlb_stats *s = tlbs_get_stats(t);
    cr_expect_eq(s->dtlb_accesses, 2);
    cr_expect_eq(s->dtlb_misses, 1);
    cr_expect_eq(s->itlb_accesses, 2);
    cr_expect_eq(s->itlb_misses, 1);
    cr_expect_eq(s->l2_misses, 1);
    tlbs_free(t);
}

Test(tlb, without_an_l2_tlb_every_l1_miss_walks)
{
    uarch_config c = defaults();
    c.l2tlb_entries = 0;
    tlbs *t = tlbs_new(&c);
    expect(tlbs_translate(t, false, PAGE(1), 0), 60, true, true);
    expect(tlbs_translate(t, true, PAGE(1), 100), 160, true, true);
    cr_expect_eq(tlbs_get_stats(t)->l2_misses, 2);
    tlbs_free(t);
}

Test(tlb, l1_replacement_is_lru)
{
    uarch_config c = defaults();
    tlbs *t = tlbs_new(&c);
    for (int p = 0; p < 32; p++)
        tlbs_warm(t, false, PAGE(p));
    tlbs_warm(t, false, PAGE(0));    /* page 1 is now the LRU */
    tlbs_warm(t, false, PAGE(32));   /* evicts page 1 */
    expect(tlbs_translate(t, false, PAGE(0), 1000), 1000, false, false);
    for (int p = 2; p <= 32; p++)
        expect(tlbs_translate(t, false, PAGE(p), 1000), 1000, false, false);
    expect(tlbs_translate(t, false, PAGE(1), 1000), 1000 + L2_HIT, true, false);   /* evicts page 0 */
    expect(tlbs_translate(t, false, PAGE(0), 2000), 2000 + L2_HIT, true, false);   /* evicts page 2 */
    expect(tlbs_translate(t, false, PAGE(3), 3000), 3000, false, false);
    expect(tlbs_translate(t, false, PAGE(2), 3000), 3000 + L2_HIT, true, false);
    /* the I-TLB is separate: none of this is in it */
    expect(tlbs_translate(t, true, PAGE(3), 4000), 4000 + L2_HIT, true, false);
    tlbs_free(t);
}

Test(tlb, l2_tlb_is_direct_mapped)
{
    uarch_config c = defaults();
    c.dtlb_entries = 1;   /* every other page misses the L1 */
    tlbs *t = tlbs_new(&c);
    tlbs_warm(t, false, PAGE(5));
    tlbs_warm(t, false, PAGE(6));
    expect(tlbs_translate(t, false, PAGE(5), 100), 100 + L2_HIT, true, false);
    tlbs_warm(t, false, PAGE(5 + 512));   /* same L2 entry as page 5 */
    expect(tlbs_translate(t, false, PAGE(5), 200), 200 + WALK, true, true);
    expect(tlbs_translate(t, false, PAGE(6), 300), 300 + L2_HIT, true, false);
    tlbs_free(t);
}

Test(tlb, misses_merge_with_a_walk_in_flight)
{
    uarch_config c = defaults();
    tlbs *t = tlbs_new(&c);
    expect(tlbs_translate(t, false, PAGE(9), 0), WALK, true, true);
    /* the same page again while its walk runs: wait for it, no second walk */
    expect(tlbs_translate(t, false, PAGE(9) + 64, 10), WALK, true, true);
    /* the other L1 TLB misses, and finds the walk in flight in the L2 TLB */
    expect(tlbs_translate(t, true, PAGE(9), 20), WALK, true, true);
    expect(tlbs_translate(t, true, PAGE(9), 30), WALK, true, true);
    expect(tlbs_translate(t, true, PAGE(9), WALK), WALK, false, false);
    expect(tlbs_translate(t, false, PAGE(9), WALK), WALK, false, false);
    const tlb_stats *s = tlbs_get_stats(t);
    cr_expect_eq(s->dtlb_misses, 1);
    cr_expect_eq(s->itlb_misses, 1);
    cr_expect_eq(s->l2_misses, 1);
    /* a walk ending within the L2 TLB latency: the L2 TLB hit is the answer */
    expect(tlbs_translate(t, false, PAGE(10), 0), WALK, true, true);
    expect(tlbs_translate(t, true, PAGE(10), WALK - 3), WALK - 3 + L2_HIT, true, false);
    tlbs_free(t);
}

Test(tlb, streaming_pages_overlap_their_walks)
{
    uarch_config c = defaults();
    tlbs *t = tlbs_new(&c);
    /* one access per cache line, one cycle apart, over 3 pages */
    uint64_t last = 0;
    for (uint64_t i = 0; i < 3 * 64; i++) {
        tlb_result r = tlbs_translate(t, false, PAGE(100) + i * 64, i);
        uint64_t page_start = i / 64 * 64;
        cr_expect_eq(r.ready, r.l1_miss ? page_start + WALK : i, "access %llu", (unsigned long long)i);
        last = r.ready;
    }
    cr_expect_eq(last, 2 * 64 + WALK);
    cr_expect_eq(tlbs_get_stats(t)->l2_misses, 3);
    tlbs_free(t);
}

Test(tlb, quiesce_forgets_walks_in_flight)
{
    uarch_config c = defaults();
    tlbs *t = tlbs_new(&c);
    tlbs_translate(t, false, PAGE(1), 1000000);
    expect(tlbs_translate(t, false, PAGE(1), 5), 1000000 + WALK, true, true);
    tlbs_quiesce(t);
    expect(tlbs_translate(t, false, PAGE(1), 5), 5, false, false);
    tlbs_free(t);
}

Test(tlb, warming_counts_and_costs_nothing)
{
    uarch_config c = defaults();
    tlbs *t = tlbs_new(&c);
    tlbs_warm(t, true, PAGE(4));
    tlbs_warm(t, true, PAGE(4));
    const tlb_stats *s = tlbs_get_stats(t);
    cr_expect_eq(s->itlb_accesses, 2);
    cr_expect_eq(s->itlb_misses, 1);
    cr_expect_eq(s->l2_misses, 1);
    expect(tlbs_translate(t, true, PAGE(4), 0), 0, false, false);
    expect(tlbs_translate(t, false, PAGE(4), 0), L2_HIT, true, false);
    tlbs_reset_stats(t);
    cr_expect_eq(s->itlb_accesses + s->dtlb_accesses + s->l2_misses, 0);
    tlbs_free(t);
}

/* ------------------------------------------------------ warm state */

static uint64_t next_page(uint64_t *rng)
{
    *rng ^= *rng << 13, *rng ^= *rng >> 7, *rng ^= *rng << 17;
    /* mostly a few hot pages, sometimes a wide region */
    return *rng % 4 ? PAGE(*rng >> 40 & 63) : PAGE(*rng >> 32 & 8191);
}

Test(tlb, warm_save_restore_gives_identical_results)
{
    uarch_config c = defaults();
    tlbs *a = tlbs_new(&c), *b = tlbs_new(&c), *cold = tlbs_new(&c);
    uint64_t rng = 12345;
    for (int i = 0; i < 50000; i++)
        tlbs_warm(a, i % 3 == 0, next_page(&rng));
    ustate s = {0};
    tlbs_save(a, &s);
    cr_assert(tlbs_restore(b, &s));
    cr_expect_eq(s.pos, s.len);
    int differ = 0, differ_cold = 0;
    for (uint64_t i = 0; i < 20000; i++) {
        bool instr = i % 3 == 0;
        uint64_t v = next_page(&rng), now = i * 2;
        tlb_result x = tlbs_translate(a, instr, v, now), y = tlbs_translate(b, instr, v, now),
                   z = tlbs_translate(cold, instr, v, now);
        differ += x.ready != y.ready || x.l1_miss != y.l1_miss || x.l2_miss != y.l2_miss;
        differ_cold += x.ready != z.ready;
    }
    cr_expect_eq(differ, 0);
    cr_expect_gt(differ_cold, 0, "the warm state should matter");
    ustate sa = {0}, sb = {0};
    tlbs_save(a, &sa);
    tlbs_save(b, &sb);
    cr_expect(sa.len == sb.len && memcmp(sa.data, sb.data, sa.len) == 0);
    ustate_free(&s);
    ustate_free(&sa);
    ustate_free(&sb);
    tlbs_free(a);
    tlbs_free(b);
    tlbs_free(cold);
}

Test(tlb, restore_into_another_geometry_fails)
{
    uarch_config c = defaults();
    tlbs *a = tlbs_new(&c);
    tlbs_warm(a, false, PAGE(1));
    ustate s = {0};
    tlbs_save(a, &s);
    uarch_config other[3] = {c, c, c};
    other[0].itlb_entries = 16;
    other[1].dtlb_entries = 64;
    other[2].l2tlb_entries = 0;
    for (int i = 0; i < 3; i++) {
        tlbs *b = tlbs_new(&other[i]);
        tlbs_warm(b, false, PAGE(2));
        s.pos = 0;
        s.bad = false;
        cr_expect_not(tlbs_restore(b, &s), "geometry %d", i);
        expect(tlbs_translate(b, false, PAGE(2), 0), 0, false, false);
        tlbs_free(b);
    }
    ustate cut = {.data = s.data, .len = s.len - 1};
    tlbs *b = tlbs_new(&c);
    tlbs_warm(b, false, PAGE(2));
    cr_expect_not(tlbs_restore(b, &cut));
    expect(tlbs_translate(b, false, PAGE(2), 0), WALK, true, true);   /* cold */
    tlbs_free(b);
    ustate_free(&s);
    tlbs_free(a);
}

/* The victims of an L1 D-TLB of `entries`, against a model of LRU kept as
 * a list: pages from a few more than the entries, in an order that is
 * neither a cycle nor uniform, in phases that give both of its ways to find
 * a victim (tlb.c) their turn: misses among more pages than entries (the
 * log), long runs of hits among as many pages as entries (which outlive the
 * log: the scan), then misses again (a scan rebuilds the log). The state is
 * saved after 10 accesses, while the TLB is still partly empty (its empty
 * entries are filled first, in order), and the rest runs on the TLBs it is
 * restored into, which were in use: the restore must leave nothing of their
 * own order. */
static void expect_lru_victims(int entries, uint64_t seed)
{
    enum { MAX_ENTRIES = 256 };
    cr_assert(entries <= MAX_ENTRIES);
    uarch_config c = defaults();
    c.l2tlb_entries = 0;   /* every L1 miss is a walk: misses are visible as walks */
    c.dtlb_entries = entries;
    uint64_t n = (uint64_t)entries;
    tlbs *a = tlbs_new(&c), *b = tlbs_new(&c);
    for (uint64_t p = 0; p < 4 * n; p++)
        tlbs_warm(b, false, PAGE(1000000 + p % (2 * n)));
    uint64_t lru[MAX_ENTRIES], rng = seed; /* lru[0] the most recent */
    int held = 0;
    for (int i = 0; i < 30000; i++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        bool hot = (i >= 5000 && i < 7000) || (i >= 15000 && i < 25000);
        uint64_t page = hot ? (rng >> 20) % n : rng % 3 ? (rng >> 20) % (n / 2 + 1) : (rng >> 20) % (n + n / 2);
        int at = -1;
        for (int k = 0; k < held; k++)
            if (lru[k] == page) at = k;
        bool hit = at >= 0;
        if (!hit) at = held < entries ? held++ : entries - 1;
        memmove(&lru[1], &lru[0], (size_t)at * sizeof lru[0]);
        lru[0] = page;
        tlbs *t = i < 10 ? a : b;
        if (i == 10) {   /* a has 10 entries filled at most: restore into b */
            ustate s = {0};
            tlbs_save(a, &s);
            cr_assert(tlbs_restore(b, &s));
            ustate_free(&s);
        }
        uint64_t walks = tlbs_get_stats(t)->l2_misses;
        tlbs_warm(t, false, PAGE(page * 16));   /* pages sharing their low bits: long hash chains */
        cr_assert_eq(tlbs_get_stats(t)->l2_misses - walks, !hit, "%d entries, access %d (page %llu)", entries, i,
                     (unsigned long long)page);
    }
    tlbs_free(a);
    tlbs_free(b);
}

Test(tlb, l1_victims_follow_lru_through_a_restore, .timeout = 60)
{
    expect_lru_victims(32, 99);
    expect_lru_victims(1, 5);
    expect_lru_victims(3, 7);
    expect_lru_victims(17, 11);
    expect_lru_victims(200, 13);
}

/* The walks a D-TLB access causes (0 or 1; no L2 TLB). */
static uint64_t dtlb_walks(tlbs *t, uint64_t page)
{
    uint64_t before = tlbs_get_stats(t)->l2_misses;
    tlbs_warm(t, false, PAGE(page));
    return tlbs_get_stats(t)->l2_misses - before;
}

Test(tlb, a_page_restored_in_two_entries_stays_until_both_are_evicted)
{
    uarch_config c = defaults();
    c.l2tlb_entries = 0;
    tlbs *a = tlbs_new(&c), *b = tlbs_new(&c);
    dtlb_walks(a, 5);
    dtlb_walks(a, 6);
    ustate s = {0};
    tlbs_save(a, &s);
    int patched = 0;   /* the state says page 5 is in both entries */
    for (size_t at = 0; at + 8 <= s.len; at += 8) {
        uint64_t v;
        memcpy(&v, s.data + at, 8);
        if (v == 6)
            memcpy(s.data + at, &(uint64_t){5}, 8), patched++;
    }
    cr_assert_eq(patched, 1);
    cr_assert(tlbs_restore(b, &s));
    ustate_free(&s);
    cr_expect_eq(dtlb_walks(b, 7), 1);           /* an empty entry, now the most recent */
    cr_expect_eq(dtlb_walks(b, 5), 0);           /* found in the first entry holding it */
    tlbs_save(b, &s);                            /* entries as (page, stamp): the first 5's is new */
    size_t first = 0;
    while (first + 16 <= s.len && memcmp(s.data + first, &(uint64_t){5}, 8))
        first += 8;
    uint64_t stamp = 0;
    cr_assert(first + 16 <= s.len);
    memcpy(&stamp, s.data + first + 8, 8);
    cr_expect_eq(stamp, 4, "the first entry holding page 5 has stamp %llu, not the newest (4)",
                 (unsigned long long)stamp);
    ustate_free(&s);
    for (uint64_t p = 100; p < 130; p++)         /* 29 fill the empty entries, 1 evicts the second */
        cr_expect_eq(dtlb_walks(b, p), 1);
    cr_expect_eq(dtlb_walks(b, 5), 0);
    for (uint64_t p = 200; p < 232; p++)         /* 31 evict the others, 1 the first */
        cr_expect_eq(dtlb_walks(b, p), 1);
    cr_expect_eq(dtlb_walks(b, 5), 1);
    tlbs_free(a);
    tlbs_free(b);
}

/* A restored state may give two entries one stamp; LRU takes the first of
 * them first, and the second after it. */
Test(tlb, entries_restored_with_one_stamp_go_in_entry_order, .timeout = 60)
{
    uarch_config c = defaults();
    c.l2tlb_entries = 0;
    c.dtlb_entries = 4;
    tlbs *a = tlbs_new(&c), *b = tlbs_new(&c);
    for (uint64_t p = 1; p <= 4; p++)   /* entries 0-3 hold pages 1-4 with stamps 1-4 */
        dtlb_walks(a, p);
    ustate s = {0};
    tlbs_save(a, &s);
    int patched = 0;   /* the D-TLB's (page 3, stamp 3) becomes (page 3, stamp 2) */
    for (size_t at = 0; at + 16 <= s.len; at += 8) {
        uint64_t v[2];
        memcpy(v, s.data + at, 16);
        if (v[0] == 3 && v[1] == 3)
            memcpy(s.data + at + 8, &(uint64_t){2}, 8), patched++;
    }
    cr_assert_eq(patched, 1);
    cr_assert(tlbs_restore(b, &s));
    ustate_free(&s);
    cr_expect_eq(dtlb_walks(b, 10), 1);   /* evicts page 1 */
    cr_expect_eq(dtlb_walks(b, 11), 1);   /* evicts page 2, the first entry with stamp 2 */
    cr_expect_eq(dtlb_walks(b, 3), 0);
    cr_expect_eq(dtlb_walks(b, 4), 0);
    cr_expect_eq(dtlb_walks(b, 12), 1);   /* evicts page 10 */
    cr_expect_eq(dtlb_walks(b, 2), 1);    /* evicts page 11 */
    cr_expect_eq(dtlb_walks(b, 3), 0);
    tlbs_free(a);
    tlbs_free(b);
}
