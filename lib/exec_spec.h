/* The wrong path's execution, for the detailed core (sim/wrong_path.c): the
 * instructions on a mispredicted branch's predicted path, decoded from
 * guest memory and executed by isa/semantics.def on registers of their own,
 * changing nothing the guest can see. Their loads read guest memory as it
 * stands after the branch (every older store is done: the core executes at
 * fetch) through the wrong path's own stores, which go nowhere else. An
 * instruction that would trap, call the system, access a CSR, flush the
 * code or take part in an atomic operation cannot run ahead: it is stuck,
 * to wait where it is until the wrong path is squashed. */
#ifndef RV_EXEC_SPEC_H
#define RV_EXEC_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "exec.h"
#include "proc.h"

enum { RV_SPEC_STORES = 64 };

typedef struct rv_spec_store {
    uint64_t addr, value;
    unsigned size;
} rv_spec_store;

typedef struct rv_spec {
    rv_cpu cpu;                /* the wrong path's registers; cpu.pc: its next instruction */
    const rv_mem *mem;
    rv_spec_store stores[RV_SPEC_STORES]; /* its stores, oldest first */
    int nstores;
    bool stuck;                /* the last instruction could not execute */
} rv_spec;

/* A wrong path from p's state (just after the mispredicted branch) at pc. */
void rv_spec_start(rv_spec *s, const rv_proc *p, uint64_t pc);

/* The instruction at s->cpu.pc, executed into *d (d->icount is the
 * caller's) with s->cpu.pc moved past it; s->stuck when it could not
 * execute. False, and nothing done, when the pc holds no instruction the
 * guest may execute. */
bool rv_spec_step(rv_spec *s, rv_dyninst *d);

#endif
