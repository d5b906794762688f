/* The sampled profilers on the four worked examples of the TIP paper (Fig.
 * A.4, notes/tip.md §1-§3) with a 2-wide commit and a sample in every cycle:
 * what each profiler gives each instruction, through the core's real commit
 * probe. With a sample every cycle TIP must equal the golden attribution. */
#include "sim_window.h"

#include "../../sim/profilers/sampler.h"

static sampler *smp;

static void setup_sampled(void)
{
    setup();
    const char *names[16];
    for (size_t i = 0; i < nprofiler_policies; i++) names[i] = profiler_policies[i]->name;
    sampler_config cfg = {.period = 1};
    smp = sampler_new(&cfg, core->units, names, (int)nprofiler_policies, NULL, 2);
    core_add_probe(core, sampler_view, smp, true, &smp->want_from);
    sampler_begin(smp, 1); /* a sample in every cycle from 1 on, standing for that cycle */
}

static void teardown_sampled(void)
{
    sampler_free(smp);
    teardown();
}

static profiler *prof(const char *name)
{
    for (int i = 0; i < smp->nprofs; i++)
        if (!strcmp(smp->profs[i].policy->name, name)) return &smp->profs[i];
    cr_assert_fail("no profiler %s", name);
    return NULL;
}

/* Half cycles profiler `name` gave instruction i. */
static uint64_t given(const char *name, int i)
{
    return cost_total(cost_at(&prof(name)->profile, 0x1000 + 4 * (uint64_t)i));
}

static uint64_t profile_sum(const char *name)
{
    const cost_table *t = &prof(name)->profile;
    uint64_t s = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].key) s += cost_total(&t->slots[i]);
    return s;
}

TestSuite(sim_profilers, .init = setup_sampled, .fini = teardown_sampled);

Test(sim_profilers, fig_a4a_computing)
{
    add(1, 0), add(1, 0);
    enter_rob(2);
    cycles(1, 1);
    cr_assert_eq(given("tip", 0), 1); cr_assert_eq(given("tip", 1), 1); /* 0.5 each */
    cr_assert_eq(given("tip-ilp", 0), 2); cr_assert_eq(given("tip-ilp", 1), 0);
    cr_assert_eq(given("nci", 0), 2); cr_assert_eq(given("nci", 1), 0); /* one instruction only */
    cr_assert_eq(given("nci-ilp", 0), 1); cr_assert_eq(given("nci-ilp", 1), 1);
    cr_assert_eq(given("lci", 0), 2); cr_assert_eq(given("lci", 1), 0);
}

Test(sim_profilers, fig_a4b_stalled)
{
    add(1, 0);
    uop *load = add(42, 0);
    load->stall_key = STK_STALLED_LOAD_LLC;
    add(42, 0);
    enter_rob(3);
    cycles(1, 42);
    /* I1 = 0, the load = 1, I3 = 2. */
    cr_assert_eq(given("tip", 0), 2); cr_assert_eq(given("tip", 1), 81); cr_assert_eq(given("tip", 2), 1);
    for (int i = 0; i < 3; i++) cr_assert_eq(given("tip", i), halves(i), "TIP equals the golden attribution");
    /* NCI: right about the stall, misses I3. */
    cr_assert_eq(given("nci", 0), 2); cr_assert_eq(given("nci", 1), 82); cr_assert_eq(given("nci", 2), 0);
    /* NCI-ILP splits the stall among the next committers. */
    cr_assert_eq(given("nci-ilp", 1), 41); cr_assert_eq(given("nci-ilp", 2), 41);
    /* LCI: 41 cycles to I1, one to the load (the paper's text). */
    cr_assert_eq(given("lci", 0), 82); cr_assert_eq(given("lci", 1), 2); cr_assert_eq(given("lci", 2), 0);
    cr_assert_eq(given("tip-ilp", 1), 82); cr_assert_eq(given("tip-ilp", 2), 0);
    /* Dispatch tagging: only the cycle-1 sample finds a dispatch (I3, the ROB
     * tail); the rest wait for one that never comes. */
    cr_assert_eq(given("dispatch", 2), 2);
    sampler_end(smp);
    cr_assert_eq(prof("dispatch")->dropped, 41);
}

Test(sim_profilers, fig_a4c_flushed)
{
    add(1, 0);
    add(1, UOP_MISPREDICT);
    enter_rob(2);
    add(7, 0); /* I5 */
    add(7, 0); /* I6 */
    cycles(1, 5);                     /* ROB empty in 2..5 */
    enter_rob(2);                     /* I5 and I6 dispatched, visible in cycle 6 */
    cycles(6, 7);                     /* I5 stalls in 6; I5 and I6 commit in 7 */
    /* I1 = 0, the branch = 1, I5 = 2, I6 = 3. */
    cr_assert_eq(given("tip", 0), 1); cr_assert_eq(given("tip", 1), 9); /* 0.5 + 4 */
    cr_assert_eq(given("tip", 2), 3); cr_assert_eq(given("tip", 3), 1); /* 1 + 0.5, 0.5 */
    for (int i = 0; i < 4; i++) cr_assert_eq(given("tip", i), halves(i), "TIP equals the golden attribution");
    /* NCI: nothing for the co-committed branch; the empty cycles go to I5. */
    cr_assert_eq(given("nci", 1), 0); cr_assert_eq(given("nci", 2), 12);
    /* LCI is right here: the branch was the last to commit. */
    cr_assert_eq(given("lci", 1), 10); cr_assert_eq(given("lci", 2), 2);
    /* TIP-ILP keeps the flush handling. */
    cr_assert_eq(given("tip-ilp", 1), 8); cr_assert_eq(given("tip-ilp", 0), 2);
}

Test(sim_profilers, fig_a4d_drained)
{
    add(1, 0), add(1, 0);
    enter_rob(2);
    uop *i3 = add(43, 0);
    i3->fetch_ready = 41;
    i3->fe_key = STK_DRAINED_ICACHE;
    add(43, 0); /* I4 */
    cycles(1, 41);                    /* ROB empty in 2..41: I-cache miss on I3 */
    enter_rob(2);
    cycles(42, 43);                   /* I3 stalls at the head in 42, commits with I4 in 43 */
    /* I1 = 0, I2 = 1, I3 = 2, I4 = 3. */
    cr_assert_eq(given("tip", 0), 1); cr_assert_eq(given("tip", 1), 1);
    cr_assert_eq(given("tip", 2), 83); cr_assert_eq(given("tip", 3), 1); /* 40 + 1 + 0.5 */
    for (int i = 0; i < 4; i++) cr_assert_eq(given("tip", i), halves(i), "TIP equals the golden attribution");
    /* NCI is mostly right: I3 is next to commit. */
    cr_assert_eq(given("nci", 2), 84); cr_assert_eq(given("nci", 0), 2);
    /* LCI gives the empty cycles to I2. */
    cr_assert_eq(given("lci", 1), 82); cr_assert_eq(given("lci", 2), 2);
}

Test(sim_profilers, every_sampled_cycle_is_in_the_profile_or_still_carried)
{
    add(1, 0), add(5, UOP_MISPREDICT);
    enter_rob(2);
    add(12, 0), add(12, 0), add(13, 0);
    cycles(1, 8);
    enter_rob(3);
    cycles(9, 13);
    sampler_end(smp);
    for (int i = 0; i < smp->nprofs; i++) {
        const profiler *p = &smp->profs[i];
        cr_assert_eq(profile_sum(p->policy->name) + p->carry * core->units, 13 * core->units, "%s", p->policy->name);
    }
    cr_assert_eq(profile_sum("tip"), 13 * core->units, "TIP resolves every sample here");
    for (int i = 0; i < 5; i++) cr_assert_eq(given("tip", i), halves(i));
}

Test(sim_profilers, dispatch_tag_is_dropped_when_squashed_and_its_cycles_carry_over)
{
    add(2, UOP_FLUSH_CSR);            /* commits in cycle 2 and squashes the rest */
    add(2, 0);
    enter_rob(2);                     /* cycle 1's view: I0 and I1 dispatched, I1 the tail */
    cycles(1, 3);                     /* sample 1 tags I1, squashed in cycle 2; samples 2, 3 wait */
    cr_assert_eq(core->disp, 1);
    add(6, 0), add(6, 0);             /* I1 again, and I2 */
    enter_rob(2);
    cycles(4, 6);                     /* samples 2-4 tag I2 (the tail of cycle 4); 5, 6 wait */
    sampler_end(smp);
    profiler *d = prof("dispatch");
    cr_assert_eq(d->dropped, 3, "the squashed tag and the two never resolved");
    cr_assert_eq(given("dispatch", 2), 2 * 4, "I2's first sample carries the dropped sample's cycle");
    cr_assert_eq(given("dispatch", 1), 0);
}

Test(sim_profilers, software_blames_the_instruction_after_everything_in_flight)
{
    add(3, 0), add(3, 0), add(3, 0);
    enter_rob(3);
    cycles(1, 1);                     /* in flight: I0..I2, so sample 1 resumes at I3 */
    add(4, 0);
    enter_rob(1);
    cycles(2, 4);
    for (int i = 0; i < 3; i++) cr_assert_eq(given("software", i), 0);
    cr_assert_eq(given("software", 3), 2);
}

Test(sim_profilers, fetch_tags_the_first_instruction_fetched_at_or_after_the_sample)
{
    add(3, 0);
    enter_rob(1);
    uop *i1 = add(5, 0);
    cycles(1, 1);                     /* sample 1: nothing fetched yet, it waits */
    probe_note_fetch(core, i1);       /* I1 fetched in cycle 2 */
    cycles(2, 2);                     /* samples 1 and 2 tag I1 */
    enter_rob(1);
    cycles(3, 5);                     /* I0 commits in 3, I1 in 5; samples 3-5 wait for a fetch */
    sampler_end(smp);
    cr_assert_eq(given("fetch", 1), 2 * 2);
    cr_assert_eq(given("fetch", 0), 0, "I0 was fetched before the first sample");
    cr_assert_eq(prof("fetch")->dropped, 3);
}
