#include "report_whole.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_inclusive.h"
#include "util.h"

/* Units of 1/(U x RESOLUTION) cycle, so that the small shares of a region
 * scaled down by its weight do not round away. */
enum { RESOLUTION = 100000 };

static bool representative(const sim_result *r) { return r->has_region && !r->region.extra; }

static size_t weighted_regions(const sim_result *res, size_t n, double *weight, double *cpi)
{
    size_t k = 0;
    *weight = *cpi = 0;
    for (size_t i = 0; i < n; i++) {
        if (!representative(&res[i])) continue;
        if (!res[i].pcs || !res[i].c.instructions) return 0;
        *weight += res[i].region.weight;
        *cpi += res[i].region.weight * (double)res[i].c.cycles / (double)res[i].c.instructions;
        k++;
    }
    if (*weight > 0) *cpi /= *weight;
    return k;
}

/* The regions' profile chosen by pick (NULL where a region lacks it: then
 * no combined profile), combined into `total` units. */
static cost *combine(const sim_result *res, size_t n, double weight, double total,
                     const cost *(*pick)(const sim_result *, int, size_t *), int which, size_t *out)
{
    region_profile *rp = calloc(n ? n : 1, sizeof *rp);
    if (!rp) die("out of memory");
    size_t k = 0;
    cost *c = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!representative(&res[i])) continue;
        const sim_result *r = &res[i];
        rp[k] = (region_profile){.weight = r->region.weight / weight,
                                 .cpi = (double)r->c.cycles / (double)r->c.instructions};
        if (!(rp[k].pcs = pick(r, which, &rp[k].n))) goto out;
        k++;
    }
    c = profile_combine(rp, k, total, out);
out:
    free(rp);
    return c;
}

static const cost *golden(const sim_result *r, int which, size_t *n)
{
    (void)which;
    *n = r->npcs;
    return r->pcs;
}

static const cost *golden_pics(const sim_result *r, int which, size_t *n)
{
    (void)which;
    *n = r->npics;
    return r->pics;
}

static const cost *sampled(const sim_result *r, int which, size_t *n)
{
    if (!r->nsampled || which >= r->sampled[0].nprofs) return NULL;
    *n = r->sampled[0].profs[which].npcs;
    return r->sampled[0].profs[which].pcs;
}

/* The main sampler of every region: profiles combined, samples added up,
 * the shortest period as the configuration shown. */
static void combine_sampled(const sim_result *res, size_t n, double weight, double total, sim_result *w)
{
    const sim_result *first = NULL;
    for (size_t i = 0; i < n && !first; i++)
        if (representative(&res[i])) first = &res[i];
    if (!first->nsampled) return;
    const sampled_run *run0 = &first->sampled[0];
    sampled_run *run = calloc(1, sizeof *run);
    if (!run || !(run->profs = calloc((size_t)run0->nprofs + 1, sizeof *run->profs))) die("out of memory");
    run->cfg = run0->cfg;
    run->nprofs = run0->nprofs;
    for (int k = 0; k < run->nprofs; k++) {
        sampled_profile *p = &run->profs[k];
        p->name = run0->profs[k].name, p->events = run0->profs[k].events;
        p->pcs = combine(res, n, weight, total, sampled, k, &p->npcs);
        for (size_t i = 0; i < n; i++)
            if (representative(&res[i]) && res[i].nsampled) {
                p->samples += res[i].sampled[0].profs[k].samples, p->dropped += res[i].sampled[0].profs[k].dropped;
                if (res[i].sampled[0].cfg.period < run->cfg.period) run->cfg = res[i].sampled[0].cfg;
            }
    }
    w->sampled = run;
    w->nsampled = 1;
}

/* The regions' calling contexts, scaled as their golden profiles are. */
static call_profile *combine_calls(const sim_result *res, size_t n, double weight, double total)
{
    region_profile *rp = calloc(n ? n : 1, sizeof *rp);
    const call_profile **calls = calloc(n ? n : 1, sizeof *calls);
    if (!rp || !calls) die("out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!representative(&res[i])) continue;
        rp[k] = (region_profile){.weight = res[i].region.weight / weight,
                                 .cpi = (double)res[i].c.cycles / (double)res[i].c.instructions};
        calls[k++] = res[i].calls;
    }
    call_profile *w = call_profile_combine(rp, calls, k, total);
    free(rp);
    free(calls);
    return w;
}

bool whole_from_regions(const sim_result *res, size_t n, sim_result *out)
{
    double weight, cpi;
    size_t k = weighted_regions(res, n, &weight, &cpi);
    if (k < 2 || weight <= 0) return false;
    const sim_result *first = NULL;
    for (size_t i = 0; i < n && !first; i++)
        if (representative(&res[i])) first = &res[i];
    sim_result w = {.program = first->program, .units = first->units * RESOLUTION, .blocks = first->blocks,
                    .nblocks = first->nblocks, .elf_bias = first->elf_bias};
    w.c.instructions = WHOLE_INSTRUCTIONS;
    w.c.cycles = (uint64_t)llround(cpi * WHOLE_INSTRUCTIONS);
    double total = cpi * WHOLE_INSTRUCTIONS * w.units;
    w.pcs = combine(res, n, weight, total, golden, 0, &w.npcs);
    bool pics = true;
    for (size_t i = 0; i < n; i++) pics &= !representative(&res[i]) || res[i].pics;
    if (pics) w.pics = combine(res, n, weight, total, golden_pics, 0, &w.npics);
    combine_sampled(res, n, weight, total, &w);
    w.calls = combine_calls(res, n, weight, total);
    *out = w;
    return true;
}

void whole_free(sim_result *w)
{
    free(w->pcs);
    free(w->pics);
    call_profile_free(w->calls);
    free(w->calls);
    for (int i = 0; i < w->nsampled; i++) sampled_run_free(&w->sampled[i]);
    free(w->sampled);
    *w = (sim_result){0};
}
