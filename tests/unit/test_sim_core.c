/* The detailed core over a real program: every cycle is attributed exactly
 * once, every committed instruction gets at least 1/W cycle, the cycle stack
 * adds up, and stopping at interval boundaries only partitions the run. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../../sim/core/core.h"
#include "loader.h"

#define PROGRAM "build/rv/workloads/sort"

static void start_program(rv_proc *p, uarch *ua, sim_core **c, unsigned width, char *program)
{
    char *argv[] = {program, "1", NULL};
    rv_proc_options o = {.exe = program, .argc = 2, .argv = argv};
    rv_elf_info info;
    char err[256];
    cr_assert_eq(rv_proc_init(p, &o, &info, err, sizeof err), 0, "%s", err);
    p->os.files[1].host_fd = p->os.files[2].host_fd = open("/dev/null", O_WRONLY);
    uarch_config cfg;
    uarch_config_defaults(&cfg);
    cfg.commit_width = (int)width;
    uarch_init(ua, &cfg);
    *c = core_new(&cfg, ua, p);
}

static void start(rv_proc *p, uarch *ua, sim_core **c, unsigned width)
{
    start_program(p, ua, c, width, PROGRAM);
}

static void stop(rv_proc *p, uarch *ua, sim_core *c)
{
    close(p->os.files[1].host_fd);
    core_free(c);
    uarch_destroy(ua);
    rv_proc_destroy(p);
}

static void check_attribution(sim_core *c)
{
    uint64_t units = 0, commits = 0;
    uint32_t floor = c->units / (uint32_t)c->cfg.commit_width;
    for (size_t i = 0; i < c->by_pc.cap; i++) {
        const cost *k = &c->by_pc.slots[i];
        if (!k->key) continue;
        units += cost_total(k);
        commits += k->commits;
        if (k->commits) cr_assert_geq(cost_total(k), k->commits * floor, "pc %#llx gets less than 1/W per commit",
                                      (unsigned long long)k->key);
    }
    cr_assert_eq(units, c->ctr.cycles * c->units, "attributed %llu units, %llu cycles x %u",
                 (unsigned long long)units, (unsigned long long)c->ctr.cycles, c->units);
    cr_assert_eq(commits, c->ctr.instructions);
    uint64_t block_units = 0, block_commits = 0;
    for (size_t i = 0; i < c->by_block.cap; i++)
        if (c->by_block.slots[i].key)
            block_units += cost_total(&c->by_block.slots[i]), block_commits += c->by_block.slots[i].commits;
    cr_assert_eq(block_units, units);
    cr_assert_eq(block_commits, commits);
    cr_assert_eq(counters_stack_sum(&c->ctr), c->ctr.cycles);
}

Test(sim_core, every_cycle_attributed_exactly_4_wide, .timeout = 120)
{
    rv_proc p;
    uarch ua;
    sim_core *c;
    start(&p, &ua, &c, 4);
    core_set_fetch_limit(c, 3000000);
    core_run(c, UINT64_MAX);
    cr_assert_eq(core_committed(c), 3000000);
    cr_assert(c->ctr.cycles > 3000000 / 4);
    check_attribution(c);
    stop(&p, &ua, c);
}

Test(sim_core, every_cycle_attributed_exactly_3_wide_to_the_end, .timeout = 120)
{
    rv_proc p;
    uarch ua;
    sim_core *c;
    start_program(&p, &ua, &c, 3, "build/rv/progs/qsort_bsearch");
    core_run(c, UINT64_MAX);
    cr_assert(core_done(c));
    cr_assert_eq(p.stop, RV_STOP_EXIT);
    cr_assert_eq(core_committed(c), p.cpu.icount, "the exit ecall commits too");
    check_attribution(c);
    stop(&p, &ua, c);
}

Test(sim_core, intervals_partition_the_run_without_changing_it, .timeout = 120)
{
    rv_proc p, p1;
    uarch ua, ua1;
    sim_core *c, *whole;
    start(&p, &ua, &c, 4);
    start(&p1, &ua1, &whole, 4);
    core_set_fetch_limit(c, 2000000);
    core_set_fetch_limit(whole, 2000000);
    counters sum = {0}, last = c->ctr;
    for (uint64_t t = 250007; t < 2250000; t += 250007) {
        uint64_t target = t < 2000000 ? t : 2000000;
        cr_assert_eq(core_run(c, target), target, "stops exactly at the boundary");
        counters d;
        counters_sub(&d, &c->ctr, &last);
        cr_assert_eq(d.instructions, target - last.instructions);
        cr_assert_eq(counters_stack_sum(&d), d.cycles);
        counters_add(&sum, &d);
        last = c->ctr;
    }
    core_close_cycle(c);
    cr_assert_eq(memcmp(&sum, &c->ctr, sizeof sum), 0);
    check_attribution(c);
    /* Stopping at the boundaries changed nothing: one uninterrupted run
     * gives the same counters and the same per-pc attribution. */
    core_run(whole, 2000000);
    core_close_cycle(whole);
    cr_assert_eq(memcmp(&whole->ctr, &c->ctr, sizeof sum), 0, "%llu vs %llu cycles",
                 (unsigned long long)whole->ctr.cycles, (unsigned long long)c->ctr.cycles);
    size_t n1, n2;
    cost *a = cost_sorted(&c->by_pc, &n1), *b = cost_sorted(&whole->by_pc, &n2);
    cr_assert_eq(n1, n2);
    cr_assert_eq(memcmp(a, b, n1 * sizeof *a), 0, "per-pc attribution differs");
    free(a);
    free(b);
    stop(&p, &ua, c);
    stop(&p1, &ua1, whole);
}
