#include "profiling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../run.h"

#include "util.h"

uint64_t sampling_period(double hz, int freq_mhz)
{
    double p = llround((double)freq_mhz * 1e6 / hz);
    return p < 1 ? 1 : (uint64_t)p;
}

uint64_t sampling_period_for(const sampler_config *cfg, uint64_t insts, int width)
{
    if (!cfg->min_samples || !insts) return cfg->period;
    uint64_t fastest = insts / (uint64_t)width / cfg->min_samples;
    if (fastest < 1) fastest = 1;
    return fastest < cfg->period ? fastest : cfg->period;
}

/* The main sampler's period for the measured part, now that its length is
 * known (the fetch limit; unknown for a whole program run to its end). */
static void fit_period(profiling *p)
{
    sim_core *c = p->core;
    if (!p->nsamplers || c->fetch_limit == UINT64_MAX) return;
    sampler_config *cfg = &p->samplers[0]->cfg;
    uint64_t period = sampling_period_for(cfg, c->fetch_limit - core_committed(c), c->cfg.commit_width);
    if (period == cfg->period) return;
    cfg->period = period;
    cfg->hz = (double)c->cfg.freq_mhz * 1e6 / (double)period;
}

static void add_sampler(profiling *p, sim_core *c, const sampler_config *cfg, const sampling_options *o,
                        outfile *records)
{
    p->samplers = realloc(p->samplers, (size_t)(p->nsamplers + 1) * sizeof *p->samplers);
    if (!p->samplers) die("out of memory");
    sampler *s = sampler_new(cfg, c->units, o->profilers, o->nprofilers, records, (unsigned)c->cfg.commit_width);
    p->samplers[p->nsamplers++] = s;
    bool psv = false;
    for (int i = 0; i < s->nprofs; i++) psv |= s->profs[i].events != 0;
    core_add_probe(c, sampler_view, s, psv, &s->want_from);
}

/* The core has one attribution probe: this hands it to each consumer. */
static void attribute(void *ctx, uint64_t pc, uint16_t psv, const uint64_t units[ST_COUNT], uint64_t commits)
{
    profiling *p = ctx;
    callstack_attribute(p->calls, pc, psv, units, commits);
    if (p->pics) pics_attribute(p->pics, pc, psv, units, commits);
}

void profiling_attach(profiling *p, const sampling_options *o, sim_core *c)
{
    *p = (profiling){.core = c, .chunk = o->chunk};
    if (o->nprofilers) {
        if (o->records) {
            p->records = outfile_open(o->records);
            sample_records_header(p->records, (unsigned)c->cfg.commit_width);
        }
        add_sampler(p, c, &o->cfg, o, p->records);
        for (int i = 0; i < o->nsweep; i++)
            for (int random = 0; random < 2; random++) {
                sampler_config cfg = {.period = sampling_period(o->sweep_hz[i], c->cfg.freq_mhz), .random = random,
                                      .seed = o->cfg.seed, .hz = o->sweep_hz[i],
                                      .continued = o->cfg.continued};
                add_sampler(p, c, &cfg, o, NULL);
            }
    }
    bool events = o->pics;
    for (int i = 0; i < o->nprofilers; i++) events |= profiler_policy_find(o->profilers[i])->events != 0;
    if (events) {
        if (!(p->pics = malloc(sizeof *p->pics))) die("out of memory");
        pics_init(p->pics, c->units);
    }
    p->calls = callstack_new(&c->proc->mem);
    core_set_attribution_probe(c, attribute, p);
    if (o->profileme) {
        profileme_config cfg = o->pm;
        cfg.issue_width = (uint32_t)c->cfg.decode_width;
        /* A chunk's samples from a stream of its own (the first chunk's the serial run's). */
        uint64_t at = core_committed(c);
        if (o->chunk && at) cfg.seed ^= splitmix64_next(&at);
        if (o->pm_records) {
            cfg.records = p->pm_records = outfile_open(o->pm_records);
            profileme_records_header(p->pm_records);
        }
        p->pm = profileme_new(&cfg);
        core_add_instance_probe(c, profileme_instance, p->pm, false);
    }
    if (o->graph) {
        p->graph = depgraph_new(o->graph, &c->cfg);
        core_add_instance_probe(c, depgraph_instance, p->graph, true); /* it places the wrong path ahead */
    }
    if (o->commit_trace) {
        trace_open(&p->trace, o->commit_trace, c->units, c->cfg.commit_width);
        core_add_probe(c, trace_view, &p->trace, false, &p->trace.origin);
    }
}

void profiling_begin(profiling *p, uint64_t origin)
{
    fit_period(p);
    for (int i = 0; i < p->nsamplers; i++) sampler_begin_at(p->samplers[i], origin, core_committed(p->core));
    if (p->trace.out) trace_begin(&p->trace, origin);
    if (p->pics) pics_begin(p->pics);
    callstack_begin(p->calls, p->chunk);
    if (p->pm) profileme_begin(p->pm);
    if (p->graph) depgraph_begin(p->graph);
}

void profiling_finish(profiling *p, sim_result *r)
{
    r->sampled = p->nsamplers ? calloc((size_t)p->nsamplers, sizeof *r->sampled) : NULL;
    if (p->nsamplers && !r->sampled) die("out of memory");
    for (int i = 0; i < p->nsamplers; i++) {
        sampler_end(p->samplers[i]);
        sampler_collect(p->samplers[i], &r->sampled[i]);
        sampler_free(p->samplers[i]);
    }
    r->nsampled = p->nsamplers;
    if (p->pics) {
        r->pics = cost_sorted(&p->pics->table, &r->npics);
        r->no_event_stalls = malloc(sizeof p->pics->no_event_stalls);
        if (!r->no_event_stalls) die("out of memory");
        memcpy(r->no_event_stalls, p->pics->no_event_stalls, sizeof p->pics->no_event_stalls);
        pics_free(p->pics);
        free(p->pics);
    }
    if (!(r->calls = malloc(sizeof *r->calls))) die("out of memory");
    callstack_finish(p->calls, r->calls);
    if (p->pm) {
        if (!(r->profileme = malloc(sizeof *r->profileme))) die("out of memory");
        profileme_finish(p->pm, r->profileme);
        if (p->pm_records) outfile_commit(p->pm_records);
    }
    if (p->graph) {
        if (!(r->graph = malloc(sizeof *r->graph))) die("out of memory");
        depgraph_finish(p->graph, r->graph);
    }
    free(p->samplers);
    if (p->records) outfile_commit(p->records);
    trace_commit(&p->trace);
    *p = (profiling){0};
}
