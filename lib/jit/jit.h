/* The translator: host code for decoded blocks, made by copying and
 * patching the stencils of isa/semantics.def (stencils.c). The fast path
 * (exec_fast.c) calls a block's code instead of interpreting it when the
 * block runs whole; the interpreter stays the reference and runs the rest
 * (partial blocks, operations without a stencil). */
#ifndef RV_JIT_H
#define RV_JIT_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/exec.h"

typedef struct rv_jit rv_jit;

/* A translated block, run by jit_run. */
typedef void (*rv_jit_code)(rv_proc *p, uint64_t *x);

/* NULL when the host refuses executable memory (then everything is
 * interpreted). */
rv_jit *jit_new(void);
void jit_free(rv_jit *j);
/* Forget every translation (the blocks they were made from are gone). */
void jit_reset(rv_jit *j);
/* What translated code does besides the guest's work. Every translation
 * between two resets is of one kind. */
typedef struct rv_jit_kind {
    bool traced;     /* notes memory accesses and branch outcomes in p->trace
                        (exec.h) and calls p->hook at every block exit
                        (both must then be set); else never looks */
    bool counting;   /* counts blocks (rv_count_blocks); else never looks */
    bool host_checks; /* leaves the page check of loads and stores to the
                         host: only while p->mem.readable_iff_mapped */
} rv_jit_kind;

/* Host code for b, or NULL: an operation of b has no stencil, or the code
 * buffer is full (jit_full; reset it at the next safe point). */
rv_jit_code jit_translate(rv_jit *j, rv_block *b, rv_jit_kind kind);
/* Run translated code from p->cpu.icount, the count at its block's start:
 * all of the block, and perhaps the blocks it is chained to, then the next
 * pc is in p->cpu.pc, the count in p->cpu.icount and the last block run in
 * p->jit.last. A fault unwinds through p->trap as in the interpreter, with
 * p->cpu.icount the faulting block's start. */
void jit_run(rv_jit *j, rv_proc *p, rv_jit_code code);
/* Make b's translated code go straight on to to's when b leaves to pc (b and
 * to translated; b does not end in a system instruction). Each block keeps
 * its first two such successors. */
void jit_chain(rv_jit *j, rv_block *b, uint64_t pc, rv_block *to);
/* Translated b goes straight on when it leaves for pc. */
bool jit_chained(const rv_jit *j, const rv_block *b, uint64_t pc);
bool jit_full(const rv_jit *j);
/* The load or store at host pc in j's code whose page check the host does
 * (rv_jit_kind.host_checks), its size in bytes and whether it stores; NULL
 * if there is none. */
const rv_insn *jit_host_access_at(const rv_jit *j, uintptr_t pc, unsigned *bytes, bool *store);

#endif
