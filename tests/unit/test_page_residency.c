/* Which guest pages were never touched (lib/page_residency.c), checked
 * against what the test did to each page of an anonymous mapping. */
#include <criterion/criterion.h>
#include <sys/mman.h>

#include "mem.h"
#include "page_residency.h"

#define PG GUEST_PAGE_SIZE
#define A(n) (UINT64_C(0x2000000) + (uint64_t)(n) * PG)

static rv_mem m;
static page_residency r;

static void setup(void)
{
    cr_assert(mem_init(&m), "mem_init");
    page_residency_open(&r);
    cr_assert(r.fd >= 0, "/proc/self/pagemap cannot be read: every page would count as touched");
}

static void teardown(void)
{
    page_residency_close(&r);
    mem_destroy(&m);
}

TestSuite(page_residency, .init = setup, .fini = teardown);

/* Map n pages at addr in 4 KiB host pages: a transparent huge page would
 * make a touch give memory to its neighbours too (correct, the checkpoint
 * then compares them with zeros, but not what this test checks). */
static void map_pages(uint64_t addr, int n)
{
    cr_assert_eq(mem_map(&m, addr, (uint64_t)n * PG, GP_R | GP_W, VMA_ANON, -1, 0, NULL, NULL), 0);
    cr_assert_eq(madvise(mem_host(&m, addr), (size_t)n * PG, MADV_NOHUGEPAGE), 0);
}

Test(page_residency, only_untouched_pages_are_known_zero)
{
    enum { PAGES = 2 * RESIDENCY_WINDOW + 8 }; /* past one window of entries */
    map_pages(A(0), PAGES);
    volatile unsigned char *host = mem_host(&m, A(0));
    host[1 * PG + 7] = 0x5a;                    /* written */
    host[2 * PG] = 0;                           /* written with zeros: still touched */
    cr_assert_eq(host[3 * PG + 100], 0);        /* only read */
    host[(RESIDENCY_WINDOW + 1) * PG] = 1;      /* in the next window */
    host[(PAGES - 1) * PG + PG - 1] = 2;        /* the last byte */
    bool want[PAGES] = {0};
    want[1] = want[2] = want[3] = want[RESIDENCY_WINDOW + 1] = want[PAGES - 1] = true;
    for (int i = 0; i < PAGES; i++)
        cr_expect_eq(page_may_hold_data(&r, &m, A(i)), want[i], "page %d", i);
    /* backwards: each lookup outside the window reads a new one */
    for (int i = PAGES - 1; i >= 0; i--)
        cr_expect_eq(page_may_hold_data(&r, &m, A(i)), want[i], "page %d, backwards", i);
}

Test(page_residency, a_page_mapped_again_is_untouched_again)
{
    map_pages(A(0), 4);
    ((unsigned char *)mem_host(&m, A(1)))[0] = 9;
    cr_expect(page_may_hold_data(&r, &m, A(1)));
    map_pages(A(1), 1);
    page_residency_close(&r); /* a fresh look: the window above still says touched */
    page_residency_open(&r);
    cr_expect_not(page_may_hold_data(&r, &m, A(1)), "the new mapping's page holds zeros");
}
