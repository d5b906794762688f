#include "exec/exec_spec.h"

#include <string.h>

#include "decode.h"
#include "exec/exec_common.h"

void rv_spec_start(rv_spec *s, const rv_proc *p)
{
    s->cpu = p->cpu;
    s->cpu.has_reservation = false;
    s->mem = &p->mem;
    s->nstores = 0;
    s->stuck = false;
}

bool rv_spec_runnable(const rv_insn *in)
{
    const rv_op_info *info = &rv_ops[in->op];
    return !(info->flags & RVF_ATOMIC) && info->cls != CLS_SYSTEM && info->cls != CLS_CSR &&
           in->op != RV_OP_fence_i && in->op != RV_OP_illegal;
}

/* Guest memory, then the wrong path's own stores over it, oldest first. */
static uint64_t spec_load(rv_spec *s, rv_dyninst *d, uint64_t addr, unsigned bytes)
{
    d->mem_addr = addr, d->mem_size = (uint8_t)bytes, d->mem_access |= RV_MEM_LOAD;
    uint8_t v[8] = {0};
    if (!mem_ok_small(s->mem, addr, bytes, GP_R)) {
        s->stuck = true;
        return 0;
    }
    memcpy(v, mem_host(s->mem, addr), bytes);
    for (int i = 0; i < s->nstores; i++) {
        const rv_spec_store *st = &s->stores[i];
        if (st->addr >= addr + bytes || st->addr + st->size <= addr) continue; /* no byte in common */
        for (unsigned b = 0; b < st->size; b++)
            if (st->addr + b >= addr && st->addr + b < addr + bytes) v[st->addr + b - addr] = (uint8_t)(st->value >> (8 * b));
    }
    uint64_t x = 0;
    memcpy(&x, v, sizeof x); /* little-endian guest on a little-endian host */
    return x;
}

static void spec_store(rv_spec *s, rv_dyninst *d, uint64_t addr, unsigned bytes, uint64_t value)
{
    d->mem_addr = addr, d->mem_size = (uint8_t)bytes, d->mem_access |= RV_MEM_STORE;
    if (!mem_ok_small(s->mem, addr, bytes, GP_W) || s->nstores == RV_SPEC_STORES) {
        s->stuck = true;
        return;
    }
    s->stores[s->nstores++] = (rv_spec_store){addr, value, bytes};
}

static unsigned spec_rm(rv_spec *s, const rv_insn *in)
{
    unsigned rm = in->rm == 7 ? s->cpu.frm : in->rm;
    if (rm > FP_RMM) s->stuck = true, rm = FP_RNE;
    return rm;
}

/* The vocabulary of isa/semantics.def over the wrong path's state (p, of
 * type rv_spec: the common vocabulary's p->cpu is its registers). */
#undef RM
#undef CHECK_ALIGNED
#undef CSR_OP
#undef SC_SUCCEEDS
#undef ILLEGAL
#undef BREAKPOINT
#define STUCK() (p->stuck = true)
#define RM spec_rm(p, in)
#define CHECK_ALIGNED(addr, bytes) ((addr) & ((bytes) - 1) ? (void)STUCK() : (void)0)
#define CSR_OP(kind, src, writes) ((void)(kind), (void)(src), (void)(writes), STUCK(), WRITE_RD(0))
#define SC_SUCCEEDS(addr, current) ((void)(addr), (void)(current), STUCK(), false)
#define ILLEGAL(why) ((void)(why), STUCK())
#define BREAKPOINT() STUCK()
#define LOAD(bits, addr) spec_load(p, d, (addr), (bits) / 8)
#define STORE(bits, addr, v) spec_store(p, d, (addr), (bits) / 8, (v))
#define JUMP(target) do { next_pc = (target); d->taken = true; goto done; } while (0)
#define BRANCH(cond) do { if (cond) JUMP(PC + IMM); } while (0)
#define SYSCALL() STUCK()
#define FENCE_I() STUCK()
#define PREFETCH(addr) (d->mem_addr = (addr), d->mem_access = RV_MEM_PREFETCH)

void rv_spec_exec(rv_spec *s, const rv_insn *in, rv_dyninst *d)
{
    rv_spec *p = s;
    uint64_t *x = p->cpu.x;
    d->mem_access = 0, d->mem_size = 0, d->mem_addr = 0;
    d->taken = false;
    s->stuck = !rv_spec_runnable(in); /* no reservations, no OS, no CSRs on the wrong path */
    uint64_t next_pc = in->pc + in->len;
    if (!s->stuck) {
        switch ((enum rv_op)in->op) {
#define SEM(name, ...) case RV_OP_##name: __VA_ARGS__; break;
#include "isa/semantics.def"
#undef SEM
        case RV_OP_COUNT:
            __builtin_unreachable();
        }
    }
done:
    d->next_pc = next_pc;
}
