/* The wrong path's execution, for the detailed core (sim/core/wrong_path.c): the
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

#include "exec/exec.h"
#include "proc.h"

enum { RV_SPEC_STORES = 64 };

typedef struct rv_spec_store {
    uint64_t addr, value;
    unsigned size;
} rv_spec_store;

typedef struct rv_spec {
    rv_cpu cpu;                /* the wrong path's registers */
    const rv_mem *mem;
    rv_spec_store stores[RV_SPEC_STORES]; /* its stores, oldest first */
    int nstores;
    bool stuck;                /* the last instruction could not execute */
} rv_spec;

/* A wrong path from p's state (just after the mispredicted branch). */
void rv_spec_start(rv_spec *s, const rv_proc *p);

/* Whether in is an instruction the wrong path may run at all (not a system
 * call, CSR access, fence.i, atomic or illegal instruction). */
bool rv_spec_runnable(const rv_insn *in);

/* Execute in, the wrong path's next instruction, into *d (its memory
 * access, and its outcome: taken, next_pc); s->stuck when it could not
 * execute (not runnable, or its access would fault). */
void rv_spec_exec(rv_spec *s, const rv_insn *in, rv_dyninst *d);

#endif
