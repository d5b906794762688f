/* The commit-state accounting on the four worked examples of the TIP paper
 * (Fig. A.4, notes/tip.md §1) with a 2-wide commit: the commit stage is
 * driven cycle by cycle over a hand-built window. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../sim/core.h"

static rv_proc proc;
static sim_core *core;

static void setup(void)
{
    uarch_config cfg;
    uarch_config_defaults(&cfg);
    cfg.commit_width = 2;
    memset(&proc, 0, sizeof proc);
    core = core_new(&cfg, NULL, &proc);
    cr_assert_eq(core->units, 2);
}

static void teardown(void) { core_free(core); }

/* Put instruction i (pc 0x1000 + 4i) in the window, fetched. */
static uop *add(uint64_t complete, uint16_t flags)
{
    uop *u = core_uop(core, core->fetch);
    memset(u, 0, sizeof *u);
    u->d.insn.pc = 0x1000 + 4 * core->fetch;
    u->d.insn.op = RV_OP_addi;
    u->d.insn.len = 4;
    u->d.icount = core->fetch;
    u->complete = complete;
    u->flags = flags;
    u->ops.dst = RV_REG_NONE;
    u->ops.src[0] = u->ops.src[1] = u->ops.src[2] = RV_REG_NONE;
    u->fe_key = STK_DRAINED_BUBBLE;
    u->stall_key = STK_STALLED_ALU;
    core->fetch++, core->avail++;
    return u;
}

static void enter_rob(int n)
{
    while (n--) core_rob_enter(core, core_uop(core, core->disp));
}

/* Run the commit stage for cycles from..to inclusive. */
static void cycles(uint64_t from, uint64_t to)
{
    for (uint64_t t = from; t <= to; t++) {
        core->now = t;
        core_commit_stage(core, UINT64_MAX);
    }
}

/* Time attributed to instruction i so far, in half cycles: its pc's total
 * once committed, plus its own units while in flight. */
static uint64_t halves(int i)
{
    uint64_t t = cost_total(cost_at(&core->by_pc, 0x1000 + 4 * (uint64_t)i));
    if ((uint64_t)i >= core->head)
        for (int s = 0; s < ST_COUNT; s++) t += core_uop(core, (uint64_t)i)->units[s];
    return t;
}

TestSuite(sim_account, .init = setup, .fini = teardown);

Test(sim_account, fig_a4a_computing_splits_the_cycle)
{
    add(1, 0), add(1, 0);
    enter_rob(2);
    cycles(1, 1);
    cr_assert_eq(halves(0), 1); /* 0.5 cycle each */
    cr_assert_eq(halves(1), 1);
    cr_assert_eq(core->ctr.stack[STK_COMPUTING], 1);
}

Test(sim_account, fig_a4b_stalled_goes_to_the_head)
{
    add(1, 0);
    uop *load = add(42, 0);
    load->stall_key = STK_STALLED_LOAD_LLC;
    add(42, 0);
    enter_rob(3);
    cycles(1, 42);
    cr_assert_eq(halves(0), 2);      /* commits alone in cycle 1 */
    cr_assert_eq(halves(1), 81);     /* 40 stalled + 0.5 */
    cr_assert_eq(halves(2), 1);      /* 0.5 */
    cr_assert_eq(core->ctr.stack[STK_STALLED_LOAD_LLC], 40);
    cr_assert_eq(core->ctr.stack[STK_COMPUTING], 2);
}

Test(sim_account, fig_a4c_flushed_goes_to_the_mispredicted_branch)
{
    add(1, 0);
    add(1, UOP_MISPREDICT);
    enter_rob(2);
    uop *i5 = add(100, 0);
    cycles(1, 5);                     /* ROB empty in 2..5 */
    enter_rob(1);                     /* I5 dispatched, visible in cycle 6 */
    cycles(6, 6);
    cr_assert_eq(halves(0), 1);       /* 0.5 */
    cr_assert_eq(halves(1), 9);       /* 0.5 + 4 */
    cr_assert_eq(i5->units[ST_STALLED], 2); /* 1 cycle */
    cr_assert_eq(core->ctr.stack[STK_FLUSHED_MISPREDICT], 4);
}

Test(sim_account, fig_a4d_drained_goes_to_the_next_instruction)
{
    add(1, 0), add(1, 0);
    enter_rob(2);
    uop *i3 = add(43, 0);
    i3->fetch_ready = 41;
    i3->fe_key = STK_DRAINED_ICACHE;
    cycles(1, 41);                    /* ROB empty in 2..41: I-cache miss on I3 */
    enter_rob(1);
    cycles(42, 42);                   /* I3 stalls at the head */
    cr_assert_eq(halves(0), 1);
    cr_assert_eq(halves(1), 1);
    cr_assert_eq(i3->units[ST_DRAINED], 80);   /* 40 drained cycles */
    cr_assert_eq(i3->units[ST_STALLED], 2);    /* + 1 stalled = 41 */
    cr_assert_eq(core->ctr.stack[STK_DRAINED_ICACHE], 40);
}

Test(sim_account, flushing_csr_squashes_younger_and_owns_the_empty_rob)
{
    add(1, UOP_FLUSH_CSR);
    add(1, 0);
    enter_rob(2);
    cycles(1, 1);
    cr_assert_eq(core->head, 1, "the CSR instruction commits alone");
    cr_assert_eq(core->disp, 1, "the younger one is squashed");
    cr_assert_eq(core->fetch, 1, "and will be fetched again");
    cycles(2, 4);
    cr_assert_eq(halves(0), 2 + 6);
    cr_assert_eq(core->ctr.stack[STK_FLUSHED_CSR], 3);
}

Test(sim_account, units_per_cycle_is_lcm)
{
    cr_assert_eq(units_per_cycle(1), 1);
    cr_assert_eq(units_per_cycle(2), 2);
    cr_assert_eq(units_per_cycle(4), 12);
    cr_assert_eq(units_per_cycle(8), 840);
}
