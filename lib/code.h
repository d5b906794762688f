/* The decoded-code cache behind the execution paths (internal to lib/). */
#ifndef RV_CODE_H
#define RV_CODE_H

#include "exec.h"

rv_code *code_new(void);
void code_free(rv_code *c);
/* The block starting at pc, decoded on first use; a fetch fault traps. */
rv_block *code_block(rv_proc *p, uint64_t pc);
/* The single instruction at pc (idx 0), for the stepping path. */
const rv_insn *code_insn(rv_proc *p, uint64_t pc);
/* Flush if fence.i asked for it or executable memory changed. */
static inline void code_sync(rv_proc *p)
{
    if (__builtin_expect(p->flush_code || p->mem.code_changes != p->code_changes_seen, 0))
        rv_code_flush(p);
}

#endif
