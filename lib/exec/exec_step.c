/* The stepping path: one instruction at a time, described in an rv_dyninst
 * for a consumer (the detailed core, warming models). */
#include "code.h"
#include "exec/exec_common.h"
#include "jit/check.h"

static inline uint64_t record_load(rv_proc *p, const rv_insn *in, rv_dyninst *d, uint64_t addr, unsigned bytes)
{
    d->mem_addr = addr, d->mem_size = (uint8_t)bytes, d->mem_access |= RV_MEM_LOAD;
    return guest_load(p, in, addr, bytes);
}

static inline void record_store(rv_proc *p, const rv_insn *in, rv_dyninst *d, uint64_t addr, unsigned bytes,
                                uint64_t v)
{
    d->mem_addr = addr, d->mem_size = (uint8_t)bytes, d->mem_access |= RV_MEM_STORE;
    if (__builtin_expect(p->undo != NULL, 0) && mem_ok_small(&p->mem, addr, bytes, GP_W))
        jit_check_log_store(p, addr, bytes);
    guest_store(p, in, addr, bytes, v);
}

#define LOAD(bits, addr) record_load(p, in, d, (addr), (bits) / 8)
#define STORE(bits, addr, v) record_store(p, in, d, (addr), (bits) / 8, (v))
#define JUMP(target) do { next_pc = (target); d->taken = true; goto done; } while (0)
#define BRANCH(cond) do { if (cond) JUMP(PC + IMM); } while (0)
#define SYSCALL() do { p->cpu.icount = d->icount + 1; p->cpu.pc = PC + LEN; rv_syscall(p); \
                       next_pc = p->cpu.pc; } while (0)
#define FENCE_I() (p->flush_code = true)
#define PREFETCH(addr) (d->mem_addr = (addr), d->mem_access = RV_MEM_PREFETCH)

/* One instruction; a fault longjmps out through p->trap. */
static inline void step_one(rv_proc *p, rv_dyninst *d)
{
    code_sync(p);
    const rv_insn *in = code_insn(p, p->cpu.pc);
    uint64_t *x = p->cpu.x;
    d->insn = *in;
    d->icount = p->cpu.icount;
    d->mem_access = 0, d->mem_size = 0, d->mem_addr = 0;
    d->taken = false;
    uint64_t next_pc = in->pc + in->len;
    switch ((enum rv_op)in->op) {
#define SEM(name, ...) case RV_OP_##name: __VA_ARGS__; break;
#include "isa/semantics.def"
#undef SEM
    case RV_OP_COUNT:
        __builtin_unreachable();
    }
done:
    d->next_pc = next_pc;
    p->cpu.pc = next_pc;
    p->cpu.icount = d->icount + 1;
}

size_t code_step(rv_proc *p, rv_dyninst *d, size_t n, bool to_branch)
{
    if (p->stop != RV_RUNNING)
        return 0;
    /* One trap frame for the whole batch: setjmp is a large part of the
     * cost of a single step. */
    jmp_buf trap;
    jmp_buf *outer = p->trap;
    p->trap = &trap;
    volatile size_t done = 0;
    if (setjmp(trap)) {
        p->trap = outer;
        return done;
    }
    for (size_t i = 0; i < n && p->stop == RV_RUNNING && !signal_due(p); i++) {
        step_one(p, &d[i]);
        done = i + 1;
        if (to_branch && (rv_ops[d[i].insn.op].flags & RVF_CTRL)) break;
    }
    p->trap = outer;
    return done;
}

static size_t step_many(rv_proc *p, rv_dyninst *d, size_t n, bool to_branch)
{
    size_t done = 0;
    while (done < n && p->stop == RV_RUNNING) {
        if (signal_due(p)) {
            sig_deliver(p);
            continue;
        }
        size_t k = code_step(p, d + done, n - done, to_branch);
        done += k;
        if (to_branch && k && (rv_ops[d[done - 1].insn.op].flags & RVF_CTRL)) break;
    }
    return done;
}

size_t rv_step_many(rv_proc *p, rv_dyninst *d, size_t n) { return step_many(p, d, n, false); }

size_t rv_step_to_branch(rv_proc *p, rv_dyninst *d, size_t n) { return step_many(p, d, n, true); }

bool rv_step(rv_proc *p, rv_dyninst *d)
{
    return rv_step_many(p, d, 1) == 1;
}
