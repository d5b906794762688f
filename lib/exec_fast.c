/* The fast path: whole pre-decoded blocks, no per-instruction bookkeeping.
 * Dispatch is threaded (GCC's labels as values): every instruction's code
 * ends in its own indirect jump to the next one, which the host's branch
 * predictor learns far better than the single jump of a switch.
 * cpu.icount holds the count at the start of the current block; an
 * instruction's own count is icount + in->idx. */
#include "code.h"
#include "exec_common.h"

#define LOAD(bits, addr) guest_load(p, in, (addr), (bits) / 8)
#define STORE(bits, addr, v) guest_store(p, in, (addr), (bits) / 8, (v))
#define JUMP(target) do { next_pc = (target); goto block_end; } while (0)
#define BRANCH(cond) JUMP((cond) ? PC + IMM : PC + LEN)
#define SYSCALL() do { p->cpu.icount = start + in->idx + 1; p->cpu.pc = PC + LEN; rv_syscall(p); \
                       JUMP(PC + LEN); } while (0)
#define FENCE_I() do { p->flush_code = true; JUMP(PC + LEN); } while (0)

/* Finish a block that must stop part-way, one instruction at a time. */
static void step_partial(rv_proc *p, rv_block *b, uint64_t count, rv_block_hook hook, void *ctx)
{
    uint64_t start = p->cpu.icount;
    rv_dyninst d;
    uint32_t done = 0;
    while (done < count && rv_step(p, &d))
        done++;
    if (hook && done)
        hook(ctx, b, start, done);
}

enum rv_run_result rv_run(rv_proc *p, uint64_t limit, rv_block_hook hook, void *ctx)
{
    jmp_buf trap;
    jmp_buf *outer = p->trap;
    rv_block *volatile current = NULL;
    p->trap = &trap;
    if (setjmp(trap)) {
        /* A fault inside `current`: the instructions before it retired. */
        uint32_t done = p->trap_idx;
        if (hook && current && done)
            hook(ctx, current, p->cpu.icount, done);
        p->cpu.icount += done;
        p->trap = outer;
        return RV_RUN_STOPPED;
    }
    static const void *const handlers[RV_OP_COUNT] = {
#define SEM(name, ...) [RV_OP_##name] = &&op_##name,
#include "isa/semantics.def"
#undef SEM
    };
    uint64_t *x = p->cpu.x;
    uint64_t pc = p->cpu.pc;
    enum rv_run_result result = RV_RUN_STOPPED;
    rv_block *b = NULL; /* the block at pc, when already known */
    while (p->stop == RV_RUNNING) {
        if (code_sync(p))
            b = NULL;
        uint64_t start = p->cpu.icount;
        p->cpu.pc = pc;
        if (start >= limit) {
            result = RV_RUN_LIMIT;
            break;
        }
        if (!b)
            b = code_block(p, pc);
        if (b->n > limit - start) {
            step_partial(p, b, limit - start, hook, ctx);
            result = p->stop == RV_RUNNING ? RV_RUN_LIMIT : RV_RUN_STOPPED;
            pc = p->cpu.pc;
            break;
        }
        current = b;
        uint64_t next_pc;
        const rv_insn *in = b->insns;
        goto *handlers[in->op];
#define SEM(name, ...) op_##name: __VA_ARGS__; goto *handlers[(++in)->op];
#include "isa/semantics.def"
#undef SEM
    block_end:
        p->cpu.icount = start + b->n;
        if (hook)
            hook(ctx, b, start, b->n);
        pc = next_pc;
        b = p->stop == RV_RUNNING && !p->flush_code && p->mem.code_changes == p->code_changes_seen
                ? code_next_block(p, b, pc)
                : NULL;
    }
    p->cpu.pc = pc;
    p->trap = outer;
    return result;
}
