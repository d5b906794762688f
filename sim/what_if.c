#include "what_if.h"

#include <omp.h>
#include <stdlib.h>

#include "progress.h"
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

double results_cpi(const sim_result *res, size_t n)
{
    double w = 0, cpi = 0;
    for (size_t i = 0; i < n; i++) w += result_weight(&res[i]);
    if (!(w > 0)) return 0;
    for (size_t i = 0; i < n; i++) cpi += result_weight(&res[i]) / w * result_cpi(&res[i]);
    return cpi;
}

/* A run's options: the baseline's, with its core and warm-up, and nothing
 * but the golden attribution (no sampling, traces, logs or progress). */
static sim_options options_of(const sim_options *o, const what_if *w)
{
    sim_options wo = *o;
    wo.cfg = w->cfg;
    wo.warmup = w->warmup;
    wo.ideal_loads = w->ideal_loads;
    wo.nideal_loads = w->nideal_loads;
    wo.sampling = (sampling_options){0};
    wo.interval_log = NULL;
    wo.progress = false;
    wo.guest_output = "none";
    return wo;
}

void what_if_run(const sim_options *o, const sim_target *t, size_t nregions, what_if *const *runs, int nruns,
                 const char *label)
{
    region_job *jobs = NULL;
    size_t njobs = t->full ? 1 : sim_region_jobs(t->argv, t->argc, &jobs);
    if (njobs != nregions) die("%s: %zu regions now, %zu in the baseline", label, njobs, nregions);
    size_t nwork = (size_t)nruns * njobs;
    for (int r = 0; r < nruns; r++) {
        if (!(runs[r]->res = calloc(njobs, sizeof *runs[r]->res))) die("out of memory");
        runs[r]->n = njobs;
    }
    progress prog;
    progress_init(&prog, label, o->progress, nwork);
    uint64_t finished = 0;
    int threads = omp_get_max_threads() < (int)nwork ? omp_get_max_threads() : (int)nwork;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : 1)
    for (size_t w = 0; w < nwork; w++) {
        what_if *run = runs[w / njobs];
        size_t j = w % njobs;
        sim_options wo = options_of(o, run);
        if (t->full) sim_full(&wo, t->argc, t->argv, &run->res[j]);
        else sim_region(&wo, jobs[j].path, jobs[j].region, "none", &run->res[j]);
#pragma omp atomic
        finished++;
        if (omp_get_thread_num() == 0) progress_update(&prog, finished);
    }
    progress_finish(&prog, finished);
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
