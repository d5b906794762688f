/* --jit-check: every translated block is run on the stepping interpreter
 * first, its stores undone, then run translated, and the two results
 * compared (registers, pc, counts, every byte either stored). A difference
 * stops the tool with a one-line description. Blocks that end in a system
 * instruction (their system call must happen once) run translated only. */
#ifndef RV_JIT_CHECK_H
#define RV_JIT_CHECK_H

#include "jit/jit.h"

/* Run b (from its start, p->cpu.icount = its start count) both ways. Returns
 * the instructions of b that retired: b->n when both ran it whole (the
 * translated run's state stays), fewer when the interpreter stopped inside
 * it (a fault, or the process stopped; the interpreter's state stays, the
 * translated code did not run). */
uint32_t jit_check_block(rv_proc *p, rv_block *b, rv_jit_code host);

/* The stepping path's stores, logged while a check runs (exec_step.c). */
typedef struct rv_undo {
    size_t n;
    struct {
        uint64_t addr;
        uint64_t old;
        unsigned bytes;
    } w[4 * RV_BLOCK_MAX_INSNS];
} rv_undo;
/* Note that bytes at addr are about to be stored to (a permitted store). */
void jit_check_log_store(rv_proc *p, uint64_t addr, unsigned bytes);

#endif
