/* The stencils of the translator (jit.c): every instruction of
 * isa/semantics.def compiled once, at build time, into a function whose
 * operands are holes. gen_stencils.c reads this file's object code and
 * relocations and turns them into tables; at run time jit.c copies the
 * stencils of a block one after another and patches the holes. So the host
 * code comes from the very semantics both interpreters run.
 *
 * Conventions, which jit.c relies on:
 *  - a stencil is void f(rv_proc *p, uint64_t *x, uint64_t acc): p and x
 *    (p->cpu.x) are in the first two argument registers when it starts and
 *    when it ends, and acc in the third: the value the last integer register
 *    written in the block was given (see SEM below);
 *  - it ends by a tail call of JIT_CONTINUE (the next stencil: jit.c drops
 *    the jump when it is the last instruction, or aims it there), or, for an
 *    instruction that leaves the block, of JIT_EXIT with the next pc: the
 *    block's exit, which follows the last instruction. A conditional branch
 *    goes to one of two exits instead, JIT_NOT_TAKEN (which follows it) or
 *    JIT_TAKEN, without computing the pc;
 *  - holes are the addresses of the undefined symbols below: small ones
 *    (declared with a size) are 32-bit displacements, the others 64-bit
 *    immediates under the medium code model. */
#include "code.h"
#include "jit/jit_stencil.h"

/* While translated code runs, the instruction count lives in r15, not in
 * p->cpu.icount: adding to memory at every block would chain each block to
 * the previous one's store. block_enter loads it and stores it back when
 * the code returns; a fault (which unwinds to the dispatcher) and the slow
 * paths of the exits store it first. Host functions save r15 (it is
 * callee-saved), so it survives their calls. */
register uint64_t jit_icount __asm__("r15");
#define RV_ICOUNT(p) ((void)(p), jit_icount)
#define SYNCED(p, call) ((p)->cpu.icount = jit_icount, call)
#define rv_fault_load(p, ...) SYNCED(p, rv_fault_load(p, __VA_ARGS__))
#define rv_fault_store(p, ...) SYNCED(p, rv_fault_store(p, __VA_ARGS__))
#define rv_fault_misaligned(p, ...) SYNCED(p, rv_fault_misaligned(p, __VA_ARGS__))
#define rv_fault_rounding_mode(p, ...) SYNCED(p, rv_fault_rounding_mode(p, __VA_ARGS__))
#define rv_fault_csr(p, ...) SYNCED(p, rv_fault_csr(p, __VA_ARGS__))
#define rv_fault_illegal(p, ...) SYNCED(p, rv_fault_illegal(p, __VA_ARGS__))
#define rv_fault_breakpoint(p, ...) SYNCED(p, rv_fault_breakpoint(p, __VA_ARGS__))

/* The guest memory's base and the bound of its small accesses (as
 * mem_small_in_bounds) also stay in host registers while translated code
 * runs: a load or store would otherwise fetch the one and build the other,
 * a 64-bit constant, every time. block_enter sets them, and saves the
 * caller's, as it does r15. */
register uint8_t *jit_mem_base __asm__("r14");
register uint64_t jit_mem_limit __asm__("r13");
#define RV_IN_BOUNDS(p, addr) ((void)(p), (addr) < jit_mem_limit)
#define RV_MEM_HOST(p, addr) ((void)(p), jit_mem_base + (addr))

/* JIT_TRACED (0 or 1, from the build): this variant's stencils note memory
 * accesses and branch outcomes in p->trace and its exits show each block to
 * p->hook, or never look at either. */
#define RV_TRACING(p) ((void)(p), JIT_TRACED)

/* JIT_HOST_CHECKED (0 or 1, from the build): this variant's loads and
 * stores test only the bounds of the guest address space and leave the page
 * check to the host, which protects the guest's pages as the guest does
 * (mem.c; loads only while p->mem.readable_iff_mapped holds); host_fault.c
 * turns its fault into the guest's. The translator takes only the plain
 * loads and stores from it. */
#define RV_PAGES_HOST_CHECKED JIT_HOST_CHECKED
#include "exec/exec_common.h"

extern char JIT_RD[1], JIT_RS1[1], JIT_RS2[1], JIT_RS3[1]; /* byte offsets of registers */
extern char JIT_IMM[], JIT_PC[], JIT_INSN[];              /* immediate, pc, the rv_insn */
extern char JIT_SIMM[1];                                  /* a small immediate, biased (JIT_SIMM_BIAS) */
extern char JIT_LEN[1];                                   /* the instruction's length */
extern void JIT_CONTINUE(rv_proc *p, uint64_t *x, uint64_t acc);
extern void JIT_EXIT(rv_proc *p, uint64_t *x, uint64_t next_pc);
extern void JIT_NOT_TAKEN(rv_proc *p, uint64_t *x);
extern void JIT_TAKEN(rv_proc *p, uint64_t *x);

#define HOLE(h) ((uint64_t)(uintptr_t)(h))
#define XREG(h) (*(uint64_t *)((char *)x + HOLE(h)))
#define FREG(h) (*(uint64_t *)((char *)p->cpu.f + HOLE(h)))

/* The vocabulary of semantics.def over the holes (see exec_common.h for the
 * interpreters'). `in` is the real decoded instruction: the cold paths
 * (faults, CSRs, rounding modes) read it. */
#define in ((const rv_insn *)JIT_INSN)
#undef RS1
#undef RS2
#undef IMM
#undef PC
#undef LEN
#undef FRS1_S
#undef FRS2_S
#undef FRS3_S
#undef FRS1_D
#undef FRS2_D
#undef FRS3_D
#undef WRITE_RD
#undef WRITE_FRD_S
#undef WRITE_FRD_D
#define RS1 (acc_is == 1 ? acc : XREG(JIT_RS1))
#define RS2 (acc_is == 2 ? acc : XREG(JIT_RS2))
/* Immediates fit 32 bits, so most are small holes, biased (JIT_SIMM_BIAS),
 * which the compiler folds into the instructions that use them. lui's and
 * auipc's need all 32 bits and come from a 64-bit hole (WIDE_IMM), as do
 * the immediates of 32-bit arithmetic and of shifts, which the compiler
 * does not fold: it would add an instruction to take off the bias. */
#define WIDE_IMM(op)                                                                                         \
    ((op) == RV_OP_lui || (op) == RV_OP_auipc || (op) == RV_OP_addiw || (op) == RV_OP_slli || (op) == RV_OP_srli || \
     (op) == RV_OP_srai || (op) == RV_OP_slliw || (op) == RV_OP_srliw || (op) == RV_OP_sraiw)
#define IMM (wide_imm ? (int64_t)HOLE(JIT_IMM) : (int64_t)HOLE(JIT_SIMM) - JIT_SIMM_BIAS)
#define PC HOLE(JIT_PC)
#define LEN HOLE(JIT_LEN)
#define FRS1_S unbox_s(FREG(JIT_RS1))
#define FRS2_S unbox_s(FREG(JIT_RS2))
#define FRS3_S unbox_s(FREG(JIT_RS3))
#define FRS1_D FREG(JIT_RS1)
#define FRS2_D FREG(JIT_RS2)
#define FRS3_D FREG(JIT_RS3)
#define WRITE_RD(v) (XREG(JIT_RD) = written = (uint64_t)(v))
#define WRITE_FRD_S(v) (FREG(JIT_RD) = box_s((uint32_t)(v)))
#define WRITE_FRD_D(v) (FREG(JIT_RD) = (uint64_t)(v))

#define LOAD(bits, addr) traced_load(p, in, (addr), (bits) / 8)
#define STORE(bits, addr, v) traced_store(p, in, (addr), (bits) / 8, (v))
#define PREFETCH(addr) traced_prefetch(p, in, (addr))
#define JUMP(target) do { JIT_EXIT(p, x, (target)); return; } while (0)
#define BRANCH(cond)                                               \
    do {                                                           \
        if (traced_branch(p, (cond)))                              \
            JIT_TAKEN(p, x);                                       \
        else                                                       \
            JIT_NOT_TAKEN(p, x);                                   \
        return;                                                    \
    } while (0)
/* jit_icount is the count at the block's start while it runs, as
 * p->cpu.icount is in exec_fast.c; the exit adds the block's length. A
 * system call sees its own instruction's count in p->cpu.icount. */
#define SYSCALL() do { p->cpu.icount = jit_icount + in->idx + 1u; p->cpu.pc = PC + LEN; rv_syscall(p); \
                       JUMP(p->cpu.pc); } while (0)
#define FENCE_I() do { p->flush_code = true; JUMP(PC + LEN); } while (0)

/* Every instruction in three versions, which differ in where one source
 * register is read: from x[] (JIT_ACC 0, from the build), or, for rs1 (1)
 * or rs2 (2), from acc, when jit.c knows acc holds it. Every version still
 * writes its result to x[], and passes it on in acc; one that writes no
 * integer register passes acc on as it came. So a value goes from the
 * instruction that makes it to the next that uses it in a host register,
 * not through memory. */
#define STENCIL(name, suffix, which, ...)                                      \
    void jit_stencil_##name##suffix(rv_proc *p, uint64_t *x, uint64_t acc);    \
    void jit_stencil_##name##suffix(rv_proc *p, uint64_t *x, uint64_t acc)     \
    {                                                                          \
        const int acc_is = which;                                              \
        const bool wide_imm = WIDE_IMM(RV_OP_##name);                         \
        uint64_t written = acc;                                                \
        (void)acc_is, (void)wide_imm;                                          \
        __VA_ARGS__;                                                           \
        JIT_CONTINUE(p, x, written);                                           \
    }
#if JIT_ACC == 0
#define SEM(name, ...) STENCIL(name, , 0, __VA_ARGS__)
#elif JIT_ACC == 1
#define SEM(name, ...) STENCIL(name, __acc_rs1, 1, __VA_ARGS__)
#else
#define SEM(name, ...) STENCIL(name, __acc_rs2, 2, __VA_ARGS__)
#endif
#include "isa/semantics.def"
#undef SEM

#if JIT_ACC == 0 /* the rest once per variant */

/* The end of every translated block: what exec_fast.c does after a block
 * (count it, advance the instruction count), then, while the next block
 * cannot cross the run's limit, straight on to translated code: one of the
 * two successors it was chained to (jit_chain), else whatever translated
 * block the code cache holds at the next pc (a return, an interpreter's
 * dispatch: code_exit_slow). Otherwise back to the caller with the next pc
 * in p->cpu.pc. A block that ends in a system instruction always goes back
 * (block_exit_system): the process may have stopped, its code changed or a
 * signal come due.
 *
 * The chained path makes no call, so the host saves no register on it:
 * everything rarer (a block's first run since the counts were drained, an
 * unchained successor) is left to code_exit_slow. */
extern char JIT_N[1];                  /* instructions in the block */
extern char JIT_BLOCK[];               /* its rv_block */
extern char JIT_TARGET0[], JIT_TARGET1[]; /* chained pcs */
extern void JIT_CHAIN0(rv_proc *p, uint64_t *x);
extern void JIT_CHAIN1(rv_proc *p, uint64_t *x);
extern void JIT_SLOW(rv_proc *p, uint64_t *x, bool first_run, uint64_t next_pc);
extern void JIT_GOTO(rv_proc *p, uint64_t *x, bool first_run);

/* Count the block (jit_icount becomes the count after it); true when this
 * is its first run since the last drain (code_touch is then due). The
 * exits come in two versions, for runs that count blocks (rv_count_blocks)
 * and for the others: `counting` is a constant in each. */
static inline __attribute__((always_inline)) bool count_block(rv_block *b, const bool counting)
{
    jit_icount += HOLE(JIT_N);
    if (!counting)
        return false;
    /* A decrement in memory whose borrow is the answer: compilers load,
     * decrement, store and test instead. */
    __asm__ goto("subq $1, %0\n\tjc %l[first]" : "+m"(b->neg_execs) : : "cc" : first);
    return false;
first:
    return true;
}

/* The slow path of the exits, in host code: code_exit_slow, then straight on
 * to the next block's code when there is one. The jump stays in each
 * exit's code, where the host predicts it per block. */
static inline void exit_slow(rv_proc *p, rv_block *b, uint64_t next_pc, bool first_run)
{
    p->cpu.icount = jit_icount;
    rv_block *next = code_exit_slow(p, b, next_pc, first_run);
    if (next)
        next->jit(p, p->cpu.x);
}

/* A traced run's hook (functional warming) sees each block as it ends,
 * called from here, and the run goes on through the chains. */
static inline __attribute__((always_inline)) void show_block(rv_proc *p, rv_block *b, uint64_t next_pc)
{
    if (!JIT_TRACED)
        return;
    p->cpu.icount = jit_icount;
    p->cpu.pc = next_pc;
    p->hook.fn(p->hook.ctx, b, 0, jit_icount - HOLE(JIT_N), (uint32_t)HOLE(JIT_N));
    p->trace->n = 0;
}

static inline __attribute__((always_inline)) void exit_any(rv_proc *p, uint64_t *x, uint64_t next_pc,
                                                           const bool counting)
{
    rv_block *b = (rv_block *)JIT_BLOCK;
    bool first_run = count_block(b, counting);
    show_block(p, b, next_pc);
    /* Expected so: the chained paths fall through to their jumps. */
    if (__builtin_expect(!first_run && jit_icount <= p->jit.chain_limit, 1)) {
        if (__builtin_expect(next_pc == HOLE(JIT_TARGET0), 1)) {
            JIT_CHAIN0(p, x);
            return;
        }
        if (next_pc == HOLE(JIT_TARGET1)) {
            JIT_CHAIN1(p, x);
            return;
        }
        /* A computed jump elsewhere (an interpreter's dispatch): the
         * translated block the cache holds there, without a call. */
        rv_block *next = code_translated_at(p->jit.fast, next_pc);
        if (next) {
            next->jit(p, x);
            return;
        }
    }
    JIT_SLOW(p, x, first_run, next_pc);
}

/* The exit to a successor known when translating (a conditional branch's
 * two, a direct jump's, a block that runs into the next): once the
 * successor is translated, JIT_GOTO is aimed at it (jit_chain). Until
 * then it goes to block_exit_to_slow, which jit.c copies right after. */
static inline __attribute__((always_inline)) void exit_to(rv_proc *p, uint64_t *x, const bool counting)
{
    bool first_run = count_block((rv_block *)JIT_BLOCK, counting);
    show_block(p, (rv_block *)JIT_BLOCK, HOLE(JIT_TARGET0));
    /* Expected not: the chained path then falls through to its jump. */
    if (__builtin_expect(first_run || jit_icount > p->jit.chain_limit, 0)) {
        JIT_SLOW(p, x, first_run, 0); /* block_exit_to_slow knows the pc */
        return;
    }
    JIT_GOTO(p, x, false);
}

static inline __attribute__((always_inline)) void exit_system(rv_proc *p, uint64_t next_pc, const bool counting)
{
    rv_block *b = (rv_block *)JIT_BLOCK;
    if (count_block(b, counting))
        code_touch(p, b);
    show_block(p, b, next_pc);
    p->jit.last = b;
    p->cpu.pc = next_pc;
}

#define EXITS(suffix, counting)                                                                        \
    void jit_stencil_block_exit##suffix(rv_proc *p, uint64_t *x, uint64_t next_pc);                    \
    void jit_stencil_block_exit##suffix(rv_proc *p, uint64_t *x, uint64_t next_pc)                     \
    {                                                                                                  \
        exit_any(p, x, next_pc, counting);                                                             \
    }                                                                                                  \
    void jit_stencil_block_exit_to##suffix(rv_proc *p, uint64_t *x);                                   \
    void jit_stencil_block_exit_to##suffix(rv_proc *p, uint64_t *x)                                    \
    {                                                                                                  \
        exit_to(p, x, counting);                                                                       \
    }                                                                                                  \
    void jit_stencil_block_exit_system##suffix(rv_proc *p, uint64_t *x, uint64_t next_pc);             \
    void jit_stencil_block_exit_system##suffix(rv_proc *p, uint64_t *x, uint64_t next_pc)              \
    {                                                                                                  \
        (void)x;                                                                                       \
        exit_system(p, next_pc, counting);                                                             \
    }
EXITS(_counted, true)
EXITS(_uncounted, false)

/* The slow paths, each copied right after its exit (JIT_SLOW). */
void jit_stencil_block_exit_to_slow(rv_proc *p, uint64_t *x, bool first_run, uint64_t unused);
void jit_stencil_block_exit_to_slow(rv_proc *p, uint64_t *x, bool first_run, uint64_t unused)
{
    (void)x, (void)unused;
    exit_slow(p, (rv_block *)JIT_BLOCK, HOLE(JIT_TARGET0), first_run);
}

void jit_stencil_block_exit_slow(rv_proc *p, uint64_t *x, bool first_run, uint64_t next_pc);
void jit_stencil_block_exit_slow(rv_proc *p, uint64_t *x, bool first_run, uint64_t next_pc)
{
    (void)x;
    exit_slow(p, (rv_block *)JIT_BLOCK, next_pc, first_run);
}

/* How translated code is entered (jit_run): with the count in r15 and the
 * guest memory in r14 and r13, and those registers, which the caller expects
 * kept, saved around it. */
void jit_stencil_block_enter(rv_proc *p, uint64_t *x, void (*code)(rv_proc *, uint64_t *));
void jit_stencil_block_enter(rv_proc *p, uint64_t *x, void (*code)(rv_proc *, uint64_t *))
{
    uint64_t callers_icount = jit_icount, callers_limit = jit_mem_limit;
    uint8_t *callers_base = jit_mem_base;
    jit_icount = p->cpu.icount;
    jit_mem_base = p->mem.base;
    jit_mem_limit = GUEST_SMALL_LIMIT;
    code(p, x);
    p->cpu.icount = jit_icount;
    jit_icount = callers_icount;
    jit_mem_base = callers_base;
    jit_mem_limit = callers_limit;
}
#endif
