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

/* A stalled stretch of `cycles` cycles on pc, sampled by a continued
 * sampler that begins at instruction first_inst; its run collected. */
static void chunk_run(sampler_config cfg, uint64_t first_inst, uint64_t cycles, uint64_t pc, sampled_run *out)
{
    const char *names[] = {"tip"};
    cfg.continued = true;
    sampler *s = sampler_new(&cfg, 1, names, 1, NULL, 1);
    sampler_begin_at(s, 100, first_inst); /* a chunk's origin: after its detailed warm-up */
    commit_view v = {.cycle = 100, .run = cycles, .state = ST_STALLED, .nhead = 1, .squash_from = UINT64_MAX};
    v.head[0] = (probe_insn){.seq = 1, .pc = pc};
    sampler_view(s, &v);
    sampler_end(s);
    sampler_collect(s, out);
    sampler_free(s);
}

static uint64_t units_of(const sampled_profile *p, uint64_t pc)
{
    for (size_t i = 0; i < p->npcs; i++)
        if (p->pcs[i].key == pc) return cost_total(&p->pcs[i]);
    return 0;
}

Test(profile, a_continued_sampler_at_instruction_0_is_the_serial_one)
{
    sampler_config cfg = {.period = 10, .random = true, .seed = 7};
    uint64_t first;
    uint64_t n = samples_in(cfg, 1000, &first);
    sampled_run r, whole;
    chunk_run(cfg, 0, 1000, 0x100, &r);
    const sampled_run *runs[] = {&r};
    uint64_t cycles[] = {1000};
    sampled_runs_stitch(runs, cycles, 1, &whole);
    cr_assert_eq(whole.profs[0].samples, n);
    cr_assert_eq(units_of(&whole.profs[0], 0x100), r.spanned, "its first record is back in the profile");
    cr_assert(r.spanned > 990 && r.spanned <= 1000);
    sampled_run_free(&r);
    sampled_run_free(&whole);
}

Test(profile, chunks_sample_every_cycle_once_across_their_boundaries)
{
    for (int random = 0; random < 2; random++) {
        sampler_config cfg = {.period = 10, .random = random, .seed = 3};
        /* three chunks of 995, 1003 and 1000 cycles on three pcs */
        uint64_t cycles[] = {995, 1003, 1000}, pcs[] = {0x100, 0x200, 0x300}, insts[] = {0, 5000, 10000};
        sampled_run r[3], whole;
        const sampled_run *runs[3];
        for (int k = 0; k < 3; k++) chunk_run(cfg, insts[k], cycles[k], pcs[k], &r[k]), runs[k] = &r[k];
        sampled_runs_stitch(runs, cycles, 3, &whole);
        const sampled_profile *p = &whole.profs[0];
        /* Chunk k's cycles after its last sample went to chunk k+1's first record. */
        cr_assert_eq(units_of(p, 0x100), r[0].spanned);
        cr_assert_eq(units_of(p, 0x200), cycles[0] - r[0].spanned + r[1].spanned);
        cr_assert_eq(units_of(p, 0x300), cycles[1] - r[1].spanned + r[2].spanned);
        cr_assert_eq(p->carry, cycles[2] - r[2].spanned, "the last chunk's tail is in no record, as a serial run's");
        cr_assert_eq(p->samples, r[0].profs[0].samples + r[1].profs[0].samples + r[2].profs[0].samples);
        /* 2998 cycles at a period of 10: about 300 samples, and one per period within each chunk */
        cr_assert(p->samples >= 297 && p->samples <= 302, "%d: %llu samples", random, (unsigned long long)p->samples);
        for (int k = 0; k < 3; k++) sampled_run_free(&r[k]);
        sampled_run_free(&whole);
    }
}

Test(profile, a_later_chunk_starts_part_way_through_a_period)
{
    /* Periodic: the first sample of a chunk that begins past instruction 0
     * is at most a period in, at a phase drawn from the seed and the
     * instruction; the same chunk gets the same phase. */
    const char *names[] = {"tip"};
    sampler_config cfg = {.period = 1000, .seed = 1, .continued = true};
    uint64_t seen[2][3];
    bool differ = false;
    for (int again = 0; again < 2; again++)
        for (int k = 0; k < 3; k++) {
            sampler *s = sampler_new(&cfg, 1, names, 1, NULL, 1);
            sampler_begin_at(s, 50, (uint64_t)(k + 1) * 4000000);
            seen[again][k] = s->next - 50;
            cr_assert(seen[again][k] < 1000);
            differ |= k && seen[again][k] != seen[again][0];
            sampler_free(s);
        }
    cr_assert(differ, "the phases differ from chunk to chunk");
    cr_assert_arr_eq(seen[0], seen[1], sizeof seen[0]);
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

/* cost_at's recent-slot hints go stale as the table grows: every key must
 * still find its own entry, and colliding hints must not mix keys up. */
Test(profile, cost_at_finds_each_key_across_growth)
{
    cost_table t = {0};
    for (uint64_t k = 2; k <= 20000; k += 2) {
        cost_at(&t, k)->commits += k;
        cost_at(&t, 2)->execs++;
        cost_at(&t, k + (uint64_t)COST_RECENT * 2 * 7)->commits++; /* same hint as k */
    }
    for (uint64_t k = 2; k <= 20000; k += 2) {
        cost *c = cost_at(&t, k);
        cr_assert_eq(c->key, k);
        uint64_t extra = k >= 2 + (uint64_t)COST_RECENT * 2 * 7 ? 1 : 0; /* also written as another k's twin */
        cr_assert_eq(c->commits, k + extra, "key %llu", (unsigned long long)k);
    }
    cr_assert_eq(cost_at(&t, 2)->execs, 10000);
    cost_table_free(&t);
}
