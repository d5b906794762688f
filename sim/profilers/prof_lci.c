/* LCI, last-committed instruction (Arm CoreSight PC sampling read by an
 * external monitor, notes/tip.md §3). Convention (the paper's Fig. A.4
 * text): in a cycle that commits, the register shows the oldest instruction
 * committing; otherwise it still holds the youngest instruction of the most
 * recent commit cycle. So in Fig. A.4b I1 gets cycles 1-41 and the load
 * cycle 42; in Fig. A.4d the empty cycles go to I2. */
#include "sampler.h"

static void lci_sample(profiler *p, const commit_view *v, uint64_t t, uint64_t w)
{
    const probe_insn *at = v->ncommit ? &v->commit[0] : v->has_last_committed ? &v->last_committed : NULL;
    if (!at) {
        profiler_drop(p, w); /* nothing has committed yet */
        return;
    }
    sample_record r = record_one(t, w, v->state, 0, at->pc);
    profiler_emit(p, &r);
}

const profiler_policy prof_lci = {"lci", "last-committed instruction (Arm CoreSight)", 0, NULL, lci_sample};
