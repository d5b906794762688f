/* Guest memory (lib/mem.c): mappings, permissions, VMA bookkeeping, the
 * top-down free-range search, remapping and the checked copies. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "mem.h"

#define PG GUEST_PAGE_SIZE
#define A(n) (UINT64_C(0x1000000) + (uint64_t)(n) * PG) /* page n of a test area */

static rv_mem m;

static void setup(void)
{
    cr_assert(mem_init(&m), "mem_init");
}

static void teardown(void)
{
    mem_destroy(&m);
}

TestSuite(mem, .init = setup, .fini = teardown);

static int map_anon(uint64_t addr, uint64_t len, unsigned prot, const char *label)
{
    return mem_map(&m, addr, len, prot, VMA_ANON, -1, 0, NULL, label);
}

/* The VMA list as {start, end, prot} triples, checked for order and overlap. */
static void expect_vmas(size_t n, const uint64_t (*want)[3])
{
    cr_expect_eq(m.nvmas, n, "%zu mappings, expected %zu", m.nvmas, n);
    for (size_t i = 0; i < m.nvmas && i < n; i++) {
        cr_expect_eq(m.vmas[i].start, want[i][0], "vma %zu start %#llx, expected %#llx", i,
                     (unsigned long long)m.vmas[i].start, (unsigned long long)want[i][0]);
        cr_expect_eq(m.vmas[i].end, want[i][1], "vma %zu end %#llx, expected %#llx", i,
                     (unsigned long long)m.vmas[i].end, (unsigned long long)want[i][1]);
        cr_expect_eq(m.vmas[i].prot, want[i][2], "vma %zu prot %u, expected %llu", i, m.vmas[i].prot,
                     (unsigned long long)want[i][2]);
    }
    for (size_t i = 1; i < m.nvmas; i++)
        cr_expect_leq(m.vmas[i - 1].end, m.vmas[i].start, "vmas %zu and %zu overlap or are unsorted", i - 1, i);
}

/* Also where the guest may not write (as a loader does). */
static void fill(uint64_t addr, uint64_t len, uint8_t byte)
{
    mem_lift_protection(&m, addr, len);
    memset(mem_host(&m, addr), byte, len);
    mem_restore_protection(&m, addr, len);
}

static bool all_bytes(uint64_t addr, uint64_t len, uint8_t byte)
{
    const uint8_t *h = mem_host(&m, addr);
    for (uint64_t i = 0; i < len; i++)
        if (h[i] != byte)
            return false;
    return true;
}

/* ------------------------------------------------------------------ map */

Test(mem, map_sets_permissions_and_one_vma)
{
    cr_assert_eq(map_anon(A(0), 3 * PG, GP_R | GP_W, "x"), 0);
    expect_vmas(1, (const uint64_t[][3]){{A(0), A(3), GP_R | GP_W}});
    cr_expect(mem_ok(&m, A(0), 3 * PG, GP_R | GP_W));
    cr_expect(!mem_ok(&m, A(0), 3 * PG + 1, GP_R), "one byte past the end");
    cr_expect(!mem_ok(&m, A(0), 1, GP_X));
    cr_expect(!mem_ok(&m, A(0) - 1, 2, GP_R), "one byte before the start");
    cr_expect(mem_ok_small(&m, A(3) - 8, 8, GP_W));
    cr_expect(!mem_ok_small(&m, A(3) - 4, 8, GP_R), "8 bytes crossing out of the mapping");
    cr_expect(all_bytes(A(0), 3 * PG, 0), "anonymous memory is zero");
    const rv_vma *v = mem_find_vma(&m, A(2) + PG - 1);
    cr_assert_not_null(v);
    cr_expect_eq(v->start, A(0));
    cr_expect_str_eq(v->label, "x");
    cr_expect_null(mem_find_vma(&m, A(3)), "end is exclusive");
    cr_expect_null(mem_find_vma(&m, A(0) - 1));
}

Test(mem, map_rejects_bad_ranges)
{
    cr_expect_eq(map_anon(A(0) + 1, PG, GP_R, NULL), -EINVAL, "unaligned address");
    cr_expect_eq(map_anon(A(0), PG + 1, GP_R, NULL), -EINVAL, "unaligned length");
    cr_expect_eq(map_anon(A(0), 0, GP_R, NULL), -EINVAL, "empty");
    cr_expect_eq(map_anon(GUEST_VA_SIZE, PG, GP_R, NULL), -EINVAL, "beyond the address space");
    cr_expect_eq(map_anon(GUEST_VA_SIZE - PG, 2 * PG, GP_R, NULL), -EINVAL, "crossing its end");
    cr_expect_eq(map_anon(GUEST_VA_SIZE - PG, PG, GP_R, NULL), 0, "the last page is fine");
    cr_expect_eq(m.nvmas, 1);
}

Test(mem, write_implies_read)
{
    cr_assert_eq(map_anon(A(0), PG, GP_W, NULL), 0);
    cr_expect(mem_ok(&m, A(0), PG, GP_R), "RISC-V has no write-only pages");
    cr_expect(mem_ok(&m, A(0), PG, GP_W));
    cr_expect_eq(mem_find_vma(&m, A(0))->prot, GP_W, "the VMA keeps what was asked");
}

Test(mem, prot_none_mapping_exists_but_is_inaccessible)
{
    cr_assert_eq(map_anon(A(0), 2 * PG, 0, "guard"), 0);
    cr_expect_not_null(mem_find_vma(&m, A(1)));
    cr_expect(!mem_range_free(&m, A(0), PG));
    cr_expect(!mem_ok(&m, A(0), 1, GP_R));
    cr_expect(!mem_ok(&m, A(5), 1, GP_R));
}

Test(mem, map_over_existing_replaces_and_splits)
{
    cr_assert_eq(map_anon(A(0), 4 * PG, GP_R | GP_W, "heap"), 0);
    fill(A(0), 4 * PG, 0x5a);
    cr_assert_eq(map_anon(A(1), PG, GP_R, "other"), 0);
    expect_vmas(3, (const uint64_t[][3]){{A(0), A(1), GP_R | GP_W}, {A(1), A(2), GP_R}, {A(2), A(4), GP_R | GP_W}});
    cr_expect(all_bytes(A(1), PG, 0), "the new mapping is fresh zero pages");
    cr_expect(all_bytes(A(0), PG, 0x5a) && all_bytes(A(2), 2 * PG, 0x5a), "the rest kept its contents");
    cr_expect_str_eq(m.vmas[0].label, "heap");
    cr_expect_str_eq(m.vmas[1].label, "other");
    cr_expect_str_eq(m.vmas[2].label, "heap");
    cr_expect(!mem_ok(&m, A(1), 1, GP_W));
    /* covering several mappings at once */
    cr_assert_eq(map_anon(A(0), 4 * PG, GP_R | GP_X, "text"), 0);
    expect_vmas(1, (const uint64_t[][3]){{A(0), A(4), GP_R | GP_X}});
}

Test(mem, adjacent_identical_mappings_merge)
{
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, "a"), 0);
    cr_assert_eq(map_anon(A(1), PG, GP_R | GP_W, "a"), 0);
    expect_vmas(1, (const uint64_t[][3]){{A(0), A(2), GP_R | GP_W}});
    cr_assert_eq(map_anon(A(2), PG, GP_R | GP_W, "b"), 0);
    cr_assert_eq(map_anon(A(3), PG, GP_R, "b"), 0);
    expect_vmas(3, (const uint64_t[][3]){{A(0), A(2), GP_R | GP_W}, {A(2), A(3), GP_R | GP_W}, {A(3), A(4), GP_R}});
}

/* ---------------------------------------------------------------- unmap */

Test(mem, unmap_middle_splits)
{
    cr_assert_eq(map_anon(A(0), 4 * PG, GP_R | GP_W, "x"), 0);
    fill(A(0), 4 * PG, 0x11);
    cr_assert_eq(mem_unmap(&m, A(1), PG), 0);
    expect_vmas(2, (const uint64_t[][3]){{A(0), A(1), GP_R | GP_W}, {A(2), A(4), GP_R | GP_W}});
    cr_expect(!mem_ok(&m, A(1), 1, GP_R));
    cr_expect_eq(m.perm[A(1) >> GUEST_PAGE_SHIFT], 0);
    cr_expect(mem_range_free(&m, A(1), PG));
    cr_expect(all_bytes(A(0), PG, 0x11) && all_bytes(A(2), 2 * PG, 0x11));
    cr_expect_str_eq(m.vmas[1].label, "x", "the split-off part keeps its label");
    /* unmapping nothing is fine; a range spanning holes removes what is there */
    cr_expect_eq(mem_unmap(&m, A(10), PG), 0);
    cr_expect_eq(mem_unmap(&m, A(0), 3 * PG), 0);
    expect_vmas(1, (const uint64_t[][3]){{A(3), A(4), GP_R | GP_W}});
    cr_expect_eq(mem_unmap(&m, A(0) + 1, PG), -EINVAL);
    cr_expect_eq(mem_unmap(&m, A(0), 0), -EINVAL);
}

Test(mem, remapping_a_hole_gives_zero_pages)
{
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    fill(A(0), PG, 0xee);
    cr_assert_eq(mem_unmap(&m, A(0), PG), 0);
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    cr_expect(all_bytes(A(0), PG, 0), "old contents must not reappear");
}

Test(mem, split_file_mapping_adjusts_offset)
{
    cr_assert_eq(mem_map(&m, A(0), 4 * PG, GP_R, VMA_FILE_PRIVATE, -1, 0x3000, "/some/file", "/some/file"), 0);
    cr_assert_eq(mem_unmap(&m, A(0), PG), 0);
    cr_assert_eq(mem_protect(&m, A(2), PG, GP_R | GP_W), 0);
    cr_assert_eq(m.nvmas, 3);
    cr_expect_eq(m.vmas[0].file_offset, 0x4000);
    cr_expect_eq(m.vmas[1].file_offset, 0x5000);
    cr_expect_eq(m.vmas[2].file_offset, 0x6000);
    for (int i = 0; i < 3; i++) {
        cr_expect_eq(m.vmas[i].kind, VMA_FILE_PRIVATE);
        cr_expect_str_eq(m.vmas[i].path, "/some/file");
    }
    /* protecting back merges the pieces again: contiguous in the file */
    cr_assert_eq(mem_protect(&m, A(2), PG, GP_R), 0);
    expect_vmas(1, (const uint64_t[][3]){{A(1), A(4), GP_R}});
    cr_expect_eq(m.vmas[0].file_offset, 0x4000);
}

/* -------------------------------------------------------------- protect */

Test(mem, protect_splits_and_merges)
{
    cr_assert_eq(map_anon(A(0), 4 * PG, GP_R | GP_W, "d"), 0);
    fill(A(0), 4 * PG, 0x42);
    cr_assert_eq(mem_protect(&m, A(1), 2 * PG, GP_R), 0);
    expect_vmas(3, (const uint64_t[][3]){{A(0), A(1), GP_R | GP_W}, {A(1), A(3), GP_R}, {A(3), A(4), GP_R | GP_W}});
    cr_expect(!mem_ok(&m, A(1), 1, GP_W));
    cr_expect(mem_ok(&m, A(1), 2 * PG, GP_R));
    cr_expect(mem_ok(&m, A(3), 1, GP_W));
    cr_expect(all_bytes(A(0), 4 * PG, 0x42), "protect keeps contents");
    cr_assert_eq(mem_protect(&m, A(1), 2 * PG, GP_R | GP_W), 0);
    expect_vmas(1, (const uint64_t[][3]){{A(0), A(4), GP_R | GP_W}});
    cr_assert_eq(mem_protect(&m, A(0), 4 * PG, 0), 0);
    cr_expect(!mem_ok(&m, A(0), 1, GP_R));
    cr_expect_not_null(mem_find_vma(&m, A(0)));
}

Test(mem, protect_with_a_hole_fails_and_changes_nothing)
{
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    cr_assert_eq(map_anon(A(2), PG, GP_R | GP_W, NULL), 0);
    cr_expect_eq(mem_protect(&m, A(0), 3 * PG, GP_R), -ENOMEM);
    expect_vmas(2, (const uint64_t[][3]){{A(0), A(1), GP_R | GP_W}, {A(2), A(3), GP_R | GP_W}});
    cr_expect(mem_ok(&m, A(0), 1, GP_W) && mem_ok(&m, A(2), 1, GP_W));
    cr_expect_eq(mem_protect(&m, A(5), PG, GP_R), -ENOMEM, "entirely unmapped");
    cr_expect_eq(mem_protect(&m, A(0) + 8, PG, GP_R), -EINVAL);
}

/* --------------------------------------------------------- code changes */

Test(mem, code_changes_track_executable_memory)
{
    uint64_t c = m.code_changes;
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    cr_expect_eq(m.code_changes, c, "data mapping");
    cr_assert_eq(mem_protect(&m, A(0), PG, GP_R), 0);
    cr_expect_eq(m.code_changes, c, "data protect");
    cr_assert_eq(mem_unmap(&m, A(0), PG), 0);
    cr_expect_eq(m.code_changes, c, "data unmap");

    cr_assert_eq(map_anon(A(0), 2 * PG, GP_R | GP_X, NULL), 0);
    cr_expect_gt(m.code_changes, c, "mapping code");
    c = m.code_changes;
    cr_assert_eq(mem_protect(&m, A(0), PG, GP_R | GP_W), 0);
    cr_expect_gt(m.code_changes, c, "code made writable");
    c = m.code_changes;
    cr_assert_eq(mem_protect(&m, A(0), PG, GP_R | GP_X), 0);
    cr_expect_gt(m.code_changes, c, "data made executable");
    c = m.code_changes;
    cr_assert_eq(mem_unmap(&m, A(1), PG), 0);
    cr_expect_gt(m.code_changes, c, "code unmapped");
    c = m.code_changes;
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    cr_expect_gt(m.code_changes, c, "code replaced by a data mapping");
}

/* --------------------------------------------------- free-range search */

Test(mem, find_free_is_top_down)
{
    uint64_t top = A(100);
    cr_expect_eq(mem_find_free(&m, 2 * PG, top), top - 2 * PG, "empty: just below top");
    cr_assert_eq(map_anon(top - 4 * PG, 4 * PG, GP_R, NULL), 0);   /* B: [top-4, top) */
    cr_assert_eq(map_anon(top - 10 * PG, 2 * PG, GP_R, NULL), 0);  /* A: [top-10, top-8) */
    cr_assert_eq(map_anon(top + 4 * PG, PG, GP_R, NULL), 0);       /* above top: ignored */
    cr_expect_eq(mem_find_free(&m, 2 * PG, top), top - 6 * PG, "in the gap between A and B");
    cr_expect_eq(mem_find_free(&m, 4 * PG, top), top - 8 * PG, "exactly filling the gap");
    cr_expect_eq(mem_find_free(&m, 5 * PG, top), top - 15 * PG, "below A");
    uint64_t r = mem_find_free(&m, PG, top - 9 * PG); /* top inside A */
    cr_expect_eq(r, top - 11 * PG, "top inside a mapping: below it (%#llx)", (unsigned long long)r);
    cr_expect_eq(mem_find_free(&m, 3 * PG, top + 8 * PG), top + 5 * PG);
}

Test(mem, find_free_never_returns_low_memory)
{
    cr_expect_eq(mem_find_free(&m, PG, 8 * PG), 0, "too close to address 0");
    uint64_t r = mem_find_free(&m, PG, 64 * PG);
    cr_expect_eq(r, 63 * PG);
    cr_expect_eq(mem_find_free(&m, GUEST_VA_SIZE, GUEST_VA_SIZE), 0, "larger than the space");
}

Test(mem, range_free)
{
    cr_expect(mem_range_free(&m, A(0), 10 * PG));
    cr_assert_eq(map_anon(A(4), 2 * PG, GP_R, NULL), 0);
    cr_expect(!mem_range_free(&m, A(0), 5 * PG), "overlaps the start");
    cr_expect(!mem_range_free(&m, A(5), 5 * PG), "overlaps the end");
    cr_expect(!mem_range_free(&m, A(0), 10 * PG), "contains it");
    cr_expect(!mem_range_free(&m, A(4) + 8, 8), "inside it");
    cr_expect(mem_range_free(&m, A(0), 4 * PG), "ends where it starts");
    cr_expect(mem_range_free(&m, A(6), 4 * PG), "starts where it ends");
    cr_expect(!mem_range_free(&m, GUEST_VA_SIZE - PG, 2 * PG), "beyond the address space");
}

/* ---------------------------------------------------------------- remap */

Test(mem, remap_shrinks_in_place)
{
    cr_assert_eq(map_anon(A(0), 4 * PG, GP_R | GP_W, NULL), 0);
    fill(A(0), 4 * PG, 0x33);
    cr_expect_eq(mem_remap(&m, A(0), 4 * PG, PG, true, A(1000)), (int64_t)A(0));
    expect_vmas(1, (const uint64_t[][3]){{A(0), A(1), GP_R | GP_W}});
    cr_expect(all_bytes(A(0), PG, 0x33));
    cr_expect(mem_range_free(&m, A(1), 3 * PG));
    cr_expect_eq(mem_remap(&m, A(0), PG, PG, false, 0), (int64_t)A(0), "same size: nothing to do");
}

Test(mem, remap_grows_in_place_when_free)
{
    cr_assert_eq(map_anon(A(0), 2 * PG, GP_R | GP_W, NULL), 0);
    fill(A(0), 2 * PG, 0x44);
    cr_expect_eq(mem_remap(&m, A(0), 2 * PG, 5 * PG, false, 0), (int64_t)A(0));
    cr_expect(mem_ok(&m, A(0), 5 * PG, GP_R | GP_W));
    cr_expect(all_bytes(A(0), 2 * PG, 0x44), "contents kept");
    cr_expect(all_bytes(A(2), 3 * PG, 0), "new pages are zero");
    cr_expect(!mem_range_free(&m, A(4), PG));
}

Test(mem, remap_cannot_grow_without_moving)
{
    cr_assert_eq(map_anon(A(0), 2 * PG, GP_R | GP_W, NULL), 0);
    cr_assert_eq(map_anon(A(3), PG, GP_R, NULL), 0);
    cr_expect_eq(mem_remap(&m, A(0), 2 * PG, 4 * PG, false, 0), -ENOMEM);
    expect_vmas(2, (const uint64_t[][3]){{A(0), A(2), GP_R | GP_W}, {A(3), A(4), GP_R}});
}

Test(mem, remap_moves_and_keeps_contents)
{
    cr_assert_eq(map_anon(A(0), 2 * PG, GP_R | GP_W, "blob"), 0);
    cr_assert_eq(map_anon(A(2), PG, GP_R, NULL), 0); /* blocks growth in place */
    uint8_t *h = mem_host(&m, A(0));
    for (uint64_t i = 0; i < 2 * PG; i++)
        h[i] = (uint8_t)(i * 7);
    uint64_t hint = A(1000);
    int64_t r = mem_remap(&m, A(0), 2 * PG, 6 * PG, true, hint);
    cr_assert_gt(r, 0, "remap failed: %lld", (long long)r);
    uint64_t dst = (uint64_t)r;
    cr_expect_eq(dst, hint - 6 * PG, "placed top-down below the hint");
    cr_expect(mem_ok(&m, dst, 6 * PG, GP_R | GP_W));
    const uint8_t *d = mem_host(&m, dst);
    bool same = true;
    for (uint64_t i = 0; i < 2 * PG; i++)
        same &= d[i] == (uint8_t)(i * 7);
    cr_expect(same, "contents moved");
    cr_expect(all_bytes(dst + 2 * PG, 4 * PG, 0), "grown part is zero");
    cr_expect(mem_range_free(&m, A(0), 2 * PG), "the old range is gone");
    cr_expect_eq(m.perm[A(0) >> GUEST_PAGE_SHIFT], 0);
    const rv_vma *v = mem_find_vma(&m, dst);
    cr_assert_not_null(v);
    cr_expect_eq(v->prot, GP_R | GP_W);
    cr_expect_eq(v->end, dst + 6 * PG);
    /* the old range can be mapped again and is zero */
    cr_assert_eq(map_anon(A(0), 2 * PG, GP_R | GP_W, NULL), 0);
    cr_expect(all_bytes(A(0), 2 * PG, 0));
}

Test(mem, remap_of_a_piece_of_a_mapping_moves_only_that_piece)
{
    cr_assert_eq(map_anon(A(0), 4 * PG, GP_R | GP_W, NULL), 0);
    fill(A(0), 4 * PG, 0x66);
    int64_t r = mem_remap(&m, A(0), 2 * PG, 3 * PG, true, A(1000));
    cr_assert_gt(r, 0);
    cr_expect(mem_range_free(&m, A(0), 2 * PG));
    cr_expect(mem_ok(&m, A(2), 2 * PG, GP_R | GP_W), "the rest stays");
    cr_expect(all_bytes(A(2), 2 * PG, 0x66));
    cr_expect(all_bytes((uint64_t)r, 2 * PG, 0x66));
}

Test(mem, remap_rejects_bad_arguments)
{
    cr_assert_eq(map_anon(A(0), 2 * PG, GP_R | GP_W, NULL), 0);
    cr_assert_eq(mem_map(&m, A(10), PG, GP_R, VMA_FILE_PRIVATE, -1, 0, "/f", NULL), 0);
    cr_expect_eq(mem_remap(&m, A(5), PG, 2 * PG, true, A(1000)), -EINVAL, "not mapped");
    cr_expect_eq(mem_remap(&m, A(0), 3 * PG, 4 * PG, true, A(1000)), -EINVAL, "beyond the mapping");
    cr_expect_eq(mem_remap(&m, A(0) + 8, PG, 2 * PG, true, A(1000)), -EINVAL, "unaligned");
    cr_expect_eq(mem_remap(&m, A(0), PG, 0, true, A(1000)), -EINVAL, "new length 0");
    cr_expect_eq(mem_remap(&m, A(10), PG, 2 * PG, true, A(1000)), -EINVAL, "file mapping");
}

/* ---------------------------------------------------------------- copies */

Test(mem, read_write_check_permissions_and_never_copy_partially)
{
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    cr_assert_eq(map_anon(A(1), PG, GP_R, NULL), 0);
    char buf[64];
    memset(buf, 'z', sizeof buf);
    cr_expect(mem_write(&m, A(0) + 10, "hello", 5));
    cr_expect(mem_read(&m, buf, A(0) + 10, 5));
    cr_expect(memcmp(buf, "hello", 5) == 0);
    cr_expect(!mem_write(&m, A(1), "x", 1), "read-only page");
    cr_expect(!mem_write(&m, A(1) - 2, "abcd", 4), "crossing into a read-only page");
    cr_expect(all_bytes(A(1) - 2, 2, 0), "nothing was written");
    cr_expect(mem_read(&m, buf, A(1) - 2, 4), "reading across both pages");
    memset(buf, 'z', sizeof buf);
    cr_expect(!mem_read(&m, buf, A(2) - 4, 8), "crossing into unmapped memory");
    cr_expect_eq(buf[0], 'z', "nothing was copied");
    cr_expect(!mem_read(&m, buf, A(7), 1));
    cr_expect(mem_read(&m, buf, A(7), 0), "empty read");
    cr_expect(!mem_read(&m, buf, GUEST_VA_SIZE - 2, 4), "past the address space");
    cr_expect(!mem_read(&m, buf, UINT64_MAX - 1, 4), "wrapping around");
}

Test(mem, read_string_limits)
{
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    char buf[16];
    cr_assert(mem_write(&m, A(0), "hello", 6));
    cr_expect(mem_read_string(&m, A(0), buf, sizeof buf));
    cr_expect_str_eq(buf, "hello");
    cr_expect(mem_read_string(&m, A(0), buf, 6), "exactly fits with its NUL");
    cr_expect(!mem_read_string(&m, A(0), buf, 5), "longer than size-1");
    cr_expect(!mem_read_string(&m, A(0), buf, 0));
    cr_expect(mem_read_string(&m, A(0) + 5, buf, 1), "the empty string");
    cr_expect_str_eq(buf, "");
    /* a string running into unmapped memory */
    fill(A(1) - 3, 3, 'a');
    cr_expect(!mem_read_string(&m, A(1) - 3, buf, sizeof buf));
    /* one ending on the last byte of the page */
    fill(A(1) - 1, 1, 0);
    cr_expect(mem_read_string(&m, A(1) - 3, buf, sizeof buf));
    cr_expect_str_eq(buf, "aa");
    cr_expect(!mem_read_string(&m, A(5), buf, sizeof buf), "unmapped");
    cr_assert_eq(mem_protect(&m, A(0), PG, 0), 0);
    cr_expect(!mem_read_string(&m, A(0), buf, sizeof buf), "not readable");
}

Test(mem, small_access_near_the_top_of_the_address_space)
{
    cr_assert_eq(map_anon(GUEST_VA_SIZE - PG, PG, GP_R | GP_W, NULL), 0);
    cr_expect(mem_ok_small(&m, GUEST_VA_SIZE - PG, 8, GP_R));
    cr_expect(!mem_ok_small(&m, GUEST_VA_SIZE, 1, GP_R));
    cr_expect(!mem_ok_small(&m, UINT64_MAX - 3, 8, GP_R), "wrapping addresses are refused");
    cr_expect(mem_ok(&m, GUEST_VA_SIZE - 8, 8, GP_R));
    cr_expect(!mem_ok(&m, GUEST_VA_SIZE - 8, 9, GP_R));
}

/* A failed mprotect must leave each VMA's recorded protection matching the
 * page permissions that accesses are checked against. */
static void expect_vmas_match_perm(void)
{
    for (size_t i = 0; i < m.nvmas; i++)
        for (uint64_t a = m.vmas[i].start; a < m.vmas[i].end; a += PG) {
            unsigned want = m.vmas[i].prot & GP_W ? m.vmas[i].prot | GP_R : m.vmas[i].prot;
            cr_expect_eq(m.perm[a >> GUEST_PAGE_SHIFT], want, "page %#llx: perm %u, its VMA says %u",
                         (unsigned long long)a, m.perm[a >> GUEST_PAGE_SHIFT], want);
        }
}

Test(mem, shared_read_only_file_mapping_refuses_write_permission)
{
    char path[] = "/tmp/rv-mem-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, 2 * PG), 0);
    int ro = open(path, O_RDONLY);
    cr_assert_geq(ro, 0);
    cr_expect_eq(mem_map(&m, A(1), PG, GP_R | GP_W, VMA_FILE_SHARED, ro, 0, path, path), -EACCES);
    cr_assert_eq(mem_map(&m, A(1), PG, GP_R, VMA_FILE_SHARED, ro, 0, path, path), 0);
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    cr_expect_eq(mem_protect(&m, A(1), PG, GP_R | GP_W), -EACCES);
    cr_expect(!mem_ok(&m, A(1), 1, GP_W));
    expect_vmas_match_perm();
    close(ro);
    close(fd);
    unlink(path);
}

/* A refused mprotect (write access to a read-only shared file mapping at the
 * end of the range) changes nothing: the mapping list (what /proc/self/maps
 * and checkpoints record) and the page permissions accesses are checked
 * against must agree. */
Test(mem, failed_protect_leaves_vma_and_page_permissions_consistent)
{
    char path[] = "/tmp/rv-mem-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, 2 * PG), 0);
    int ro = open(path, O_RDONLY);
    cr_assert_geq(ro, 0);
    cr_assert_eq(map_anon(A(0), PG, GP_R | GP_W, NULL), 0);
    cr_assert_eq(mem_map(&m, A(1), PG, GP_R, VMA_FILE_SHARED, ro, 0, path, path), 0);
    cr_expect_eq(mem_protect(&m, A(0), 2 * PG, GP_R | GP_W | GP_X), -EACCES);
    expect_vmas_match_perm();
    close(ro);
    close(fd);
    unlink(path);
}

static int temp_file_with_pages(char *path, int npages)
{
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    for (int i = 0; i < npages; i++) {
        unsigned char page[4096];
        memset(page, 'A' + i, sizeof page);
        cr_assert_eq(write(fd, page, sizeof page), (ssize_t)sizeof page);
    }
    return fd;
}

Test(mem, file_mappings_show_the_file_at_the_offset)
{
    char path[] = "/tmp/rv-mem-XXXXXX";
    int fd = temp_file_with_pages(path, 3);
    /* private: the file's bytes, writes stay private */
    cr_assert_eq(mem_map(&m, A(0), 2 * PG, GP_R | GP_W, VMA_FILE_PRIVATE, fd, PG, path, path), 0);
    cr_expect(all_bytes(A(0), PG, 'B') && all_bytes(A(1), PG, 'C'), "offset one page in");
    cr_expect(mem_write(&m, A(0), "zz", 2));
    unsigned char b[2];
    cr_assert_eq(pread(fd, b, 2, PG), 2);
    cr_expect(b[0] == 'B' && b[1] == 'B', "a private mapping wrote through to the file");
    /* shared: writes reach the file */
    cr_assert_eq(mem_map(&m, A(4), PG, GP_R | GP_W, VMA_FILE_SHARED, fd, 2 * PG, path, path), 0);
    cr_expect(all_bytes(A(4), PG, 'C'));
    cr_expect(mem_write(&m, A(4) + 10, "yy", 2));
    cr_assert_eq(pread(fd, b, 2, 2 * PG + 10), 2);
    cr_expect(b[0] == 'y' && b[1] == 'y', "a shared mapping did not write through");
    const rv_vma *v = mem_find_vma(&m, A(4));
    cr_assert_not_null(v);
    cr_expect_eq(v->kind, VMA_FILE_SHARED);
    cr_expect_eq(v->file_offset, 2 * PG);
    cr_expect_str_eq(v->path, path);
    cr_expect_eq(mem_map(&m, A(8), PG, GP_R, VMA_FILE_SHARED, 12345, 0, path, path), -EBADF, "bad descriptor");
    close(fd);
    unlink(path);
}

/* A shared mapping reaches as far as its file: the pages past its end are
 * out of reach of the guest and of the host (which would take SIGBUS), and
 * come back when the file grows over them, even after an mprotect. */
Test(mem, shared_mapping_follows_the_size_of_its_file)
{
    char path[] = "/tmp/rvmem_eof_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    unlink(path);
    cr_assert_eq(ftruncate(fd, (off_t)PG + 1), 0);
    cr_assert_eq(mem_map(&m, A(0), 4 * PG, GP_R | GP_W, VMA_FILE_SHARED, fd, 0, path, NULL), 0);
    cr_expect(mem_ok(&m, A(1), PG, GP_R | GP_W), "the page holding the file's last byte");
    cr_expect(!mem_ok(&m, A(2), 1, GP_R), "past the end of the file");
    cr_expect(m.perm[A(3) / PG] & GP_PAST_EOF);
    cr_assert_eq(ftruncate(fd, 0), 0);
    mem_follow_files(&m);
    cr_expect(!mem_ok(&m, A(0), 1, GP_R), "the file shrank to nothing");
    cr_assert_eq(ftruncate(fd, 3 * (off_t)PG), 0);
    cr_assert_eq(mem_protect(&m, A(0), 4 * PG, GP_R), 0);
    cr_expect(mem_ok(&m, A(2), PG, GP_R) && !mem_ok(&m, A(2), 1, GP_W), "grown over, read-only now");
    cr_expect(!mem_ok(&m, A(3), 1, GP_R), "still past the end after mprotect");
    cr_expect_eq(*(volatile uint8_t *)mem_host(&m, A(2)), 0, "the host may read what the file covers");
    close(fd);
}
