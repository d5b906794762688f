/* Building and publishing the per-cycle commit view (sim/probe.h). The
 * stages note what they do as they do it; the view is handed to every
 * consumer once the cycle (or run of idle cycles) is over. */
#include "core.h"

#include <string.h>

static probe_insn insn_of(const uop *u)
{
    return (probe_insn){.seq = u->d.icount, .pc = u->d.insn.pc, .flags = u->flags};
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

void probe_note_commits(sim_core *c, uint8_t stack_key)
{
    if (!c->nprobes) return;
    commit_view *v = &c->view;
    v->stack_key = stack_key;
    v->state = stack_key_state[stack_key];
    v->ncommit = (uint8_t)c->cc.n;
    for (int i = 0; i < c->cc.n; i++) v->commit[i] = insn_of(c->cc.committed[i]);
    /* The head as commit left it (a flush later in the cycle empties the ROB). */
    v->nhead = 0;
    if (v->state == ST_STALLED) {
        uint64_t in_rob = c->disp - c->head;
        v->nhead = (uint8_t)(in_rob < (uint64_t)c->cfg.commit_width ? in_rob : (uint64_t)c->cfg.commit_width);
        for (int i = 0; i < v->nhead; i++) v->head[i] = insn_of(core_uop(c, c->head + (uint64_t)i));
    }
    v->has_flusher = v->state == ST_FLUSHED;
    if (v->has_flusher)
        v->flusher = (probe_insn){.seq = c->flush_seq, .pc = c->flush_pc, .flags = flusher_flags(c->flush_key)};
}

void probe_note_dispatch(sim_core *c, const uop *u)
{
    if (!c->nprobes) return;
    commit_view *v = &c->view;
    if (!v->ndispatch) v->dispatch_first = insn_of(u);
    v->dispatch_last = insn_of(u);
    v->ndispatch++;
}

void probe_note_fetch(sim_core *c, const uop *u)
{
    if (!c->nprobes) return;
    commit_view *v = &c->view;
    if (!v->nfetch) v->fetch_first = insn_of(u);
    v->nfetch++;
}

void probe_note_squash(sim_core *c, uint64_t from)
{
    if (c->nprobes && from < c->view.squash_from) c->view.squash_from = from;
}

void probe_publish(sim_core *c, uint64_t cycle, uint64_t run)
{
    if (!c->nprobes) return;
    commit_view *v = &c->view;
    v->cycle = cycle, v->run = run;
    v->fetch_next = c->fetch;
    for (int i = 0; i < c->nprobes; i++) c->probes[i].fn(c->probes[i].ctx, v);
    /* The next view starts empty; an idle run repeats the state it notes. */
    if (v->ncommit) v->last_committed = v->commit[v->ncommit - 1], v->has_last_committed = true;
    v->ncommit = v->ndispatch = v->nfetch = 0;
    v->squash_from = UINT64_MAX;
}
