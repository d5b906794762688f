/* Functional warming from the fast path (uarch_warm_run: translated or
 * interpreted blocks and the memory accesses they note) leaves caches, TLBs
 * and predictors (their state and their access counts) exactly as warming
 * every instruction from the stepping path (uarch_warm) does, whole or in
 * pieces that stop and resume inside blocks, in geometries with special
 * cases; and so does a warmer that a run of one's own drives (bbv --proxy),
 * at every point it is brought up to date. */
#include <criterion/criterion.h>
#include <omp.h>
#include <string.h>

#include "quiet_guest.h"
#include "uarch/uarch.h"

#define PROGRAM "build/rv/workloads/sort"
#define CONFIG "configs/boom-tip.ini"

/* sets: NULL, or overrides of the configuration ("sec.key=value"), NULL-terminated. */
static void start(rv_proc *p, uarch *u, enum rv_exec_mode mode, const char *const *sets)
{
    start_quiet_guest(p, PROGRAM, "1", mode);
    char err[256];
    uarch_config c;
    uarch_config_defaults(&c);
    cr_assert_eq(uarch_config_load(&c, CONFIG, err, sizeof err), 0, "%s", err);
    for (; sets && *sets; sets++)
        cr_assert_eq(uarch_config_set(&c, *sets, err, sizeof err), 0, "%s", err);
    uarch_init(u, &c);
}

/* The reference: every instruction from the stepping path. */
static void warm_stepping(rv_proc *p, uarch *u, uint64_t limit)
{
    rv_dyninst batch[64];
    while (p->cpu.icount < limit) {
        uint64_t n = limit - p->cpu.icount < 64 ? limit - p->cpu.icount : 64;
        size_t done = rv_step_many(p, batch, n);
        for (size_t i = 0; i < done; i++)
            uarch_warm(u, &batch[i]);
        if (done < n)
            break;
    }
}

static void expect_same_state(uarch *a, uarch *b)
{
    ustate sa = {0}, sb = {0};
    uarch_save(a, &sa);
    uarch_save(b, &sb);
    cr_assert_eq(sa.len, sb.len);
    cr_expect(memcmp(sa.data, sb.data, sa.len) == 0, "warm state differs from the stepping path's");
    ustate_free(&sa);
    ustate_free(&sb);
    /* the access counts too (the fast path counts repeated hits in bulk) */
    cr_expect(memcmp(memsys_get_stats(a->mem), memsys_get_stats(b->mem), sizeof(memsys_stats)) == 0,
              "cache statistics differ from the stepping path's");
    cr_expect(memcmp(tlbs_get_stats(a->tlb), tlbs_get_stats(b->tlb), sizeof(tlb_stats)) == 0,
              "TLB statistics differ from the stepping path's");
}

static void compare(enum rv_exec_mode mode, uint64_t piece, const char *const *sets)
{
    enum { LIMIT = 3000000 };
    rv_proc ref, fast;
    uarch ur, uf;
    start(&ref, &ur, RV_EXEC_INTERPRET, sets);
    start(&fast, &uf, mode, sets);
    warm_stepping(&ref, &ur, LIMIT);
    for (uint64_t at = piece; fast.cpu.icount < LIMIT; at += piece)
        uarch_warm_run(&uf, &fast, at < LIMIT ? at : LIMIT);
    cr_assert_eq(fast.cpu.icount, ref.cpu.icount);
    cr_expect_eq(fast.cpu.pc, ref.cpu.pc);
    expect_same_state(&ur, &uf);
    uarch_destroy(&ur);
    uarch_destroy(&uf);
    rv_proc_destroy(&ref);
    rv_proc_destroy(&fast);
}

Test(warm, translated_blocks_warm_as_stepping_does) { compare(RV_EXEC_TRANSLATE, 3000000, NULL); }
Test(warm, interpreted_blocks_warm_as_stepping_does) { compare(RV_EXEC_INTERPRET, 3000000, NULL); }
Test(warm, pieces_stopping_inside_blocks_warm_as_stepping_does) { compare(RV_EXEC_TRANSLATE, 99991, NULL); }

/* With a training delay (bpred.warm_train_delay) the fast path's batches
 * and the stepping path's single branches train alike. */
Test(warm, warming_with_a_training_delay_warms_as_stepping_does)
{
    static const char *const delayed[] = {"bpred.warm_train_delay=12", NULL};
    compare(RV_EXEC_TRANSLATE, 99991, delayed);
}

/* The special cases of the warming model: a fetch block that is not a power
 * of two bytes, a one-set L1D (a prefetch lands in the set of the line that
 * missed), tiny TLBs and no L2 TLB, more TAGE tables than a vector holds. */
Test(warm, odd_geometry_warms_as_stepping_does)
{
    static const char *const odd[] = {"frontend.fetch_width=3", "l1i.size_kib=1", "l1i.ways=1", "l1d.size_kib=1",
                                      "l1d.ways=16", "itlb.entries=1", "dtlb.entries=3", "l2tlb.entries=0",
                                      "bpred.tage_tables=12", "bpred.tage_log_entries=9", "bpred.tage_tag_bits=7",
                                      "bpred.tage_min_history=2", "bpred.tage_max_history=200", NULL};
    compare(RV_EXEC_TRANSLATE, 99991, odd);
}

/* A warmer driven by a run of one's own, brought up to date (statistics
 * included) at stops that fall inside blocks, its thread or not. */
static void compare_synced(bool thread)
{
    enum { LIMIT = 3000000, PIECE = 700001 };
    rv_proc ref, fast;
    uarch ur, uf;
    start(&ref, &ur, RV_EXEC_INTERPRET, NULL);
    start(&fast, &uf, RV_EXEC_TRANSLATE, NULL);
    omp_set_num_threads(2); /* whatever the CPUs: a thread if asked for */
    uarch_warmer *w = uarch_warmer_new(&uf, &fast, thread);
    for (uint64_t at = PIECE; fast.cpu.icount < LIMIT; at += PIECE) {
        rv_run(&fast, at < LIMIT ? at : LIMIT, uarch_warmer_block, w);
        uarch_warmer_sync(w);
        warm_stepping(&ref, &ur, fast.cpu.icount);
        cr_assert_eq(fast.cpu.icount, ref.cpu.icount);
        expect_same_state(&ur, &uf);
    }
    uarch_warmer_free(w);
    cr_expect_null(fast.trace, "the warmer leaves no trace behind");
    expect_same_state(&ur, &uf);
    uarch_destroy(&ur);
    uarch_destroy(&uf);
    rv_proc_destroy(&ref);
    rv_proc_destroy(&fast);
}

Test(warm, a_warmer_with_its_thread_is_current_at_every_sync) { compare_synced(true); }
Test(warm, a_warmer_without_a_thread_is_current_at_every_sync) { compare_synced(false); }

/* The level a fetch of the way conditional branch bne (at pc, imm) did not
 * go finds, after warming the branch alone. */
static int other_way_level(uint64_t pc, int64_t imm, bool taken)
{
    uarch u;
    uarch_config c;
    uarch_config_defaults(&c);
    uarch_init(&u, &c);
    rv_dyninst d = {.insn = {.op = RV_OP_bne, .pc = pc, .len = 4, .imm = imm}, .taken = taken};
    d.next_pc = taken ? pc + (uint64_t)imm : pc + 4;
    uarch_warm(&u, &d);
    int level = memsys_warm_ifetch(u.mem, taken ? pc + 4 : pc + (uint64_t)imm);
    uarch_destroy(&u);
    return level;
}

/* The detailed core's front end goes the other way of a conditional branch
 * it mispredicts, and so brings lines into the L2 that the correct path
 * has not fetched yet: warming reads the other way's line into the levels
 * below the L1s (memsys_warm_wrong_path), unless it is the branch's own. */
Test(warm, a_branch_brings_the_line_of_its_other_way_below_the_l1s)
{
    cr_expect_eq(other_way_level(0x10000, 4096, false), MEM_L2, "not taken: the target's line");
    cr_expect_eq(other_way_level(0x1003c, -4096, true), MEM_L2, "taken: the next line");
    cr_expect_eq(other_way_level(0x10000, 8, false), MEM_L1, "not taken, the target in the branch's line");
}
