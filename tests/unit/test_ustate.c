/* The byte buffer that carries warm micro-architectural state (lib/uarch/state.c). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "uarch/state.h"

Test(ustate, round_trip_across_growth)
{
    ustate s = {0};
    static uint8_t blob[10000], back[sizeof blob];
    for (size_t i = 0; i < sizeof blob; i++)
        blob[i] = (uint8_t)(i * 13 + 7);
    ustate_put_u64(&s, 0x0123456789abcdefu);
    ustate_put(&s, "abc", 3);
    ustate_put(&s, blob, sizeof blob); /* past the first 4 KiB allocation */
    ustate_put_u64(&s, UINT64_MAX);
    cr_assert_eq(s.len, 8 + 3 + sizeof blob + 8);
    cr_assert_geq(s.cap, s.len);

    char abc[3];
    cr_assert_eq(ustate_get_u64(&s), 0x0123456789abcdefu);
    ustate_get(&s, abc, 3);
    cr_assert_eq(memcmp(abc, "abc", 3), 0);
    ustate_get(&s, back, sizeof back);
    cr_assert_eq(memcmp(back, blob, sizeof blob), 0);
    ustate_expect_u64(&s, UINT64_MAX);
    cr_assert_not(s.bad);
    cr_assert_eq(s.pos, s.len, "everything read");
    ustate_free(&s);
}

Test(ustate, short_read_is_bad_and_zero_filled)
{
    ustate s = {0};
    ustate_put(&s, "wxyz", 4);
    cr_assert_eq(ustate_get_u64(&s), 0, "a short read fills zeros");
    cr_assert(s.bad);
    cr_assert_eq(s.pos, 0, "a short read consumes nothing");
    ustate_free(&s);
}

Test(ustate, bad_is_sticky)
{
    ustate s = {0};
    ustate_put_u64(&s, 1);
    ustate_put(&s, "tail", 4);
    cr_assert_eq(ustate_get_u64(&s), 1);
    cr_assert_eq(ustate_get_u64(&s), 0); /* only 4 bytes left */
    cr_assert(s.bad);
    char c = 'x';
    ustate_get(&s, &c, 1);
    cr_assert_eq(c, 0, "reads after a failure return zeros even though bytes remain");
    cr_assert(s.bad);
    ustate_free(&s);
}

Test(ustate, empty_state_reads_bad)
{
    ustate s = {0};
    cr_assert_eq(ustate_get_u64(&s), 0);
    cr_assert(s.bad);
    ustate_free(&s);
}

Test(ustate, expect_checks_value)
{
    ustate s = {0};
    ustate_put_u64(&s, 42);
    ustate_put_u64(&s, 42);
    ustate_expect_u64(&s, 42);
    cr_assert_not(s.bad);
    ustate_expect_u64(&s, 43);
    cr_assert(s.bad, "a mismatch marks the state bad");
    ustate_free(&s);
}

Test(ustate, free_resets_for_reuse)
{
    ustate s = {0};
    ustate_put_u64(&s, 7);
    ustate_get_u64(&s);
    ustate_get_u64(&s);
    ustate_free(&s);
    cr_assert_null(s.data);
    cr_assert_eq(s.len + s.cap + s.pos, 0);
    cr_assert_not(s.bad);
    ustate_put_u64(&s, 9);
    cr_assert_eq(ustate_get_u64(&s), 9);
    cr_assert_not(s.bad);
    ustate_free(&s);
}

/* An empty first put must not hand memcpy a NULL buffer (UBSan). */
Test(ustate, empty_put_on_empty_state)
{
    ustate s = {0};
    ustate_put(&s, "", 0); /* e.g. saving a table with no entries */
    cr_assert_eq(s.len, 0);
    char c;
    ustate_get(&s, &c, 0);
    cr_assert_not(s.bad);
    ustate_free(&s);
}
