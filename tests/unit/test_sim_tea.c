/* TEA on the worked example of the TEA paper's Fig. B.1 (notes/tea.md §1.5):
 * three events, a sample every 1,000 cycles, five samples, fed to the
 * sampler as commit views. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../sim/core/core.h"
#include "../../sim/profilers/sampler.h"

enum { I1 = 0x100, I2 = 0x104, I3 = 0x108, I4 = 0x10c };

static sampler *smp;
static profiler *tea;

static void setup(void)
{
    const char *names[] = {"tea", "ibs"};
    sampler_config cfg = {.period = 1000};
    smp = sampler_new(&cfg, 4, names, 2, NULL, 4);
    tea = &smp->profs[0];
    sampler_begin(smp, 0); /* samples at cycles 999, 1999, ... */
}

static void teardown(void) { sampler_free(smp); }

static commit_view view(uint64_t cycle, uint64_t run, int state)
{
    return (commit_view){.cycle = cycle, .run = run, .state = (uint8_t)state, .squash_from = UINT64_MAX};
}

static probe_insn insn(uint64_t seq, uint64_t pc, uint16_t psv) { return (probe_insn){.seq = seq, .pc = pc, .psv = psv}; }

/* A cycle in which seq..seq+3 (I1..I4) commit with the given PSVs. */
static void commit4(uint64_t cycle, uint64_t seq, const uint16_t psv[4])
{
    commit_view v = view(cycle, 1, ST_COMPUTING);
    const uint64_t pcs[4] = {I1, I2, I3, I4};
    v.ncommit = 4;
    for (int i = 0; i < 4; i++) v.commit[i] = insn(seq + (uint64_t)i, pcs[i], psv[i]);
    sampler_view(smp, &v);
}

static uint64_t cycles_of(uint64_t pc, uint16_t psv) { return cost_total(cost_at(&tea->profile, pics_key(pc, psv))); }

TestSuite(sim_tea, .init = setup, .fini = teardown);

Test(sim_tea, fig_b1_worked_example)
{
    const uint16_t none[4] = {0}, s1[4] = {PSV(DR_L1), 0, 0, PSV(FL_MB)}, s3[4] = {PSV(ST_L1), 0, 0, 0};
    /* S1 (cycle 999): the ROB drained on I1's I-cache miss; I1 enters the ROB
     * in that cycle and commits in cycle 1000 with DR-L1. */
    commit_view v = view(0, 999, ST_DRAINED);
    sampler_view(smp, &v);
    v = view(999, 1, ST_DRAINED);
    v.ndispatch = 1, v.dispatch_first = v.dispatch_last = insn(1, I1, 0);
    sampler_view(smp, &v);
    commit4(1000, 1, s1);
    /* S2 (cycle 1999): flushed after I4's mispredict. */
    v = view(1001, 999, ST_FLUSHED);
    v.has_flusher = true, v.flusher = insn(4, I4, PSV(FL_MB));
    sampler_view(smp, &v);
    /* S3 (cycle 2999): stalled on I1's data-cache miss; it commits at 3000. */
    v = view(2000, 1000, ST_STALLED);
    v.nhead = 1, v.head[0] = insn(5, I1, 0);
    sampler_view(smp, &v);
    commit4(3000, 5, s3);
    /* S4 and S5 (cycles 3999, 4999): four instructions commit. */
    v = view(3001, 998, ST_STALLED);
    v.nhead = 1, v.head[0] = insn(9, I1, 0);
    sampler_view(smp, &v);
    commit4(3999, 9, none);
    v = view(4000, 999, ST_STALLED);
    v.nhead = 1, v.head[0] = insn(13, I1, 0);
    sampler_view(smp, &v);
    commit4(4999, 13, none);
    sampler_end(smp);

    const uint64_t u = 4; /* units per cycle */
    cr_assert_eq(tea->samples, 5);
    cr_assert_eq(cycles_of(I1, PSV(DR_L1)), 1000 * u);
    cr_assert_eq(cycles_of(I4, PSV(FL_MB)), 1000 * u);
    cr_assert_eq(cycles_of(I1, PSV(ST_L1)), 1000 * u);
    for (uint64_t pc = I1; pc <= I4; pc += 4) cr_assert_eq(cycles_of(pc, 0), 500 * u, "pc %#llx Base", (unsigned long long)pc);
    cr_assert_eq(tea->profile.n, 7, "seven (instruction, PSV) components, as in Fig. B.1c");
}
