#include "proxy.h"

#include <string.h>

void proxy_penalties_of(const uarch_config *c, proxy_penalties *pen)
{
    *pen = (proxy_penalties){
        .l1_miss = c->l2_latency,
        .l2_miss = c->llc_latency,
        .llc_miss = (double)c->dram_latency_ns * c->freq_mhz / 1000.0,
        .tlb_miss = c->l2tlb_latency,
        .walk = c->ptw_latency,
        .mispredict = c->regread_stages + c->redirect_penalty + c->icache_to_decode + c->decode_stages,
    };
    /* A long operation's cycles beyond an ALU's: its unit's latency less
     * one (fu.* of the configuration); none for the classes that take an
     * ALU's cycle, a memory access (counted as misses) or a serialising one. */
    for (unsigned k = 0; k < CLS_COUNT; k++) {
        unsigned latency = uarch_long_class(k) ? uarch_unit_latency(c, k) : 0;
        pen->op[k] = latency > 1 ? latency - 1 : 0;
    }
}

void proxy_count_ops(uint64_t *ops, const rv_block *b, uint32_t first, uint32_t executed)
{
    for (const rv_insn *in = b->insns + first, *end = in + executed; in < end; in++)
        ops[rv_ops[in->op].cls]++;
}

void proxy_counts_read(const uarch *u, uint64_t icount, const uint64_t *ops, proxy_counts *out)
{
    const memsys_stats *m = memsys_get_stats(u->mem);
    const tlb_stats *t = tlbs_get_stats(u->tlb);
    const bpred_stats *b = bpred_get_stats(u->bp);
    *out = (proxy_counts){
        .insts = icount,
        .l1i_misses = m->l1i_misses,
        .l1d_misses = m->l1d_misses,
        .l2_misses = m->l2_misses,
        .llc_misses = m->llc_misses,
        .itlb_misses = t->itlb_misses,
        .dtlb_misses = t->dtlb_misses,
        .walks = t->l2_misses,
        .mispredicts = b->cond_mispredicts + b->indirect_mispredicts + b->return_mispredicts,
    };
    if (ops)
        memcpy(out->ops, ops, sizeof out->ops);
}

proxy_counts proxy_counts_sub(const proxy_counts *a, const proxy_counts *b)
{
    proxy_counts d = {
        .insts = a->insts - b->insts,
        .l1i_misses = a->l1i_misses - b->l1i_misses,
        .l1d_misses = a->l1d_misses - b->l1d_misses,
        .l2_misses = a->l2_misses - b->l2_misses,
        .llc_misses = a->llc_misses - b->llc_misses,
        .itlb_misses = a->itlb_misses - b->itlb_misses,
        .dtlb_misses = a->dtlb_misses - b->dtlb_misses,
        .walks = a->walks - b->walks,
        .mispredicts = a->mispredicts - b->mispredicts,
    };
    for (int k = 0; k < CLS_COUNT; k++)
        d.ops[k] = a->ops[k] - b->ops[k];
    return d;
}

double proxy_cpi(const proxy_counts *c, const proxy_penalties *pen)
{
    if (!c->insts)
        return 1.0;
    double stall = (double)(c->l1i_misses + c->l1d_misses) * pen->l1_miss + (double)c->l2_misses * pen->l2_miss +
                   (double)c->llc_misses * pen->llc_miss +
                   (double)(c->itlb_misses + c->dtlb_misses) * pen->tlb_miss + (double)c->walks * pen->walk +
                   (double)c->mispredicts * pen->mispredict;
    return 1.0 + stall / (double)c->insts;
}

double proxy_long_cpi(const proxy_counts *c, const proxy_penalties *pen)
{
    double cycles = 0;
    for (int k = 0; k < CLS_COUNT; k++)
        cycles += (double)c->ops[k] * pen->op[k];
    return c->insts ? cycles / (double)c->insts : 0;
}

/* The columns' groups of classes: what the latencies of the configuration
 * set apart (FP divide and square root are not pipelined). */
static uint64_t ops_of(const proxy_counts *c, const int *cls)
{
    uint64_t n = 0;
    for (; *cls >= 0; cls++)
        n += c->ops[*cls];
    return n;
}
static const int MULS[] = {CLS_MUL, -1}, DIVS[] = {CLS_DIV, -1},
                 FP_OPS[] = {CLS_FADD, CLS_FMUL, CLS_FMA, CLS_FCVT, CLS_FMOVE, CLS_FMISC, -1},
                 FP_DIVS[] = {CLS_FDIV, CLS_FSQRT, -1};

void proxy_write_header(outfile *o, const char *config_name, const uarch_config *c, uint64_t interval)
{
    proxy_penalties p;
    proxy_penalties_of(c, &p);
    outfile_printf(o, "# rvsample proxy 2\n# interval %llu\n# config %s %016llx\n",
                   (unsigned long long)interval, config_name, (unsigned long long)uarch_config_digest(c));
    outfile_printf(o, "# penalties l1_miss=%g l2_miss=%g llc_miss=%g tlb_miss=%g walk=%g mispredict=%g\n",
                   p.l1_miss, p.l2_miss, p.llc_miss, p.tlb_miss, p.walk, p.mispredict);
    outfile_printf(o, "# long mul=%g div=%g fadd=%g fmul=%g fma=%g fdiv=%g fsqrt=%g fcvt=%g fmisc=%g\n",
                   p.op[CLS_MUL], p.op[CLS_DIV], p.op[CLS_FADD], p.op[CLS_FMUL], p.op[CLS_FMA], p.op[CLS_FDIV],
                   p.op[CLS_FSQRT], p.op[CLS_FCVT], p.op[CLS_FMISC]);
    outfile_printf(o, "interval\tinstructions\tl1i_misses\tl1d_misses\tl2_misses\tllc_misses\titlb_misses\t"
                      "dtlb_misses\twalks\tmispredicts\tl1d_mpki\tl2_mpki\tllc_mpki\ttlb_mpki\tbranch_mpki\t"
                      "proxy_cpi\tint_muls\tint_divs\tfp_ops\tfp_divs\tlong_cpi\n");
}

void proxy_write_line(outfile *o, uint64_t index, const proxy_counts *c, const proxy_penalties *pen)
{
    double k = c->insts ? 1000.0 / (double)c->insts : 0;
    outfile_printf(o, "%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu", (unsigned long long)index,
                   (unsigned long long)c->insts, (unsigned long long)c->l1i_misses,
                   (unsigned long long)c->l1d_misses, (unsigned long long)c->l2_misses,
                   (unsigned long long)c->llc_misses, (unsigned long long)c->itlb_misses,
                   (unsigned long long)c->dtlb_misses, (unsigned long long)c->walks,
                   (unsigned long long)c->mispredicts);
    outfile_printf(o, "\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.6f", (double)c->l1d_misses * k,
                   (double)c->l2_misses * k, (double)c->llc_misses * k,
                   (double)(c->itlb_misses + c->dtlb_misses) * k, (double)c->mispredicts * k, proxy_cpi(c, pen));
    outfile_printf(o, "\t%llu\t%llu\t%llu\t%llu\t%.6f\n", (unsigned long long)ops_of(c, MULS),
                   (unsigned long long)ops_of(c, DIVS), (unsigned long long)ops_of(c, FP_OPS),
                   (unsigned long long)ops_of(c, FP_DIVS), proxy_long_cpi(c, pen));
}
