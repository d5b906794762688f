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
        r->slot[hash(e->pc, r->mask)] = 0;
    }
    if (r->npending)
        memset(r->slot, 0, ((size_t)r->mask + 1) * sizeof *r->slot);
    r->npending = 0;
}

/* ------------------------------------------------------- block tracking */

/* The executing block's instructions not counted yet: a whole execution of
 * a block without an id waits for the drain; anything else counts now. */
static void report(proxy_run *r, bool ended)
{
    if (!r->unreported)
        return;
    if (ended && r->whole) {
        uint32_t id = bbv_profile_find(r->bp, r->blk_pc);
        if (!id) {
            pend(r, r->blk_pc, r->len, r->unreported);
        } else {
            r->bp->blocks[id - 1].len = r->len; /* first seen in part: now its length is known */
            bbv_profile_add(r->bp, id, r->unreported);
        }
    } else {
        bbv_profile_add(r->bp, bbv_profile_id(r->bp, r->blk_pc, r->len), r->unreported);
        r->whole = false;
    }
    r->unreported = 0;
}

static void track(proxy_run *r, const rv_dyninst *d)
{
    uint64_t pc = d->insn.pc;
    if (r->in_block && pc != r->next_pc) { /* a handler started, or a fault cut the block */
        r->whole = false;
        report(r, true);
        r->in_block = false;
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
}

/* ------------------------------------------------------------- the run */

/* The run reached an interval boundary or progress point (where the fast
 * path stops and drains), or its end. */
static void boundary(proxy_run *r, uint64_t icount)
{
    report(r, false); /* a block cut by the boundary counts in part, at once */
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

enum rv_run_result proxy_run_go(proxy_run *r, rv_proc *p, uint64_t limit)
{
    rv_dyninst batch[64];
    r->bp->retired = p->cpu.icount;
    while (p->stop == RV_RUNNING && p->cpu.icount < limit) {
        uint64_t stop = r->bp->next_event < limit ? r->bp->next_event : limit;
        uint64_t n = stop - p->cpu.icount < 64 ? stop - p->cpu.icount : 64;
        size_t done = rv_step_many(p, batch, n);
        for (size_t i = 0; i < done; i++) {
            track(r, &batch[i]);
            uarch_warm(&r->u, &batch[i]);
        }
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
