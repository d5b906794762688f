/* The branch predictor (lib/uarch/bpred.c, tage.c): branch kinds from the
 * RISC-V link-register hints, TAGE direction learning, the return address
 * stack, indirect targets, the BTB, and save/restore of the warm state. */
#include <criterion/criterion.h>
#include <string.h>

#include "uarch/bpred.h"

enum { RA = 1, T0 = 5, A0 = 10, A1 = 11, A5 = 15 };

static uarch_config defaults(void)
{
    uarch_config c;
    uarch_config_defaults(&c);
    return c;
}

static rv_insn insn(enum rv_op op, unsigned rd, unsigned rs1, uint64_t pc)
{
    return (rv_insn){.op = op, .rd = (uint8_t)rd, .rs1 = (uint8_t)rs1, .pc = pc, .len = 4};
}

static rv_insn cond(uint64_t pc) { return insn(RV_OP_bne, 0, A0, pc); }

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* ---------------------------------------------------------------- kinds */

Test(bpred, kind_of_non_jumps_and_conditional_branches)
{
    enum rv_op branches[] = {RV_OP_beq, RV_OP_bne, RV_OP_blt, RV_OP_bge, RV_OP_bltu, RV_OP_bgeu};
    for (size_t i = 0; i < sizeof branches / sizeof *branches; i++) {
        rv_insn b = insn(branches[i], 0, A0, 0x1000);
        cr_expect_eq(bpred_kind(&b), BP_COND, "%s", rv_ops[branches[i]].name);
    }
    rv_insn add = insn(RV_OP_add, RA, RA, 0x1000), ft = insn(RV_OP_fallthrough, 0, 0, 0x1000);
    cr_expect_eq(bpred_kind(&add), BP_NONE);
    cr_expect_eq(bpred_kind(&ft), BP_NONE, "the synthetic block end is no jump");
}

Test(bpred, kind_of_jal)
{
    rv_insn call = insn(RV_OP_jal, RA, 0, 0), call_t0 = insn(RV_OP_jal, T0, 0, 0);
    rv_insn j = insn(RV_OP_jal, RV_X_SINK, 0, 0), jal_a0 = insn(RV_OP_jal, A0, 0, 0);
    cr_expect_eq(bpred_kind(&call), BP_CALL, "jal ra");
    cr_expect_eq(bpred_kind(&call_t0), BP_CALL, "jal t0 (alternate link register)");
    cr_expect_eq(bpred_kind(&j), BP_JUMP, "j (jal x0)");
    cr_expect_eq(bpred_kind(&jal_a0), BP_JUMP, "jal a0 (not a link register)");
}

Test(bpred, kind_of_jalr_follows_the_link_register_hints)
{
    struct { unsigned rd, rs1; enum bp_kind want; const char *what; } cases[] = {
        {RV_X_SINK, RA, BP_RET, "c.jr ra / ret"},
        {RV_X_SINK, T0, BP_RET, "jalr x0, 0(t0)"},
        {RA, A5, BP_CALL, "jalr ra, 0(a5)"},
        {T0, A5, BP_CALL, "jalr t0, 0(a5)"},
        {RA, RA, BP_CALL, "jalr ra, 0(ra): same link register, push only"},
        {RA, T0, BP_RET, "jalr ra, 0(t0): pop then push"},
        {T0, RA, BP_RET, "jalr t0, 0(ra): pop then push"},
        {RV_X_SINK, A5, BP_INDIRECT, "c.jr a5"},
        {A0, A1, BP_INDIRECT, "jalr a0, 0(a1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rv_insn in = insn(RV_OP_jalr, cases[i].rd, cases[i].rs1, 0x1000);
        cr_expect_eq(bpred_kind(&in), cases[i].want, "%s", cases[i].what);
    }
}

/* ------------------------------------------------------------ direction */

/* Run one branch through `warm` then `measure` outcomes of pattern(i);
 * returns the mispredict rate over the measured part. As in a program, a
 * jump takes fetch back to the branch when it falls through (the history
 * learns a bank's not-taken outcome when fetch leaves the bank). */
static double run_branch(const uarch_config *c, bool (*pattern)(unsigned long, void *), void *arg,
                         unsigned long warm, unsigned long measure)
{
    bpred *b = bpred_new(c);
    rv_insn br = cond(0x10450), back = insn(RV_OP_jal, 0, 0, 0x10454);
    back.imm = -0x54;
    unsigned long wrong = 0, jumps = 0;
    for (unsigned long i = 0; i < warm + measure; i++) {
        bool taken = pattern(i, arg);
        bp_outcome o = bpred_predict_update(b, &br, taken, taken ? 0x10400 : 0x10454);
        if (i >= warm) wrong += o.mispredict;
        if (!taken) bpred_predict_update(b, &back, true, 0x10400), jumps++;
    }
    cr_expect_eq(bpred_get_stats(b)->cond, warm + measure);
    cr_expect_eq(bpred_get_stats(b)->branches, warm + measure + jumps);
    bpred_free(b);
    return (double)wrong / (double)measure;
}

static bool always(unsigned long i, void *arg) { (void)i; return *(bool *)arg; }
/* A loop branch: taken period - 1 times, then not taken. */
static bool loop_exit(unsigned long i, void *arg)
{
    unsigned long period = *(unsigned long *)arg;
    return i % period != period - 1;
}
static bool random_outcome(unsigned long i, void *arg) { (void)i; return xorshift(arg) >> 63; }

Test(bpred, constant_branches_converge)
{
    uarch_config c = defaults();
    bool dir[] = {true, false};
    for (int i = 0; i < 2; i++)
        cr_expect_eq(run_branch(&c, always, &dir[i], 20, 1000), 0.0, "always %s",
                     dir[i] ? "taken" : "not taken");
}

/* TAGE alone: without the loop predictor, which learns loops too. */
static uarch_config tage_only(void)
{
    uarch_config c = defaults();
    c.bp_loop_sets = 0;
    return c;
}

/* Functional warming with a training delay (bpred.warm_train_delay): a
 * branch is trained once that many younger ones have been predicted, as
 * the core trains at commit, so a never-taken branch that TAGE's base first
 * predicts taken is mispredicted until its first training lands. */
static unsigned long delayed_mispredicts(int delay)
{
    uarch_config c = tage_only();
    c.bp_warm_delay = delay;
    bpred *b = bpred_new(&c);
    rv_insn br = cond(0x10450);
    unsigned long wrong = 0;
    for (int i = 0; i < 40; i++) wrong += bpred_predict_update(b, &br, false, 0x10454).mispredict;
    bpred_free(b);
    return wrong;
}

Test(bpred, warming_trains_a_branch_after_its_delay)
{
    cr_expect_eq(delayed_mispredicts(0), 1, "trained at once");
    cr_expect_eq(delayed_mispredicts(5), 6, "the first 6 predicted before the first training");
    cr_expect_eq(delayed_mispredicts(63), 40, "none trained within 40 branches");
}

Test(bpred, tage_learns_a_loop_of_eight)
{
    uarch_config c = tage_only();
    unsigned long period = 8;
    double rate = run_branch(&c, loop_exit, &period, 2000, 20000);
    cr_expect_lt(rate, 0.02, "mispredict rate %.4f", rate);
}

Test(bpred, tage_learns_a_loop_of_thirty_two)
{
    /* Needs the 37- or 64-outcome tables: checks that long histories are
     * folded without confusing the exit with other iterations. */
    uarch_config c = tage_only();
    unsigned long period = 32;
    double rate = run_branch(&c, loop_exit, &period, 10000, 32000);
    cr_expect_lt(rate, 0.005, "mispredict rate %.4f", rate);
}

/* One tagged table with one outcome of history: TAGE sees the exit as
 * every other iteration. */
static uarch_config short_history(void)
{
    uarch_config c = defaults();
    c.bp_tage_tables = 1;
    c.bp_tage_min_hist = 1;
    c.bp_tage_max_hist = 2;
    return c;
}

Test(bpred, short_history_cannot_learn_a_loop_of_eight)
{
    /* Without the loop predictor about one outcome in eight is missed. */
    uarch_config c = short_history();
    c.bp_loop_sets = 0;
    unsigned long period = 8;
    double rate = run_branch(&c, loop_exit, &period, 2000, 20000);
    cr_expect_gt(rate, 0.10, "mispredict rate %.4f", rate);
}

/* ------------------------------------------------------- loop predictor */

Test(bpred, loop_predictor_learns_the_trip_count_tage_cannot)
{
    /* The same TAGE with TAGE-L's loop predictor: once the exit has come
     * at the same count 7 times it is predicted. */
    uarch_config c = short_history();
    unsigned long period = 8;
    double rate = run_branch(&c, loop_exit, &period, 2000, 20000);
    cr_expect_eq(rate, 0.0, "mispredict rate %.4f", rate);
}

Test(bpred, loop_predictor_predicts_exits_beyond_the_longest_history)
{
    /* 200 iterations: no history of 64 outcomes tells the exit apart, so
     * TAGE misses every exit, one outcome in 200; the loop predictor none. */
    uarch_config c = defaults();
    unsigned long period = 200;
    double with_loop = run_branch(&c, loop_exit, &period, 20000, 40000);
    c.bp_loop_sets = 0;
    double tage_only = run_branch(&c, loop_exit, &period, 20000, 40000);
    cr_expect_gt(tage_only, 0.9 / 200, "TAGE alone: mispredict rate %.5f", tage_only);
    cr_expect_eq(with_loop, 0.0, "with the loop predictor: mispredict rate %.5f", with_loop);
}

/* A loop of 100 iterations 40 times, then of 120: the confident entry
 * inverts at 100 once (a misprediction that drops its confidence), misses
 * the new exit while it relearns, then predicts it. */
static bool trip_count_changes(unsigned long i, void *arg)
{
    (void)arg;
    return i < 4000 ? i % 100 != 99 : (i - 4000) % 120 != 119;
}

Test(bpred, loop_predictor_relearns_a_changed_trip_count)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn br = cond(0x10450), back = insn(RV_OP_jal, 0, 0, 0x10454);
    back.imm = -0x54;
    unsigned long wrong_before = 0, wrong_relearning = 0, wrong_after = 0;
    for (unsigned long i = 0; i < 4000 + 120 * 40; i++) {
        bool taken = trip_count_changes(i, NULL);
        bool wrong = bpred_predict_update(b, &br, taken, taken ? 0x10400 : 0x10454).mispredict;
        if (i >= 2000 && i < 4000) wrong_before += wrong;
        else if (i >= 4000 && i < 4000 + 120 * 20) wrong_relearning += wrong;
        else if (i >= 4000 + 120 * 20) wrong_after += wrong;
        if (!taken) bpred_predict_update(b, &back, true, 0x10400);
    }
    bpred_free(b);
    cr_expect_eq(wrong_before, 0, "trip count 100, learnt: %lu mispredictions", wrong_before);
    cr_expect(wrong_relearning >= 2 && wrong_relearning <= 20, "relearning: %lu mispredictions", wrong_relearning);
    cr_expect_eq(wrong_after, 0, "trip count 120, learnt: %lu mispredictions", wrong_after);
}

Test(bpred, loop_predictor_counts_are_rewound)
{
    /* The detailed core's view: fetches of the branch past a checkpoint
     * (a wrong path) are taken back, so the exit is still predicted. */
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn br = cond(0x10450);
    unsigned long period = 200;
    for (unsigned long i = 0; i < period * 20; i++) bpred_predict_update(b, &br, loop_exit(i, &period), 0x10400);
    /* 198 iterations in: fetch the branch 5 times more, then rewind. */
    for (unsigned long i = 0; i < period - 2; i++) bpred_predict_update(b, &br, true, 0x10400);
    bp_checkpoint cp = bpred_checkpoint(b);
    for (int k = 0; k < 5; k++) {
        bp_prediction p;
        bp_event e;
        bpred_predict(b, &br, &p);
        bpred_event(&br, true, 0x10400, &e);
        bpred_speculate(b, &e);
    }
    bpred_rewind(b, &cp);
    bp_prediction p;
    bpred_predict(b, &br, &p);
    uint64_t taken_pc = br.pc + (uint64_t)br.imm, fall_through = br.pc + br.len;
    cr_expect(p.next_pc == taken_pc && !p.loop.flips, "the 199th iteration predicted taken");
    bp_event e;
    bpred_event(&br, true, 0x10400, &e);
    bpred_speculate(b, &e);
    bpred_predict(b, &br, &p);
    cr_expect(p.next_pc == fall_through && p.loop.flips, "the 200th, the exit, predicted by the loop predictor");
    bpred_free(b);
}

Test(bpred, random_branches_are_a_coin_toss)
{
    uarch_config c = defaults();
    uint64_t seed = 0x9e3779b97f4a7c15u;
    double rate = run_branch(&c, random_outcome, &seed, 0, 100000);
    cr_expect(rate > 0.45 && rate < 0.55, "mispredict rate %.4f", rate);
}

Test(bpred, correlated_branch_learned_from_global_history)
{
    /* A random branch, then one that repeats its outcome: the second is
     * predictable only from the history. */
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn first = cond(0x2000), second = cond(0x2010);
    uint64_t seed = 12345;
    unsigned wrong = 0;
    for (int i = 0; i < 30000; i++) {
        bool t = xorshift(&seed) >> 63;
        bpred_predict_update(b, &first, t, 0x2100);
        bp_outcome o = bpred_predict_update(b, &second, t, 0x2200);
        if (i >= 10000) wrong += o.mispredict;
    }
    cr_expect_lt(wrong, 200, "%u of 20000 mispredicted", wrong);
    bpred_free(b);
}

/* ------------------------------------------------------------------ RAS */

/* Calls from depth sites down to depth nested functions, then their returns
 * (c.ret: jalr x0, 0(ra)); returns which returns were mispredicted, as a
 * bit mask by return order (innermost first). */
static uint64_t nested_calls(bpred *b, int depth)
{
    for (int i = 0; i < depth; i++) {
        rv_insn call = insn(RV_OP_jal, RA, 0, 0x10000 + 0x100 * (uint64_t)i);
        bp_outcome o = bpred_predict_update(b, &call, true, 0x10000 + 0x100 * (uint64_t)(i + 1));
        cr_expect(!o.mispredict, "direct calls are never mispredicted");
    }
    uint64_t wrong = 0;
    for (int k = 0; k < depth; k++) {
        int i = depth - 1 - k;
        rv_insn ret = insn(RV_OP_jalr, RV_X_SINK, RA, 0x10000 + 0x100 * (uint64_t)(i + 1) + 0x40);
        ret.len = 2;
        bp_outcome o = bpred_predict_update(b, &ret, true, 0x10000 + 0x100 * (uint64_t)i + 4);
        wrong |= (uint64_t)o.mispredict << k;
    }
    return wrong;
}

Test(bpred, returns_within_the_stack_depth_are_predicted)
{
    uarch_config c = defaults();
    c.bp_ras_entries = 16;
    bpred *b = bpred_new(&c);
    for (int depth = 1; depth <= 16; depth++)
        cr_expect_eq(nested_calls(b, depth), 0, "depth %d", depth);
    const bpred_stats *s = bpred_get_stats(b);
    cr_expect_eq(s->returns, 16 * 17 / 2);
    cr_expect_eq(s->return_mispredicts, 0);
    bpred_free(b);
}

Test(bpred, returns_beyond_the_stack_depth_are_mispredicted)
{
    uarch_config c = defaults();
    c.bp_ras_entries = 8;
    bpred *b = bpred_new(&c);
    /* The 8 innermost returns are right; the 4 outermost calls were overwritten. */
    cr_expect_eq(nested_calls(b, 12), UINT64_C(0xf00));
    cr_expect_eq(bpred_get_stats(b)->return_mispredicts, 4);
    bpred_free(b);
}

Test(bpred, return_with_empty_stack_and_coroutine_switch)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn ret = insn(RV_OP_jalr, RV_X_SINK, RA, 0x3000);
    cr_expect(bpred_predict_update(b, &ret, true, 0x1234).mispredict, "empty stack");

    /* jalr ra, 0(t0) returns to the pushed address and pushes its own. */
    rv_insn call = insn(RV_OP_jal, T0, 0, 0x1000), swap = insn(RV_OP_jalr, RA, T0, 0x2000);
    bpred_predict_update(b, &call, true, 0x2000);
    cr_expect(!bpred_predict_update(b, &swap, true, 0x1004).mispredict, "pops the call's return");
    cr_expect(!bpred_predict_update(b, &ret, true, 0x2004).mispredict, "returns to after the swap");
    cr_expect(bpred_predict_update(b, &ret, true, 0x1004).mispredict, "stack empty again");
    bpred_free(b);
}

/* ---------------------------------------------------- indirect and BTB */

Test(bpred, indirect_jump_with_a_stable_target)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn jr = insn(RV_OP_jalr, RV_X_SINK, A5, 0x4000);
    cr_expect(bpred_predict_update(b, &jr, true, 0x5000).mispredict, "first: not in the BTB");
    for (int i = 0; i < 10; i++) {
        bp_outcome o = bpred_predict_update(b, &jr, true, 0x5000);
        cr_expect(!o.mispredict && !o.btb_miss, "repeat %d", i);
    }
    const bpred_stats *s = bpred_get_stats(b);
    cr_expect_eq(s->indirect, 11);
    cr_expect_eq(s->indirect_mispredicts, 1);
    cr_expect_eq(s->btb_misses, 0, "indirect misses are mispredicts, not bubbles");
    bpred_free(b);
}

Test(bpred, indirect_call_alternating_targets)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn call = insn(RV_OP_jalr, RA, A5, 0x4000);
    for (int i = 0; i < 20; i++)
        cr_expect(bpred_predict_update(b, &call, true, i & 1 ? 0x5000 : 0x6000).mispredict, "call %d", i);
    cr_expect_eq(bpred_get_stats(b)->indirect_mispredicts, 20);
    /* It still pushed its return address. */
    rv_insn ret = insn(RV_OP_jalr, RV_X_SINK, RA, 0x5010);
    cr_expect(!bpred_predict_update(b, &ret, true, 0x4004).mispredict);
    bpred_free(b);
}

Test(bpred, btb_miss_on_first_taken_jal_only)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn j = insn(RV_OP_jal, RV_X_SINK, 0, 0x7000);
    bp_outcome o = bpred_predict_update(b, &j, true, 0x7100);
    cr_expect(o.btb_miss && !o.mispredict);
    for (int i = 0; i < 5; i++) {
        o = bpred_predict_update(b, &j, true, 0x7100);
        cr_expect(!o.btb_miss && !o.mispredict);
    }
    cr_expect_eq(bpred_get_stats(b)->btb_misses, 1);
    cr_expect_eq(bpred_get_stats(b)->branches, 6);
    bpred_free(b);
}

Test(bpred, btb_replaces_the_least_recently_used)
{
    /* 2 sets of 2 ways: jumps 4 bytes apart alternate sets, so a, b, d share one. */
    uarch_config c = defaults();
    c.bp_btb_entries = 4;
    c.bp_btb_ways = 2;
    bpred *b = bpred_new(&c);
    uint64_t pcs[] = {0x100, 0x108, 0x110}; /* a, b, d */
    struct { int pc; bool miss; } seq[] = {
        {0, true}, {1, true}, {0, false}, {2, true} /* evicts b */, {0, false},
        {1, true} /* evicts d */, {0, false}, {2, true},
    };
    for (size_t i = 0; i < sizeof seq / sizeof *seq; i++) {
        rv_insn j = insn(RV_OP_jal, RV_X_SINK, 0, pcs[seq[i].pc]);
        cr_expect_eq(bpred_predict_update(b, &j, true, 0x9000).btb_miss, seq[i].miss, "step %zu", i);
    }
    bpred_free(b);
}

Test(bpred, taken_branch_needs_the_btb_not_taken_does_not)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn br = cond(0x8000);
    bp_outcome first = bpred_predict_update(b, &br, true, 0x7000);
    cr_expect(first.btb_miss != first.mispredict, "first taken: a bubble or a redirect, not both");
    for (int i = 0; i < 10; i++) {
        bp_outcome o = bpred_predict_update(b, &br, true, 0x7000);
        cr_expect(!o.btb_miss && !o.mispredict);
    }
    rv_insn nt = cond(0x8100);
    for (int i = 0; i < 10; i++)
        cr_expect(!bpred_predict_update(b, &nt, false, 0x7000).btb_miss, "never taken, never in the BTB");
    bpred_free(b);
}

Test(bpred, stats_count_control_transfers_and_reset)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn add = insn(RV_OP_add, A0, A0, 0x100), br = cond(0x104), call = insn(RV_OP_jal, RA, 0, 0x108);
    rv_insn ret = insn(RV_OP_jalr, RV_X_SINK, RA, 0x200), jr = insn(RV_OP_jalr, RV_X_SINK, A5, 0x10c);
    bpred_predict_update(b, &add, false, 0);
    bpred_predict_update(b, &br, false, 0x108);
    bpred_predict_update(b, &call, true, 0x200);
    bpred_predict_update(b, &ret, true, 0x10c);
    bpred_predict_update(b, &jr, true, 0x300);
    const bpred_stats *s = bpred_get_stats(b);
    cr_expect_eq(s->branches, 4);
    cr_expect_eq(s->cond, 1);
    cr_expect_eq(s->returns, 1);
    cr_expect_eq(s->return_mispredicts, 0);
    cr_expect_eq(s->indirect, 1);
    bpred_reset_stats(b);
    cr_expect_eq(s->branches + s->cond + s->returns + s->indirect + s->btb_misses, 0);
    bpred_free(b);
}

/* --------------------------------------------------------- save/restore */

/* A mixed workload: loops, correlated and random branches, calls, returns
 * and indirect jumps, from a seed; the outcome of each into out. */
static void workload_branch(uint64_t *seed, int i, rv_insn *in, bool *taken, uint64_t *target)
{
    uint64_t r = xorshift(seed);
    uint64_t pc = 0x10000 + (r & 0x3f) * 4;
    *taken = true;
    *target = 0x20000 + (r >> 60) * 0x40;
    switch ((r >> 8) % 5) {
    case 0: *in = insn(RV_OP_jal, RA, 0, pc); break;
    case 1: *in = insn(RV_OP_jalr, RV_X_SINK, RA, pc); *target = pc + 4; break;
    case 2: *in = insn(RV_OP_jalr, RV_X_SINK, A5, pc); break;
    default: *in = cond(pc); *taken = i % 7 != 0 || (r >> 40 & 1); break;
    }
}

static void workload(bpred *b, uint64_t seed, int n, bp_outcome *out)
{
    for (int i = 0; i < n; i++) {
        rv_insn in;
        bool taken;
        uint64_t target;
        workload_branch(&seed, i, &in, &taken, &target);
        out[i] = bpred_predict_update(b, &in, taken, target);
    }
}

static int differences(const bp_outcome *x, const bp_outcome *y, int n)
{
    int d = 0;
    for (int i = 0; i < n; i++) d += x[i].mispredict != y[i].mispredict || x[i].btb_miss != y[i].btb_miss;
    return d;
}

Test(bpred, save_restore_round_trip)
{
    enum { N = 20000 };
    static bp_outcome warm[N], want[N], got[N], cold[N];
    uarch_config c = defaults();
    c.bp_btb_entries = 64; /* small tables, so that the state differs from cold */
    c.bp_tage_log_entries = 6;
    bpred *a = bpred_new(&c), *b = bpred_new(&c), *fresh = bpred_new(&c);
    workload(a, 1, N, warm);
    ustate s = {0};
    bpred_save(a, &s);
    cr_assert(bpred_restore(b, &s), "restore");
    cr_expect_eq(s.pos, s.len, "restore reads all that save wrote");

    workload(a, 2, N, want);
    workload(b, 2, N, got);
    workload(fresh, 2, N, cold);
    cr_expect_eq(differences(want, got, N), 0, "restored predictor diverges");
    cr_expect_gt(differences(want, cold, N), 50, "a cold predictor should differ (test sanity): %d", differences(want, cold, N));
    ustate_free(&s);
    bpred_free(a);
    bpred_free(b);
    bpred_free(fresh);
}

Test(bpred, restore_refuses_another_geometry_or_short_state)
{
    uarch_config c = defaults();
    bpred *a = bpred_new(&c);
    bp_outcome out[1000];
    workload(a, 3, 1000, out);
    ustate s = {0};
    bpred_save(a, &s);

    uarch_config other[4] = {c, c, c, c};
    other[0].bp_tage_tables = 4;
    other[1].bp_btb_ways = 8;
    other[2].bp_ras_entries = 16;
    other[3].bp_tage_max_hist = 128;
    for (int i = 0; i < 4; i++) {
        bpred *b = bpred_new(&other[i]);
        s.pos = 0;
        s.bad = false;
        cr_expect(!bpred_restore(b, &s), "geometry %d", i);
        bpred_free(b);
    }

    /* Truncated: refused, and the predictor is left cold, like a new one. */
    bpred *b = bpred_new(&c), *fresh = bpred_new(&c);
    s.pos = 0;
    s.bad = false;
    s.len -= 8;
    cr_expect(!bpred_restore(b, &s), "truncated");
    static bp_outcome x[5000], y[5000];
    workload(b, 4, 5000, x);
    workload(fresh, 4, 5000, y);
    cr_expect_eq(differences(x, y, 5000), 0);
    ustate_free(&s);
    bpred_free(a);
    bpred_free(b);
    bpred_free(fresh);
}

/* Two predictors in the same state: their statistics and saved state. */
static bool same_predictor(bpred *x, bpred *y)
{
    ustate a = {0}, b = {0};
    bpred_save(x, &a);
    bpred_save(y, &b);
    bool same = a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
    ustate_free(&a);
    ustate_free(&b);
    return same && memcmp(bpred_get_stats(x), bpred_get_stats(y), sizeof(bpred_stats)) == 0;
}

static void expect_same_predictor(bpred *x, bpred *y, const char *what)
{
    cr_expect(memcmp(bpred_get_stats(x), bpred_get_stats(y), sizeof(bpred_stats)) == 0, "statistics: %s", what);
    ustate a = {0}, b = {0};
    bpred_save(x, &a);
    bpred_save(y, &b);
    cr_expect(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "saved state: %s", what);
    ustate_free(&a);
    ustate_free(&b);
}

/* bpred_warm_events trains conditional branches in batches: once flushed,
 * the statistics and the saved state are those of bpred_predict_update on
 * every branch, with immediate predictions interleaved or not. */
/* One branch for batched warming, as a warming batch hands it over. */
static void warm_one(bpred *b, const rv_insn *in, bool taken, uint64_t target)
{
    bp_event e;
    if (bpred_event(in, taken, target, &e)) bpred_warm_events(b, &e, 1);
}

/* The detailed core's path for a correct-path branch: predict, speculate
 * with its outcome, learn at once if mispredicted, train at commit. */
static bool fetch_resolve_commit(bpred *b, const rv_insn *in, bool taken, uint64_t next)
{
    bp_prediction p;
    bp_event e;
    bpred_predict(b, in, &p);
    cr_assert(bpred_event(in, taken, next, &e));
    bpred_speculate(b, &e);
    bool wrong = bpred_judge(&p, &e).mispredict;
    if (wrong) bpred_resolved_mispredict(b, &e, &p);
    bpred_commit(b, &e, &p);
    return wrong;
}

/* Loops of one branch, 150 to 249 iterations, each trip count 12 times:
 * the loop predictor becomes confident, inverts at the exits, and when the
 * trip count grows inverts once where TAGE was right. Batched warming
 * counts a run of the branch at once; it must leave the state and make the
 * mispredictions the detailed core's path (a separate implementation:
 * loop_read, loop_fetched, loop_mispredicted) does. */
Test(bpred, loop_predictor_warms_in_batches_as_the_core_learns)
{
    uarch_config c = defaults();
    bpred *core = bpred_new(&c), *batched = bpred_new(&c);
    rv_insn br = cond(0x10450);
    br.imm = -0x50; /* back to 0x10400 */
    unsigned long wrong = 0;
    for (int loop = 0; loop < 120; loop++) {
        int trip = 150 + (loop / 12) * 11 % 100;
        for (int i = 0; i < trip; i++) {
            bool taken = i != trip - 1;
            uint64_t next = taken ? 0x10400 : 0x10454;
            wrong += fetch_resolve_commit(core, &br, taken, next);
            warm_one(batched, &br, taken, next);
        }
    }
    bpred_warm_flush(batched);
    /* Each trip count is learnt in 7 exits of its 12 and predicted after. */
    cr_expect_lt(wrong, 110, "the loop predictor learnt the trip counts: %lu mispredictions", wrong);
    cr_expect_eq(bpred_get_stats(batched)->cond_mispredicts, wrong, "batched warming's mispredictions");
    ustate a = {0}, b = {0};
    bpred_save(core, &a);
    bpred_save(batched, &b);
    cr_expect(a.len == b.len && memcmp(a.data, b.data, a.len) == 0, "the saved state");
    ustate_free(&a);
    ustate_free(&b);
    bpred_free(core);
    bpred_free(batched);
}

Test(bpred, warm_batches_train_as_predict_update)
{
    enum { N = 30000 };
    uarch_config c = defaults();
    c.bp_tage_log_entries = 6; /* small tables: allocations, aliasing within a batch */
    for (int interleave = 0; interleave < 2; interleave++) {
        bpred *one = bpred_new(&c), *batched = bpred_new(&c);
        uint64_t seed = 5;
        for (int i = 0; i < N; i++) {
            rv_insn in;
            bool taken;
            uint64_t target;
            workload_branch(&seed, i, &in, &taken, &target);
            bpred_predict_update(one, &in, taken, target);
            if (interleave && i % 97 == 0)
                bpred_predict_update(batched, &in, taken, target);
            else
                warm_one(batched, &in, taken, target);
        }
        bpred_warm_flush(batched);
        expect_same_predictor(one, batched, interleave ? "interleaved" : "batched");
        bpred_free(one);
        bpred_free(batched);
    }
}

/* Both predictors learn from the branch: one at once, the other a batch at a time. */
static void learn_both(bpred *one, bpred *batched, const rv_insn *in, bool taken)
{
    bpred_predict_update(one, in, taken, 0x10400);
    warm_one(batched, in, taken, 0x10400);
}

/* A loop: its branch taken a varying number of times in a row, then
 * another branch; TAGE hashes a batch's run of the same branch with the
 * same recent history once (tage.c, repeats_of). Now and then the detailed
 * core speculates 60 loop branches (taken) a few branches after the other
 * one (not taken), then rewinds: the history goes back to one that holds
 * the other branch's outcome among its newest 64, the next loop branches
 * are no repeats then. Once flushed, the batched predictor is
 * bpred_predict_update's, with the longest history within 64 outcomes and
 * beyond. */
Test(bpred, warm_batches_of_a_loop_train_as_predict_update)
{
    enum { N = 40000 };
    rv_insn loop = cond(0x10450), other = cond(0x10468);
    for (int longest = 64; longest <= 100; longest += 36) {
        uarch_config c = defaults();
        c.bp_tage_log_entries = 6; /* small tables: allocations among the runs */
        c.bp_tage_max_hist = longest;
        bpred *one = bpred_new(&c), *batched = bpred_new(&c);
        uint64_t seed = 9;
        for (int i = 0; i < N;) {
            uint64_t r = xorshift(&seed);
            /* runs of up to 200, and often of 60: TAGE learns its exit from the
             * longest history, which holds the last exit near its oldest end */
            int run = r % 3 ? 1 + (int)(r >> 8) % 200 : 60;
            for (int left = run; left > 0; left--, i++) learn_both(one, batched, &loop, left > 1);
            bool speculate = r % 8 == 0;
            learn_both(one, batched, &other, !speculate && (r >> 40 & 1));
            if (!speculate) continue;
            for (int k = 0; k < 10; k++) learn_both(one, batched, &loop, true);
            bpred_warm_flush(batched);
            bpred *both[] = {one, batched};
            for (int k = 0; k < 2; k++) {
                bp_checkpoint cp = bpred_checkpoint(both[k]);
                for (int s = 0; s < 60; s++) {
                    bp_prediction p;
                    bpred_predict(both[k], &loop, &p);
                    bp_event e;
                    bpred_event(&loop, true, 0x10400, &e);
                    bpred_speculate(both[k], &e);
                }
                bpred_rewind(both[k], &cp);
            }
        }
        bpred_warm_flush(batched);
        expect_same_predictor(one, batched, longest <= 64 ? "history within 64" : "history beyond 64");
        bpred_free(one);
        bpred_free(batched);
    }
}

/* Runs of one branch whose outcome flips from run to run, with tables so
 * small that the usefulness ages every 512 updates: inside a run TAGE's
 * provider and its alternate often disagree, so the provider's usefulness
 * climbs until it saturates, and the aging may fall inside a run. Batched
 * warming skips the training of a repeat once it changes nothing
 * (tage.c); it must leave the state bpred_predict_update leaves, aging
 * included. */
Test(bpred, warm_batches_of_flipping_runs_train_as_predict_update)
{
    enum { N = 200000 };
    uarch_config c = defaults();
    c.bp_tage_log_entries = 1;
    c.bp_tage_max_hist = 16;
    bpred *one = bpred_new(&c), *batched = bpred_new(&c);
    rv_insn br = cond(0x10450), other = cond(0x10468);
    uint64_t seed = 13;
    bool outcome = true;
    for (int i = 0; i < N;) {
        uint64_t r = xorshift(&seed);
        if (r % 4 == 0) outcome = !outcome;
        for (int left = 1 + (int)(r >> 8) % 40; left > 0; left--, i++) learn_both(one, batched, &br, outcome);
        learn_both(one, batched, &other, r >> 40 & 1);
        if (r >> 50 & 1) continue;
        /* Half the time, compared at once: a difference later training would hide shows. */
        bpred_warm_flush(batched);
        if (!same_predictor(one, batched)) break;
    }
    bpred_warm_flush(batched);
    expect_same_predictor(one, batched, "flipping runs");
    bpred_free(one);
    bpred_free(batched);
}
