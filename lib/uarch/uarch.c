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

void uarch_warm(uarch *u, const rv_dyninst *d)
{
    const rv_insn *in = &d->insn;
    /* The front end reads whole fetch blocks: one I-TLB and I-cache access
     * per block entered, as the detailed core makes them. */
    uint64_t block = in->pc / (2u * (unsigned)u->cfg.fetch_width);
    if (block != u->fetch_block) {
        u->fetch_block = block;
        tlbs_warm(u->tlb, true, in->pc);
        memsys_warm_ifetch(u->mem, in->pc);
    }
    if (d->mem_access) {
        tlbs_warm(u->tlb, false, d->mem_addr);
        if (d->mem_access & RV_MEM_STORE)
            memsys_warm_store(u->mem, d->mem_addr);
        else
            memsys_warm_load(u->mem, d->mem_addr);
    }
    if (rv_ops[in->op].flags & RVF_CTRL) {
        bpred_predict_update(u->bp, in, d->taken, d->next_pc);
        if (d->taken) u->fetch_block = UINT64_MAX; /* a taken transfer starts a new fetch block */
    }
}

uint64_t uarch_warm_run(uarch *u, rv_proc *p, uint64_t limit)
{
    uint64_t start = p->cpu.icount;
    rv_dyninst batch[64];
    while (p->cpu.icount < limit) {
        uint64_t n = limit - p->cpu.icount < 64 ? limit - p->cpu.icount : 64;
        size_t done = rv_step_many(p, batch, n);
        for (size_t i = 0; i < done; i++) uarch_warm(u, &batch[i]);
        if (done < n) break;
    }
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
