/* Profiles: the error metric of notes/tip.md §4 on hand-computed cases, the
 * static-block and function roll-ups, and the sampler's schedules. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../sim/profilers/sampler.h"
#include "profile.h"

static cost entry(uint64_t pc, uint64_t units)
{
    return (cost){.key = pc, .units = {units}};
}

Test(profile, error_of_identical_and_disjoint_profiles)
{
    symbolizer s = {0};
    cost o[] = {entry(0x100, 30), entry(0x104, 10)};
    cost same[] = {entry(0x100, 3), entry(0x104, 1)}; /* same shares, other scale */
    cost other[] = {entry(0x200, 5)};
    cr_assert_float_eq(profile_error(&s, GRAN_INSTRUCTION, 0, o, 2, same, 2), 0.0, 1e-12);
    cr_assert_float_eq(profile_error(&s, GRAN_INSTRUCTION, 0, o, 2, other, 1), 1.0, 1e-12);
    cr_assert_float_eq(profile_error(&s, GRAN_INSTRUCTION, 0, o, 2, NULL, 0), 1.0, 1e-12, "an empty profile is all wrong");
}

Test(profile, error_is_the_share_of_time_on_the_wrong_symbols)
{
    symbolizer s = {0};
    cost o[] = {entry(0x100, 3), entry(0x104, 1)};
    cost p[] = {entry(0x100, 5), entry(0x104, 5)}; /* scaled to 2 and 2: min(2,3) + min(2,1) = 3 of 4 */
    cr_assert_float_eq(profile_error(&s, GRAN_INSTRUCTION, 0, o, 2, p, 2), 0.25, 1e-12);
}

Test(profile, blocks_are_the_nearest_leader_at_or_below)
{
    cost leaders[] = {entry(0x110, 1), entry(0x100, 1)};
    symbolizer s;
    symbolizer_init(&s, NULL, leaders, 2);
    cr_assert_eq(symbolizer_key(&s, GRAN_BLOCK, 0x100), 0x100);
    cr_assert_eq(symbolizer_key(&s, GRAN_BLOCK, 0x10c), 0x100);
    cr_assert_eq(symbolizer_key(&s, GRAN_BLOCK, 0x114), 0x110);
    cr_assert_eq(symbolizer_key(&s, GRAN_BLOCK, 0x0fc), 0x0fc, "below every leader: its own block");
    /* Misattribution inside a block is no error at block granularity. */
    cost o[] = {entry(0x100, 4), entry(0x110, 4)};
    cost p[] = {entry(0x108, 4), entry(0x114, 4)};
    cr_assert_float_eq(profile_error(&s, GRAN_BLOCK, 0, o, 2, p, 2), 0.0, 1e-12);
    cr_assert_float_eq(profile_error(&s, GRAN_INSTRUCTION, 0, o, 2, p, 2), 1.0, 1e-12);
    size_t n;
    cost *b = profile_rollup(&s, GRAN_BLOCK, p, 2, &n);
    cr_assert_eq(n, 2);
    cr_assert_eq(b[0].key, 0x100);
    cr_assert_eq(b[1].key, 0x110);
    free(b);
    symbolizer_free(&s);
}

Test(profile, functions_come_from_the_symbol_table)
{
    rv_symbol syms[] = {{.addr = 0x100, .size = 0x20, .name = "f"}, {.addr = 0x200, .size = 0x10, .name = "g"}};
    rv_symtab st = {.syms = syms, .n = 2};
    symbolizer s = {.syms = &st};
    cr_assert_eq(symbolizer_key(&s, GRAN_FUNCTION, 0x11c), 0x100);
    cr_assert_eq(symbolizer_key(&s, GRAN_FUNCTION, 0x208), 0x200);
    cr_assert_eq(symbolizer_key(&s, GRAN_FUNCTION, 0x150), 1, "outside every symbol: [unknown]");
}

/* A sampler over one long stalled run: count samples and check where they land. */
static uint64_t samples_in(sampler_config cfg, uint64_t cycles, uint64_t *first)
{
    const char *names[] = {"tip"};
    sampler *s = sampler_new(&cfg, 1, names, 1, NULL, 1);
    sampler_begin(s, 0);
    *first = s->next;
    commit_view v = {.cycle = 0, .run = cycles, .state = ST_STALLED, .nhead = 1, .squash_from = UINT64_MAX};
    v.head[0] = (probe_insn){.seq = 1, .pc = 0x100};
    sampler_view(s, &v);
    uint64_t n = s->profs[0].samples;
    uint64_t units = cost_total(cost_at(&s->profs[0].profile, 0x100));
    cr_assert_eq(units, s->unsampled, "the samples stand for every cycle up to the last one");
    sampler_free(s);
    return n;
}

Test(profile, periodic_and_random_schedules)
{
    uint64_t first;
    cr_assert_eq(samples_in((sampler_config){.period = 10}, 100, &first), 10, "the last cycle of each period");
    cr_assert_eq(first, 9);
    cr_assert_eq(samples_in((sampler_config){.period = 1}, 100, &first), 100, "every cycle");
    uint64_t a, b;
    uint64_t n = samples_in((sampler_config){.period = 10, .random = true, .seed = 7}, 1000, &a);
    cr_assert_eq(n, 100, "one sample in each period");
    samples_in((sampler_config){.period = 10, .random = true, .seed = 7}, 1000, &b);
    cr_assert_eq(a, b, "the same seed gives the same sample cycles");
    cr_assert(a <= 9, "the first sample falls in the first period");
}

Test(profile, regions_stand_for_their_share_of_time)
{
    /* Two regions of equal weight; the second runs at twice the CPI, so it
     * stands for two thirds of the time. */
    cost a[] = {entry(0x100, 30)}, b[] = {entry(0x200, 5), entry(0x100, 5)};
    region_profile r[] = {{a, 1, 0.5, 1.0}, {b, 2, 0.5, 2.0}};
    size_t n;
    cost *c = profile_combine(r, 2, 3000, &n);
    cr_assert_eq(n, 2);
    cr_assert_eq(c[0].key, 0x100);
    cr_assert_eq(cost_total(&c[0]), 1000 + 1000); /* 1/3 + 2/3 x 1/2 */
    cr_assert_eq(c[1].key, 0x200);
    cr_assert_eq(cost_total(&c[1]), 1000);
    free(c);
    /* Weight alone would give 0x200 a quarter, not a third. */
}
