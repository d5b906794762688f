#include "sampler.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/psv.h"
#include "util.h"

const profiler_policy *profiler_policy_find(const char *name)
{
    for (size_t i = 0; i < nprofiler_policies; i++)
        if (!strcmp(profiler_policies[i]->name, name)) return profiler_policies[i];
    return NULL;
}

sample_record record_one(uint64_t cycle, uint64_t weight, uint8_t state, uint8_t flags, uint64_t pc)
{
    sample_record r = {.cycle = cycle, .weight = weight, .state = state, .flags = flags, .n = 1};
    r.pc[0] = pc, r.valid[0] = true;
    return r;
}

static void write_record(outfile *o, const char *name, const sample_record *r, unsigned width)
{
    outfile_printf(o, "%s,%" PRIu64 ",%" PRIu64 ",%s,%u,%u", name, r->cycle, r->weight, commit_state_names[r->state],
                   r->flags, r->oldest);
    for (unsigned i = 0; i < width; i++) {
        if (i < r->n) outfile_printf(o, ",0x%" PRIx64 ",%d", r->pc[i], r->valid[i]);
        else outfile_printf(o, ",,0");
    }
    outfile_printf(o, "\n");
}

void sample_records_header(outfile *o, unsigned width)
{
    outfile_printf(o, "profiler,cycle,weight,state,flags,oldest");
    for (unsigned i = 0; i < width; i++) outfile_printf(o, ",pc%u,valid%u", i, i);
    outfile_printf(o, "\n");
}

/* Post-processing as TIP's (notes/tip.md §3.1): a stalled sample goes to
 * the oldest entry, any other to its valid entries in equal shares (units
 * is the record's weight in 1/U cycle; U is a multiple of every width). */
static void post_process(cost_table *t, const sample_record *r, uint64_t units, uint16_t events)
{
    if (r->flags & REC_STALLED) {
        cost *c = cost_at(t, pics_key(r->pc[r->oldest], r->psv[r->oldest] & events));
        c->units[r->state] += units, c->commits++;
        return;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < r->n; i++) n += r->valid[i];
    for (unsigned i = 0; i < r->n; i++)
        if (r->valid[i]) {
            cost *c = cost_at(t, pics_key(r->pc[i], r->psv[i] & events));
            c->units[r->state] += units / n, c->commits++;
        }
}

void profiler_emit(profiler *p, sample_record *r)
{
    sampler *s = p->sampler;
    r->weight += p->carry;
    p->carry = 0;
    p->samples++;
    if (s->records) write_record(s->records, p->policy->name, r, s->record_width);
    if (s->cfg.continued && !p->has_first) {
        /* its weight grows by the cycles the chunk before left (sampled_runs_stitch) */
        p->first = *r, p->has_first = true;
        return;
    }
    post_process(&p->profile, r, r->weight * s->units, p->events);
}

void profiler_drop(profiler *p, uint64_t weight)
{
    p->carry += weight;
    p->dropped++;
}

void profiler_defer(profiler *p, pending_sample s)
{
    if (p->npending == p->cap && !(p->pending = realloc(p->pending, (p->cap = p->cap ? p->cap * 2 : 16) * sizeof *p->pending)))
        die("out of memory");
    p->pending[p->npending++] = s;
}

void profiler_resolve_waiting(profiler *p, sample_record (*make)(const pending_sample *, const void *), const void *arg)
{
    size_t k = 0;
    for (size_t i = 0; i < p->npending; i++) {
        if (p->pending[i].tagged) {
            p->pending[k++] = p->pending[i];
            continue;
        }
        sample_record r = make(&p->pending[i], arg);
        profiler_emit(p, &r);
    }
    p->npending = k;
}

void profiler_settle_tags(profiler *p, const commit_view *v, bool drop_squashed)
{
    size_t k = 0;
    for (size_t i = 0; i < p->npending; i++) {
        pending_sample *s = &p->pending[i];
        if (drop_squashed && s->tagged && s->seq >= v->squash_from) {
            profiler_drop(p, s->weight);
            continue;
        }
        const probe_insn *hit = NULL;
        for (int j = 0; s->tagged && j < v->ncommit; j++)
            if (v->commit[j].seq == s->seq) hit = &v->commit[j];
        if (!hit) {
            p->pending[k++] = *s;
            continue;
        }
        sample_record r = record_one(s->cycle, s->weight, s->state, 0, hit->pc);
        r.psv[0] = hit->psv;
        profiler_emit(p, &r);
    }
    p->npending = k;
}

void profiler_tag_waiting(profiler *p, uint64_t seq)
{
    for (size_t i = 0; i < p->npending; i++)
        if (!p->pending[i].tagged) p->pending[i].tagged = true, p->pending[i].seq = seq;
}

sampler *sampler_new(const sampler_config *cfg, uint32_t units, const char *const *names, int nnames, outfile *records,
                     unsigned width)
{
    sampler *s = calloc(1, sizeof *s);
    if (!s || !(s->profs = calloc((size_t)(nnames ? nnames : 1), sizeof *s->profs))) die("out of memory");
    s->cfg = *cfg;
    s->units = units;
    s->records = records;
    s->record_width = width;
    s->want_from = UINT64_MAX;
    for (int i = 0; i < nnames; i++) {
        const profiler_policy *pol = profiler_policy_find(names[i]);
        if (!pol) die("unknown profiler '%s'", names[i]);
        uint16_t events = pol->events == PSV_TEA ? pol->events | cfg->psv_extra : pol->events;
        s->profs[s->nprofs++] = (profiler){.policy = pol, .sampler = s, .events = events};
    }
    return s;
}

void sampler_free(sampler *s)
{
    if (!s) return;
    for (int i = 0; i < s->nprofs; i++) {
        free(s->profs[i].pending);
        cost_table_free(&s->profs[i].profile);
    }
    free(s->profs);
    free(s);
}

/* The next sample cycle, of period `index` (0-based) or a later one: period
 * k covers cycles [origin - phase + kP, origin - phase + (k+1)P); its sample
 * is its last cycle, or a uniformly random one. A continued run's first
 * period began before origin: a random sample that falls before it is not
 * taken (the last cycle, P - 1 >= phase, always is). */
static uint64_t sample_cycle(sampler *s)
{
    for (;;) {
        uint64_t offset = s->cfg.random ? splitmix64_next(&s->rng) % s->cfg.period : s->cfg.period - 1;
        if (s->index || offset >= s->phase) return s->origin + s->index * s->cfg.period + offset - s->phase;
        s->index++;
    }
}

void sampler_begin(sampler *s, uint64_t origin)
{
    sampler_begin_at(s, origin, 0);
}

void sampler_begin_at(sampler *s, uint64_t origin, uint64_t first_inst)
{
    s->started = true;
    s->origin = s->unsampled = origin;
    s->index = 0;
    s->rng = s->cfg.seed;
    s->phase = 0;
    if (s->cfg.continued && first_inst) {
        s->rng ^= first_inst * 0x9e3779b97f4a7c15ull;
        s->phase = splitmix64_next(&s->rng) % s->cfg.period;
    }
    s->next = s->want_from = sample_cycle(s);
}

void sampler_view(void *ctx, const commit_view *v)
{
    sampler *s = ctx;
    bool sampling = s->started && s->next < v->cycle + v->run;
    if (!s->waiting && !sampling) return; /* most cycles */
    for (int i = 0; i < s->nprofs; i++) {
        profiler *p = &s->profs[i];
        if (p->npending) p->policy->on_view(p, v);
    }
    while (sampling && s->next < v->cycle + v->run) {
        uint64_t t = s->next;
        if (t < v->cycle) die("sampler: view at cycle %" PRIu64 " skips sample cycle %" PRIu64 " (a simulator bug)",
                              v->cycle, t);
        /* The sample stands for every cycle since the previous one. */
        for (int i = 0; i < s->nprofs; i++) s->profs[i].policy->on_sample(&s->profs[i], v, t, t + 1 - s->unsampled);
        s->unsampled = t + 1;
        s->index++;
        s->next = sample_cycle(s);
    }
    s->waiting = 0;
    for (int i = 0; i < s->nprofs; i++) s->waiting += s->profs[i].npending;
    s->want_from = s->waiting ? 0 : s->next;
}

void sampler_end(sampler *s)
{
    for (int i = 0; i < s->nprofs; i++) {
        profiler *p = &s->profs[i];
        for (size_t k = 0; k < p->npending; k++) profiler_drop(p, p->pending[k].weight);
        p->npending = 0;
    }
    s->waiting = 0;
    s->want_from = UINT64_MAX;
}

void sampler_collect(sampler *s, sampled_run *out)
{
    out->cfg = s->cfg;
    out->nprofs = s->nprofs;
    out->units = s->units;
    out->spanned = s->unsampled - s->origin;
    out->profs = calloc((size_t)(s->nprofs ? s->nprofs : 1), sizeof *out->profs);
    if (!out->profs) die("out of memory");
    for (int i = 0; i < s->nprofs; i++) {
        sampled_profile *d = &out->profs[i];
        const profiler *p = &s->profs[i];
        d->name = p->policy->name;
        d->events = p->events;
        d->samples = p->samples;
        d->dropped = p->dropped;
        d->pcs = cost_sorted(&p->profile, &d->npcs);
        d->first = p->first;
        d->has_first = p->has_first;
        d->carry = p->carry;
    }
}

void sampled_run_free(sampled_run *r)
{
    for (int i = 0; i < r->nprofs; i++) free(r->profs[i].pcs);
    free(r->profs);
    *r = (sampled_run){0};
}

/* Profiler i of every chunk, stitched: each chunk's first record carries
 * the cycles left since the chunk before's last one. */
static void stitch_profile(const sampled_run *const *runs, const uint64_t *cycles, size_t n, int i, sampled_profile *out)
{
    cost_table t = {0};
    uint64_t left = 0;
    *out = (sampled_profile){.name = runs[0]->profs[i].name, .events = runs[0]->profs[i].events};
    for (size_t k = 0; k < n; k++) {
        const sampled_profile *p = &runs[k]->profs[i];
        if (runs[k]->cfg.period != runs[0]->cfg.period)
            die("chunk %zu of %zu was sampled every %" PRIu64 " cycles, chunk 1 every %" PRIu64, k + 1, n,
                runs[k]->cfg.period, runs[0]->cfg.period);
        if (runs[k]->spanned > cycles[k])
            die("chunk %zu of %zu: its samples span %" PRIu64 " cycles, more than its %" PRIu64 " (a simulator bug)",
                k + 1, n, runs[k]->spanned, cycles[k]);
        cost_accumulate(&t, p->pcs, p->npcs, 1.0);
        if (p->has_first) {
            post_process(&t, &p->first, (p->first.weight + left) * runs[k]->units, p->events);
            left = 0;
        }
        left += cycles[k] - runs[k]->spanned + p->carry;
        out->samples += p->samples;
        out->dropped += p->dropped;
    }
    out->carry = left;
    out->pcs = cost_sorted(&t, &out->npcs);
    cost_table_free(&t);
}

void sampled_runs_stitch(const sampled_run *const *runs, const uint64_t *cycles, size_t n, sampled_run *out)
{
    *out = (sampled_run){.cfg = runs[0]->cfg, .nprofs = runs[0]->nprofs, .units = runs[0]->units};
    out->cfg.continued = false;
    out->profs = calloc((size_t)(out->nprofs ? out->nprofs : 1), sizeof *out->profs);
    if (!out->profs) die("out of memory");
    for (int i = 0; i < out->nprofs; i++) stitch_profile(runs, cycles, n, i, &out->profs[i]);
    for (size_t k = 0; k < n; k++) out->spanned += k + 1 < n ? cycles[k] : runs[k]->spanned;
}

extern const profiler_policy prof_tip, prof_tip_ilp, prof_nci, prof_nci_ilp, prof_lci, prof_dispatch, prof_fetch,
    prof_software, prof_tea, prof_nci_tea, prof_tea_dispatch, prof_ibs, prof_spe, prof_ris;
const profiler_policy *const profiler_policies[] = {
    &prof_tip, &prof_tip_ilp, &prof_nci, &prof_nci_ilp, &prof_lci, &prof_dispatch, &prof_fetch, &prof_software,
    &prof_tea, &prof_nci_tea, &prof_tea_dispatch, &prof_ibs, &prof_spe, &prof_ris,
};
const size_t nprofiler_policies = sizeof profiler_policies / sizeof profiler_policies[0];
