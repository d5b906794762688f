/* ProfileMe's sampler and estimators (sim/profilers/profileme.c) on hand-made
 * instance streams: exact counts, the sampling rate, useful overlap within
 * the window, paired estimates, and aborted instances. */
#include <criterion/criterion.h>
#include <math.h>

#include "../../sim/core/core.h"
#include "../../sim/profilers/profileme.h"

static instance_record insn(uint64_t n, uint64_t pc, uint64_t fetched, uint64_t issued, uint64_t completed, bool retired)
{
    return (instance_record){.instance = n, .seq = n, .pc = pc, .fetched = fetched, .dispatched = fetched + 1,
                             .ready = fetched + 2, .issued = issued, .completed = completed, .ended = completed + 1,
                             .retired = retired};
}

static const pm_pc *find(const profileme_result *r, uint64_t pc)
{
    for (size_t i = 0; i < r->npcs; i++)
        if (r->pcs[i].pc == pc) return &r->pcs[i];
    cr_assert_fail("no pc %#lx", (unsigned long)pc);
    return NULL;
}

Test(profileme, exact_counts_and_the_sampling_rate)
{
    profileme *pm = profileme_new(&(profileme_config){.interval = 10, .seed = 3, .issue_width = 4});
    profileme_begin(pm);
    for (uint64_t n = 0; n < 100000; n++) {
        instance_record r = insn(n, 0x1000 + 4 * (n % 4), n, n + 3, n + 5, n % 4 != 3);
        if (n % 4 == 2) r.flags = UOP_MISPREDICT;
        profileme_instance(pm, &r);
    }
    profileme_result r;
    profileme_finish(pm, &r);
    cr_assert_eq(r.instances, 100000);
    cr_assert(fabs((double)r.samples / 10000 - 1) < 0.03, "%lu samples", (unsigned long)r.samples);
    const pm_pc *aborting = find(&r, 0x100c), *branch = find(&r, 0x1008);
    cr_assert_eq(aborting->exact[PM_ABORTED], 25000);
    cr_assert_eq(aborting->exact[PM_RETIRED], 0);
    cr_assert_eq(branch->exact[PM_MISPREDICT], 25000);
    double est = pm_estimate(&r, branch->sampled[PM_MISPREDICT]);
    cr_assert(fabs(est / 25000 - 1) < 4 / sqrt((double)branch->sampled[PM_MISPREDICT]), "%f", est);
    /* Latencies of retired instances: fetch->map 1, map->ready 1, ready->issue 1, issue->rr 2, rr->retire 1. */
    const pm_pc *p = find(&r, 0x1000);
    cr_assert_eq(p->exact_latency[PM_FETCH_MAP], 25000);
    cr_assert_eq(p->exact_latency[PM_ISSUE_RETIRE_READY], 50000);
    cr_assert_eq(p->exact_latency[PM_RETIRE_READY_RETIRE], 25000);
    cr_assert_eq(p->exact_latency[PM_LOAD_ISSUE_DONE], 0, "not a load");
    profileme_result_free(&r);
}

Test(profileme, useful_overlap_within_the_window)
{
    /* I (0) is in progress over cycles [0, 10); J (1) issues at 5 and
     * retires: useful. K (2) issues at 5 but aborts: not useful. L (3)
     * issues at 12, after I is ready: not useful. M (4) is beyond W = 3. */
    profileme *pm = profileme_new(&(profileme_config){.interval = 1000000, .window = 3, .seed = 1, .issue_width = 4});
    profileme_begin(pm);
    instance_record s[] = {insn(0, 0x100, 0, 2, 10, true), insn(1, 0x104, 1, 5, 6, true), insn(2, 0x108, 1, 5, 6, false),
                           insn(3, 0x10c, 2, 12, 13, true), insn(4, 0x110, 2, 4, 5, true)};
    for (int i = 0; i < 5; i++) profileme_instance(pm, &s[i]);
    profileme_result r;
    profileme_finish(pm, &r);
    const pm_pc *i = find(&r, 0x100);
    cr_assert_eq(i->exact_useful, 1);
    cr_assert_eq(i->exact_progress, 10);
    cr_assert_float_eq(pm_wasted_exact(&r, i), 4 * 10 - 1, 1e-9);
    profileme_result_free(&r);
}

Test(profileme, paired_estimates_approach_the_exact_overlaps)
{
    /* A steady stream: every instance in progress for 8 cycles, one fetched
     * and one issued per cycle, all retiring: each overlaps usefully with
     * the ones issued during its 8 cycles. */
    profileme *pm = profileme_new(&(profileme_config){.interval = 40, .window = 10, .seed = 9, .issue_width = 4});
    profileme_begin(pm);
    for (uint64_t n = 0; n < 400000; n++) {
        instance_record r = insn(n, 0x2000 + 4 * (n % 2), n, n + 3, n + 8, true);
        profileme_instance(pm, &r);
    }
    profileme_result r;
    profileme_finish(pm, &r);
    cr_assert_gt(r.pairs, 9000);
    for (int k = 0; k < 2; k++) {
        const pm_pc *p = find(&r, 0x2000 + 4 * (uint64_t)k);
        double est = pm_wasted_estimate(&r, p), exact = pm_wasted_exact(&r, p);
        cr_assert(fabs(est / exact - 1) < 0.05, "pc %d: estimate %f, exact %f", k, est, exact);
        cr_assert(fabs(pm_estimate(&r, p->sampled[PM_RETIRED]) / 200000 - 1) < 0.05);
    }
    profileme_result_free(&r);
}
