/* A hand-built window for driving the commit stage of a 2-wide core cycle
 * by cycle (the TIP paper's Fig. A.4 scenarios), publishing each cycle's
 * commit view to the probe consumers as the core would. */
#ifndef TEST_SIM_WINDOW_H
#define TEST_SIM_WINDOW_H

#include <criterion/criterion.h>
#include <string.h>

#include "../../sim/core/core.h"

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

/* n instructions enter the ROB, seen in the view of the next cycle. */
static void enter_rob(int n)
{
    probe_begin_view(core, core->now + 1, 1);
    while (n--) core_rob_enter(core, core_uop(core, core->disp));
}

/* Run the commit stage for cycles from..to inclusive. */
static void cycles(uint64_t from, uint64_t to)
{
    for (uint64_t t = from; t <= to; t++) {
        core->now = t;
        core_commit_stage(core, UINT64_MAX);
        probe_publish(core, t, 1);
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

#endif
