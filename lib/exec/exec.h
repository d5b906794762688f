/* Running guest code: the fast path over pre-decoded blocks (profiling,
 * fast-forwarding) and the stepping path that describes each dynamic
 * instruction (detailed core, warming). Both execute isa/semantics.def. */
#ifndef RV_EXEC_H
#define RV_EXEC_H

#include <stddef.h>

#include "proc.h"

enum { RV_BLOCK_MAX_INSNS = 64 };

/* A decoded block: straight-line code from pc up to and including the first
 * control-flow or block-ending instruction (or RV_BLOCK_MAX_INSNS). */
typedef struct rv_block {
    uint64_t pc;
    uint64_t end_pc;      /* address after the last instruction */
    uint32_t n;           /* instructions (the synthetic fallthrough not counted) */
    uint32_t profile_id;  /* free for the run's client (bbv's block id); 0 initially */
    bool ends_in_system;  /* last instruction is ecall/ebreak/fence.i/illegal: after it the
                             process may have stopped or its code changed */
    struct rv_block *next; /* hash chain */
    struct rv_block *succ[2]; /* the last two successors seen, to skip lookups */
    uint64_t neg_execs;   /* minus the whole executions since the last drain (block
                             counting): a decrement's borrow tells a first run */
    void (*jit)(rv_proc *p, uint64_t *x); /* host code for the whole block (jit.h), or NULL */
    uint8_t *jit_exit;    /* where its exit code is (jit.c) */
    uint8_t jit_static_exits; /* 0: one exit, to a computed pc; else exits to known successors */
    uint8_t jit_chains;   /* successors a computed pc's exit is chained to, at most 2 */
    bool jit_tried;       /* translation was attempted */
    rv_insn insns[];      /* n, plus a fallthrough when the block does not end in a jump */
} rv_block;

/* The block an instruction of a decoded block belongs to. */
static inline rv_block *rv_block_of(const rv_insn *in)
{
    return (rv_block *)(void *)((char *)(in - in->idx) - offsetof(rv_block, insns));
}

/* Called after each block with the instructions that retired in it:
 * positions [first, first + executed) of b, the first of them the
 * start_icount-th retired. That is all n, or fewer when the run stopped
 * inside b (a fault, the instruction limit) or resumed inside it. After a
 * whole block p->cpu.pc is the pc that follows it. */
typedef void (*rv_block_hook)(void *ctx, rv_block *b, uint32_t first, uint64_t start_icount, uint32_t executed);

enum rv_run_result { RV_RUN_STOPPED, RV_RUN_LIMIT };

/* Run until the process stops (p->stop != RV_RUNNING) or exactly `limit`
 * instructions have retired in total (p->cpu.icount == limit). */
enum rv_run_result rv_run(rv_proc *p, uint64_t limit, rv_block_hook hook, void *ctx);

enum { RV_MEM_LOAD = 1, RV_MEM_STORE = 2, RV_MEM_PREFETCH = 4 /* a hint: never faults, never blocks */ };

/* The memory accesses of the block running, for a hook that needs them
 * (functional warming): while p->trace is set, the fast path and
 * translated code note each access (an atomic makes two) in order, and
 * whether the block's final conditional branch was taken. It holds one
 * block: the run empties it before each. When the hook sees every block,
 * translated code calls it from each block's exit and goes straight on to
 * the next block. */
typedef struct rv_trace {
    uint32_t n;
    bool taken;
    struct {
        uint16_t idx;  /* position in the block */
        uint8_t kind;  /* RV_MEM_* */
        uint64_t addr;
    } e[2 * RV_BLOCK_MAX_INSNS];
} rv_trace;

/* One dynamic instruction as the stepping path saw it. */
typedef struct rv_dyninst {
    rv_insn insn;         /* decoded static instruction (pc, op, registers...) */
    uint64_t icount;      /* instructions retired before this one */
    uint64_t next_pc;     /* the pc after it (branch/jump target if taken) */
    uint64_t mem_addr;    /* for loads, stores, atomics and prefetch hints */
    uint8_t mem_size;
    uint8_t mem_access;   /* RV_MEM_LOAD | RV_MEM_STORE, or RV_MEM_PREFETCH */
    bool taken;           /* control transfer taken */
} rv_dyninst;

/* Execute the instruction at p->cpu.pc (after delivering the signals due
 * before it: the next instruction may then be a handler's). Returns false
 * when the process stopped instead (exit, or a fault that ends it: then the
 * instruction did not retire). */
bool rv_step(rv_proc *p, rv_dyninst *d);
/* Up to n instructions into d[0..n); returns how many retired. It stops
 * early only when the process stops. A fault that a handler takes retires
 * nothing: the next record is the handler's first instruction. */
size_t rv_step_many(rv_proc *p, rv_dyninst *d, size_t n);
/* The same, but ending after the first control transfer: the process is
 * then in the state right after it (the detailed core's wrong path starts
 * from there). */
size_t rv_step_to_branch(rv_proc *p, rv_dyninst *d, size_t n);

/* Drop all decoded code (after fence.i or when executable memory changed). */
void rv_code_flush(rv_proc *p);

/* Block counting, for profilers. While a visitor is set, rv_run counts the
 * whole executions of each block (b->neg_execs, one decrement, no call) instead
 * of calling its hook for them: the hook then only sees partial executions
 * (a stop inside a block, or a run resumed inside one). The visitor receives
 * every block executed since the last drain with its count, from
 * rv_drain_counts and before decoded code is discarded. NULL turns it off. */
typedef void (*rv_count_visitor)(void *ctx, rv_block *b, uint64_t execs);
void rv_count_blocks(rv_proc *p, rv_count_visitor visit, void *ctx);
void rv_drain_counts(rv_proc *p);
/* The same counting for a client whose hook must see every block (bbv
 * --proxy: the warming model reads each block's trace): rv_run calls the
 * hook for whole executions too, and the hook counts each of them with
 * rv_count_whole, so that visits and drains come as with rv_count_blocks. */
void rv_count_blocks_hooked(rv_proc *p, rv_count_visitor visit, void *ctx);
void rv_count_whole(rv_proc *p, rv_block *b);

#endif
