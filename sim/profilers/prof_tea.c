/* TEA, time-proportional event analysis (notes/tea.md §1): TIP's choice of
 * instruction, each sample carrying that instruction's PSV. Computing: the
 * committing instructions with their PSVs; Flushed: the flushing
 * instruction with its PSV (the last-committed-PSV register). Stalled and
 * Drained samples are returned only when the blamed instruction commits, so
 * its PSV is final: the ROB head, or the first instruction to enter the ROB
 * after a drain. */
#include "sampler.h"

#include "../core/psv.h"

static void tea_view(profiler *p, const commit_view *v)
{
    profiler_settle_tags(p, v, false);
    if (v->ndispatch) profiler_tag_waiting(p, v->dispatch_first.seq);
}

static void tea_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w)
{
    pending_sample s = {.cycle = t, .weight = w, .state = v->state};
    sample_record r = {.cycle = t, .weight = w, .state = v->state};
    switch (v->state) {
    case ST_COMPUTING:
        r.n = v->ncommit;
        for (int i = 0; i < v->ncommit; i++) r.pc[i] = v->commit[i].pc, r.psv[i] = v->commit[i].psv, r.valid[i] = true;
        profiler_emit(p, &r);
        return;
    case ST_FLUSHED:
        r = record_one(t, w, v->state, REC_FLUSHED, v->flusher.pc);
        r.psv[0] = v->flusher.psv;
        profiler_emit(p, &r);
        return;
    case ST_STALLED:
        s.tagged = true, s.seq = v->head[0].seq;
        break;
    default:
        if (v->ndispatch) s.tagged = true, s.seq = v->dispatch_first.seq;
    }
    profiler_defer(p, s);
}

const profiler_policy prof_tea = {"tea", "TEA (time-proportional, 9 events)", PSV_TEA, tea_view, tea_sample};
