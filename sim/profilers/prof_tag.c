/* Profilers that tag an instruction when the sample is taken and report it
 * when it commits (notes/tip.md §3):
 * - dispatch (AMD IBS op sampling, Arm SPE, ProfileMe): the youngest
 *   instruction dispatched in the first cycle at or after the sample that
 *   dispatches anything (the ROB tail, as TraceDoctor models it);
 * - fetch (IBM RIS): the first instruction fetched in the first cycle at or
 *   after the sample that fetches;
 * - software (a timer interrupt, perf's default): the interrupt lets
 *   everything in flight drain and resumes at the next instruction to fetch,
 *   which the sample blames when it commits (the skid).
 * A tagged instance that is squashed drops its sample (its cycles carry
 * over); the software resume point is an instruction, not an instance. */
#include "sampler.h"

#include "../core/psv.h"

static void tag(profiler *p, uint64_t t, uint64_t w, uint8_t state, bool tagged, uint64_t seq)
{
    profiler_defer(p, (pending_sample){.cycle = t, .weight = w, .state = state, .tagged = tagged, .seq = seq});
}

static void dispatch_view(profiler *p, const commit_view *v)
{
    profiler_settle_tags(p, v, true);
    if (v->ndispatch) profiler_tag_waiting(p, v->dispatch_last.seq);
}

static void dispatch_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w)
{
    tag(p, t, w, v->state, v->ndispatch, v->dispatch_last.seq);
}

static void fetch_view(profiler *p, const commit_view *v)
{
    profiler_settle_tags(p, v, true);
    if (v->nfetch) profiler_tag_waiting(p, v->fetch_first.seq);
}

static void fetch_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w)
{
    tag(p, t, w, v->state, v->nfetch, v->fetch_first.seq);
}

static void software_view(profiler *p, const commit_view *v) { profiler_settle_tags(p, v, false); }

static void software_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w)
{
    tag(p, t, w, v->state, true, v->fetch_next);
}

const profiler_policy prof_dispatch = {"dispatch", "dispatch tagging (AMD IBS, Arm SPE, ProfileMe)", 0, dispatch_view,
                                       dispatch_sample};
const profiler_policy prof_fetch = {"fetch", "fetch tagging (IBM RIS)", 0, fetch_view, fetch_sample};
const profiler_policy prof_software = {"software", "software timer interrupt with skid (perf default)", 0,
                                       software_view, software_sample};

/* The event-based schemes that tag at dispatch or fetch (notes/tea.md §2):
 * the tagged instruction's PSV, masked to the events the hardware records. */
const profiler_policy prof_ibs = {"ibs", "AMD IBS: dispatch tagging, 6 events", PSV_IBS, dispatch_view, dispatch_sample};
const profiler_policy prof_spe = {"spe", "Arm SPE: dispatch tagging, 5 events", PSV_SPE, dispatch_view, dispatch_sample};
const profiler_policy prof_ris = {"ris", "IBM RIS: fetch tagging, 7 events", PSV_RIS, fetch_view, fetch_sample};
const profiler_policy prof_tea_dispatch = {"tea-dispatch", "TEA's events with dispatch tagging", PSV_TEA,
                                           dispatch_view, dispatch_sample};
