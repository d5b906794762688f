/* Traced runs (exec.h: rv_trace, what functional warming reads): a hook
 * that sees every block must see exactly the same from translated code as
 * from the interpreter: the same blocks in order, with the same counts, the
 * same pc after each whole block, the same memory accesses and the same
 * branch outcome; across runs that stop inside blocks, through faults that
 * handlers take, and through code written at run time. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "quiet_guest.h"

/* What the hook was shown of one block. */
typedef struct shown {
    uint64_t pc, start, next_pc, accesses; /* accesses: a hash of the trace's entries */
    uint32_t first, executed, n;
    int taken; /* -1 unless the block ends in a conditional branch it ran */
} shown;

typedef struct show_log {
    rv_proc *p;
    shown *s;
    size_t n, cap;
} show_log;

static void log_shown(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    show_log *l = ctx;
    const rv_trace *t = l->p->trace;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4096;
        l->s = realloc(l->s, l->cap * sizeof *l->s);
        cr_assert_not_null(l->s);
    }
    uint64_t h = 1469598103934665603ull;
    for (uint32_t k = 0; k < t->n; k++)
        h = (h ^ (t->e[k].addr * 131 + t->e[k].idx * 7 + t->e[k].kind)) * 1099511628211ull;
    bool whole = first == 0 && executed == b->n;
    const rv_insn *last = &b->insns[b->n - 1];
    l->s[l->n++] = (shown){
        .pc = b->pc, .start = start, .next_pc = whole ? l->p->cpu.pc : 0, .accesses = h,
        .first = first, .executed = executed, .n = t->n,
        .taken = whole && rv_ops[last->op].cls == CLS_BRANCH ? t->taken : -1,
    };
}

/* Run PROGRAM ARG traced in `mode`, stopping every `piece` instructions. */
static show_log run_traced(const char *program, const char *arg, enum rv_exec_mode mode, uint64_t piece)
{
    static rv_proc p;
    start_quiet_guest(&p, program, arg, mode);
    static rv_trace trace;
    memset(&trace, 0, sizeof trace);
    p.trace = &trace;
    show_log l = {.p = &p};
    for (uint64_t at = piece; p.stop == RV_RUNNING; at += piece)
        rv_run(&p, at, log_shown, &l);
    p.trace = NULL;
    rv_proc_destroy(&p);
    return l;
}

static void expect_shown_alike(const char *program, const char *arg, uint64_t piece)
{
    show_log a = run_traced(program, arg, RV_EXEC_TRANSLATE, piece);
    show_log b = run_traced(program, arg, RV_EXEC_INTERPRET, piece);
    cr_assert_gt(a.n, 1000, "%s: %zu blocks shown", program, a.n);
    cr_expect_eq(a.n, b.n, "%s: %zu blocks shown translated, %zu interpreted", program, a.n, b.n);
    for (size_t k = 0; k < a.n && k < b.n; k++) {
        const shown *x = &a.s[k], *y = &b.s[k];
        if (x->pc != y->pc || x->start != y->start || x->first != y->first || x->executed != y->executed ||
            x->next_pc != y->next_pc || x->n != y->n || x->accesses != y->accesses || x->taken != y->taken) {
            cr_expect_fail("%s: block %zu differs: translated pc %#llx start %llu [%u, +%u) next %#llx, %u "
                           "accesses, taken %d; interpreted pc %#llx start %llu [%u, +%u) next %#llx, %u "
                           "accesses, taken %d",
                           program, k, (unsigned long long)x->pc, (unsigned long long)x->start, x->first,
                           x->executed, (unsigned long long)x->next_pc, x->n, x->taken,
                           (unsigned long long)y->pc, (unsigned long long)y->start, y->first, y->executed,
                           (unsigned long long)y->next_pc, y->n, y->taken);
            break;
        }
    }
    free(a.s);
    free(b.s);
}

Test(trace, translated_blocks_are_shown_as_interpreted_ones)
{
    expect_shown_alike("build/rv/workloads/sort", "1", UINT64_MAX);
}

Test(trace, runs_stopping_inside_blocks_show_the_same)
{
    expect_shown_alike("build/rv/workloads/sort", "1", 99991);
}

Test(trace, faults_that_handlers_take_show_the_blocks_before_them)
{
    expect_shown_alike("build/rv/progs/sig_faults", NULL, UINT64_MAX);
}

Test(trace, code_written_at_run_time_shows_the_same)
{
    expect_shown_alike("build/rv/progs/self_modify", NULL, 7919);
}
