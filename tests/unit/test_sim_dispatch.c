/* The issue schedule fixed at dispatch (sim/core/dispatch.c), on hand-built
 * instructions: which cycles and ports a store's halves take, and when its
 * memory-queue entry leaves. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../sim/core/core.h"

static rv_proc proc;
static uarch ua;
static sim_core *core;

static void setup(void)
{
    uarch_config cfg;
    uarch_config_defaults(&cfg);
    memset(&proc, 0, sizeof proc);
    uarch_init(&ua, &cfg);
    core = core_new(&cfg, &ua, &proc);
    core->now = 100;
}

static void teardown(void)
{
    core_free(core);
    uarch_destroy(&ua);
}

/* sd x6, 0(x5), its base ready at base, its data at data. */
static uop *store(uint64_t base, uint64_t data)
{
    uop *u = core_uop(core, core->disp);
    memset(u, 0, sizeof *u);
    u->d.insn.pc = 0x1000;
    u->d.insn.op = RV_OP_sd;
    u->d.insn.len = 4;
    u->d.mem_access = RV_MEM_STORE;
    u->d.mem_addr = 0x8000;
    u->d.mem_size = 8;
    u->ops.dst = RV_REG_NONE;
    u->ops.src[0] = 5, u->ops.src[1] = 6, u->ops.src[2] = RV_REG_NONE;
    core->reg_ready[5] = base, core->reg_ready[6] = data;
    core_schedule(core, u);
    return u;
}

static uint32_t mem_ports_used(uint64_t t)
{
    const issue_slot *s = &core->iq[IQ_MEM].slots[t % ISSUE_HORIZON];
    return s->cycle == t ? s->used : 0;
}

TestSuite(sim_dispatch, .init = setup, .fini = teardown);

Test(sim_dispatch, a_store_with_both_operands_ready_issues_once)
{
    uop *u = store(0, 0);
    cr_assert_eq(u->issue, 101);
    cr_assert_eq(u->issue2, 0);
    cr_assert_eq(__builtin_popcount(mem_ports_used(101)), 1);
    cr_assert_eq(core->iq[IQ_MEM].npending, 1);
    cr_assert_eq(core->iq[IQ_MEM].pending[0], 101);
}

Test(sim_dispatch, a_store_whose_data_comes_late_issues_its_address_then_its_data)
{
    uop *u = store(0, 110);
    cr_assert_eq(u->issue, 101, "the address half issues as soon as the base is ready");
    cr_assert_eq(u->issue2, 110, "the data half when the data is");
    cr_assert_eq(__builtin_popcount(mem_ports_used(101)), 1);
    cr_assert_eq(__builtin_popcount(mem_ports_used(110)), 1);
    cr_assert_eq(core->iq[IQ_MEM].pending[0], 110, "the entry stays until its second issue");
    cr_assert_eq(core->stq[u->stq_pos % (uint64_t)core->cfg.stq_entries].data_ready, 110);
    cr_assert_geq(u->complete, 111);
}

Test(sim_dispatch, a_store_whose_address_comes_late_issues_its_data_first)
{
    uop *u = store(120, 0);
    cr_assert_eq(u->issue, 101);
    cr_assert_eq(u->issue2, 120);
    const store_entry *s = &core->stq[u->stq_pos % (uint64_t)core->cfg.stq_entries];
    cr_assert_eq(s->data_ready, 101);
    cr_assert_geq(s->addr_ready, 120, "translated when the address half issues");
}

Test(sim_dispatch, squashing_a_split_store_frees_both_ports_and_its_entry)
{
    uop *u = store(0, 110);
    core_unschedule(core, u);
    cr_assert_eq(mem_ports_used(101), 0);
    cr_assert_eq(mem_ports_used(110), 0);
    cr_assert_eq(core->iq[IQ_MEM].npending, 0);
}

/* auipc x7, 1: ready at once. */
static uop *auipc(void)
{
    uop *u = core_uop(core, core->disp++);
    memset(u, 0, sizeof *u);
    u->d.insn.pc = 0x1000;
    u->d.insn.op = RV_OP_auipc;
    u->d.insn.len = 4;
    u->ops.dst = 7;
    u->ops.src[0] = u->ops.src[1] = u->ops.src[2] = RV_REG_NONE;
    core_schedule(core, u);
    return u;
}

Test(sim_dispatch, auipc_runs_on_the_jump_unit_one_a_cycle)
{
    uop *a = auipc(), *b = auipc();
    cr_assert_eq(a->port, 0, "the jump unit's port reads pcs");
    cr_assert_eq(a->issue, 101);
    cr_assert_eq(b->port, 0);
    cr_assert_eq(b->issue, 102, "a second auipc waits for the one jump unit");
}

/* An integer operation at pc, its operands and destination as given, once
 * the core's state (e.g. a recoded branch's shadow) is set up. */
static uop *alu_at(uint64_t pc, enum rv_op op, uint8_t dst, uint8_t src)
{
    uop *u = core_uop(core, core->disp++);
    memset(u, 0, sizeof *u);
    u->d.insn.pc = pc;
    u->d.insn.op = op;
    u->d.insn.len = 4;
    u->ops.dst = dst;
    u->ops.src[0] = src, u->ops.src[1] = u->ops.src[2] = RV_REG_NONE;
    core_schedule(core, u);
    return u;
}

Test(sim_dispatch, a_recoded_short_forward_branch_issues_on_the_jump_unit)
{
    uop *plain = alu_at(0x1ffc, RV_OP_add, 7, RV_REG_NONE);
    cr_assert_eq(plain->issue, 101);
    cr_assert_eq(plain->port, 0, "an ALU operation takes the lowest free port");
    uop *u = core_uop(core, core->disp++);
    memset(u, 0, sizeof *u);
    u->d.insn.pc = 0x2000;
    u->d.insn.op = RV_OP_beq;
    u->d.insn.len = 4;
    u->d.insn.imm = 12;
    u->ops.dst = RV_REG_NONE;
    u->ops.src[0] = u->ops.src[1] = u->ops.src[2] = RV_REG_NONE;
    u->sfb_count = 2;
    core_schedule(core, u);
    cr_assert_eq(u->port, 0, "only the jump unit wakes the shadow's predicate");
    cr_assert_eq(u->issue, 102, "so it waits for port 0 though port 1 is free");
}

Test(sim_dispatch, a_shadowed_instruction_waits_for_its_old_destination_value)
{
    core->sfb_from = 0x2000, core->sfb_to = 0x200c, core->sfb_ready = 102;
    core->reg_ready[9] = 110; /* x9's older producer */
    uop *shadowed = alu_at(0x2004, RV_OP_addi, 9, RV_REG_NONE);
    cr_assert_eq(shadowed->issue, 110, "predicated: keeps x9's old value when the branch is taken");
    core->sfb_from = 0x2000, core->sfb_to = 0x200c, core->sfb_ready = 102;
    core->reg_ready[10] = 50;
    uop *ready = alu_at(0x2008, RV_OP_addi, 10, RV_REG_NONE);
    cr_assert_eq(ready->issue, 102, "and waits for the predicate");
}
