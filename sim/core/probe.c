/* Building and publishing the per-cycle commit view (sim/core/probe.h). The
 * stages note what they do as they do it; the view is handed to every
 * consumer once the cycle (or run of idle cycles) is over. */
#include "core.h"

#include <string.h>

static bool is_long_latency(unsigned cls) { return cls == CLS_DIV || cls == CLS_FDIV || cls == CLS_FSQRT; }

/* Where each bit comes from (notes/tea.md §1.2): the front-end bits were
 * set at fetch on the first instruction of the packet, DR-SQ at dispatch,
 * the memory bits when the access was scheduled, the flush bits by the ROB.
 * ST-L1 without ST-LLC is a hit in the L2 or the LLC (ST-L2 tells which). */
uint16_t core_psv(const uop *u)
{
    uint16_t f = u->flags, psv = 0;
    if (f & UOP_L1I_MISS) psv |= PSV(DR_L1);
    if (f & UOP_ITLB_MISS) psv |= PSV(DR_TLB);
    if (f & UOP_SQ_FULL) psv |= PSV(DR_SQ);
    if (f & UOP_MISPREDICT) psv |= PSV(FL_MB);
    if (f & UOP_EXCEPTION) psv |= PSV(FL_EX);
    if (f & UOP_REPLAYED) psv |= PSV(FL_MO);
    if (f & UOP_FLUSH_CSR) psv |= PSV(FL_CSR);
    if (f & UOP_DTLB_MISS) psv |= PSV(ST_TLB);
    if (f & UOP_L2TLB_MISS) psv |= PSV(ST_WALK);
    if ((f & UOP_BTB_MISS) && u->d.taken) psv |= PSV(DR_BTB);
    if ((u->d.mem_access & RV_MEM_LOAD) && !(f & UOP_FORWARDED)) {
        if (u->mem_level > MEM_L1) psv |= PSV(ST_L1);
        if (u->mem_level == MEM_L2) psv |= PSV(ST_L2);
        if (u->mem_level > MEM_LLC) psv |= PSV(ST_LLC);
    }
    if (is_long_latency(rv_ops[u->d.insn.op].cls)) psv |= PSV(ST_LAT);
    return psv;
}

static probe_insn insn_of(const uop *u)
{
    return (probe_insn){.seq = u->d.icount, .pc = u->d.insn.pc, .flags = u->flags};
}

/* The i-th instruction committed this cycle, with its final PSV. */
static probe_insn committed_insn(const sim_core *c, int i)
{
    probe_insn in = insn_of(c->cc.committed[i]);
    in.psv = c->cc.psv[i];
    return in;
}

static uint16_t flusher_flags(uint8_t flush_key)
{
    switch (flush_key) {
    case STK_FLUSHED_MISPREDICT: return UOP_MISPREDICT;
    case STK_FLUSHED_CSR: return UOP_FLUSH_CSR;
    case STK_FLUSHED_EXCEPTION: return UOP_EXCEPTION;
    default: return UOP_REPLAYED; /* a memory-ordering violation */
    }
}

void probe_begin_view(sim_core *c, uint64_t cycle, uint64_t run)
{
    c->view_on = false;
    for (int i = 0; i < c->nprobes; i++)
        if (*c->probes[i].want_from < cycle + run) c->view_on = true;
}

void probe_note_commits(sim_core *c, uint8_t stack_key)
{
    if (!c->nprobes) return;
    commit_view *v = &c->view;
    if (!c->view_on) {
        /* Every view needs the latest instruction to commit, read or not. */
        if (c->cc.n) v->last_committed = committed_insn(c, c->cc.n - 1), v->has_last_committed = true;
        return;
    }
    v->stack_key = stack_key;
    v->state = stack_key_state[stack_key];
    v->ncommit = (uint8_t)c->cc.n;
    for (int i = 0; i < c->cc.n; i++) v->commit[i] = committed_insn(c, i);
    /* The head as commit left it (a flush later in the cycle empties the ROB). */
    v->nhead = 0;
    if (v->state == ST_STALLED) {
        uint64_t in_rob = c->disp - c->head;
        v->nhead = (uint8_t)(in_rob < (uint64_t)c->cfg.commit_width ? in_rob : (uint64_t)c->cfg.commit_width);
        for (int i = 0; i < v->nhead; i++) v->head[i] = insn_of(core_uop(c, c->head + (uint64_t)i));
    }
    v->has_flusher = v->state == ST_FLUSHED;
    if (v->has_flusher)
        v->flusher = (probe_insn){.seq = c->flush_seq, .pc = c->flush_pc, .flags = flusher_flags(c->flush_key),
                                  .psv = c->flush_psv};
}

void probe_noted_dispatch(sim_core *c, const uop *u)
{
    commit_view *v = &c->view;
    if (!v->ndispatch) v->dispatch_first = insn_of(u);
    v->dispatch_last = insn_of(u);
    v->ndispatch++;
}

void probe_noted_fetch(sim_core *c, const uop *u)
{
    commit_view *v = &c->view;
    if (!v->nfetch) v->fetch_first = insn_of(u);
    v->nfetch++;
}

void probe_note_squash(sim_core *c, uint64_t from)
{
    if (c->view_on && from < c->view.squash_from) c->view.squash_from = from;
}

/* The L1D's state of the line of addr now (nothing is touched). */
uint8_t probe_l1d_line(const sim_core *c, uint64_t addr)
{
    const cache_state *l = cache_peek(memsys_l1(c->ua->mem, false), addr / (uint64_t)c->cfg.line_bytes);
    return !l ? L1D_ABSENT : l->ready > c->now ? L1D_FILLING : L1D_PRESENT;
}

instance_record probe_instance_record(const sim_core *c, const uop *u, bool retired, uint8_t abort_key)
{
    bool dispatched = u->dispatched != 0;
    /* A wrong-path load may issue and still never get its data (it
     * forwards from a wrong-path store whose data never issues): none. */
    bool scheduled = dispatched && u->d.mem_access == RV_MEM_LOAD && u->issue != CYCLE_NEVER && u->complete < CYCLE_NEVER;
    const store_entry *sq = c->stq_head < c->stq_tail ? &c->stq[c->stq_head % (uint64_t)c->cfg.stq_entries] : NULL;
    return (instance_record){.sq_head_seq = sq ? sq->seq : UINT64_MAX, .sq_head_done = sq ? sq->done : UINT64_MAX,
                         .sq_head_start = sq ? sq->write_start : 0, .sq_head_wait = sq ? sq->write_wait : 0,
                         .instance = u->instance, .seq = u->d.icount, .pc = u->d.insn.pc, .mem_addr = u->d.mem_addr,
                         .fetched = u->fetched, .dispatched = u->dispatched, .ready = dispatched ? u->ready : 0,
                         /* an aborted instance may end before it issues or completes */
                         .issued = dispatched && u->issue <= c->now ? u->issue : 0,
                         .issued2 = dispatched && u->issue2 && u->issue2 <= c->now ? u->issue2 : 0,
                         .completed = dispatched && u->complete <= c->now ? u->complete : 0,
                         .ended = c->now, .flags = u->flags, .mem_level = u->mem_level,
                         .mshr_wait = u->d.mem_access == RV_MEM_LOAD ? u->mshr_wait : 0, .abort_key = abort_key,
                         .load_issue = scheduled ? u->issue : 0, .load_data = scheduled ? u->complete : 0,
                         .retired = retired, .taken = u->d.taken,
                         .load = u->d.mem_access == RV_MEM_LOAD, .fetch_ready = u->fetch_ready, .packet = u->packet,
                         .fe_bubbles = u->fe_bubbles,
                         .cls = rv_ops[u->d.insn.op].cls, .op = u->d.insn.op, .wake = (uint8_t)core_wakeup_delay(&c->cfg, &u->d.insn), .dst = u->ops.dst,
                         .branch_tag = core_takes_branch_tag(rv_ops[u->d.insn.op].cls, u->sfb_count),
                         .src = {u->ops.src[0], u->ops.src[1], u->ops.src[2]}, .history = u->history,
                         .l1d_line = retired && u->d.mem_access == RV_MEM_STORE ? probe_l1d_line(c, u->d.mem_addr) : 0};
}

void probe_instance_emit(sim_core *c, const instance_record *r)
{
    for (int i = 0; i < c->ninstance_probes; i++) c->instance_probes[i].fn(c->instance_probes[i].ctx, r);
}

bool probe_reads_ahead(const sim_core *c)
{
    for (int i = 0; i < c->ninstance_probes; i++)
        if (c->instance_probes[i].reads_ahead) return true;
    return false;
}

/* The unfetched rest of the wrong path after the fetched records, to the
 * consumers that read it. */
static void emit_ahead(sim_core *c)
{
    for (size_t j = 0; j < c->ahead.n; j++)
        for (int i = 0; i < c->ninstance_probes; i++)
            if (c->instance_probes[i].reads_ahead) c->instance_probes[i].fn(c->instance_probes[i].ctx, &c->ahead.r[j]);
    c->ahead.n = 0;
}

void probe_instance_end(sim_core *c, const uop *u, bool retired, uint8_t abort_key)
{
    instance_record r = probe_instance_record(c, u, retired, abort_key);
    probe_instance_emit(c, &r);
    /* The wrong path after it ended before it, but is told after it: the
     * probe sees instances end in the order they were fetched. */
    if (c->wp_ended.n && u->d.icount == c->wp_ended.branch) {
        for (size_t i = 0; i < c->wp_ended.n; i++) probe_instance_emit(c, &c->wp_ended.r[i]);
        c->wp_ended.n = 0;
    }
    if (c->ahead.n && u->d.icount == c->ahead.branch) emit_ahead(c);
}

void probe_publish(sim_core *c, uint64_t cycle, uint64_t run)
{
    if (!c->view_on) return;
    commit_view *v = &c->view;
    v->cycle = cycle, v->run = run;
    v->fetch_next = c->wp.on ? c->wp.branch + 1 : c->fetch; /* the correct path's */
    for (int i = 0; i < c->nprobes; i++) c->probes[i].fn(c->probes[i].ctx, v);
    /* The next view starts empty; an idle run repeats the state it notes. */
    if (v->ncommit) v->last_committed = v->commit[v->ncommit - 1], v->has_last_committed = true;
    v->ncommit = v->ndispatch = v->nfetch = 0;
    v->squash_from = UINT64_MAX;
}
