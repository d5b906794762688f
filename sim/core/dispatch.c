/* Decode/rename/dispatch, and the issue schedule fixed at dispatch: when
 * operands are ready, which cycle has a free issue port, how long the
 * functional unit or the memory hierarchy takes. */
#include "core.h"

#include <stdlib.h>

#include "exec/exec_common.h"
#include "util.h"

static bool is_fp_class(unsigned cls) { return cls >= CLS_FADD && cls <= CLS_FMOVE; }

static enum issue_queue queue_of(unsigned cls)
{
    switch (cls) {
    case CLS_LOAD: case CLS_STORE: case CLS_AMO: case CLS_FLOAD: case CLS_FSTORE: case CLS_FENCE:
        return IQ_MEM;
    default:
        return is_fp_class(cls) ? IQ_FP : IQ_INT;
    }
}

enum op_speed core_op_speed(unsigned cls)
{
    return cls == CLS_CSR ? OP_CSR : uarch_long_class(cls) ? OP_LONG : OP_SHORT;
}

/* The limit studies of interaction cost (notes/icost.md §2): operations
 * that take no time. */
static bool idealised(const uarch_config *k, unsigned cls)
{
    enum op_speed s = core_op_speed(cls);
    return s == OP_LONG ? k->ideal_long_alu : s == OP_SHORT && k->ideal_short_alu;
}

static unsigned latency_of(const uarch_config *k, unsigned cls)
{
    return idealised(k, cls) ? 0 : uarch_unit_latency(k, cls);
}

/* Cycles after an instruction's completion before its dependents may
 * issue. Only the integer ALUs forward results: an ALU operation wakes its
 * dependents as it issues, and an integer load a cycle before its data
 * returns (lsu.scala's speculative wakeup), so both feed them at once. Every
 * other unit (the multiplier, the divider, the jump unit, which computes
 * link addresses and auipc, the CSR unit, the FP units) wakes its dependents
 * only when it writes the register file, and they then read it: the
 * register-read stages and the execute stage's entry later (core.scala's
 * slow wakeup; decode.scala's "bypassable" column). An FP load's dependents
 * wait a cycle more than an integer load's: no speculative wakeup. */
unsigned core_wakeup_delay(const uarch_config *k, const rv_insn *in)
{
    unsigned cls = rv_ops[in->op].cls;
    if (idealised(k, cls)) return 0;
    switch (cls) {
    case CLS_ALU: return in->op == RV_OP_auipc ? (unsigned)k->regread_stages + 2 : 0;
    case CLS_LOAD: case CLS_STORE: case CLS_BRANCH: case CLS_FENCE: case CLS_SYSTEM: case CLS_FSTORE: return 0;
    case CLS_FLOAD: return 1;
    default: return (unsigned)k->regread_stages + 2;
    }
}

/* Flags a dispatched instruction carries because of what it is. */
static uint16_t static_flags(const rv_insn *in)
{
    const rv_op_info *info = &rv_ops[in->op];
    uint16_t f = 0;
    if (info->flags & RVF_SERIAL) f |= UOP_SERIAL;
    /* The FP status register (the Imagick/nab case) and fence.i. */
    if (uarch_flushes_as_csr(in)) f |= UOP_FLUSH_CSR;
    if (info->cls == CLS_SYSTEM) f |= UOP_EXCEPTION;
    return f;
}

static uint8_t stall_key_of(const uop *u)
{
    unsigned cls = rv_ops[u->d.insn.op].cls;
    if (u->d.mem_access == RV_MEM_LOAD) {
        if (u->flags & UOP_TLB_BOUND) return STK_STALLED_TLB;
        static const uint8_t by_level[MEM_LEVELS] = {STK_STALLED_LOAD_L1, STK_STALLED_LOAD_L2, STK_STALLED_LOAD_LLC,
                                                     STK_STALLED_LOAD_DRAM};
        return by_level[u->mem_level];
    }
    if (u->flags & UOP_SERIAL || cls == CLS_CSR || cls == CLS_SYSTEM || cls == CLS_FENCE) return STK_STALLED_SERIAL;
    if (u->d.mem_access & RV_MEM_STORE) return u->flags & UOP_TLB_BOUND ? STK_STALLED_TLB : STK_STALLED_STORE;
    if (cls == CLS_MUL || cls == CLS_DIV) return STK_STALLED_LONG_ALU;
    if (is_fp_class(cls)) return STK_STALLED_FP;
    return STK_STALLED_ALU;
}

/* The issue ports of q that can start u. As in BOOM's execution units, a
 * queue's port n hosts the n-th kind of unit (n modulo the width): of the
 * integer ports, 0 the jump unit, 1 the CSR unit, 2 the multiplier, 3 the
 * divider (every port has an ALU); of the FP ports, 0 the divide/square
 * root unit and the FP-to-integer unit (every port has an FMA unit). The
 * jump unit is the one that reads pcs, so auipc runs there too (decode.scala
 * gives it FU_JMP); so does a recoded short forward branch, whose predicate
 * only the jump unit wakes up (decode.scala, core.scala's pred_wakeup). */
static uint32_t ports_of(const issue_queue_state *q, const uop *u)
{
    unsigned cls = rv_ops[u->d.insn.op].cls;
    int only = -1;
    if (u->iq == IQ_INT) {
        if (cls == CLS_JAL || cls == CLS_JALR || u->d.insn.op == RV_OP_auipc || u->sfb_count) only = 0;
        else if (cls == CLS_CSR) only = 1;
        else if (cls == CLS_MUL) only = 2;
        else if (cls == CLS_DIV) only = 3;
    } else if (u->iq == IQ_FP) {
        bool to_int = u->ops.dst != RV_REG_NONE && u->ops.dst < RV_REG_F0;
        if (cls == CLS_FDIV || cls == CLS_FSQRT || to_int) only = 0;
    }
    return only < 0 ? (uint32_t)(((uint64_t)1 << q->width) - 1) : 1u << (only % q->width);
}

/* The first cycle at or after t with a free issue port of u's in q: it
 * takes the lowest such port (u->port). */
static uint64_t reserve_issue(sim_core *c, issue_queue_state *q, uop *u, uint64_t t)
{
    uint32_t ports = ports_of(q, u);
    /* A wrong-path instruction that would issue after its branch resolves never does. */
    uint64_t cutoff = u->wrong_path ? wrong_path_cutoff(c) : UINT64_MAX;
    for (;; t++) {
        if (t >= cutoff) return CYCLE_NEVER;
        if (t >= c->now + ISSUE_HORIZON) return t; /* beyond the horizon ports are assumed free */
        issue_slot *s = &q->slots[t % ISSUE_HORIZON];
        if (s->cycle != t) s->cycle = t, s->used = 0;
        uint32_t free_ports = ports & ~s->used;
        if (free_ports) {
            u->port = (uint8_t)__builtin_ctz(free_ports);
            s->used |= 1u << u->port;
            return t;
        }
    }
}

/* Entries of q the last cycle ended with: those issuing now are still
 * there, as BOOM's queue counts them (a slot frees the cycle after its
 * grant). The earliest of their issue cycles in *earliest; entries that
 * issued before now leave the list. */
static int queue_occupancy(sim_core *c, issue_queue_state *q, uint64_t *earliest)
{
    int k = 0, waiting = 0;
    *earliest = UINT64_MAX;
    for (int i = 0; i < q->npending; i++) {
        uint64_t issue = q->pending[i];
        if (issue < c->now) continue;
        waiting++;
        if (issue < *earliest) *earliest = issue;
        if (issue > c->now) q->pending[k++] = issue;
    }
    q->npending = k;
    return waiting + q->parked;
}

/* An unpipelined unit (divider): the earliest free one from t on. */
static uint64_t *free_unit(uint64_t *units, int n, uint64_t t, uint64_t *start)
{
    uint64_t *best = &units[0];
    for (int i = 1; i < n; i++)
        if (units[i] < *best) best = &units[i];
    *start = *best > t ? *best : t;
    return best;
}


static bool overlaps(uint64_t a, unsigned an, uint64_t b, unsigned bn) { return a < b + bn && b < a + an; }

/* The D-TLB lookup of a memory access issued at `issue`. */
static tlb_result translate_data(sim_core *c, uop *u, uint64_t issue)
{
    tlb_result t = tlbs_translate(c->ua->tlb, false, u->d.mem_addr, issue);
    if (t.l1_miss) u->flags |= UOP_DTLB_MISS;
    if (t.l2_miss) u->flags |= UOP_L2TLB_MISS;
    return t;
}

/* Charge a stall on this access to the TLB when translation took longer
 * than the data once translated. */
static uint64_t finish_access(uop *u, uint64_t issue, tlb_result t, uint64_t complete)
{
    if (t.ready - issue > complete - t.ready) u->flags |= UOP_TLB_BOUND;
    return complete;
}

static int compare_pc(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The load's data from the memory system, or an L1D hit for an idealised
 * load (the caches are left as they are). */
static mem_result load_data(sim_core *c, const uop *u, uint64_t at)
{
    if (c->nideal_loads && bsearch(&u->d.insn.pc, c->ideal_loads, c->nideal_loads, sizeof *c->ideal_loads, compare_pc)) return (mem_result){at + (uint64_t)c->cfg.l1d_latency, MEM_L1, 0};
    return memsys_load(c->ua->mem, u->d.mem_addr, at);
}

/* A load: D-TLB, then the youngest older store to the same bytes, else the
 * L1D. A store whose address is still unknown when the load issues is an
 * ordering violation, discovered when the load reaches the ROB head. */
static uint64_t schedule_load(sim_core *c, uop *u, uint64_t issue)
{
    tlb_result t = translate_data(c, u, issue);
    u->mshr_wait = 0;
    uint64_t n = (uint64_t)c->cfg.stq_entries;
    for (uint64_t i = c->stq_tail; i-- > c->stq_head;) {
        const store_entry *s = &c->stq[i % n];
        if (!overlaps(s->addr, s->size, u->d.mem_addr, u->d.mem_size)) continue;
        if (s->addr_ready > issue && !s->committed) {
            u->flags |= UOP_ORDERING;
            break;
        }
        u->mem_level = MEM_L1;
        uint64_t data = max_u64(t.ready + (uint64_t)c->cfg.l1d_latency, s->data_ready + 1);
        if (s->addr <= u->d.mem_addr && s->addr + s->size >= u->d.mem_addr + u->d.mem_size) {
            u->flags |= UOP_FORWARDED;
            return finish_access(u, issue, t, data);
        }
        /* Partly covered: wait for the store to write the cache. */
        mem_result r = load_data(c, u, t.ready);
        u->mem_level = r.level, u->mshr_wait = r.queued;
        return finish_access(u, issue, t, max_u64(r.ready, data + (uint64_t)c->cfg.l1d_latency));
    }
    mem_result r = load_data(c, u, t.ready);
    u->mem_level = r.level, u->mshr_wait = r.queued;
    return finish_access(u, issue, t, r.ready);
}

/* A store is one memory-queue entry that issues once if its address and
 * data are ready together, else in two halves as each becomes ready, each
 * on a port of its own (BOOM's STA and STD: issue-slot.scala's two-operand
 * state); the entry leaves after the second. base and data: when the
 * operands are ready. */
static void schedule_store_halves(sim_core *c, issue_queue_state *q, uop *u, uint64_t base, uint64_t data,
                                  uint64_t *address_issue, uint64_t *data_issue)
{
    uint64_t first = reserve_issue(c, q, u, max_u64(c->now + 1, min_u64(base, data)));
    u->issue = *address_issue = *data_issue = first;
    u->issue2 = 0;
    if (first == CYCLE_NEVER || max_u64(base, data) <= first) return;
    uint8_t first_port = u->port;
    u->issue2 = reserve_issue(c, q, u, max_u64(first + 1, max_u64(base, data)));
    u->port2 = u->port, u->port = first_port;
    if (base > data) *address_issue = u->issue2;
    else *data_issue = u->issue2;
}

/* The cycle u's queue entry leaves: its last issue. */
static uint64_t last_issue(const uop *u) { return u->issue2 ? u->issue2 : u->issue; }

/* u, a recoded short forward branch (sim/core/sfb.h), has been scheduled: its
 * shadow executes predicated on its outcome. When it is taken the shadow is
 * not in the instruction stream, but its predicated micro-ops still write
 * their registers (with the old values) once the outcome is known. */
static void predicate_shadow(sim_core *c, const uop *u)
{
    c->sfb_from = u->d.insn.pc;
    c->sfb_to = u->d.insn.pc + (uint64_t)u->d.insn.imm;
    c->sfb_ready = u->complete;
    if (!u->d.taken) return;
    uint64_t written = u->complete + latency_of(&c->cfg, CLS_ALU);
    for (uint32_t rds = u->sfb_rds; rds; rds &= rds - 1) {
        int r = __builtin_ctz(rds);
        c->reg_ready[r] = max_u64(c->reg_ready[r], written);
    }
}

void core_schedule(sim_core *c, uop *u)
{
    const uarch_config *k = &c->cfg;
    const rv_insn *in = &u->d.insn;
    unsigned cls = rv_ops[in->op].cls;
    const rv_operands ops = u->ops;
    /* A stuck wrong-path instruction waits in its queue until squashed. */
    uint64_t ready = u->stuck ? CYCLE_NEVER : c->now + 1;
    for (int i = 0; i < 3; i++)
        if (ops.src[i] != RV_REG_NONE) ready = max_u64(ready, c->reg_ready[ops.src[i]]);
    bool shadowed = in->pc > c->sfb_from && in->pc < c->sfb_to;
    if (shadowed) {
        /* Predicated on the recoded branch, and reading the old value of
         * its destination, which it keeps when the predicate is false
         * (decode.scala makes rd an operand of every shadow micro-op). */
        ready = max_u64(ready, c->sfb_ready);
        if (ops.dst != RV_REG_NONE) ready = max_u64(ready, c->reg_ready[ops.dst]);
    } else {
        c->sfb_to = 0; /* past the shadow */
    }
    u->iq = (uint8_t)queue_of(cls);
    u->flags |= static_flags(in);
    issue_queue_state *q = &c->iq[u->iq];

    uint64_t complete;
    if (u->d.mem_access == RV_MEM_STORE) {
        uint64_t base = ops.src[0] != RV_REG_NONE ? c->reg_ready[ops.src[0]] : 0;
        uint64_t data = ops.src[1] != RV_REG_NONE ? c->reg_ready[ops.src[1]] : 0;
        if (u->stuck) base = CYCLE_NEVER;
        ready = max_u64(c->now + 1, max_u64(base, data)); /* every operand, address and data */
        uint64_t address_issue, data_issue;
        schedule_store_halves(c, q, u, base, data, &address_issue, &data_issue);
        /* A wrong-path store never translates: it can never write. */
        tlb_result t = u->wrong_path ? (tlb_result){.ready = address_issue} : translate_data(c, u, address_issue);
        store_entry *s = &c->stq[c->stq_tail % (uint64_t)k->stq_entries];
        *s = (store_entry){.seq = u->d.icount, .addr = u->d.mem_addr, .size = u->d.mem_size,
                           .addr_ready = t.ready, .data_ready = data_issue, .done = UINT64_MAX};
        u->stq_pos = c->stq_tail++;
        complete = finish_access(u, address_issue, t, max_u64(t.ready, data_issue) + 1);
    } else if (u->d.mem_access == RV_MEM_LOAD) {
        u->issue = reserve_issue(c, q, u, ready);
        complete = u->issue != CYCLE_NEVER ? schedule_load(c, u, u->issue) : CYCLE_NEVER;
        c->loads_used++;
    } else if (u->d.mem_access == RV_MEM_PREFETCH) {
        /* A prefetch hint starts the fill and completes at once: it never
         * waits for the data, so it never blocks commit. */
        u->issue = reserve_issue(c, q, u, ready);
        if (u->issue != CYCLE_NEVER) {
            tlb_result t = tlbs_translate(c->ua->tlb, false, u->d.mem_addr, u->issue);
            memsys_load(c->ua->mem, u->d.mem_addr, t.ready);
        }
        complete = u->issue + latency_of(k, cls);
    } else if (u->d.mem_access) {
        /* AMO: alone in the ROB, it owns the line and updates it (never
         * on the wrong path: it is stuck there). */
        u->issue = reserve_issue(c, q, u, ready);
        if (u->issue != CYCLE_NEVER) {
            tlb_result t = translate_data(c, u, u->issue);
            mem_result r = memsys_store(c->ua->mem, u->d.mem_addr, t.ready);
            u->mem_level = r.level;
            complete = finish_access(u, u->issue, t, r.ready + 1);
        } else {
            complete = CYCLE_NEVER;
        }
    } else if (cls == CLS_DIV || cls == CLS_FDIV || cls == CLS_FSQRT) {
        bool fp = cls != CLS_DIV;
        uint64_t start;
        uint64_t *unit = free_unit(fp ? c->fdiv_free : c->div_free, fp ? k->fdiv_units : k->div_units, ready, &start);
        u->issue = reserve_issue(c, q, u, start);
        complete = u->issue + latency_of(k, cls);
        if (u->issue != CYCLE_NEVER) *unit = complete;
    } else {
        u->issue = reserve_issue(c, q, u, ready);
        complete = u->issue + latency_of(k, cls);
    }
    u->complete = complete;
    if (u->sfb_count) predicate_shadow(c, u);
    u->dispatched = c->now;
    u->ready = ready;
    if (u->ops.dst != RV_REG_NONE) {
        c->reg_ready[u->ops.dst] = complete + core_wakeup_delay(k, in);
        if (u->ops.dst < RV_REG_F0) c->int_regs_used++;
        else c->fp_regs_used++;
    }
    if (last_issue(u) == CYCLE_NEVER) q->parked++; /* no need to look at it until it is squashed */
    else if (last_issue(u) > c->now) q->pending[q->npending++] = last_issue(u);
    if (u->flags & UOP_SERIAL) c->serial_inflight = true;
    u->stall_key = stall_key_of(u);
}

static void release_slot(sim_core *c, const uop *u, uint64_t issue, uint8_t port)
{
    issue_slot *slot = &c->iq[u->iq].slots[issue % ISSUE_HORIZON];
    if (issue > c->now && slot->cycle == issue) slot->used &= ~(1u << port);
}

void core_release_port(sim_core *c, const uop *u)
{
    release_slot(c, u, u->issue, u->port);
    if (u->issue2) release_slot(c, u, u->issue2, u->port2);
}

void core_unschedule(sim_core *c, uop *u)
{
    issue_queue_state *q = &c->iq[u->iq];
    core_release_port(c, u);
    uint64_t leaves = last_issue(u);
    if (leaves == CYCLE_NEVER) {
        q->parked--;
    } else if (leaves > c->now) {
        for (int i = 0; i < q->npending; i++)
            if (q->pending[i] == leaves) {
                q->pending[i] = q->pending[--q->npending];
                break;
            }
    }
    if (u->ops.dst != RV_REG_NONE) {
        if (u->ops.dst < RV_REG_F0) c->int_regs_used--;
        else c->fp_regs_used--;
    }
    if (u->d.mem_access == RV_MEM_LOAD) c->loads_used--;
}

/* ROB rows in use. BOOM's ROB is decode_width banks: each decode packet
 * takes a row of its own however few instructions it holds, and the head
 * row is freed only once all of it has committed (rob.scala). */
static uint64_t rob_rows_used(const sim_core *c)
{
    if (c->head == c->disp) return 0;
    return (uint64_t)(core_uop(c, c->disp - 1)->row - core_uop(c, c->head)->row) + 1;
}

/* Whether u can enter the ROB this cycle; if not, why (and until when). */
static bool can_dispatch(sim_core *c, uop *u)
{
    const uarch_config *k = &c->cfg;
    if (c->serial_inflight) return false;
    /* The packet's first instruction opens a row; the rest join it. */
    if (!c->dec.slot && rob_rows_used(c) >= (uint64_t)(k->rob_entries / k->decode_width)) return false;
    const rv_op_info *info = &rv_ops[u->d.insn.op];
    bool store = u->d.mem_access == RV_MEM_STORE;
    uint64_t stq_used = c->stq_tail - c->stq_head;
    if (info->flags & RVF_SERIAL) {
        if (c->disp != c->head) return false;
        /* Fences, atomics and system calls also wait for older stores. */
        if (info->cls != CLS_CSR && stq_used) {
            c->stq_blocked = true;
            return false;
        }
    }
    if (store && stq_used >= (uint64_t)k->stq_entries) {
        c->stq_blocked = true;
        u->flags |= UOP_SQ_FULL;
        return false;
    }
    if (u->d.mem_access == RV_MEM_LOAD && c->loads_used >= k->ldq_entries) return false;
    if (u->ops.dst != RV_REG_NONE) {
        bool fp = u->ops.dst >= RV_REG_F0;
        if ((fp ? c->fp_regs_used : c->int_regs_used) >= (fp ? k->fp_phys_regs : k->int_phys_regs) - 32) return false;
    }
    return true;
}

/* The next decode packet: up to decode_width instructions that have come
 * through decode, as the fetch buffer hands them over. It stays together
 * until all of it has dispatched. False if none has arrived. */
static bool next_decode_packet(sim_core *c)
{
    int n = 0;
    while (n < c->cfg.decode_width && c->disp + (uint64_t)n < c->fetch) {
        const uop *u = core_uop(c, c->disp + (uint64_t)n);
        if (u->fetch_ready > c->now) {
            if (!n) core_wake_at(c, u->fetch_ready);
            break;
        }
        n++;
    }
    c->dec.left = n, c->dec.slot = 0;
    return n;
}

/* BOOM's dispatcher (dispatch.scala, BasicDispatcher): the packet's slot w
 * dispatches only if every issue queue had more than w free entries at the
 * end of the last cycle (issue-unit.scala, num_available). Returns how many
 * slots that allows. */
static int slots_the_queues_allow(sim_core *c)
{
    int slots = c->cfg.decode_width;
    for (int i = 0; i < IQ_COUNT; i++) {
        issue_queue_state *q = &c->iq[i];
        uint64_t earliest;
        /* (Entries only leave: below the size minus a packet, the count cannot bind.) */
        if (q->npending + q->parked + slots <= q->entries) continue;
        int used = queue_occupancy(c, q, &earliest);
        if (q->entries - used < slots) {
            slots = q->entries - used;
            /* An entry frees the cycle after it issues; parked wrong-path
             * entries free only at the squash, which wakes the core itself. */
            if (earliest != UINT64_MAX) core_wake_at(c, earliest + 1);
        }
    }
    return slots;
}

void core_dispatch_stage(sim_core *c)
{
    c->stq_blocked = false;
    if (!c->dec.left && !next_decode_packet(c)) return;
    int slots = slots_the_queues_allow(c);
    while (c->dec.left && c->dec.slot < slots) {
        uop *u = core_uop(c, c->disp);
        if (u->wrong_path && !u->executed) wrong_path_execute(c, u); /* its access decides where it goes */
        if (!can_dispatch(c, u)) break;
        u->flags &= (uint16_t)(UOP_FRONT_END | UOP_REPLAYED | UOP_SQ_FULL);
        u->slot = (uint8_t)c->dec.slot;
        u->row = c->dec.slot ? core_uop(c, c->disp - 1)->row : c->head == c->disp ? 0 : core_uop(c, c->disp - 1)->row + 1;
        core_schedule(c, u);
        core_rob_enter(c, u);
        wrong_path_dispatched(c, u);
        c->dec.left--, c->dec.slot++;
        c->active = true;
        if (u->flags & UOP_SERIAL) break;
    }
}
