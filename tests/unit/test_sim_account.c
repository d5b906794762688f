/* The commit-state accounting on the four worked examples of the TIP paper
 * (Fig. A.4, notes/tip.md §1) with a 2-wide commit: the commit stage is
 * driven cycle by cycle over a hand-built window. */
#include "sim_window.h"

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
