/* The instance probe's scheduled access of a load (sim/core/probe.c), over
 * tests/asm/wrong_path_forward: on the wrong path a load forwards from a
 * store whose data never issues (it comes from a load that cannot
 * execute there), so the load issues but never gets its data. Such a load
 * has no scheduled access: the dependence graph took its data's arrival
 * (CYCLE_NEVER) for a fill's, and on sort at 10M its critical path ran to
 * 2^62 cycles (5548406; here the records alone show the fault, the
 * graph's baseline is checked beside them). */
#include <criterion/criterion.h>

#include "../../sim/core/core.h"
#include "../../sim/whatif/depgraph.h"
#include "quiet_guest.h"

#define PROGRAM "build/rv/asm/wrong_path_forward"

typedef struct seen {
    uint64_t never_served;     /* wrong-path loads forwarded, issued, without data by their end */
    uint64_t scheduled_anyway; /* ... of which the record shows a scheduled access */
    uint64_t latest_data;      /* the latest scheduled data of any load */
} seen;

static void reader(void *ctx, const instance_record *r)
{
    seen *s = ctx;
    if (!r->load) return;
    if (r->load_data > s->latest_data) s->latest_data = r->load_data;
    if (r->retired || !(r->flags & UOP_FORWARDED) || !r->issued || r->completed) return;
    s->never_served++;
    s->scheduled_anyway += r->load_issue || r->load_data;
}

/* Simulate the program with the reader and a dependence graph (its
 * baseline alone); the simulated cycles. */
static uint64_t simulate(seen *s, depgraph_result *g)
{
    rv_proc proc;
    uarch ua;
    start_quiet_guest(&proc, PROGRAM, NULL, RV_EXEC_TRANSLATE);
    uarch_config cfg;
    uarch_config_defaults(&cfg);
    uarch_init(&ua, &cfg);
    sim_core *c = core_new(&cfg, &ua, &proc);
    depgraph_config gc = {.nsets = 1};
    depgraph *dg = depgraph_new(&gc, &cfg);
    depgraph_begin(dg);
    core_add_instance_probe(c, reader, s, false);
    core_add_instance_probe(c, depgraph_instance, dg, true);
    core_run(c, UINT64_MAX);
    cr_assert(core_done(c));
    uint64_t cycles = c->ctr.cycles;
    depgraph_finish(dg, g);
    core_free(c);
    uarch_destroy(&ua);
    rv_proc_destroy(&proc);
    return cycles;
}

Test(wrong_path_forward, a_load_that_never_gets_its_data_has_no_scheduled_access)
{
    seen s = {0};
    depgraph_result g;
    uint64_t cycles = simulate(&s, &g);
    cr_assert(s.never_served > 50, "%lu wrong-path loads forwarded from a store without data", (unsigned long)s.never_served);
    cr_assert_eq(s.scheduled_anyway, 0, "%lu of %lu show a scheduled access", (unsigned long)s.scheduled_anyway,
                 (unsigned long)s.never_served);
    cr_assert(s.latest_data < cycles, "a load's data scheduled at %lu, after the run's %lu cycles",
              (unsigned long)s.latest_data, (unsigned long)cycles);
    /* The graph's critical path is the run's, within 2%. */
    cr_assert(g.cycles[0] > cycles * 98 / 100 && g.cycles[0] < cycles * 102 / 100, "graph %lu cycles, core %lu",
              (unsigned long)g.cycles[0], (unsigned long)cycles);
}
