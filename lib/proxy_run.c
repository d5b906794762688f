#include "proxy_run.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void proxy_run_init(proxy_run *r, bbv_profile *bp, const uarch_config *c, const char *config_name,
                    outfile *const *outs)
{
    memset(r, 0, sizeof *r);
    r->bp = bp;
    uarch_init(&r->u, c);
    proxy_penalties_of(c, &r->pen);
    for (int i = 0; i < bp->nseries; i++) {
        r->outs[i] = outs[i];
        if (outs[i])
            proxy_write_header(outs[i], config_name, c, bp->series[i].size);
    }
    r->mask = 1023;
    r->slot = calloc(r->mask + 1, sizeof *r->slot);
    if (!r->slot)
        die("out of memory");
}

void proxy_run_free(proxy_run *r)
{
    uarch_destroy(&r->u);
    free(r->pending);
    free(r->slot);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------ blocks without an id yet */

static uint32_t hash(uint64_t pc, uint32_t mask)
{
    return (uint32_t)((pc * UINT64_C(0x9e3779b97f4a7c15)) >> 40) & mask;
}

static void rehash(proxy_run *r)
{
    r->mask = r->mask * 2 + 1;
    free(r->slot);
    r->slot = calloc(r->mask + 1, sizeof *r->slot);
    if (!r->slot)
        die("out of memory");
    for (size_t i = 0; i < r->npending; i++) {
        uint32_t s = hash(r->pending[i].pc, r->mask);
        while (r->slot[s])
            s = (s + 1) & r->mask;
        r->slot[s] = (uint32_t)i + 1;
    }
}

static void pend(proxy_run *r, uint64_t pc, uint32_t len, uint64_t count)
{
    uint32_t s = hash(pc, r->mask);
    for (; r->slot[s]; s = (s + 1) & r->mask)
        if (r->pending[r->slot[s] - 1].pc == pc) {
            r->pending[r->slot[s] - 1].count += count;
            return;
        }
    if (r->npending == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->pending = realloc(r->pending, r->cap * sizeof *r->pending);
        if (!r->pending)
            die("out of memory");
    }
    r->pending[r->npending++] = (proxy_pending){pc, len, count};
    r->slot[s] = (uint32_t)r->npending;
    if (2 * r->npending > r->mask)
        rehash(r);
}

/* The fast path's drain: ids in order of first whole execution. */
static void drain(proxy_run *r)
{
    for (size_t i = 0; i < r->npending; i++) {
        const proxy_pending *e = &r->pending[i];
        bbv_profile_add(r->bp, bbv_profile_id(r->bp, e->pc, e->len), e->count);
    }
    if (r->npending)
        memset(r->slot, 0, ((size_t)r->mask + 1) * sizeof *r->slot);
    r->npending = 0;
}

/* ------------------------------------------------------- block tracking */

/* The length of the block the decoder makes at pc (its rule: up to the first
 * control transfer or block-ending instruction, at most RV_BLOCK_MAX_INSNS,
 * cut before bytes that are not executable), for the map of a block first
 * seen cut short. */
static uint32_t decoded_length(const rv_proc *p, uint64_t pc)
{
    uint32_t n = 0;
    while (n < RV_BLOCK_MAX_INSNS && mem_ok_small(&p->mem, pc, 2, GP_X)) {
        uint16_t lo, hi = 0;
        memcpy(&lo, mem_host(&p->mem, pc), 2);
        if (rv_insn_length(lo) == 4) {
            if (!mem_ok_small(&p->mem, pc + 2, 2, GP_X))
                break;
            memcpy(&hi, mem_host(&p->mem, pc + 2), 2);
        }
        rv_insn in;
        rv_decode(&in, pc, lo, hi);
        n++;
        pc += in.len;
        if (rv_ops[in.op].flags & (RVF_CTRL | RVF_ENDS_BLOCK))
            break;
    }
    return n;
}

/* The executing block's instructions not counted yet: a whole execution of
 * a block without an id waits for the drain; anything else counts now.
 * complete: the block ended where the decoder ends it, so its length is known
 * (a block first seen cut by a boundary gets its id before that). */
static void report(proxy_run *r, bool complete)
{
    if (!r->unreported)
        return;
    uint32_t id = bbv_profile_find(r->bp, r->blk_pc);
    if (complete && r->whole && !id) {
        pend(r, r->blk_pc, r->len, r->unreported);
    } else {
        if (!id)
            id = bbv_profile_id(r->bp, r->blk_pc, complete ? r->len : decoded_length(r->p, r->blk_pc));
        if (complete)
            r->bp->blocks[id - 1].len = r->len;
        bbv_profile_add(r->bp, id, r->unreported);
        r->whole = complete && r->whole;
    }
    r->unreported = 0;
}

/* decoded_length through a direct-mapped cache, emptied when the code may
 * have changed. */
static uint32_t block_length(proxy_run *r, const rv_proc *p)
{
    if (r->len_changes != p->mem.code_changes + r->fences) {
        memset(r->len_cache, 0, sizeof r->len_cache);
        r->len_changes = p->mem.code_changes + r->fences;
    }
    uint64_t pc = p->cpu.pc;
    proxy_len_entry *e = &r->len_cache[(pc >> 1) & (PROXY_LEN_CACHE - 1)];
    if (e->pc != pc || !e->len)
        *e = (proxy_len_entry){pc, decoded_length(p, pc)};
    return e->len;
}

/* One instruction; true when it was not where its block led (a handler
 * started, or a fault cut the block), after counting what ran of that block. */
static bool track(proxy_run *r, const rv_dyninst *d, bool drain_at_jump)
{
    uint64_t pc = d->insn.pc;
    bool jump = r->in_block && pc != r->next_pc;
    if (jump) {
        r->whole = false;
        report(r, false);
        r->in_block = false;
        if (drain_at_jump)
            drain(r);
    }
    if (!r->in_block) {
        r->in_block = r->whole = true;
        r->blk_pc = pc;
        r->len = r->unreported = 0;
    }
    r->len++;
    r->unreported++;
    r->next_pc = d->next_pc;
    if ((rv_ops[d->insn.op].flags & (RVF_CTRL | RVF_ENDS_BLOCK)) || r->len == RV_BLOCK_MAX_INSNS) {
        report(r, true);
        r->in_block = false;
    }
    return jump;
}

/* ------------------------------------------------------------- the run */

/* The run reached an interval boundary or progress point (where the fast
 * path stops and drains), or its end. */
static void boundary(proxy_run *r, uint64_t icount)
{
    if (r->in_block) { /* a block cut by the boundary counts in part, at once */
        r->whole = false;
        report(r, false);
    }
    drain(r);
    bbv_profile *bp = r->bp;
    if (icount < bp->next_event)
        return;
    proxy_counts now;
    proxy_counts_read(&r->u, icount, &now);
    for (int i = 0; i < bp->nseries; i++) {
        if (bp->series[i].next_boundary != icount)
            continue;
        proxy_counts c = proxy_counts_sub(&now, &r->last[i]);
        if (r->outs[i])
            proxy_write_line(r->outs[i], r->index[i], &c, &r->pen);
        r->index[i]++;
        r->last[i] = now;
    }
    bbv_profile_advance(bp, icount);
}

/* One block at a time (up to the next boundary), so that the fast path's
 * drains when it drops decoded code fall where they fell there: after
 * fence.i, and when executable memory changed, after the system call that
 * changed it (the last instruction of the block) or, when a signal was
 * delivered (its frame can grow an executable stack), where the handler
 * starts. */
enum rv_run_result proxy_run_go(proxy_run *r, rv_proc *p, uint64_t limit)
{
    rv_dyninst batch[RV_BLOCK_MAX_INSNS];
    r->p = p;
    r->bp->retired = p->cpu.icount;
    while (p->stop == RV_RUNNING && p->cpu.icount < limit) {
        uint64_t stop = r->bp->next_event < limit ? r->bp->next_event : limit;
        uint64_t n = block_length(r, p);
        n = n < 1 ? 1 : n > stop - p->cpu.icount ? stop - p->cpu.icount : n;
        uint64_t changes = p->mem.code_changes;
        size_t done = rv_step_many(p, batch, n);
        bool changed = p->mem.code_changes != changes, jumped = false;
        for (size_t i = 0; i < done; i++) {
            jumped |= track(r, &batch[i], changed && !jumped);
            uarch_warm(&r->u, &batch[i]);
            if (batch[i].insn.op == RV_OP_fence_i) {
                drain(r);
                r->fences++;
            }
        }
        if (changed && !jumped)
            drain(r);
        if (p->cpu.icount == stop || p->stop != RV_RUNNING)
            boundary(r, p->cpu.icount);
    }
    r->bp->retired = p->cpu.icount;
    return p->stop == RV_RUNNING ? RV_RUN_LIMIT : RV_RUN_STOPPED;
}

void proxy_run_finish(proxy_run *r, bool drop_partial)
{
    bbv_profile *bp = r->bp;
    proxy_counts now;
    proxy_counts_read(&r->u, bp->retired, &now);
    for (int i = 0; i < bp->nseries; i++) {
        proxy_counts c = proxy_counts_sub(&now, &r->last[i]);
        if (c.insts && !drop_partial && r->outs[i])
            proxy_write_line(r->outs[i], r->index[i], &c, &r->pen);
    }
}
