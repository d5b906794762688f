/* TAGE's allocation choices (lib/uarch/tage.c): the detailed core decides
 * whether to allocate on the prediction it made at fetch, functional warming
 * on the one in program order, so the two sometimes allocate differently.
 * That must stay a local difference: the random bits that choose the table
 * follow the updates, not the allocations, so a chunk started from warming's
 * tables goes on choosing as the serial run does (issue 38). */
#include <criterion/criterion.h>

#include "uarch/tage.h"

/* Predict, speculate and train branch pc with its outcome, as the detailed
 * core does; flip: decide the allocation on the opposite prediction. */
static void branch(tage *t, uint64_t pc, bool taken, bool flip)
{
    tage_pred p;
    tage_predict(t, pc, &p);
    tage_push_history(t, taken);
    p.taken ^= flip;
    tage_train(t, pc, &p, taken);
}

/* Bytes in which the saved states of a and b differ. */
static size_t state_differences(const tage *a, const tage *b)
{
    ustate sa = {0}, sb = {0};
    tage_save(a, &sa);
    tage_save(b, &sb);
    cr_assert_eq(sa.len, sb.len);
    size_t n = 0;
    for (size_t i = 0; i < sa.len; i++) n += sa.data[i] != sb.data[i];
    ustate_free(&sa);
    ustate_free(&sb);
    return n;
}

Test(tage_alloc, one_different_allocation_changes_no_later_choice)
{
    uarch_config c;
    uarch_config_defaults(&c);
    tage *a = tage_new(&c), *b = tage_new(&c);
    uint64_t s = 12345;
    enum { N = 200000, DIFFER_AT = 1000 };
    for (int i = 0; i < N; i++) {
        s = s * UINT64_C(6364136223846793005) + 1442695040888963407u; /* Knuth's MMIX LCG */
        uint64_t r = s >> 24;
        uint64_t pc = 0x10000 + 4 * (r % 512);   /* 512 branches, */
        bool taken = (r >> 20) % 4 != 0;         /* each taken 3 times in 4 at random: many allocations */
        branch(a, pc, taken, false);
        branch(b, pc, taken, i == DIFFER_AT);
        if (i == DIFFER_AT) cr_assert_gt(state_differences(a, b), 0, "the flipped decision allocates differently (test sanity)");
    }
    size_t n = state_differences(a, b);
    cr_expect_lt(n, 100, "one allocation decision apart, the tables differ in %zu bytes", n);
    tage_free(a);
    tage_free(b);
}
