#include "decode_cache.h"

#include <string.h>

#include "exec/exec_spec.h"

void decode_cache_init(decode_cache *dc)
{
    for (size_t i = 0; i < sizeof dc->e / sizeof dc->e[0]; i++) dc->e[i].pc = 1;
}

static decoded *slot(decode_cache *dc, uint64_t pc) { return &dc->e[(pc >> 1) & ((1u << DECODE_CACHE_BITS) - 1)]; }

static const decoded *fill(decoded *d, const rv_insn *in)
{
    d->pc = in->pc;
    d->insn = *in;
    d->ops = rv_insn_operands(in);
    d->spec_runnable = rv_spec_runnable(in);
    return d;
}

rv_operands decode_cache_operands(decode_cache *dc, const rv_insn *in)
{
    decoded *d = slot(dc, in->pc);
    if (d->pc != in->pc || d->insn.bits != in->bits) fill(d, in);
    return d->ops;
}

const decoded *decode_cache_fetch(decode_cache *dc, const rv_mem *m, uint64_t pc)
{
    uint16_t parcel[2] = {0, 0};
    if (!mem_ok_small(m, pc, 2, GP_X)) return NULL;
    memcpy(&parcel[0], mem_host(m, pc), 2);
    bool wide = rv_insn_length(parcel[0]) == 4;
    if (wide) {
        if (!mem_ok_small(m, pc + 2, 2, GP_X)) return NULL;
        memcpy(&parcel[1], mem_host(m, pc + 2), 2);
    }
    uint32_t bits = wide ? (uint32_t)parcel[0] | (uint32_t)parcel[1] << 16 : parcel[0];
    decoded *d = slot(dc, pc);
    if (d->pc == pc && d->insn.bits == bits) return d;
    rv_insn in;
    rv_decode(&in, pc, parcel[0], parcel[1]);
    return fill(d, &in);
}
