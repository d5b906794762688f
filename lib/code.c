#include "code.h"

#include "jit/jit.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

enum {
    STEP_BITS = 14,        /* direct-mapped pc -> instruction cache for stepping */
    CHUNK_BYTES = 1 << 20, /* arena chunk for blocks */
};

typedef struct chunk {
    struct chunk *prev;
    size_t used;
    unsigned char data[];
} chunk;

struct rv_code {
    rv_jit_kind kind; /* of its translations; host_checks is set when flushed */
    rv_block *fast[RV_CODE_FAST_SIZE];
    rv_block **buckets;
    size_t nbuckets, nblocks;
    chunk *arena;
    rv_insn step[1u << STEP_BITS];
    rv_block **touched; /* blocks run since the last drain (neg_execs != 0) */
    size_t ntouched, cap_touched;
    rv_count_visitor visit;
    void *visit_ctx;
    bool hooked; /* rv_count_blocks_hooked: the hook counts, the run does not */
    rv_jit *jit; /* made on first use */
};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p)
        abort();
    return p;
}

rv_code *code_new(void)
{
    rv_code *c = xcalloc(1, sizeof *c);
    c->nbuckets = 1u << 12;
    c->buckets = xcalloc(c->nbuckets, sizeof *c->buckets);
    for (size_t i = 0; i < (1u << STEP_BITS); i++)
        c->step[i].pc = 1; /* odd: matches no real pc */
    return c;
}

static void free_arena(rv_code *c)
{
    while (c->arena) {
        chunk *prev = c->arena->prev;
        free(c->arena);
        c->arena = prev;
    }
}

rv_block *const *code_fast_table(const rv_code *c)
{
    return c->fast;
}

void code_free(rv_code *c)
{
    if (!c)
        return;
    free(c->touched);
    jit_free(c->jit);
    free_arena(c);
    free(c->buckets);
    free(c);
}

void rv_code_flush(rv_proc *p)
{
    rv_code *c = p->code;
    rv_drain_counts(p); /* the counts live in the blocks about to go */
    free_arena(c);
    if (c->jit)
        jit_reset(c->jit);
    memset(c->fast, 0, sizeof c->fast);
    memset(c->buckets, 0, c->nbuckets * sizeof *c->buckets);
    c->nblocks = 0;
    for (size_t i = 0; i < (1u << STEP_BITS); i++)
        c->step[i].pc = 1;
    p->flush_code = false;
    p->code_changes_seen = p->mem.code_changes;
    c->kind.host_checks = p->mem.readable_iff_mapped;
}

void code_translate(rv_proc *p, rv_block *b)
{
    rv_code *c = p->code;
    b->jit_tried = true;
    if (!c->jit && !(c->jit = jit_new())) {
        p->exec_mode = RV_EXEC_INTERPRET; /* no executable memory: interpret */
        return;
    }
    b->jit = jit_translate(c->jit, b, c->kind);
    if (!b->jit && jit_full(c->jit)) {
        p->flush_code = true; /* start afresh at the next block boundary */
        b->jit_tried = false;
    }
}

void code_run(rv_proc *p, void (*host)(rv_proc *, uint64_t *))
{
    jit_run(p->code->jit, p, host);
}

void code_chain(rv_proc *p, rv_block *from, rv_block *to)
{
    jit_chain(p->code->jit, from, to->pc, to);
}

bool code_chained(const rv_proc *p, const rv_block *b, uint64_t pc)
{
    return jit_chained(p->code->jit, b, pc);
}

void code_set_kind(rv_proc *p, bool traced, bool counting)
{
    rv_code *c = p->code;
    if (c->kind.traced != traced || c->kind.counting != counting) {
        c->kind.traced = traced;
        c->kind.counting = counting;
        p->flush_code = true;
    }
}

/* In a run whose hook sees every block and wants no trace: the translated
 * block at pc, to go on with unchained once the hook has seen `from`, or
 * NULL to go back to the fast path. */
static rv_block *hooked_successor(rv_proc *p, rv_block *from, uint64_t pc)
{
    if (p->cpu.icount > p->hook.limit || p->flush_code)
        return NULL;
    /* from's successor cache first: it is at hand, where the code cache's
     * table, looked up at every block, misses the host's caches. */
    rv_block *next = code_cached_successor(from, pc);
    if (!next && (next = code_translated_at(p->code->fast, pc)))
        code_cache_successor(from, next);
    if (next && !next->jit)
        next = NULL;
    if (next) {
        p->cpu.pc = pc;
        p->hook.fn(p->hook.ctx, from, 0, p->cpu.icount - from->n, from->n);
    }
    return next;
}

rv_block *code_exit_slow(rv_proc *p, rv_block *from, uint64_t pc, bool first_run)
{
    if (first_run)
        code_touch(p, from);
    rv_block *next = p->cpu.icount <= p->jit.chain_limit ? code_translated_at(p->code->fast, pc) : NULL;
    if (next) {
        jit_chain(p->code->jit, from, pc, next);
        return next;
    }
    next = p->code->kind.traced ? NULL : hooked_successor(p, from, pc); /* traced exits called the hook */
    if (!next) {
        p->jit.last = from;
        p->cpu.pc = pc;
    }
    return next;
}

bool code_counting(const rv_proc *p)
{
    return p->code->visit != NULL && !p->code->hooked;
}

void code_touch(rv_proc *p, rv_block *b)
{
    rv_code *c = p->code;
    if (c->ntouched == c->cap_touched) {
        c->cap_touched = c->cap_touched ? 2 * c->cap_touched : 1024;
        c->touched = realloc(c->touched, c->cap_touched * sizeof *c->touched);
        if (!c->touched)
            abort();
    }
    c->touched[c->ntouched++] = b;
}

void rv_count_blocks(rv_proc *p, rv_count_visitor visit, void *ctx)
{
    rv_drain_counts(p);
    p->code->visit = visit;
    p->code->visit_ctx = ctx;
    p->code->hooked = false;
}

void rv_count_blocks_hooked(rv_proc *p, rv_count_visitor visit, void *ctx)
{
    rv_count_blocks(p, visit, ctx);
    p->code->hooked = visit != NULL;
}

void rv_count_whole(rv_proc *p, rv_block *b)
{
    code_count(p, b);
}

void rv_drain_counts(rv_proc *p)
{
    rv_code *c = p->code;
    for (size_t i = 0; i < c->ntouched; i++) {
        rv_block *b = c->touched[i];
        if (c->visit)
            c->visit(c->visit_ctx, b, 0 - b->neg_execs);
        b->neg_execs = 0;
    }
    c->ntouched = 0;
}

static void *arena_alloc(rv_code *c, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (!c->arena || c->arena->used + size > CHUNK_BYTES) {
        chunk *k = malloc(sizeof *k + CHUNK_BYTES);
        if (!k)
            abort();
        k->prev = c->arena;
        k->used = 0;
        c->arena = k;
    }
    void *r = c->arena->data + c->arena->used;
    c->arena->used += size;
    return r;
}

static size_t hash_pc(uint64_t pc, size_t nbuckets)
{
    return (size_t)((pc >> 1) * UINT64_C(0x9e3779b97f4a7c15) >> 20) & (nbuckets - 1);
}

static void grow_buckets(rv_code *c)
{
    size_t n = c->nbuckets * 2;
    rv_block **nb = xcalloc(n, sizeof *nb);
    for (size_t i = 0; i < c->nbuckets; i++)
        for (rv_block *b = c->buckets[i], *next; b; b = next) {
            next = b->next;
            size_t h = hash_pc(b->pc, n);
            b->next = nb[h];
            nb[h] = b;
        }
    free(c->buckets);
    c->buckets = nb;
    c->nbuckets = n;
}

_Noreturn static void fetch_fault(rv_proc *p, uint64_t pc)
{
    rv_insn dummy;
    memset(&dummy, 0, sizeof dummy);
    dummy.pc = pc;
    bool mapped = mem_find_vma(&p->mem, pc) != NULL;
    rv_trap(p, &dummy, SIGSEGV, mapped ? G_SEGV_ACCERR : G_SEGV_MAPERR, pc,
            "segmentation fault: instruction fetch from %s address 0x%llx", mapped ? "non-executable" : "unmapped",
            (unsigned long long)pc);
}

/* Decode one instruction at pc; false if its bytes are not executable. */
static bool fetch_decode(rv_proc *p, uint64_t pc, rv_insn *out)
{
    uint16_t lo, hi = 0;
    if (!mem_ok_small(&p->mem, pc, 2, GP_X))
        return false;
    memcpy(&lo, mem_host(&p->mem, pc), 2);
    if (rv_insn_length(lo) == 4) {
        if (!mem_ok_small(&p->mem, pc + 2, 2, GP_X))
            return false;
        memcpy(&hi, mem_host(&p->mem, pc + 2), 2);
    }
    rv_decode(out, pc, lo, hi);
    return true;
}

static rv_block *decode_block(rv_proc *p, uint64_t pc)
{
    rv_insn tmp[RV_BLOCK_MAX_INSNS + 1];
    uint32_t n = 0;
    uint64_t a = pc;
    bool ends_in_jump = false;
    while (n < RV_BLOCK_MAX_INSNS) {
        if (!fetch_decode(p, a, &tmp[n])) {
            if (n == 0)
                fetch_fault(p, a);
            break; /* the fault belongs to the next block, after these retire */
        }
        tmp[n].idx = (uint16_t)n;
        unsigned flags = rv_ops[tmp[n].op].flags;
        a += tmp[n].len;
        n++;
        if (flags & RVF_CTRL) {
            ends_in_jump = true;
            break;
        }
        if (flags & RVF_ENDS_BLOCK)
            break;
    }
    uint32_t total = n + (ends_in_jump ? 0 : 1);
    rv_block *b = arena_alloc(p->code, sizeof *b + total * sizeof(rv_insn));
    b->pc = pc;
    b->end_pc = a;
    b->n = n;
    b->profile_id = 0;
    b->succ[0] = b->succ[1] = NULL;
    b->neg_execs = 0;
    b->jit = NULL;
    b->jit_tried = false;
    b->ends_in_system = n > 0 && (rv_ops[tmp[n - 1].op].flags & RVF_ENDS_BLOCK);
    memcpy(b->insns, tmp, n * sizeof(rv_insn));
    if (!ends_in_jump) {
        rv_insn *f = &b->insns[n];
        memset(f, 0, sizeof *f);
        f->op = RV_OP_fallthrough;
        f->pc = a;
        f->idx = (uint16_t)n;
    }
    return b;
}

rv_block *code_block(rv_proc *p, uint64_t pc)
{
    rv_code *c = p->code;
    size_t slot = rv_code_fast_slot(pc);
    rv_block *b = c->fast[slot];
    if (b && b->pc == pc)
        return b;
    size_t h = hash_pc(pc, c->nbuckets);
    for (b = c->buckets[h]; b; b = b->next)
        if (b->pc == pc)
            return c->fast[slot] = b;
    b = decode_block(p, pc);
    if (++c->nblocks > c->nbuckets) {
        grow_buckets(c);
        h = hash_pc(pc, c->nbuckets);
    }
    b->next = c->buckets[h];
    c->buckets[h] = b;
    return c->fast[slot] = b;
}

const rv_insn *code_insn(rv_proc *p, uint64_t pc)
{
    rv_insn *e = &p->code->step[(pc >> 1) & ((1u << STEP_BITS) - 1)];
    if (e->pc == pc && e->len)
        return e;
    if (!fetch_decode(p, pc, e)) {
        e->pc = 1;
        fetch_fault(p, pc);
    }
    return e;
}
