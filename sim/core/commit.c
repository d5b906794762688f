/* Commit, flushes, the store drain and the commit-state accounting that
 * charges every cycle. */
#include "core.h"

#include <string.h>

static bool ends_block(const rv_insn *in)
{
    return rv_ops[in->op].flags & (RVF_CTRL | RVF_ENDS_BLOCK);
}

/* The dynamic block the next instruction to commit (at pc) belongs to:
 * blocks start after a control transfer or block-ending instruction, or
 * after RV_BLOCK_MAX_INSNS instructions, as the fast path forms them. */
static uint64_t next_block(const sim_core *c, uint64_t pc)
{
    return c->block_ended ? pc : c->block_pc;
}

static void charge(sim_core *c, uint64_t pc, uint64_t block, enum commit_state st, uint64_t units)
{
    cost_at(&c->by_pc, pc)->units[st] += units;
    cost_at(&c->by_block, block)->units[st] += units;
}

/* The attribution probe's view of u committing with `share` of its cycle. */
static void attribute_commit(sim_core *c, const uop *u, uint16_t psv, uint64_t share)
{
    uint64_t units[ST_COUNT];
    memcpy(units, u->units, sizeof units);
    units[ST_COMPUTING] += share;
    c->attribution.fn(c->attribution.ctx, u->d.insn.pc, psv, units, 1);
}

/* The drained component of a cycle: why the front end has nothing. */
static uint8_t drained_key(const sim_core *c)
{
    if (c->stq_blocked) return STK_DRAINED_STORE_QUEUE;
    if (c->disp < c->fetch) {
        const uop *u = core_uop(c, c->disp);
        if (u->fetch_ready >= c->now) return u->fe_key; /* still on its way, or arriving now */
    }
    return STK_DRAINED_BUBBLE;
}

uint8_t core_account_idle(sim_core *c, uint64_t n)
{
    uint64_t units = n * c->units;
    uint8_t key;
    if (c->head < c->disp) {
        uop *h = core_uop(c, c->head);
        key = h->stall_key;
        h->units[ST_STALLED] += units;
    } else if (c->flush_key) {
        key = c->flush_key;
        charge(c, c->flush_pc, c->flush_block, ST_FLUSHED, units);
        if (c->attribution.fn)
            c->attribution.fn(c->attribution.ctx, c->flush_pc, c->flush_psv, (uint64_t[ST_COUNT]){[ST_FLUSHED] = units}, 0);
    } else {
        key = drained_key(c);
        c->drained_pending += units;
    }
    c->ctr.stack[key] += n;
    return key;
}

void core_rob_enter(sim_core *c, uop *u)
{
    if (c->disp == c->head) {
        /* The first instruction into an empty ROB takes the drained cycles
         * before it: the front end was late with it. */
        u->units[ST_DRAINED] += c->drained_pending;
        c->drained_pending = 0;
    }
    probe_note_dispatch(c, u);
    c->disp++;
}

static void count_events(sim_core *c, const uop *u)
{
    uint64_t *ev = c->ctr.events;
    unsigned cls = rv_ops[u->d.insn.op].cls;
    uint16_t f = u->flags;
    if (rv_ops[u->d.insn.op].flags & RVF_CTRL) {
        ev[EV_BRANCHES]++;
        ev[EV_BRANCH_MISPREDICTS] += !!(f & UOP_MISPREDICT);
        ev[EV_BTB_MISSES] += !!(f & UOP_BTB_MISS);
        if (cls == CLS_BRANCH) {
            ev[EV_COND_BRANCHES]++;
            ev[EV_COND_MISPREDICTS] += !!(f & UOP_MISPREDICT);
        }
        if (bpred_kind(&u->d.insn) == BP_RET) {
            ev[EV_RETURNS]++;
            ev[EV_RETURN_MISPREDICTS] += !!(f & UOP_MISPREDICT);
        }
        ev[EV_WRONG_PATH_FETCHED] += u->wp_fetched;
        ev[EV_WRONG_PATH_ISSUED] += u->wp_issued;
    }
    if (u->d.mem_access & RV_MEM_LOAD) {
        ev[EV_LOADS]++;
        if (!(f & UOP_FORWARDED)) {
            ev[EV_L1D_MISSES] += u->mem_level > MEM_L1;
            ev[EV_L2_MISSES] += u->mem_level > MEM_L2;
            ev[EV_LLC_MISSES] += u->mem_level > MEM_LLC;
        }
    }
    if (u->d.mem_access & RV_MEM_STORE) ev[EV_STORES]++;
    ev[EV_L1I_MISSES] += !!(f & UOP_L1I_MISS);
    ev[EV_ITLB_MISSES] += !!(f & UOP_ITLB_MISS);
    ev[EV_DTLB_MISSES] += !!(f & UOP_DTLB_MISS);
    ev[EV_L2TLB_MISSES] += !!(f & UOP_L2TLB_MISS) + !!(f & UOP_ITLB_WALK);
    ev[EV_FLUSHES_CSR] += !!(f & UOP_FLUSH_CSR);
    ev[EV_FLUSHES_EXCEPTION] += !!(f & UOP_EXCEPTION);
    ev[EV_ORDERING_VIOLATIONS] += !!(f & UOP_REPLAYED);
    ev[EV_STORE_FORWARDS] += !!(f & UOP_FORWARDED);
}

/* Retire u: its time so far goes to its pc and block (the share of the
 * cycle it commits in follows when the cycle ends), its resources are
 * freed. Returns its block. */
static uint64_t retire(sim_core *c, uop *u)
{
    const rv_insn *in = &u->d.insn;
    uint64_t block = next_block(c, in->pc);
    if (block != c->block_pc || c->block_ended) {
        c->block_pc = block, c->block_len = 0;
        cost_at(&c->by_block, block)->execs++;
    }
    c->block_len++;
    c->block_ended = ends_block(in) || c->block_len == RV_BLOCK_MAX_INSNS;

    cost *pc_cost = cost_at(&c->by_pc, in->pc);
    cost *block_cost = cost_at(&c->by_block, block);
    pc_cost->commits++, block_cost->commits++;
    pc_cost->bits = in->bits;
    for (int s = 0; s < ST_COUNT; s++) pc_cost->units[s] += u->units[s], block_cost->units[s] += u->units[s];

    if (u->ops.dst != RV_REG_NONE) {
        if (u->ops.dst < RV_REG_F0) c->int_regs_used--;
        else c->fp_regs_used--;
    }
    if (u->d.mem_access == RV_MEM_LOAD) c->loads_used--;
    if (u->d.mem_access == RV_MEM_STORE) c->stq[u->stq_pos % (uint64_t)c->cfg.stq_entries].committed = true;
    if (u->flags & UOP_SERIAL) c->serial_inflight = false;
    bp_event e;
    if (core_bp_event(u, &e)) bpred_commit(c->ua->bp, &e, &c->predictions[u->d.icount & c->win_mask]);
    count_events(c, u);
    c->ctr.instructions++;
    if (c->ninstance_probes) probe_instance_end(c, u, true, 0);
    return block;
}

static uint8_t flush_key_of(uint16_t flags)
{
    if (flags & UOP_MISPREDICT) return STK_FLUSHED_MISPREDICT;
    if (flags & UOP_FLUSH_CSR) return STK_FLUSHED_CSR;
    if (flags & UOP_EXCEPTION) return STK_FLUSHED_EXCEPTION;
    return 0;
}

/* The cycle's commits are over: count it (unless the pause did), split it
 * among the instructions that committed in it, or charge it to the state the
 * commit stage is in. */
static void end_cycle(sim_core *c, bool squash)
{
    commit_cycle *cc = &c->cc;
    uint8_t key = STK_COMPUTING;
    if (!cc->charged) {
        c->ctr.cycles++;
        if (cc->n) c->ctr.stack[STK_COMPUTING]++;
        else key = core_account_idle(c, 1);
    }
    if (c->probe_psv || c->attribution.fn)
        for (int i = 0; i < cc->n; i++) cc->psv[i] = core_psv(cc->committed[i]);
    probe_note_commits(c, key);
    if (cc->n) {
        uint64_t share = c->units / (uint64_t)cc->n;
        for (int i = 0; i < cc->n; i++) {
            charge(c, cc->committed[i]->d.insn.pc, cc->blocks[i], ST_COMPUTING, share);
            if (c->attribution.fn) attribute_commit(c, cc->committed[i], cc->psv[i], share);
        }
        c->active = true;
        c->flush_key = cc->flush_key, c->flush_pc = cc->flush_pc, c->flush_block = cc->flush_block;
        c->flush_seq = cc->flush_seq, c->flush_psv = cc->flush_psv;
    }
    /* Only the first n of the arrays are ever read: clearing them every
     * cycle was a measurable part of the simulation's time. */
    cc->open = cc->charged = false;
    cc->n = 0;
    cc->flush_key = 0, cc->flush_pc = cc->flush_block = cc->flush_seq = 0, cc->flush_psv = 0;
    if (squash) core_squash(c, c->head);
}

void core_commit_end(sim_core *c) { end_cycle(c, false); }

bool core_commit_stage(sim_core *c, uint64_t target)
{
    commit_cycle *cc = &c->cc;
    bool squash = false;
    if (!cc->open) probe_begin_view(c, c->now, 1);
    while (cc->n < c->cfg.commit_width && c->head < c->disp && c->head < target) {
        uop *u = core_uop(c, c->head);
        if (cc->n && u->row != cc->committed[0]->row) break; /* one ROB row a cycle */
        if (u->complete > c->now) {
            core_wake_at(c, u->complete);
            break;
        }
        if (c->wp.on && c->head == c->wp.branch) {
            /* It commits once it has resolved and its wrong path is gone. */
            uint64_t resolved = wrong_path_cutoff(c);
            if (resolved > c->now) {
                core_wake_at(c, resolved);
                break;
            }
            wrong_path_squash(c);
        }
        if (u->flags & UOP_ORDERING) {
            /* BOOM raises the ordering failure when the load reaches the
             * head: it and everything younger are fetched again. */
            if (cc->n) break; /* older instructions commit this cycle; the flush comes next cycle */
            end_cycle(c, false);
            u->flags = (uint16_t)((u->flags & ~UOP_ORDERING) | UOP_REPLAYED);
            c->flush_key = STK_FLUSHED_ORDERING;
            c->flush_pc = u->d.insn.pc;
            c->flush_block = next_block(c, u->d.insn.pc);
            c->flush_seq = u->d.icount;
            c->flush_psv = core_psv(u);
            core_squash(c, c->head);
            c->active = true;
            return false;
        }
        uint8_t k = flush_key_of(u->flags);
        if (k && !cc->flush_key) {
            cc->flush_key = k, cc->flush_pc = u->d.insn.pc, cc->flush_block = next_block(c, u->d.insn.pc);
            cc->flush_seq = u->d.icount, cc->flush_psv = core_psv(u);
        }
        squash = u->flags & (UOP_FLUSH_CSR | UOP_EXCEPTION);
        c->head++;
        cc->committed[cc->n] = u;
        cc->blocks[cc->n++] = retire(c, u);
        if (squash) break;
    }
    if (c->head == target && cc->n && cc->n < c->cfg.commit_width && !squash) {
        /* Paused at the target: the cycle counts in this run. */
        if (!cc->charged) c->ctr.cycles++, c->ctr.stack[STK_COMPUTING]++;
        cc->open = cc->charged = true;
        return true;
    }
    end_cycle(c, squash);
    return false;
}

/* Throw away everything from `from` on (all older instructions have
 * committed) and fetch it again after the flush penalty. */
void core_squash(sim_core *c, uint64_t from)
{
    probe_note_squash(c, from);
    for (uint64_t s = from; c->ninstance_probes && s < c->fetch; s++) probe_instance_end(c, core_uop(c, s), false, c->flush_key);
    for (uint64_t s = from; s < c->disp; s++) core_release_port(c, core_uop(c, s));
    wrong_path_drop(c);
    /* Everything older has committed, so whatever still holds an issue queue
     * entry, a register or a divider belongs to the squashed instructions:
     * their counts go back to zero at once. */
    for (int i = 0; i < IQ_COUNT; i++) c->iq[i].npending = c->iq[i].parked = 0;
    memset(c->reg_ready, 0, sizeof c->reg_ready);
    memset(c->div_free, 0, sizeof c->div_free);
    memset(c->fdiv_free, 0, sizeof c->fdiv_free);
    c->int_regs_used = c->fp_regs_used = c->loads_used = 0;
    while (c->stq_tail > c->stq_head && !c->stq[(c->stq_tail - 1) % (uint64_t)c->cfg.stq_entries].committed)
        c->stq_tail--;
    c->serial_inflight = false;
    c->sfb_to = 0;
    c->disp = c->fetch = from;
    c->dec.left = 0;
    c->fetch_wait = UINT64_MAX;
    c->br_head = c->br_tail = 0;
    /* The flush redirects fetch, cancelling any bubble a squashed
     * instruction's prediction left; only a miss the I-cache is busy with
     * still holds it. */
    uint64_t refetch = c->now + (uint64_t)c->cfg.flush_penalty;
    c->fetch_next = refetch > c->icache_free ? refetch : c->icache_free;
}

/* Committed stores write the L1D in order, one per cycle; an entry is freed
 * when its write completes. */
void core_drain_stores(sim_core *c)
{
    uint64_t n = (uint64_t)c->cfg.stq_entries;
    while (c->stq_head < c->stq_tail) {
        store_entry *s = &c->stq[c->stq_head % n];
        if (s->done == UINT64_MAX) break;
        if (s->done > c->now) {
            core_wake_at(c, s->done);
            break;
        }
        c->stq_head++;
        c->active = true;
    }
    for (uint64_t i = c->stq_head; i < c->stq_tail; i++) {
        store_entry *s = &c->stq[i % n];
        if (!s->committed) break;
        if (s->done != UINT64_MAX) continue;
        mem_result w = memsys_store(c->ua->mem, s->addr, c->now);
        s->done = w.ready, s->write_start = c->now, s->write_wait = w.queued;
        if (s->done <= c->now) s->done = c->now + 1;
        core_wake_at(c, s->done);
        c->active = true;
        break;
    }
}
