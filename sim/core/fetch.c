/* The front end: fetch packets through the I-TLB and I-cache, branch
 * prediction, the fetch buffer, the FTQ and the outstanding-branch limit.
 * Instructions come from the functional model the first time and from the
 * window when a flush makes them be fetched again. */
#include "core.h"

#include "sfb.h"
#include "uarch/bpred.h"

/* Make sure instruction seq has been executed by the functional model;
 * false when the program ended (or the fetch limit was reached) before it.
 * The model runs ahead in small batches into free window slots. */
static bool ensure_executed(sim_core *c, uint64_t seq)
{
    if (seq < c->avail) return true;
    if (c->program_ended || c->avail >= c->fetch_limit) {
        c->program_ended = true;
        return false;
    }
    uint64_t room = c->head + c->win_mask + 1 - c->avail;           /* free slots */
    uint64_t to_wrap = c->win_mask + 1 - (c->avail & c->win_mask);  /* contiguous ones */
    uint64_t n = 16;
    if (n > room) n = room;
    if (n > to_wrap) n = to_wrap;
    if (n > c->fetch_limit - c->avail) n = c->fetch_limit - c->avail;
    rv_dyninst batch[16];
    rv_proc *p = c->proc;
    size_t done = rv_step_to_branch(p, batch, n); /* the wrong path starts after a branch */
    /* exit(): the ecall retired before the process stopped. */
    if (done < n && p->stop == RV_STOP_EXIT && p->cpu.icount == batch[done].icount + 1) {
        batch[done].next_pc = batch[done].insn.pc + batch[done].insn.len;
        done++;
    }
    if (p->stop != RV_RUNNING) c->program_ended = true;
    for (size_t i = 0; i < done; i++) {
        uop *u = core_uop(c, c->avail + i);
        core_uop_clear(u);
        u->d = batch[i];
        u->ops = decode_cache_operands(c->decoded, &u->d.insn);
    }
    c->avail += done;
    return seq < c->avail;
}

/* Branches leave the outstanding set when they have executed. */
static int unresolved_branches(sim_core *c)
{
    uint64_t cap = (uint64_t)c->cfg.max_branches;
    while (c->br_head < c->br_tail) {
        uint64_t seq = c->branches[c->br_head % cap];
        if (seq >= c->head) {
            if (seq >= c->disp) break;
            const uop *b = core_uop(c, seq);
            if (b->complete > c->now) {
                core_wake_at(c, b->complete);
                break;
            }
        }
        c->br_head++;
    }
    return (int)(c->br_tail - c->br_head);
}

/* A wrong-path control transfer goes where it is predicted to go: nothing
 * can tell the front end otherwise before the older branch resolves. */
static void follow_prediction(sim_core *c, uop *u, const bp_prediction *p)
{
    u->d.next_pc = p->next_pc;
    u->d.taken = p->next_pc != u->d.insn.pc + u->d.insn.len;
    bp_event e;
    bpred_event(&u->d.insn, u->d.taken, u->d.next_pc, &e);
    bpred_speculate(c->ua->bp, &e);
    bp_outcome o = bpred_judge(p, &e);
    if (o.btb_miss) u->flags |= UOP_BTB_MISS;
    u->fe_bubbles = o.bubbles;
    c->wp.fetch_pc = p->next_pc;
}

/* Predict u at its first fetch (a refetch keeps the prediction, and the
 * predictor's speculative state is not run twice); it trains the predictor
 * when it commits (sim/core/commit.c). */
static void predict(sim_core *c, uop *u)
{
    bp_event e;
    u->flags |= UOP_PREDICTED;
    if (!bpred_event(&u->d.insn, u->d.taken, u->d.next_pc, &e)) return;
    bp_prediction *p = &c->predictions[u->d.icount & c->win_mask];
    bpred_predict(c->ua->bp, &u->d.insn, p);
    if (u->wrong_path) {
        follow_prediction(c, u, p);
        return;
    }
    sfb_shadow shadow;
    if (c->cfg.sfb && e.kind == BP_COND && p->next_pc == u->d.insn.pc + u->d.insn.len &&
        sfb_recodable(&c->proc->mem, &u->d.insn, uarch_fetch_packet_bytes(&c->cfg), (unsigned)c->cfg.line_bytes,
                      &shadow) && shadow.count) {
        /* Predicted not taken, so fetch goes on through the shadow either
         * way. The recoded branch is no longer a control transfer: it never
         * reports its outcome, so the FTQ keeps the prediction: the history
         * and the predictor learn "not taken" (core_bp_event). */
        u->sfb_count = shadow.count;
        u->sfb_rds = shadow.rds;
        core_bp_event(u, &e);
    }
    bpred_speculate(c->ua->bp, &e);
    bp_outcome o = bpred_judge(p, &e);
    if (c->cfg.ideal_bpred) o = (bp_outcome){0}; /* the limit study: trained, never wrong */
    if (o.mispredict) u->flags |= UOP_MISPREDICT;
    if (o.btb_miss) u->flags |= UOP_BTB_MISS;
    u->fe_bubbles = o.bubbles;
}

/* The mispredicted branch u has resolved, its wrong path is gone: the
 * predictor learns what BOOM teaches it at once (bpred_resolved_mispredict). */
static void resolved_mispredict(sim_core *c, const uop *u)
{
    bp_event e;
    if (core_bp_event(u, &e)) bpred_resolved_mispredict(c->ua->bp, &e, &c->predictions[u->d.icount & c->win_mask]);
}

void core_resolve_stage(sim_core *c)
{
    if (c->fetch_wait == UINT64_MAX || c->fetch_wait >= c->disp) return; /* it resolves once it is scheduled */
    /* The redirect reaches the fetch stage redirect_penalty cycles later. */
    uint64_t resolved = core_resolves_at(c, core_uop(c, c->fetch_wait));
    if (resolved > c->now) {
        core_wake_at(c, resolved);
        return;
    }
    if (c->wp.on) wrong_path_squash(c);
    resolved_mispredict(c, core_uop(c, c->fetch_wait));
    /* The redirect cancels the wrong path's bubbles; only a miss the
     * I-cache is busy with still holds it. */
    uint64_t refetch = resolved + (uint64_t)c->cfg.redirect_penalty;
    c->fetch_next = refetch > c->icache_free ? refetch : c->icache_free;
    c->fetch_wait = UINT64_MAX;
}

/* The next instruction to fetch is in the window: on the wrong path, or
 * executed by the functional model. */
static bool next_insn(sim_core *c) { return c->wp.on ? wrong_path_next(c) : ensure_executed(c, c->fetch); }

/* Where the fetch packet starting at pc ends. SonicBOOM's I-cache reads a
 * packet as banks (uarch_fetch_bank_bytes), starting with the bank pc is
 * in, so a packet runs a whole packet's bytes from the start of that bank,
 * except that it never crosses a cache line (frontend.scala: nextFetch,
 * fetchMask). */
static uint64_t fetch_packet_end(const uarch_config *k, uint64_t pc)
{
    uint64_t bank_bytes = uarch_fetch_bank_bytes(k);
    uint64_t end = (pc & ~(bank_bytes - 1)) + uarch_fetch_packet_bytes(k);
    uint64_t line_end = (pc | ((uint64_t)k->line_bytes - 1)) + 1;
    return end < line_end ? end : line_end;
}

/* May the front end fetch a packet this cycle? *branches: the outstanding
 * branches (nothing the fetch stage does before its loop changes them). */
static bool fetch_ready(sim_core *c, int *branches)
{
    if (c->fetch_wait != UINT64_MAX && !c->wp.on) return false; /* until the branch resolves */
    if (c->fetch_next > c->now) {
        core_wake_at(c, c->fetch_next);
        return false;
    }
    if (c->fetch - c->disp >= (uint64_t)c->fetch_buffer_cap) return false;
    if (c->head < c->fetch && c->packet - core_uop(c, c->head)->packet >= (uint32_t)c->cfg.ftq_entries) return false;
    if ((*branches = unresolved_branches(c)) >= c->cfg.max_branches) return false;
    return next_insn(c);
}

void core_fetch_stage(sim_core *c)
{
    int branches;
    if (!fetch_ready(c, &branches)) return;
    const uarch_config *k = &c->cfg;
    uint64_t pc = core_uop(c, c->fetch)->d.insn.pc;
    uint64_t packet_end = fetch_packet_end(k, pc);

    tlb_result t = tlbs_translate(c->ua->tlb, true, pc, c->now);
    mem_result m = memsys_ifetch(c->ua->mem, pc, t.ready);
    uint64_t hit_time = t.ready + (uint64_t)k->l1i_latency;
    uint64_t arrive = m.ready > hit_time ? m.ready : hit_time;
    bool cache_miss = m.ready > hit_time;
    uint8_t fe_key = STK_DRAINED_BUBBLE;
    if (t.l1_miss && (t.ready - c->now) >= (m.ready - t.ready)) fe_key = STK_DRAINED_ITLB;
    else if (cache_miss) fe_key = STK_DRAINED_ICACHE;
    else if (t.l1_miss) fe_key = STK_DRAINED_ITLB;
    uint64_t ready = arrive + (uint64_t)k->icache_to_decode + (uint64_t)k->decode_stages; /* at dispatch */
    c->packet++;
    c->active = true;

    for (int i = 0; i < k->fetch_width; i++) {
        if (i && !next_insn(c)) break;
        uop *u = core_uop(c, c->fetch);
        const rv_insn *in = &u->d.insn;
        if (i && (in->pc < pc || in->pc >= packet_end)) break;
        u->fetch_ready = ready;
        u->fetched = c->now;
        u->dispatched = 0;
        u->instance = c->instances++;
        u->history = c->history;
        if (rv_ops[in->op].cls == CLS_BRANCH) c->history = c->history << 1 | u->d.taken;
        u->fe_key = fe_key;
        u->packet = c->packet;
        u->flags &= (uint16_t)(UOP_PREDICTED | UOP_MISPREDICT | UOP_BTB_MISS | UOP_REPLAYED);
        if (i == 0) {
            if (cache_miss) u->flags |= UOP_L1I_MISS;
            if (t.l1_miss) u->flags |= UOP_ITLB_MISS;
            if (t.l2_miss) u->flags |= UOP_ITLB_WALK;
        }
        probe_note_fetch(c, u);
        c->fetch++;
        bool ctrl = rv_ops[in->op].flags & RVF_CTRL;
        if (ctrl && !(u->flags & UOP_PREDICTED)) predict(c, u);
        if (ctrl && core_takes_branch_tag(rv_ops[in->op].cls, u->sfb_count)) {
            c->branches[c->br_tail++ % (uint64_t)k->max_branches] = u->d.icount;
            branches++;
        }
        if (u->flags & UOP_MISPREDICT) {
            c->fetch_wait = u->d.icount;
            wrong_path_start(c, u);
            break;
        }
        if (u->fe_bubbles) {
            /* A later fetch stage redirected: the packets fetched since are lost. */
            uint64_t resume = c->now + 1 + u->fe_bubbles;
            if (resume > c->fetch_next) c->fetch_next = resume;
            break;
        }
        if (u->d.taken && !u->sfb_count) break;
        /* A recoded branch's shadow is fetched whether it runs or not. */
        if (u->d.taken) i += u->sfb_count;
        if (in->pc + in->len > packet_end) break;
        if (c->fetch - c->disp >= (uint64_t)c->fetch_buffer_cap) break;
        if (branches >= k->max_branches) break;
    }
    /* The I-cache blocks on a miss: the next packet waits for this one,
     * whatever redirects fetch meanwhile. */
    if (cache_miss || t.l1_miss) c->icache_free = arrive;
    uint64_t next = c->icache_free > c->now + 1 ? c->icache_free : c->now + 1;
    if (next > c->fetch_next) c->fetch_next = next;
}
