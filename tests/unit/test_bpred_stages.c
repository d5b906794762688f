/* The detailed core's use of the branch predictor (lib/uarch/bpred.h):
 * SonicBOOM's three prediction stages and the bubbles a later stage's
 * redirect costs, training at commit rather than at fetch, and TAGE split
 * into a prediction at fetch and training at commit. */
#include <criterion/criterion.h>

#include "uarch/bpred.h"
#include "uarch/tage.h"

enum { RA = 1, A0 = 10, A5 = 15 };

static uarch_config defaults(void)
{
    uarch_config c;
    uarch_config_defaults(&c);
    return c;
}

/* A control transfer at pc; imm: its direct target's offset. */
static rv_insn ctl(enum rv_op op, unsigned rd, unsigned rs1, uint64_t pc, int64_t imm)
{
    return (rv_insn){.op = op, .rd = (uint8_t)rd, .rs1 = (uint8_t)rs1, .pc = pc, .imm = imm, .len = 4};
}

/* Fetch in with its outcome (taken, next pc): predict, speculate, judge. */
static bp_outcome fetch(bpred *b, const rv_insn *in, bool taken, uint64_t next, bp_prediction *p)
{
    bp_event e;
    cr_assert(bpred_event(in, taken, next, &e));
    bpred_predict(b, in, p);
    bpred_speculate(b, &e);
    return bpred_judge(p, &e);
}

static void commit(bpred *b, const rv_insn *in, bool taken, uint64_t next, const bp_prediction *p)
{
    bp_event e;
    cr_assert(bpred_event(in, taken, next, &e));
    bpred_commit(b, &e, p);
}

/* Fetch then commit at once. */
static bp_outcome run(bpred *b, const rv_insn *in, bool taken, uint64_t next)
{
    bp_prediction p;
    bp_outcome o = fetch(b, in, taken, next, &p);
    commit(b, in, taken, next, &p);
    return o;
}

Test(bpred_stages, a_new_jump_is_found_by_predecode_then_by_the_micro_btb)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn j = ctl(RV_OP_jal, RV_X_SINK, 0, 0x1000, 0x100);
    bp_outcome o = run(b, &j, true, 0x1100);
    cr_expect(!o.mispredict, "a direct jump's target comes from predecode");
    cr_expect_eq(o.bubbles, 2, "neither BTB knew it: F3 redirects");
    cr_expect(o.btb_miss);
    o = run(b, &j, true, 0x1100);
    cr_expect_eq(o.bubbles, 0, "the micro-BTB steers the next fetch at once");
    cr_expect(!o.btb_miss && !o.mispredict);
    cr_expect_eq(bpred_get_stats(b)->btb_misses, 1);
    cr_expect_eq(bpred_get_stats(b)->bubbles, 2);
    bpred_free(b);
}

Test(bpred_stages, the_btb_redirects_a_cycle_after_the_micro_btb)
{
    /* A one-entry micro-BTB: two jumps evict each other there, the BTB
     * keeps both. */
    uarch_config c = defaults();
    c.bp_ubtb_entries = 1;
    bpred *b = bpred_new(&c);
    rv_insn j1 = ctl(RV_OP_jal, RV_X_SINK, 0, 0x2000, 0x40), j2 = ctl(RV_OP_jal, RV_X_SINK, 0, 0x2040, -0x40);
    run(b, &j1, true, 0x2040);
    run(b, &j2, true, 0x2000);
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(run(b, &j1, true, 0x2040).bubbles, 1, "round %d", i);
        cr_expect_eq(run(b, &j2, true, 0x2000).bubbles, 1, "round %d", i);
    }
    bpred_free(b);
}

Test(bpred_stages, training_waits_for_commit)
{
    /* Two instances of a new jump fetched before the first commits: both
     * predicted from the untrained tables. */
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn j = ctl(RV_OP_jal, RV_X_SINK, 0, 0x3000, 0x80);
    bp_prediction p1, p2;
    cr_expect_eq(fetch(b, &j, true, 0x3080, &p1).bubbles, 2);
    cr_expect_eq(fetch(b, &j, true, 0x3080, &p2).bubbles, 2, "not learnt before it commits");
    commit(b, &j, true, 0x3080, &p1);
    commit(b, &j, true, 0x3080, &p2);
    cr_expect_eq(run(b, &j, true, 0x3080).bubbles, 0);
    bpred_free(b);
}

Test(bpred_stages, returns_come_from_the_stack_at_f3)
{
    /* One function called from two sites in turn: the return stack predicts
     * every return, but the BTBs hold the last return's target, which is
     * the other site's, so F3 must redirect (two bubbles). */
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn ret = ctl(RV_OP_jalr, RV_X_SINK, RA, 0x9000, 0);
    for (int i = 0; i < 6; i++) {
        uint64_t site = i & 1 ? 0x4000 : 0x5000;
        rv_insn call = ctl(RV_OP_jal, RA, 0, site, (int64_t)(0x8f00 - site));
        cr_expect(!run(b, &call, true, 0x8f00).mispredict);
        bp_outcome o = run(b, &ret, true, site + 4);
        cr_expect(!o.mispredict, "return %d", i);
        if (i >= 1) cr_expect_eq(o.bubbles, 2, "return %d: the BTBs hold the other site", i);
    }
    const bpred_stats *s = bpred_get_stats(b);
    cr_expect_eq(s->returns, 6);
    cr_expect_eq(s->return_mispredicts, 0);
    bpred_free(b);
}

Test(bpred_stages, an_unknown_indirect_jump_is_mispredicted)
{
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn jr = ctl(RV_OP_jalr, RV_X_SINK, A5, 0x6000, 0);
    cr_expect(run(b, &jr, true, 0x7000).mispredict, "no target in the BTB: falls through");
    cr_expect(!run(b, &jr, true, 0x7000).mispredict, "the BTB learnt it");
    cr_expect(run(b, &jr, true, 0x7400).mispredict, "another target");
    cr_expect_eq(bpred_get_stats(b)->indirect_mispredicts, 2);
    bpred_free(b);
}

Test(bpred_stages, a_not_taken_branch_the_micro_btb_says_taken_costs_a_redirect)
{
    /* A loop branch taken 40 times then not: its micro-BTB entry says taken,
     * so the exit costs bubbles (or a misprediction) even when the exit is
     * predicted. */
    uarch_config c = defaults();
    bpred *b = bpred_new(&c);
    rv_insn br = ctl(RV_OP_bne, 0, A0, 0xa000, -0x20);
    for (int i = 0; i < 40; i++) run(b, &br, true, 0x9fe0);
    bp_prediction p;
    bpred_predict(b, &br, &p);
    cr_expect_eq(p.next_pc, 0x9fe0, "taken, as always so far");
    cr_expect_eq(p.bubbles, 0);
    bp_outcome o = run(b, &br, false, 0xa004);
    cr_expect(o.mispredict);
    bpred_free(b);
}

Test(bpred_stages, tage_split_matches_tage_predicting_and_training_a_batch)
{
    /* Predict, train, push what the branch adds to the history (nothing, a
     * 0 or a 1: the global history is not one outcome per branch), one
     * branch at a time: the same predictions, branch for branch, as
     * tage_predict_update_batch over batches of a random mix of branches. */
    uarch_config c = defaults();
    tage *split = tage_new(&c), *joint = tage_new(&c);
    uint64_t s = 88172645463325252ull;
    uint64_t pcs[TAGE_BATCH], history = 0;
    uint8_t at[TAGE_BATCH];
    uint32_t taken_bits = 0, split_wrong = 0;
    int n = 0, nhistory = 0, batch_size = 1;
    for (int i = 0; i < 50000; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint64_t pc = 0x10000 + 4 * (s % 61);
        bool taken = (s >> 20) % 5 < (pc >> 2) % 5; /* biased per branch */
        if ((pc >> 2) % 7 == 0) taken = (i >> 1) & 1; /* some follow a pattern */
        int push = (int)((s >> 40) % 3) - 1;         /* -1: nothing */
        tage_pred p;
        tage_predict(split, pc, &p);
        tage_train(split, pc, &p, taken);
        if (push >= 0) tage_push_history(split, push);
        split_wrong |= (uint32_t)(p.taken != taken) << n;
        pcs[n] = pc, at[n] = (uint8_t)nhistory, taken_bits |= (uint32_t)taken << n;
        if (push >= 0) history |= (uint64_t)push << nhistory++;
        if (++n == batch_size) {
            uint32_t wrong = tage_predict_update_batch(joint, pcs, taken_bits, at, n, history, nhistory);
            cr_assert_eq(wrong, split_wrong, "batch ending at branch %d", i);
            n = nhistory = 0, history = 0, taken_bits = split_wrong = 0;
            batch_size = 1 + (int)((s >> 50) % TAGE_BATCH);
        }
    }
    tage_free(split);
    tage_free(joint);
}

Test(bpred_stages, tage_reads_each_table_within_its_own_entries_and_tag_width)
{
    /* SonicBOOM's tables differ in size and tag width (tage_table_geometry):
     * every reading of table i must land in table i's entries, which follow
     * the tables before it, with a tag of table i's width; and every entry
     * of every table must be reachable. */
    uarch_config c = defaults();
    tage *t = tage_new(&c);
    uint32_t first[TAGE_MAX_TABLES], size[TAGE_MAX_TABLES], tag_limit[TAGE_MAX_TABLES];
    uint32_t next = 0;
    int ntab = c.bp_tage_tables;
    static bool seen[1 << 16];
    for (int i = 0; i < ntab; i++) {
        int log_entries, tag_bits;
        tage_table_geometry(&c, i, &log_entries, &tag_bits);
        first[i] = next, size[i] = 1u << log_entries, tag_limit[i] = 1u << tag_bits;
        next += size[i];
    }
    cr_assert_leq(next, sizeof seen / sizeof seen[0]);
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int n = 0; n < 400000; n++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint64_t pc = 0x10000 + 2 * (s % 4096);
        tage_pred p;
        tage_predict(t, pc, &p);
        for (int i = 0; i < ntab; i++) {
            cr_assert(p.idx[i] >= first[i] && p.idx[i] < first[i] + size[i], "table %d read at %u", i, p.idx[i]);
            cr_assert_lt(p.tag[i], tag_limit[i], "table %d's tag", i);
            seen[p.idx[i]] = true;
        }
        tage_push_history(t, s >> 40 & 1);
    }
    uint32_t reached = 0;
    for (uint32_t e = 0; e < next; e++) reached += seen[e];
    cr_assert_eq(reached, next, "%u of %u entries reached", reached, next);
    tage_free(t);
}

/* TAGE's base is SonicBOOM's BIM, which every conditional branch trains
 * (bim.scala), not only those no tagged table provides for. A branch goes
 * not taken four times in one history: the first misprediction gives it a
 * tagged entry, which provides the next three, while the base goes on down
 * to strongly not taken. In another history, where no entry matches, it
 * goes taken once: the new entry is weak, so the base decides the next
 * prediction, still not taken (a base trained only without a provider
 * would have stopped at weakly not taken, and gone up to taken). */
Test(bpred_stages, tage_base_learns_from_every_branch)
{
    uarch_config c = defaults();
    tage *t = tage_new(&c);
    const uint64_t pc = 0x10450;
    tage_pred p;
    for (int i = 0; i < 64; i++) tage_push_history(t, true);
    for (int i = 0; i < 4; i++) {
        tage_predict(t, pc, &p);
        tage_train(t, pc, &p, false);
    }
    cr_assert_not(p.taken, "a tagged entry provides the last three");
    for (int i = 0; i < 64; i++) tage_push_history(t, false);
    tage_predict(t, pc, &p);
    cr_assert_not(p.taken, "no entry matches: the base");
    tage_train(t, pc, &p, true);
    tage_predict(t, pc, &p);
    cr_assert_not(p.taken, "a weak new entry: the base, strongly not taken");
    tage_free(t);
}
