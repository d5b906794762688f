#include "exec_spec.h"

#include <string.h>

#include "decode.h"
#include "exec_common.h"

void rv_spec_start(rv_spec *s, const rv_proc *p, uint64_t pc)
{
    s->cpu = p->cpu;
    s->cpu.pc = pc;
    s->cpu.has_reservation = false;
    s->mem = &p->mem;
    s->nstores = 0;
    s->stuck = false;
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

/* The instruction at pc, if the guest may execute it. */
static bool spec_decode(const rv_spec *s, uint64_t pc, rv_insn *in)
{
    uint16_t parcel[2] = {0, 0};
    if (!mem_ok_small(s->mem, pc, 2, GP_X)) return false;
    memcpy(&parcel[0], mem_host(s->mem, pc), 2);
    if (rv_insn_length(parcel[0]) == 4) {
        if (!mem_ok_small(s->mem, pc + 2, 2, GP_X)) return false;
        memcpy(&parcel[1], mem_host(s->mem, pc + 2), 2);
    }
    rv_decode(in, pc, parcel[0], parcel[1]);
    return true;
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

bool rv_spec_step(rv_spec *s, rv_dyninst *d)
{
    rv_spec *p = s;
    rv_insn decoded;
    if (!spec_decode(s, s->cpu.pc, &decoded)) return false;
    const rv_insn *in = &decoded;
    uint64_t *x = p->cpu.x;
    d->insn = decoded;
    d->mem_access = 0, d->mem_size = 0, d->mem_addr = 0;
    d->taken = false;
    s->stuck = rv_ops[in->op].flags & RVF_ATOMIC; /* no reservations on the wrong path */
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
    s->cpu.pc = next_pc;
    return true;
}
