#include "proxy.h"

#include <string.h>
#include <threads.h>

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
    pen->exposed_unit = 1.0 / ((double)c->decode_width * c->iq_fp_issue);
}

/* ------------------------------------------------ the exposure model */

/* Where each operation's rd, rs1, rs2 and rs3 are in proxy_exposure's
 * ready[] (the integer file from 0, its x0 sink at 32; the FP file from
 * FP_BASE), NONE if absent: rv_insn_operands' reading of the formats,
 * looked up once rather than per instruction. An ecall's registers (the
 * system call's) are not followed. */
enum { FP_BASE = RV_X_SINK + 1, NONE = RV_REG_NONE };
static uint8_t operand_base[RV_OP_COUNT][4];
static once_flag operand_base_once = ONCE_FLAG_INIT;

static void build_operand_base(void)
{
    for (unsigned op = 0; op < RV_OP_COUNT; op++) {
        /* register numbers no file's base can turn into one another */
        rv_insn probe = {.op = (uint16_t)op, .rd = 1, .rs1 = 2, .rs2 = 3, .rs3 = 4};
        rv_operands o = rv_insn_operands(&probe);
        uint8_t got[4] = {o.dst, o.src[0], o.src[1], o.src[2]};
        for (int i = 0; i < 4; i++) {
            uint8_t base = got[i] == NONE ? NONE : got[i] >= RV_REG_F0 ? FP_BASE : 0;
            operand_base[op][i] = op == RV_OP_ecall ? NONE : base;
        }
    }
}

void proxy_exposure_init(proxy_exposure *x, const uarch_config *c)
{
    call_once(&operand_base_once, build_operand_base);
    memset(x, 0, sizeof *x);
    uint64_t cycle = (uint64_t)c->decode_width * (uint64_t)c->iq_fp_issue;
    x->dispatch = (uint64_t)c->iq_fp_issue;
    x->fp_gap = (uint64_t)c->decode_width;
    x->mul_gap = cycle;
    x->rob = (uint64_t)c->rob_entries;
    x->window = x->rob * x->dispatch;
    for (unsigned k = 0; k < CLS_COUNT; k++)
        x->latency[k] = uarch_long_class(k) ? uarch_unit_latency(c, k) * cycle : 0;
    x->wakeup = (uint64_t)(c->regread_stages + 2) * cycle;
    x->cycle = cycle;
    x->refill = (uint64_t)(c->flush_penalty + c->l1i_latency + c->icache_to_decode + c->decode_stages) * cycle;
    x->div_units = (unsigned)c->div_units;
    x->fdiv_units = (unsigned)c->fdiv_units;
}

/* The earliest free of n unpipelined units, taken from `ready` for lat. */
static uint64_t hold_unit(uint64_t *free_at, unsigned n, uint64_t ready, uint64_t lat)
{
    unsigned u = 0;
    for (unsigned i = 1; i < n; i++)
        if (free_at[i] < free_at[u]) u = i;
    uint64_t start = max_u64(ready, free_at[u]);
    free_at[u] = start + lat;
    return start;
}

/* When a long operation ready at `ready` issues: its unit's turn (a
 * divider, else the multiplier's or the FP queue's issue slot). */
static uint64_t issue_long(proxy_exposure *x, unsigned cls, uint64_t ready)
{
    uint64_t start = ready;
    if (cls == CLS_DIV)
        return hold_unit(x->div_free, x->div_units, ready, x->latency[cls]);
    if (cls == CLS_FDIV || cls == CLS_FSQRT)
        start = hold_unit(x->fdiv_free, x->fdiv_units, ready, x->latency[cls]);
    uint64_t *next = cls == CLS_MUL ? &x->mul_next : &x->fp_next;
    start = max_u64(start, *next);
    *next = start + (cls == CLS_MUL ? x->mul_gap : x->fp_gap);
    return start;
}

/* Dispatch waits for the instructions a window back to complete. */
static uint64_t wait_for_window(proxy_exposure *x, uint64_t t)
{
    while (x->late_count && x->late[x->late_head].seq + x->rob <= x->seq) {
        uint64_t done = x->late[x->late_head].done;
        if (done > t) {
            x->stalled += done - t;
            t = done;
        }
        x->late_head = (x->late_head + 1) % PROXY_ROB_MAX;
        x->late_count--;
    }
    return t;
}

static inline uint64_t operand_ready(const proxy_exposure *x, uint8_t base, uint8_t reg, uint64_t t)
{
    return base == NONE ? t : max_u64(t, x->ready[base + reg]);
}

/* What flushes the pipeline after it commits: as the core's CSR flushes,
 * and system calls. */
static bool flushes(const rv_insn *in, unsigned cls)
{
    return uarch_flushes_as_csr(in) || cls == CLS_SYSTEM;
}

/* The dispatch time after a serialising instruction dispatched at t, done
 * at `done`: it entered an empty reorder buffer and nothing follows it
 * until it commits; a flush then refills the pipeline. */
static uint64_t after_serial(const proxy_exposure *x, const rv_insn *in, unsigned cls, uint64_t done)
{
    return done + (flushes(in, cls) ? x->refill : 0);
}

static inline void exposure_step(proxy_exposure *x, const rv_insn *in, unsigned cls)
{
    uint64_t t = x->late_count ? wait_for_window(x, x->t) : x->t;
    bool serial = rv_ops[in->op].flags & RVF_SERIAL;
    if (serial && x->last_done > t) { /* it waits for the reorder buffer to drain */
        x->stalled += x->last_done - t;
        t = x->last_done;
    }
    const uint8_t *base = operand_base[in->op];
    uint64_t ready = operand_ready(x, base[1], in->rs1, t);
    ready = operand_ready(x, base[2], in->rs2, ready);
    ready = operand_ready(x, base[3], in->rs3, ready);
    uint64_t done = ready, readable = ready;
    if (x->latency[cls]) {
        done = issue_long(x, cls, ready) + x->latency[cls];
        readable = done + x->wakeup;
    }
    if (base[0] != NONE) x->ready[base[0] + in->rd] = readable;
    /* Only an instruction done later than dispatch reaches the one a
     * window after it can hold dispatch up. */
    if (done > t + x->window) {
        unsigned tail = (x->late_head + x->late_count++) % PROXY_ROB_MAX;
        x->late[tail].seq = x->seq;
        x->late[tail].done = done;
    }
    /* Units are only waited for by long operations, which are always
     * stepped: the model is busy while a register is not yet readable. */
    x->busy_until = max_u64(x->busy_until, readable);
    x->last_done = max_u64(x->last_done, done);
    x->seq++;
    x->t = t + x->dispatch;
    uint64_t next = serial ? after_serial(x, in, cls, done + x->cycle) : 0;
    if (next > x->t) {
        x->stalled += next - x->t;
        x->t = next;
    }
}

void proxy_exposure_step(proxy_exposure *x, const rv_insn *in) { exposure_step(x, in, rv_ops[in->op].cls); }

/* Idle: nothing pending that an instruction could wait for. */
static inline bool exposure_idle(const proxy_exposure *x) { return !x->late_count && x->busy_until <= x->t; }

void proxy_count_ops(uint64_t *ops, proxy_exposure *x, const rv_block *b, uint32_t first, uint32_t executed)
{
    for (const rv_insn *in = b->insns + first, *end = in + executed; in < end; in++) {
        unsigned cls = rv_ops[in->op].cls;
        ops[cls]++;
        if (!x)
            continue;
        if (x->latency[cls] || (rv_ops[in->op].flags & RVF_SERIAL) || !exposure_idle(x)) {
            exposure_step(x, in, cls);
        } else { /* nothing to wait for: dispatch goes on */
            x->seq++;
            x->t += x->dispatch;
        }
    }
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
        .exposed = a->exposed - b->exposed,
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

double proxy_exposed_cpi(const proxy_counts *c, const proxy_penalties *pen)
{
    return c->insts ? (double)c->exposed * pen->exposed_unit / (double)c->insts : 0;
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
    outfile_printf(o, "# rvsample proxy 3\n# interval %llu\n# config %s %016llx\n",
                   (unsigned long long)interval, config_name, (unsigned long long)uarch_config_digest(c));
    outfile_printf(o, "# penalties l1_miss=%g l2_miss=%g llc_miss=%g tlb_miss=%g walk=%g mispredict=%g\n",
                   p.l1_miss, p.l2_miss, p.llc_miss, p.tlb_miss, p.walk, p.mispredict);
    outfile_printf(o, "# long mul=%g div=%g fadd=%g fmul=%g fma=%g fdiv=%g fsqrt=%g fcvt=%g fmisc=%g\n",
                   p.op[CLS_MUL], p.op[CLS_DIV], p.op[CLS_FADD], p.op[CLS_FMUL], p.op[CLS_FMA], p.op[CLS_FDIV],
                   p.op[CLS_FSQRT], p.op[CLS_FCVT], p.op[CLS_FMISC]);
    outfile_printf(o, "interval\tinstructions\tl1i_misses\tl1d_misses\tl2_misses\tllc_misses\titlb_misses\t"
                      "dtlb_misses\twalks\tmispredicts\tl1d_mpki\tl2_mpki\tllc_mpki\ttlb_mpki\tbranch_mpki\t"
                      "proxy_cpi\tint_muls\tint_divs\tfp_ops\tfp_divs\tlong_cpi\texposed_cpi\n");
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
    outfile_printf(o, "\t%llu\t%llu\t%llu\t%llu\t%.6f\t%.6f\n", (unsigned long long)ops_of(c, MULS),
                   (unsigned long long)ops_of(c, DIVS), (unsigned long long)ops_of(c, FP_OPS),
                   (unsigned long long)ops_of(c, FP_DIVS), proxy_long_cpi(c, pen), proxy_exposed_cpi(c, pen));
}
