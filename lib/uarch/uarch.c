#include "uarch/uarch.h"

#include <stdio.h>

void uarch_init(uarch *u, const uarch_config *c)
{
    u->cfg = *c;
    u->mem = memsys_new(c);
    u->tlb = tlbs_new(c);
    u->bp = bpred_new(c);
    u->fetch_lo = u->fetch_hi = 0;
}

void uarch_destroy(uarch *u)
{
    memsys_free(u->mem);
    tlbs_free(u->tlb);
    bpred_free(u->bp);
    *u = (uarch){0};
}

/* The front end reads whole fetch blocks: one I-TLB and I-cache access
 * per block entered, as the detailed core makes them. */
static inline void warm_fetch(uarch *u, uint64_t pc)
{
    if (pc - u->fetch_lo < u->fetch_hi - u->fetch_lo)
        return;
    uint64_t bytes = 2u * (unsigned)u->cfg.fetch_width;
    u->fetch_lo = bytes & (bytes - 1) ? pc - pc % bytes : pc & ~(bytes - 1); /* no division when we can */
    u->fetch_hi = u->fetch_lo + bytes;
    tlbs_warm(u->tlb, true, pc);
    memsys_warm_ifetch(u->mem, pc);
}

/* A memory access (RV_MEM_* bits, 0 for none). */
static inline void warm_data(uarch *u, unsigned access, uint64_t addr)
{
    if (!access)
        return;
    tlbs_warm(u->tlb, false, addr);
    if (access & RV_MEM_STORE)
        memsys_warm_store(u->mem, addr);
    else
        memsys_warm_load(u->mem, addr);
}

/* A control transfer: whether it was taken and where it went. */
static inline void warm_ctrl(uarch *u, const rv_insn *in, bool taken, uint64_t next_pc)
{
    bpred_predict_update(u->bp, in, taken, next_pc);
    if (taken) u->fetch_hi = u->fetch_lo; /* a taken transfer starts a new fetch block */
}

void uarch_warm(uarch *u, const rv_dyninst *d)
{
    warm_fetch(u, d->insn.pc);
    warm_data(u, d->mem_access, d->mem_addr);
    if (rv_ops[d->insn.op].flags & RVF_CTRL)
        warm_ctrl(u, &d->insn, d->taken, d->next_pc);
}

void uarch_warm_block(uarch *u, const rv_proc *p, const rv_trace *t, const rv_block *b, uint32_t first,
                      uint32_t executed)
{
    uint32_t k = 0, end = first + executed;
    for (uint32_t i = first; i < end; i++) {
        warm_fetch(u, b->insns[i].pc);
        unsigned access = 0;
        uint64_t addr = 0;
        for (; k < t->n && t->e[k].idx <= i; k++) /* an atomic notes a load and a store */
            if (t->e[k].idx == i)
                access |= t->e[k].kind, addr = t->e[k].addr;
        warm_data(u, access, addr);
    }
    /* only a block's last instruction transfers control */
    const rv_insn *last = &b->insns[b->n - 1];
    if (end == b->n && (rv_ops[last->op].flags & RVF_CTRL))
        warm_ctrl(u, last, rv_ops[last->op].cls == CLS_BRANCH ? t->taken : true, p->cpu.pc);
}

/* Warming from the fast path: blocks (translated or interpreted) with the
 * memory accesses they noted. */
typedef struct warm_run {
    uarch *u;
    const rv_proc *p;
    rv_trace trace;
} warm_run;

static void warm_block(void *ctx, rv_block *b, uint32_t first, uint64_t start, uint32_t executed)
{
    (void)start;
    warm_run *w = ctx;
    uarch_warm_block(w->u, w->p, &w->trace, b, first, executed);
}

uint64_t uarch_warm_run(uarch *u, rv_proc *p, uint64_t limit)
{
    uint64_t start = p->cpu.icount;
    warm_run w = {.u = u, .p = p};
    p->trace = &w.trace;
    if (p->cpu.icount < limit)
        rv_run(p, limit, warm_block, &w);
    p->trace = NULL;
    return p->cpu.icount - start;
}

enum { UARCH_STATE_MAGIC = 0x5541524348563031ull }; /* "UARCHV01" */

void uarch_save(const uarch *u, ustate *s)
{
    ustate_put_u64(s, UARCH_STATE_MAGIC);
    ustate_put_u64(s, uarch_state_digest(&u->cfg));
    memsys_save(u->mem, s);
    tlbs_save(u->tlb, s);
    bpred_save(u->bp, s);
}

bool uarch_restore(uarch *u, ustate *s, char *err, size_t errlen)
{
    if (ustate_get_u64(s) != UARCH_STATE_MAGIC || s->bad) {
        snprintf(err, errlen, "warm state is not micro-architectural state of this version");
        return false;
    }
    uint64_t digest = ustate_get_u64(s);
    if (digest != uarch_state_digest(&u->cfg)) {
        snprintf(err, errlen,
                 "warm state was saved under a different cache, TLB or predictor geometry (digest %016llx, this one %016llx)",
                 (unsigned long long)digest, (unsigned long long)uarch_state_digest(&u->cfg));
        return false;
    }
    if (!memsys_restore(u->mem, s) || !tlbs_restore(u->tlb, s) || !bpred_restore(u->bp, s) || s->bad) {
        snprintf(err, errlen, "warm state is damaged or does not match the configuration's geometry");
        return false;
    }
    return true;
}
