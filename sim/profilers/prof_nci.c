/* NCI, next-committing instruction (Intel PEBS, notes/tip.md §3): a sample
 * goes to the oldest instruction of the first cycle at or after it in which
 * anything commits. NCI-ILP splits it among all the instructions that commit
 * in that cycle. */
#include "sampler.h"

#include "../core/psv.h"

static sample_record commit_record(uint64_t t, uint64_t w, uint8_t state, const commit_view *v, bool ilp)
{
    sample_record r = {.cycle = t, .weight = w, .state = state, .n = v->ncommit};
    for (int i = 0; i < v->ncommit; i++) r.pc[i] = v->commit[i].pc, r.psv[i] = v->commit[i].psv, r.valid[i] = ilp || i == 0;
    return r;
}

static sample_record oldest_record(const pending_sample *s, const void *v)
{
    return commit_record(s->cycle, s->weight, s->state, v, false);
}

static sample_record all_record(const pending_sample *s, const void *v)
{
    return commit_record(s->cycle, s->weight, s->state, v, true);
}

static void nci_view(profiler *p, const commit_view *v)
{
    if (v->ncommit) profiler_resolve_waiting(p, oldest_record, v);
}

static void nci_ilp_view(profiler *p, const commit_view *v)
{
    if (v->ncommit) profiler_resolve_waiting(p, all_record, v);
}

static void sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w, bool ilp)
{
    if (!v->ncommit) {
        profiler_defer(p, (pending_sample){.cycle = t, .weight = w, .state = v->state});
        return;
    }
    sample_record r = commit_record(t, w, v->state, v, ilp);
    profiler_emit(p, &r);
}

static void nci_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w) { sample(p, v, t, w, false); }
static void nci_ilp_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w) { sample(p, v, t, w, true); }

const profiler_policy prof_nci = {"nci", "next-committing instruction (Intel PEBS)", 0, nci_view, nci_sample};
const profiler_policy prof_nci_ilp = {"nci-ilp", "NCI split among the co-committing instructions", 0, nci_ilp_view,
                                      nci_ilp_sample};
/* NCI-TEA (notes/tea.md §2): TEA's events under the NCI policy. */
const profiler_policy prof_nci_tea = {"nci-tea", "TEA's events, next-committing instruction", PSV_TEA, nci_view,
                                      nci_sample};
