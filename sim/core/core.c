/* The core's construction and its clock: one iteration per cycle, skipping
 * runs of cycles in which no stage can act. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static uint64_t pow2_at_least(uint64_t n)
{
    uint64_t p = 1;
    while (p < n) p *= 2;
    return p;
}

static void *zalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) die("out of memory for the detailed core");
    return p;
}

sim_core *core_new(const uarch_config *cfg, uarch *ua, rv_proc *p)
{
    sim_core *c = zalloc(1, sizeof *c);
    c->cfg = *cfg;
    c->ua = ua;
    c->proc = p;
    c->units = units_per_cycle((unsigned)cfg->commit_width);
    /* Instructions on their way from the I-cache count against the fetch
     * buffer too: it holds what the fetch pipeline has in flight. */
    c->fetch_buffer_cap = cfg->fetch_buffer + cfg->fetch_width * cfg->icache_to_decode + cfg->decode_width * cfg->decode_stages;
    uint64_t size = pow2_at_least((uint64_t)cfg->rob_entries + (uint64_t)c->fetch_buffer_cap + 2u * (uint64_t)cfg->fetch_width);
    c->win = zalloc(size, sizeof *c->win);
    c->win_mask = size - 1;
    c->predictions = zalloc(size, sizeof *c->predictions);
    c->wp_ended.r = zalloc(size, sizeof *c->wp_ended.r);
    c->decoded = zalloc(1, sizeof *c->decoded);
    decode_cache_init(c->decoded);
    c->head = c->disp = c->fetch = c->avail = p->cpu.icount;
    c->fetch_limit = UINT64_MAX;
    c->fetch_wait = UINT64_MAX;
    c->branches = zalloc((size_t)cfg->max_branches, sizeof *c->branches);
    const int iq_entries[IQ_COUNT] = {cfg->iq_int_entries, cfg->iq_mem_entries, cfg->iq_fp_entries};
    const int iq_width[IQ_COUNT] = {cfg->iq_int_issue, cfg->iq_mem_issue, cfg->iq_fp_issue};
    for (int i = 0; i < IQ_COUNT; i++) {
        c->iq[i].entries = iq_entries[i];
        c->iq[i].width = iq_width[i];
        c->iq[i].pending = zalloc((size_t)iq_entries[i], sizeof(uint64_t));
        for (int s = 0; s < ISSUE_HORIZON; s++) c->iq[i].slots[s].cycle = UINT64_MAX;
    }
    c->stq = zalloc((size_t)cfg->stq_entries, sizeof *c->stq);
    c->block_ended = true;
    return c;
}

void core_free(sim_core *c)
{
    if (!c) return;
    for (int i = 0; i < IQ_COUNT; i++) free(c->iq[i].pending);
    free(c->win);
    free(c->predictions);
    free(c->wp_ended.r);
    free(c->decoded);
    free(c->branches);
    free(c->stq);
    cost_table_free(&c->by_pc);
    cost_table_free(&c->by_block);
    free(c);
}

void core_set_fetch_limit(sim_core *c, uint64_t icount) { c->fetch_limit = icount; }

void core_add_probe(sim_core *c, probe_fn *fn, void *ctx, bool psv, const uint64_t *want_from)
{
    c->probe_psv |= psv;
    if (c->nprobes == (int)(sizeof c->probes / sizeof c->probes[0])) die("too many commit-probe consumers");
    c->probes[c->nprobes++] = (probe_consumer){fn, ctx, want_from};
    c->view.squash_from = UINT64_MAX;
}

void core_set_ideal_loads(sim_core *c, const uint64_t *pcs, size_t n)
{
    c->ideal_loads = pcs;
    c->nideal_loads = n;
}

void core_add_instance_probe(sim_core *c, instance_fn *fn, void *ctx, bool reads_ahead)
{
    if (c->ninstance_probes == (int)(sizeof c->instance_probes / sizeof c->instance_probes[0]))
        die("too many instance-probe consumers");
    c->instance_probes[c->ninstance_probes++] = (instance_probe){fn, ctx, reads_ahead};
}

void core_set_attribution_probe(sim_core *c, attribution_fn *fn, void *ctx)
{
    c->attribution = (attribution_probe){fn, ctx};
}

void core_reset_attribution(sim_core *c)
{
    cost_table_free(&c->by_pc);
    cost_table_free(&c->by_block);
    for (uint64_t s = c->head; s < c->fetch; s++) memset(core_uop(c, s)->units, 0, sizeof core_uop(c, s)->units);
    c->drained_pending = 0;
}

/* The rest of a cycle after its commit stage. */
static void finish_cycle(sim_core *c, uint64_t target)
{
    core_drain_stores(c);
    core_resolve_stage(c);
    core_dispatch_stage(c);
    core_fetch_stage(c);
    probe_publish(c, c->now, 1);
    if (!c->active && c->head < target && !core_done(c)) {
        if (c->wake == UINT64_MAX)
            die("detailed core stalled for good at cycle %llu (instruction %llu): a simulator bug",
                (unsigned long long)c->now, (unsigned long long)c->head);
        if (c->wake > c->now + 1) {
            /* Nothing changes before c->wake: the same commit state holds. */
            uint64_t idle = c->wake - c->now - 1;
            probe_begin_view(c, c->now + 1, idle);
            probe_note_commits(c, core_account_idle(c, idle));
            probe_publish(c, c->now + 1, idle);
            c->ctr.cycles += idle;
            c->now += idle;
        }
    }
    c->now++;
}

uint64_t core_run(sim_core *c, uint64_t target)
{
    while (c->head < target && !core_done(c)) {
        if (!c->cc.open) {
            c->wake = UINT64_MAX;
            c->active = false;
        }
        if (core_commit_stage(c, target)) break;
        finish_cycle(c, target);
    }
    return c->head;
}

void core_close_cycle(sim_core *c)
{
    if (!c->cc.open) return;
    core_commit_end(c);
    finish_cycle(c, c->head); /* no idle skipping: nothing is simulated past here */
}
