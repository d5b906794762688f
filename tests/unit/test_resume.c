/* Runs stopped at arbitrary instruction counts and resumed (mid-block) see
 * exactly the same blocks and counts as one uninterrupted run. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "quiet_guest.h"

#define PROGRAM "build/rv/workloads/phases"

/* A running digest of (block start pc, instructions) with consecutive pieces
 * of one block execution merged, plus totals. */
typedef struct trace {
    uint64_t digest, pending_pc, pending_insts, next_expected, calls;
    bool broken;
} trace;

static void flush_pending(trace *t)
{
    if (!t->pending_insts)
        return;
    t->digest = (t->digest ^ t->pending_pc) * UINT64_C(0x100000001b3);
    t->digest = (t->digest ^ t->pending_insts) * UINT64_C(0x100000001b3);
    t->pending_insts = 0;
}

static void on_block(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    trace *t = ctx;
    if (start != t->next_expected)
        t->broken = true; /* the hook must see contiguous instruction ranges */
    t->next_expected = start + executed;
    if (first + executed > b->n)
        t->broken = true; /* positions past the block's end */
    t->calls++;
    /* A piece continues the pending block execution if it is the same block
     * and the pending piece did not already complete it. */
    if (t->pending_insts && (t->pending_pc != b->pc || t->pending_insts % b->n == 0))
        flush_pending(t);
    t->pending_pc = b->pc;
    t->pending_insts += executed;
}

static void start(rv_proc *p)
{
    start_quiet_guest(p, PROGRAM, "1", RV_EXEC_TRANSLATE);
}

Test(resume, chunked_runs_see_the_same_blocks)
{
    rv_proc one, chunked;
    trace a = {.digest = 14695981039346656037ULL}, b = {.digest = 14695981039346656037ULL};
    start(&one);
    rv_run(&one, UINT64_MAX, on_block, &a);
    flush_pending(&a);
    cr_assert_eq(one.stop, RV_STOP_EXIT);

    start(&chunked);
    static const uint64_t steps[] = {1, 7, 9973, 123457, 3, 1000003, 2, 65536};
    unsigned runs = 0;
    for (uint64_t limit = 0; chunked.stop == RV_RUNNING; runs++) {
        limit += steps[runs % 8];
        enum rv_run_result r = rv_run(&chunked, limit, on_block, &b);
        if (r == RV_RUN_LIMIT)
            cr_assert_eq(chunked.cpu.icount, limit, "stopped at %llu, not at the limit %llu",
                         (unsigned long long)chunked.cpu.icount, (unsigned long long)limit);
    }
    flush_pending(&b);
    cr_assert_gt(runs, 20);
    cr_assert(!a.broken && !b.broken, "the hook saw a gap or overlap in instruction ranges");
    cr_assert_eq(chunked.cpu.icount, one.cpu.icount);
    cr_assert_eq(chunked.exit_status, one.exit_status);
    cr_assert_eq(b.digest, a.digest, "resumed runs attributed instructions to different blocks");
    cr_assert_gt(b.calls, a.calls);
    rv_proc_destroy(&one);
    rv_proc_destroy(&chunked);
}
