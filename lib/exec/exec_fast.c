/* The fast path: whole pre-decoded blocks, no per-instruction bookkeeping.
 * Dispatch is threaded (GCC's labels as values): every instruction's code
 * ends in its own indirect jump to the next one, which the host's branch
 * predictor learns far better than the single jump of a switch.
 * cpu.icount holds the count at the start of the current block; an
 * instruction's own count is icount + in->idx. */
#include "code.h"
#include "exec/exec_common.h"
#include "jit/check.h"

#define LOAD(bits, addr) traced_load(p, in, (addr), (bits) / 8)
#define STORE(bits, addr, v) traced_store(p, in, (addr), (bits) / 8, (v))
#define PREFETCH(addr) traced_prefetch(p, in, (addr))
#define JUMP(target) do { next_pc = (target); goto block_end; } while (0)
#define BRANCH(cond) JUMP(traced_branch(p, (cond)) ? PC + IMM : PC + LEN)
#define SYSCALL() do { p->cpu.icount = start + in->idx + 1; p->cpu.pc = PC + LEN; rv_syscall(p); \
                       JUMP(p->cpu.pc); } while (0)
#define FENCE_I() do { p->flush_code = true; JUMP(PC + LEN); } while (0)

/* Run the first `count` instructions of b from position `from`, one at a
 * time (the run must stop part-way through b). */
static void step_partial(rv_proc *p, rv_block *b, uint32_t from, uint64_t count, rv_block_hook hook, void *ctx)
{
    uint64_t start = p->cpu.icount;
    rv_dyninst d;
    uint32_t done = 0;
    if (p->trace)
        p->trace->n = 0;
    while (done < count && code_step(p, &d, 1, false) == 1) {
        if (p->trace)
            trace_stepped(p, b, from + done, &d, 1);
        done++;
    }
    if (hook && done)
        hook(ctx, b, from, start, done);
    if (p->stop == RV_RUNNING)
        p->cpu.block_pc = from + done < b->n ? b->pc : p->cpu.pc;
}

/* Position of the instruction at pc in b, or -1. */
static int position_in(const rv_block *b, uint64_t pc)
{
    for (uint32_t i = 0; i < b->n; i++)
        if (b->insns[i].pc == pc)
            return (int)i;
    return -1;
}

/* Run whole blocks up to exactly `limit` instructions; a fault returns early
 * (stopped, or with the fault pending for the program's handler). Blocks
 * with host code (jit.h) run it, chained to one another where the hook
 * allows (none, or block counting); the others are interpreted. */
static void run_blocks(rv_proc *p, uint64_t limit, rv_block_hook hook, void *ctx)
{
    jmp_buf trap;
    jmp_buf *outer = p->trap;
    rv_block *volatile current = NULL;
    volatile uint32_t from_at_trap = 0;
    volatile bool translated = false; /* host code is running, perhaps over several blocks */
    p->trap = &trap;
    if (setjmp(trap)) {
        /* A fault inside `current`: the instructions before it retired. */
        rv_block *b = translated ? rv_block_of(p->trap_insn) : current;
        uint32_t from = translated ? 0 : from_at_trap;
        uint64_t block_start = p->cpu.icount; /* see below: icount is b's start while it runs */
        uint32_t done = p->trap_insn->idx;
        if (hook && b && done > from)
            hook(ctx, b, from, block_start + from, done - from);
        p->cpu.icount = block_start + done;
        p->trap = outer;
        return;
    }
    static const void *const handlers[RV_OP_COUNT] = {
#define SEM(name, ...) [RV_OP_##name] = &&op_##name,
#include "isa/semantics.def"
#undef SEM
    };
    uint64_t *x = p->cpu.x;
    uint64_t pc = p->cpu.pc;
    const bool counting = code_counting(p);
    /* Translated code goes on from block to block while the next one cannot
     * cross the limit: through chains, or, when the hook sees every block,
     * by calling it rather than coming back here. A traced run's exits call
     * it themselves and go on through the chains (the traced stencils); an
     * untraced run's call it through code_exit_slow. */
    bool hook_sees_every_block = hook && !counting;
    bool from_exits = hook_sees_every_block && p->trace;
    bool through_slow_exits = hook_sees_every_block && !from_exits;
    code_set_kind(p, from_exits, counting);
    p->jit.fast = code_fast_table(p->code);
    uint64_t go_on = limit > RV_BLOCK_MAX_INSNS && p->exec_mode != RV_EXEC_CHECK ? limit - RV_BLOCK_MAX_INSNS : 0;
    p->jit.chain_limit = through_slow_exits ? 0 : go_on;
    p->hook.fn = hook;
    p->hook.ctx = ctx;
    p->hook.limit = through_slow_exits ? go_on : 0;
    rv_block *b = NULL; /* the block at pc, when already known */
    rv_block *chain_from = NULL; /* translated block that just left for b, to chain to b's code */
    uint32_t from = 0;  /* where in b execution starts: 0 except when resuming inside a block */
    if (p->cpu.block_pc != pc && p->stop == RV_RUNNING) {
        code_sync(p);
        b = code_block(p, p->cpu.block_pc);
        int k = position_in(b, pc);
        if (k > 0)
            from = (uint32_t)k;
        else
            b = NULL; /* the code changed: start a fresh block at pc */
    }
    while (p->stop == RV_RUNNING) {
        if (!b) {
            code_sync(p);
            p->cpu.pc = pc; /* for a fetch fault */
            b = code_block(p, pc);
            chain_from = NULL;
        }
        /* start = the count at b's first instruction, as if it ran from there */
        uint64_t start = p->cpu.icount - from;
        if (__builtin_expect(b->n > limit - start || p->cpu.icount >= limit, 0)) {
            p->cpu.pc = pc;
            if (p->cpu.icount < limit)
                step_partial(p, b, from, limit - p->cpu.icount, hook, ctx);
            else if (from == 0)
                p->cpu.block_pc = pc; /* stopped at a block boundary */
            p->trap = outer;
            return;
        }
        uint64_t next_pc;
        if (p->trace)
            p->trace->n = 0;
        void (*host)(rv_proc *, uint64_t *) = from == 0 ? code_host(p, b) : NULL;
        if (host) {
            if (chain_from)
                code_chain(p, chain_from, b);
            translated = true;
            if (p->exec_mode == RV_EXEC_CHECK && !b->ends_in_system) {
                uint32_t done = jit_check_block(p, b, host);
                if (done < b->n) { /* the interpreter stopped inside b: a fault, as below */
                    if (hook && done)
                        hook(ctx, b, 0, start, done);
                    p->trap = outer;
                    return;
                }
            } else {
                code_run(p, host); /* counts and advances icount itself, perhaps over several blocks */
            }
            translated = false;
            b = p->jit.last;
            pc = p->cpu.pc;
            if (through_slow_exits)
                hook(ctx, b, 0, p->cpu.icount - b->n, b->n);
            chain_from = p->jit.chain_limit && !b->ends_in_system && !code_chained(p, b, pc) ? b : NULL;
            goto block_left;
        }
        if (__builtin_expect(p->flush_code, 0)) {
            b = NULL; /* the translation buffer is full: start afresh */
            continue;
        }
        chain_from = NULL;
        current = b;
        from_at_trap = from;
        p->cpu.icount = start; /* so that an instruction's count is icount + in->idx */
        const rv_insn *in = b->insns + from;
        goto *handlers[in->op];
#define SEM(name, ...) op_##name: __VA_ARGS__; goto *handlers[(++in)->op];
#include "isa/semantics.def"
#undef SEM
    block_end:
        p->cpu.icount = start + b->n;
        if (counting && from == 0) {
            code_count(p, b);
        } else if (hook) {
            p->cpu.pc = next_pc;
            hook(ctx, b, from, start + from, b->n - from);
        }
        from = 0;
        pc = next_pc;
    block_left:
        /* Only a system instruction can stop the process, change its code,
         * or arm a timer. */
        if (__builtin_expect(b->ends_in_system, 0)) {
            if (p->os.sig.next_event < limit)
                break; /* rv_run comes back with the earlier limit */
            if (p->stop != RV_RUNNING || p->flush_code || p->mem.code_changes != p->code_changes_seen) {
                b = NULL;
                continue;
            }
        }
        b = code_next_block(p, b, pc);
    }
    p->cpu.pc = p->cpu.block_pc = pc;
    p->trap = outer;
}

enum rv_run_result rv_run(rv_proc *p, uint64_t limit, rv_block_hook hook, void *ctx)
{
    while (p->stop == RV_RUNNING) {
        if (p->cpu.icount < limit && signal_due(p)) {
            uint64_t pc = p->cpu.pc;
            sig_deliver(p);
            if (p->cpu.pc != pc) /* a handler starts a block */
                p->cpu.block_pc = p->cpu.pc;
            continue;
        }
        run_blocks(p, limit < p->os.sig.next_event ? limit : p->os.sig.next_event, hook, ctx);
        if (p->cpu.icount >= limit)
            break;
    }
    return p->stop == RV_RUNNING ? RV_RUN_LIMIT : RV_RUN_STOPPED;
}
