/* Helpers shared by the two execution paths (exec_fast.c, exec_step.c):
 * memory access with permission checks, NaN boxing, CSRs, rounding modes. */
#ifndef RV_EXEC_COMMON_H
#define RV_EXEC_COMMON_H

#include <signal.h>

#include "fpu.h"
#include "exec/exec.h"
#include "proc.h"
#include "syscall.h"

/* Signal work (a timer expired, a signal became deliverable, a fault went
 * to a handler) is due before the next instruction. */
/* The instruction count (at the block's start while a block runs); the
 * translator's stencils keep it in a host register (stencils.c). */
#ifndef RV_ICOUNT
#define RV_ICOUNT(p) ((p)->cpu.icount)
#endif

static inline bool signal_due(const rv_proc *p)
{
    return RV_ICOUNT(p) >= p->os.sig.next_event;
}

/* Whether the host's page protection checks loads and stores (stencils.c). */
#ifndef RV_PAGES_HOST_CHECKED
#define RV_PAGES_HOST_CHECKED 0
#endif

/* The guest memory's bounds test and host address; the stencils keep both
 * in host registers (stencils.c). */
#ifndef RV_IN_BOUNDS
#define RV_IN_BOUNDS(p, addr) ((void)(p), mem_small_in_bounds(addr))
#define RV_MEM_HOST(p, addr) mem_host(&(p)->mem, (addr))
#endif

/* Whether an access goes ahead: the whole check, or only the bounds when the
 * host's page protection does the rest. */
static inline bool guest_access_ok(const rv_proc *p, uint64_t addr, unsigned bytes, unsigned prot)
{
    return RV_PAGES_HOST_CHECKED ? RV_IN_BOUNDS(p, addr) : mem_ok_small(&p->mem, addr, bytes, prot);
}

static inline uint64_t guest_load(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes)
{
    if (__builtin_expect(!guest_access_ok(p, addr, bytes, GP_R), 0))
        rv_fault_load(p, in, addr, bytes);
    const uint8_t *h = RV_MEM_HOST(p, addr);
    switch (bytes) {
    case 1: return *h;
    case 2: { uint16_t v; memcpy(&v, h, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, h, 4); return v; }
    default: { uint64_t v; memcpy(&v, h, 8); return v; }
    }
}

static inline void guest_store(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes, uint64_t v)
{
    if (__builtin_expect(!guest_access_ok(p, addr, bytes, GP_W), 0))
        rv_fault_store(p, in, addr, bytes);
    uint8_t *h = RV_MEM_HOST(p, addr);
    switch (bytes) {
    case 1: *h = (uint8_t)v; break;
    case 2: { uint16_t w = (uint16_t)v; memcpy(h, &w, 2); break; }
    case 4: { uint32_t w = (uint32_t)v; memcpy(h, &w, 4); break; }
    default: memcpy(h, &v, 8);
    }
}

/* The fast paths' accesses: noted in p->trace when it is set (exec.h). The
 * translator's stencils come in two variants with the answer fixed at
 * build time (stencils.c). */
#ifndef RV_TRACING
#define RV_TRACING(p) ((p)->trace != NULL)
#endif

static inline void trace_access(rv_proc *p, const rv_insn *in, unsigned kind, uint64_t addr)
{
    struct rv_trace *t = p->trace;
    t->e[t->n].idx = in->idx;
    t->e[t->n].kind = (uint8_t)kind;
    t->e[t->n].addr = addr;
    t->n++;
}

/* Notes in p->trace the accesses of n instructions of b, from its
 * from-th, that code_step ran (its records d), as the fast path notes them. */
static inline void trace_stepped(rv_proc *p, const rv_block *b, uint32_t from, const rv_dyninst *d, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (d[k].mem_access)
            trace_access(p, &b->insns[from + k], d[k].mem_access, d[k].mem_addr);
}

static inline uint64_t traced_load(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes)
{
    if (__builtin_expect(RV_TRACING(p), 0))
        trace_access(p, in, RV_MEM_LOAD, addr);
    return guest_load(p, in, addr, bytes);
}

static inline void traced_store(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes, uint64_t v)
{
    if (__builtin_expect(RV_TRACING(p), 0))
        trace_access(p, in, RV_MEM_STORE, addr);
    guest_store(p, in, addr, bytes, v);
}

static inline void traced_prefetch(rv_proc *p, const rv_insn *in, uint64_t addr)
{
    if (__builtin_expect(RV_TRACING(p), 0))
        trace_access(p, in, RV_MEM_PREFETCH, addr);
}

static inline bool traced_branch(rv_proc *p, bool taken)
{
    if (__builtin_expect(RV_TRACING(p), 0))
        p->trace->taken = taken;
    return taken;
}

static inline void check_aligned(rv_proc *p, const rv_insn *in, uint64_t addr, unsigned bytes)
{
    if (__builtin_expect(addr & (bytes - 1), 0))
        rv_fault_misaligned(p, in, addr);
}

static inline uint32_t unbox_s(uint64_t v)
{
    return (v >> 32) == 0xffffffffu ? (uint32_t)v : F32_CANONICAL_NAN;
}

static inline uint64_t box_s(uint32_t v)
{
    return UINT64_C(0xffffffff00000000) | v;
}

static inline unsigned resolve_rm(rv_proc *p, const rv_insn *in)
{
    unsigned rm = in->rm == 7 ? p->cpu.frm : in->rm;
    if (__builtin_expect(rm > FP_RMM, 0))
        rv_fault_rounding_mode(p, in, rm);
    return rm;
}

enum csr_kind { CSR_WRITE, CSR_SET, CSR_CLEAR };
enum { CSR_FFLAGS = 0x001, CSR_FRM = 0x002, CSR_FCSR = 0x003, CSR_CYCLE = 0xc00, CSR_TIME = 0xc01,
       CSR_INSTRET = 0xc02 };

/* Zicsr read-modify-write; returns the old value. The counters are derived
 * from the retired-instruction count so that they are deterministic. */
static inline uint64_t csr_rmw(rv_proc *p, const rv_insn *in, enum csr_kind kind, uint64_t src, bool writes)
{
    unsigned csr = (unsigned)in->imm;
    uint64_t retired = RV_ICOUNT(p) + in->idx, old;
    switch (csr) {
    case CSR_FFLAGS: old = p->cpu.fflags; break;
    case CSR_FRM: old = p->cpu.frm; break;
    case CSR_FCSR: old = p->cpu.frm << 5 | p->cpu.fflags; break;
    case CSR_CYCLE: case CSR_INSTRET: old = retired; break;
    case CSR_TIME: old = retired / (1000000000 / RV_TIMEBASE_HZ); break;
    default: rv_fault_csr(p, in, csr, false);
    }
    if (!writes)
        return old;
    if ((csr >> 10) == 3)
        rv_fault_csr(p, in, csr, true);
    uint64_t v = kind == CSR_WRITE ? src : kind == CSR_SET ? old | src : old & ~src;
    switch (csr) {
    case CSR_FFLAGS: p->cpu.fflags = v & 0x1f; break;
    case CSR_FRM: p->cpu.frm = v & 7; break;
    case CSR_FCSR: p->cpu.fflags = v & 0x1f, p->cpu.frm = (v >> 5) & 7; break;
    }
    return old;
}

static inline bool sc_succeeds(rv_proc *p, uint64_t addr, uint64_t current)
{
    return p->cpu.has_reservation && p->cpu.reservation == addr && p->cpu.reservation_value == current;
}

/* The vocabulary of isa/semantics.def common to both paths. */
#define RS1 x[in->rs1]
#define RS2 x[in->rs2]
#define IMM (in->imm)
#define PC (in->pc)
#define LEN (in->len)
#define F_RAW(r) (p->cpu.f[(r)])
#define FRS1_S unbox_s(p->cpu.f[in->rs1])
#define FRS2_S unbox_s(p->cpu.f[in->rs2])
#define FRS3_S unbox_s(p->cpu.f[in->rs3])
#define FRS1_D (p->cpu.f[in->rs1])
#define FRS2_D (p->cpu.f[in->rs2])
#define FRS3_D (p->cpu.f[in->rs3])
#define WRITE_RD(v) (x[in->rd] = (uint64_t)(v))
#define WRITE_FRD_S(v) (p->cpu.f[in->rd] = box_s((uint32_t)(v)))
#define WRITE_FRD_D(v) (p->cpu.f[in->rd] = (uint64_t)(v))
#define RM resolve_rm(p, in)
#define FFLAGS (&p->cpu.fflags)
#define CHECK_ALIGNED(addr, bytes) check_aligned(p, in, (addr), (bytes))
#define CSR_OP(kind, src, writes) WRITE_RD(csr_rmw(p, in, (kind), (src), (writes)))
#define RESERVE(addr, value) \
    (p->cpu.has_reservation = true, p->cpu.reservation = (addr), p->cpu.reservation_value = (value))
#define SC_SUCCEEDS(addr, current) sc_succeeds(p, (addr), (current))
#define CLEAR_RESERVATION() (p->cpu.has_reservation = false)
#define ILLEGAL(why) rv_fault_illegal(p, in, (why))
#define BREAKPOINT() rv_fault_breakpoint(p, in)

#endif
