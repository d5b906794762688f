/* TIP, time-proportional instruction profiling (notes/tip.md §2-§3): the
 * sample cycle's commit state decides. Computing: 1/n to each of the n
 * committing instructions; Stalled: the ROB head; Flushed: the instruction
 * that caused the flush (the OIR); Drained: the first instruction to enter
 * the ROB afterwards. TIP-ILP is the same without ILP accounting: a
 * Computing sample goes to the oldest committing instruction. */
#include "sampler.h"

#include "../core/core.h"

static sample_record commit_record(const commit_view *v, uint64_t t, uint64_t w, bool ilp)
{
    sample_record r = {.cycle = t, .weight = w, .state = v->state, .n = v->ncommit};
    for (int i = 0; i < v->ncommit; i++) r.pc[i] = v->commit[i].pc, r.valid[i] = ilp || i == 0;
    return r;
}

static sample_record stalled_record(const commit_view *v, uint64_t t, uint64_t w)
{
    sample_record r = {.cycle = t, .weight = w, .state = v->state, .flags = REC_STALLED, .n = v->nhead};
    for (int i = 0; i < v->nhead; i++) r.pc[i] = v->head[i].pc, r.valid[i] = true;
    return r;
}

static sample_record flushed_record(const commit_view *v, uint64_t t, uint64_t w)
{
    uint8_t flags = REC_FLUSHED;
    if (v->flusher.flags & UOP_MISPREDICT) flags |= REC_MISPREDICT;
    if (v->flusher.flags & UOP_EXCEPTION) flags |= REC_EXCEPTION;
    return record_one(t, w, v->state, flags, v->flusher.pc);
}

static sample_record drained_record(const pending_sample *s, const void *first_dispatched)
{
    return record_one(s->cycle, s->weight, s->state, REC_FRONT_END, ((const probe_insn *)first_dispatched)->pc);
}

static void tip_view(profiler *p, const commit_view *v)
{
    if (v->ndispatch) profiler_resolve_waiting(p, drained_record, &v->dispatch_first);
}

static void sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w, bool ilp)
{
    sample_record r;
    switch (v->state) {
    case ST_COMPUTING: r = commit_record(v, t, w, ilp); break;
    case ST_STALLED: r = stalled_record(v, t, w); break;
    case ST_FLUSHED: r = flushed_record(v, t, w); break;
    default:
        /* Drained: the address registers stay open until a dispatch. */
        if (!v->ndispatch) {
            profiler_defer(p, (pending_sample){.cycle = t, .weight = w, .state = v->state});
            return;
        }
        r = record_one(t, w, v->state, REC_FRONT_END, v->dispatch_first.pc);
    }
    profiler_emit(p, &r);
}

static void tip_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w) { sample(p, v, t, w, true); }
static void tip_ilp_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w) { sample(p, v, t, w, false); }

const profiler_policy prof_tip = {"tip", "TIP (time-proportional)", 0, tip_view, tip_sample};
const profiler_policy prof_tip_ilp = {"tip-ilp", "TIP without ILP accounting", 0, tip_view, tip_ilp_sample};
