#include "what_if.h"

#include <omp.h>
#include <stdlib.h>

#include "progress.h"
#include "uarch/config.h"
#include "uarch/state.h"
#include "util.h"

double result_weight(const sim_result *r)
{
    if (!r->has_region) return 1;
    if (r->region.extra) return 0;
    return r->region.weight > 0 ? r->region.weight : 1;
}

double result_cpi(const sim_result *r)
{
    return r->c.instructions ? (double)r->c.cycles / (double)r->c.instructions : 0;
}

double results_weighted(const sim_result *res, size_t n, double (*of_region)(const sim_result *))
{
    double w = 0, sum = 0;
    for (size_t i = 0; i < n; i++) w += result_weight(&res[i]);
    if (!(w > 0)) return 0;
    for (size_t i = 0; i < n; i++) sum += result_weight(&res[i]) / w * of_region(&res[i]);
    return sum;
}

double results_cpi(const sim_result *res, size_t n) { return results_weighted(res, n, result_cpi); }

/* A run's options: the baseline's, with its core and warm-up, and nothing
 * but the golden attribution (no sampling, traces, logs or progress). */
static sim_options options_of(const sim_options *o, const what_if *w)
{
    sim_options wo = *o;
    wo.cfg = w->cfg;
    wo.warmup = w->warmup;
    wo.ideal_loads = w->ideal_loads;
    wo.nideal_loads = w->nideal_loads;
    wo.sampling = (sampling_options){.graph = w->graph};
    wo.interval_log = NULL;
    wo.progress = false;
    wo.guest_output = "none";
    return wo;
}

/* Runs warmed functionally (or from warm checkpoints, then functionally)
 * whose configurations agree on the cache, TLB and predictor geometry warm
 * up the same way: one warm-up per region and group, shared. */
typedef struct warm_group {
    uint64_t digest;
    enum warmup_mode warmup;
    const what_if *first;
    ustate *states;            /* one per region */
    bool *ok;
} warm_group;

static int group_of(warm_group **groups, int *n, const what_if *w, size_t njobs)
{
    uint64_t digest = uarch_state_digest(&w->cfg);
    for (int g = 0; g < *n; g++)
        if ((*groups)[g].digest == digest && (*groups)[g].warmup == w->warmup) return g;
    if (!(*groups = realloc(*groups, (size_t)(*n + 1) * sizeof **groups))) die("out of memory");
    warm_group *g = &(*groups)[*n];
    *g = (warm_group){digest, w->warmup, w, calloc(njobs, sizeof(ustate)), calloc(njobs, sizeof(bool))};
    if (!g->states || !g->ok) die("out of memory");
    return (*n)++;
}

void what_if_run(const sim_options *o, const sim_target *t, size_t nregions, what_if *const *runs, int nruns,
                 const char *label)
{
    region_job *jobs = NULL;
    size_t njobs = t->full ? 1 : sim_region_jobs(t->argv, t->argc, &jobs);
    if (njobs != nregions) die("%s: %zu regions now, %zu in the baseline", label, njobs, nregions);
    warm_group *groups = NULL;
    int ngroups = 0, *group = malloc((size_t)(nruns ? nruns : 1) * sizeof *group);
    if (!group) die("out of memory");
    for (int r = 0; r < nruns; r++) {
        if (!(runs[r]->res = calloc(njobs, sizeof *runs[r]->res))) die("out of memory");
        runs[r]->n = njobs;
        bool shared = !t->full && (runs[r]->warmup == WARMUP_FUNCTIONAL || runs[r]->warmup == WARMUP_CHECKPOINT);
        group[r] = shared ? group_of(&groups, &ngroups, runs[r], njobs) : -1;
    }
    size_t nwarm = (size_t)ngroups * njobs, nwork = (size_t)nruns * njobs;
    progress prog;
    progress_init(&prog, label, o->progress, nwarm + nwork);
    uint64_t finished = 0;
    int threads = omp_get_max_threads();
#pragma omp parallel num_threads(threads > 0 ? threads : 1)
    {
#pragma omp for schedule(dynamic, 1)
        for (size_t w = 0; w < nwarm; w++) {
            warm_group *g = &groups[w / njobs];
            size_t j = w % njobs;
            sim_options wo = options_of(o, g->first);
            g->ok[j] = sim_region_warm(&wo, jobs[j].path, jobs[j].region, &g->states[j]);
#pragma omp atomic
            finished++;
            if (omp_get_thread_num() == 0) progress_update(&prog, finished);
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t w = 0; w < nwork; w++) {
            size_t r = w / njobs, j = w % njobs;
            what_if *run = runs[r];
            sim_options wo = options_of(o, run);
            if (group[r] >= 0 && groups[group[r]].ok[j]) wo.warm_state = &groups[group[r]].states[j];
            if (t->full) sim_full(&wo, t->argc, t->argv, &run->res[j]);
            else sim_region(&wo, jobs[j].path, jobs[j].region, "none", &run->res[j]);
#pragma omp atomic
            finished++;
            if (omp_get_thread_num() == 0) progress_update(&prog, finished);
        }
    }
    progress_finish(&prog, finished);
    for (int g = 0; g < ngroups; g++) {
        for (size_t j = 0; j < njobs; j++) ustate_free(&groups[g].states[j]);
        free(groups[g].states);
        free(groups[g].ok);
    }
    free(groups);
    free(group);
    free(jobs);
    for (int r = 0; r < nruns; r++)
        for (size_t j = 0; j < njobs && !runs[r]->failed; j++)
            if (!runs[r]->res[j].pcs)
                runs[r]->failed = xstrdup(runs[r]->res[j].message ? runs[r]->res[j].message : "failed");
}

void what_if_free(what_if *w)
{
    for (size_t j = 0; w->res && j < w->n; j++) sim_result_free(&w->res[j]);
    free(w->res);
    free(w->failed);
    w->res = NULL, w->failed = NULL, w->n = 0;
}
