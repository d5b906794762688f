/* The instance probe's wrong path past the core's dispatch (sim/core/
 * wrong_path.c), over tests/progs/icost_serial: a load whose address does
 * not come from memory, in a loop whose branch on the loaded value
 * mispredicts half the time. The probe tells, after each squashed wrong
 * path, what the core did not dispatch of it and what it did not fetch,
 * executed on the wrong path's registers: the predicted path is the next
 * iterations, so their loads' addresses are those the correct path then
 * loads. It tells them only to the consumer that reads ahead, after the
 * rest of the wrong path, and the core simulates the same cycles with it
 * as without. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../sim/core/core.h"
#include "quiet_guest.h"

#define PROGRAM "build/rv/progs/icost_serial"

enum { ADDRS = 1 << 20 };

typedef struct seen {
    uint64_t retired_loads[ADDRS]; /* the retired loads' addresses (open addressing; 0: empty) */
    uint64_t ahead_loads, ahead_found, fetched, unfetched, other; /* other: ahead records told to the plain consumer */
    uint64_t *ahead_addrs;
    size_t nahead;
    bool unfetched_before_fetched; /* an unfetched record before a fetched one of the same wrong path */
    bool in_unfetched;
} seen;

/* Where addr is in the set, or the empty slot it would take. */
static size_t slot(const uint64_t *set, uint64_t addr)
{
    size_t i = (size_t)(addr * 0x9e3779b97f4a7c15ull >> 44) & (ADDRS - 1);
    while (set[i] && set[i] != addr) i = (i + 1) & (ADDRS - 1);
    return i;
}

static void reader(void *ctx, const instance_record *r)
{
    seen *s = ctx;
    if (r->retired) {
        if (r->load && r->mem_addr) s->retired_loads[slot(s->retired_loads, r->mem_addr)] = r->mem_addr;
        s->in_unfetched = false;
        return;
    }
    if (r->ahead == AHEAD_FETCHED) s->fetched++, s->unfetched_before_fetched |= s->in_unfetched;
    if (r->ahead == AHEAD_UNFETCHED) s->unfetched++, s->in_unfetched = true;
    if (r->ahead && r->ahead_access == RV_MEM_LOAD && s->nahead < 100000) s->ahead_addrs[s->nahead++] = r->ahead_addr;
}

static void plain(void *ctx, const instance_record *r)
{
    seen *s = ctx;
    if (r->ahead == AHEAD_UNFETCHED) s->other++;
}

/* Simulate icost_serial over `loads` iterations; with the readers if s. */
static uint64_t simulate(seen *s, seen *p)
{
    rv_proc proc;
    uarch ua;
    start_quiet_guest(&proc, PROGRAM, "3000", RV_EXEC_TRANSLATE);
    uarch_config cfg;
    uarch_config_defaults(&cfg);
    uarch_init(&ua, &cfg);
    sim_core *c = core_new(&cfg, &ua, &proc);
    if (s) {
        core_add_instance_probe(c, plain, p, false);
        core_add_instance_probe(c, reader, s, true);
    }
    core_run(c, UINT64_MAX);
    cr_assert(core_done(c));
    uint64_t cycles = c->ctr.cycles;
    core_free(c);
    uarch_destroy(&ua);
    rv_proc_destroy(&proc);
    return cycles;
}

Test(wrong_path_ahead, tells_the_next_iterations_loads_to_its_reader_alone)
{
    static seen s, p;
    s.ahead_addrs = calloc(100000, sizeof *s.ahead_addrs);
    cr_assert(s.ahead_addrs);
    uint64_t with = simulate(&s, &p), without = simulate(NULL, NULL);
    cr_assert_eq(with, without, "%lu cycles with the probe's reader, %lu without", (unsigned long)with,
                 (unsigned long)without);
    cr_assert(s.fetched > 1000 && s.unfetched > 1000, "%lu fetched, %lu unfetched", (unsigned long)s.fetched,
              (unsigned long)s.unfetched);
    cr_assert_eq(p.other, 0, "the plain consumer was told %lu unfetched records", (unsigned long)p.other);
    cr_assert(!s.unfetched_before_fetched);
    /* The addresses the wrong path computed are those the correct path loads. */
    uint64_t found = 0;
    for (size_t i = 0; i < s.nahead; i++) found += s.retired_loads[slot(s.retired_loads, s.ahead_addrs[i])] != 0;
    cr_assert(s.nahead > 1000 && found > s.nahead * 9 / 10, "%lu of %lu wrong-path loads' addresses loaded later",
              (unsigned long)found, (unsigned long)s.nahead);
    free(s.ahead_addrs);
}
