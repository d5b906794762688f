#include "uarch/uarch.h"

#include <stdio.h>

void uarch_init(uarch *u, const uarch_config *c)
{
    u->cfg = *c;
    u->mem = memsys_new(c);
    u->tlb = tlbs_new(c);
    u->bp = bpred_new(c);
    u->fetch_block = UINT64_MAX;
}

void uarch_destroy(uarch *u)
{
    memsys_free(u->mem);
    tlbs_free(u->tlb);
    bpred_free(u->bp);
    *u = (uarch){0};
}

/* One executed instruction: its memory access (RV_MEM_* bits, 0 for none)
 * and, for control flow, whether it was taken and where it went. */
static inline void warm_insn(uarch *u, const rv_insn *in, unsigned mem_access, uint64_t mem_addr, bool taken,
                             uint64_t next_pc)
{
    /* The front end reads whole fetch blocks: one I-TLB and I-cache access
     * per block entered, as the detailed core makes them. */
    uint64_t block = in->pc / (2u * (unsigned)u->cfg.fetch_width);
    if (block != u->fetch_block) {
        u->fetch_block = block;
        tlbs_warm(u->tlb, true, in->pc);
        memsys_warm_ifetch(u->mem, in->pc);
    }
    if (mem_access) {
        tlbs_warm(u->tlb, false, mem_addr);
        if (mem_access & RV_MEM_STORE)
            memsys_warm_store(u->mem, mem_addr);
        else
            memsys_warm_load(u->mem, mem_addr);
    }
    if (rv_ops[in->op].flags & RVF_CTRL) {
        bpred_predict_update(u->bp, in, taken, next_pc);
        if (taken) u->fetch_block = UINT64_MAX; /* a taken transfer starts a new fetch block */
    }
}

void uarch_warm(uarch *u, const rv_dyninst *d)
{
    warm_insn(u, &d->insn, d->mem_access, d->mem_addr, d->taken, d->next_pc);
}

void uarch_warm_block(uarch *u, const rv_proc *p, const rv_trace *t, const rv_block *b, uint32_t first,
                      uint32_t executed)
{
    uint32_t k = 0;
    for (uint32_t i = first; i < first + executed; i++) {
        unsigned access = 0;
        uint64_t addr = 0;
        for (; k < t->n && t->e[k].idx <= i; k++) /* an atomic notes a load and a store */
            if (t->e[k].idx == i)
                access |= t->e[k].kind, addr = t->e[k].addr;
        const rv_insn *in = &b->insns[i];
        /* only a block's last instruction transfers control: it ran whole */
        bool taken = rv_ops[in->op].cls == CLS_BRANCH ? t->taken : true;
        warm_insn(u, in, access, addr, taken, p->cpu.pc);
    }
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
