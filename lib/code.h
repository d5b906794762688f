/* The decoded-code cache behind the execution paths (internal to lib/). */
#ifndef RV_CODE_H
#define RV_CODE_H

#include "exec/exec.h"

/* The direct-mapped pc -> block table in front of the cache's hash: also
 * read by translated code (p->jit.fast) to find where a computed jump goes. */
enum { RV_CODE_FAST_SIZE = 1u << 16 };
static inline size_t rv_code_fast_slot(uint64_t pc) { return (pc >> 1) & (RV_CODE_FAST_SIZE - 1); }
rv_block *const *code_fast_table(const rv_code *c);
/* The translated block the table holds at pc, or NULL. */
static inline rv_block *code_translated_at(rv_block *const *fast, uint64_t pc)
{
    rv_block *b = fast[rv_code_fast_slot(pc)];
    return b && b->pc == pc && b->jit ? b : NULL;
}

rv_code *code_new(void);
void code_free(rv_code *c);
/* The block starting at pc, decoded on first use; a fetch fault traps. */
rv_block *code_block(rv_proc *p, uint64_t pc);
/* The single instruction at pc (idx 0), for the stepping path. */
const rv_insn *code_insn(rv_proc *p, uint64_t pc);
/* Up to n instructions on the stepping path, without signal delivery: it
 * stops before an instruction when signal work is due (a fault went to a
 * handler, a timer expired) and when the process stops, and after a
 * control transfer when to_branch. Returns how many retired. */
size_t code_step(rv_proc *p, rv_dyninst *d, size_t n, bool to_branch);
/* Translate b to host code (b->jit; it stays NULL when b cannot be). */
void code_translate(rv_proc *p, rv_block *b);
/* b's host code when the process runs translated code, else NULL. */
static inline void (*code_host(rv_proc *p, rv_block *b))(rv_proc *, uint64_t *)
{
    if (__builtin_expect(!b->jit_tried, 0) && p->exec_mode != RV_EXEC_INTERPRET)
        code_translate(p, b);
    return b->jit;
}
/* Run b's host code (jit_run), from p->cpu.icount at b's start. */
void code_run(rv_proc *p, void (*host)(rv_proc *, uint64_t *));
/* Make translated block `from` go straight on to translated block `to`
 * when it leaves for to->pc (jit_chain). */
void code_chain(rv_proc *p, rv_block *from, rv_block *to);
/* Translated b already goes straight on when it leaves for pc. */
bool code_chained(const rv_proc *p, const rv_block *b, uint64_t pc);
/* A translated block's exit when it does not go straight on to a chained
 * successor: note `from` as executed if this is its first run since the
 * last drain, then, while the run's limit allows, the translated block the
 * cache already holds at pc (never translating or flushing; from is chained
 * to it while it has room, jit_chain; in an untraced run whose hook sees
 * every block, p->hook, unchained after calling the hook for from; a traced
 * run's exits have called it already), or NULL with p->cpu.pc = pc and
 * p->jit.last = from (back to the caller). */
rv_block *code_exit_slow(rv_proc *p, rv_block *from, uint64_t pc, bool first_run);
/* Block counting by the run itself (see rv_count_blocks): true when it is
 * on; false in the hooked mode, where the hook counts. */
bool code_counting(const rv_proc *p);
/* Remember b as executed since the last drain. */
void code_touch(rv_proc *p, rv_block *b);
/* Note that b has run whole once more. */
static inline void code_count(rv_proc *p, rv_block *b)
{
    if (b->neg_execs-- == 0)
        code_touch(p, b);
}

/* Translate from now on for a run that notes memory accesses in p->trace
 * and shows each block to p->hook from its exits, or not, and that counts
 * blocks or not: the cache is flushed at the next code_sync when that
 * changes (the kinds of host code do not mix). */
void code_set_kind(rv_proc *p, bool traced, bool counting);
/* Flush if fence.i asked for it or executable memory changed; true if it did
 * (every rv_block pointer held is then invalid). */
static inline bool code_sync(rv_proc *p)
{
    if (__builtin_expect(p->flush_code || p->mem.code_changes != p->code_changes_seen, 0)) {
        rv_code_flush(p);
        return true;
    }
    return false;
}

/* b's successor cache: the block at pc if it holds it, else NULL. */
static inline rv_block *code_cached_successor(const rv_block *b, uint64_t pc)
{
    if (b->succ[0] && b->succ[0]->pc == pc)
        return b->succ[0];
    if (b->succ[1] && b->succ[1]->pc == pc)
        return b->succ[1];
    return NULL;
}

static inline void code_cache_successor(rv_block *b, rv_block *next)
{
    b->succ[1] = b->succ[0];
    b->succ[0] = next;
}

/* The block at pc that follows b, through b's successor cache. */
static inline rv_block *code_next_block(rv_proc *p, rv_block *b, uint64_t pc)
{
    rv_block *n = code_cached_successor(b, pc);
    if (!n)
        code_cache_successor(b, n = code_block(p, pc));
    return n;
}

#endif
