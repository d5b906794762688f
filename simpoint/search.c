#include "search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "sp_alloc.h"

void clusterer_init(clusterer *c, const dataset *full, const dataset *train, const cluster_params *p)
{
    memset(c, 0, sizeof *c);
    c->full = full;
    c->train = train;
    c->p = *p;
}

static void run_free(sp_run *r)
{
    if (!r)
        return;
    free(r->init_centres);
    free(r->centres);
    free(r->weights);
    free(r->labels);
    free(r->dist2);
    free(r);
}

void clusterer_free(clusterer *c)
{
    for (size_t i = 0; i < c->ncache; i++)
        run_free(c->cache[i]);
    free(c->cache);
    c->cache = NULL;
    c->ncache = 0;
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

int32_t trial_seed(const cluster_params *p, int k, int run_index, int trial)
{
    if (p->compat) /* 3.2 adds the trial to a counter that already counts trials */
        return (int32_t)(uint32_t)((int64_t)p->seed_km + (int64_t)p->num_init_seeds * run_index +
                                   2 * (int64_t)trial);
    uint64_t h = splitmix64((uint64_t)(uint32_t)p->seed_km ^ splitmix64((uint64_t)k << 20 | (uint64_t)trial));
    return (int32_t)(h & 0x7fffffff);
}

static sp_run *cache_find(const clusterer *c, int k, int r)
{
    for (size_t i = 0; i < c->ncache; i++)
        if (c->cache[i]->k == k && c->cache[i]->run_index == r)
            return c->cache[i];
    return NULL;
}

/* One restart: initialise, iterate on the training rows, label and score every row. */
static sp_run *run_trial(const clusterer *c, int k, int r, int trial)
{
    const dataset *full = c->full;
    size_t d = full->d, kk = (size_t)k;
    sp_run *run = sp_calloc(1, sizeof *run);
    run->k = k;
    run->run_index = r;
    run->trial = trial;
    run->init_centres = sp_malloc(kk * d * sizeof(double));
    run->centres = sp_malloc(kk * d * sizeof(double));
    run->weights = sp_malloc(kk * sizeof(double));
    run->labels = sp_malloc(full->n * sizeof(int));
    run->dist2 = sp_malloc(full->n * sizeof(double));
    if (c->p.given_centres) {
        memcpy(run->init_centres, c->p.given_centres, kk * d * sizeof(double));
    } else {
        run->seed = trial_seed(&c->p, k, r, trial);
        /* Centres come from the whole data even when k-means runs on a sample, as in 3.2. */
        km_init_centres(full, kk, c->p.init, run->seed, run->init_centres);
    }
    memcpy(run->centres, run->init_centres, kk * d * sizeof(double));
    bool sampled = c->train != full;
    run->km = km_run(c->train, kk, run->centres, run->weights, sampled ? NULL : run->labels,
                     c->p.max_iters, c->p.accel);
    if (!sampled && run->km.converged) /* the last labels are already the nearest final centres */
        km_distances(full, run->centres, run->labels, run->dist2);
    else
        km_assign(full, run->centres, kk, run->labels, run->dist2);
    run->score = bic_score(full, run->labels, run->dist2, run->weights, kk);
    return run;
}

typedef struct job {
    int k, r;
} job;

typedef struct trial_ref {
    int k;
    long index; /* job * seeds + restart */
} trial_ref;

static int larger_k_first(const void *a, const void *b)
{
    const trial_ref *x = a, *y = b;
    if (x->k != y->k)
        return x->k > y->k ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The (k, run index) pairs not in the cache yet, without repeats. */
static size_t missing_jobs(const clusterer *c, const int *ks, const int *rs, size_t m, job *jobs)
{
    size_t nj = 0;
    for (size_t i = 0; i < m; i++) {
        int r = c->p.compat ? rs[i] : -1;
        bool dup = cache_find(c, ks[i], r) != NULL;
        for (size_t j = 0; j < nj && !dup; j++)
            dup = jobs[j].k == ks[i] && jobs[j].r == r;
        if (!dup)
            jobs[nj++] = (job){ks[i], r};
    }
    return nj;
}

/* Every restart of every job, in parallel; trial job*seeds+t lands in trials[...]. */
static void run_trials(const clusterer *c, const job *jobs, size_t nj, int seeds, sp_run **trials)
{
    long ntrials = (long)nj * seeds;
    /* Largest k first, so the long runs do not end up last on one thread. */
    trial_ref *order = sp_malloc((size_t)(ntrials ? ntrials : 1) * sizeof *order);
    for (long i = 0; i < ntrials; i++)
        order[i] = (trial_ref){jobs[i / seeds].k, i};
    qsort(order, (size_t)ntrials, sizeof *order, larger_k_first);
    /* A lone trial runs on its own, so its assignment step can use the threads. */
#pragma omp parallel for schedule(dynamic, 1) if (ntrials > 1)
    for (long i = 0; i < ntrials; i++) {
        long t = order[i].index;
        const job *jb = &jobs[t / seeds];
        trials[t] = run_trial(c, jb->k, jb->r, (int)(t % seeds));
    }
    free(order);
}

/* The restart with the highest BIC (the first on ties); the others are freed. */
static sp_run *keep_best(const clusterer *c, sp_run **mine, int seeds)
{
    int best = 0;
    for (int t = 1; t < seeds; t++)
        if (mine[t]->score.bic > mine[best]->score.bic)
            best = t;
    for (int t = 0; t < seeds; t++) {
        if (c->verbose >= 2)
            fprintf(stderr, "simpoint: k=%d restart %d seed %d: BIC %.6g, distortion %.6g, %d iterations%s\n",
                    mine[t]->k, t, (int)mine[t]->seed, mine[t]->score.bic, mine[t]->score.distortion,
                    mine[t]->km.iterations, mine[t]->km.converged ? "" : " (not converged)");
        if (t != best)
            run_free(mine[t]);
    }
    if (c->verbose >= 1)
        fprintf(stderr, "simpoint: k=%d: BIC %.6g, distortion %.6g, variance %.6g (restart %d)\n",
                mine[best]->k, mine[best]->score.bic, mine[best]->score.distortion,
                mine[best]->score.variance, best);
    return mine[best];
}

void cluster_runs(clusterer *c, const int *ks, const int *rs, size_t m, sp_run **out)
{
    job *jobs = sp_malloc((m ? m : 1) * sizeof *jobs);
    size_t nj = missing_jobs(c, ks, rs, m, jobs);
    int seeds = c->p.given_centres ? 1 : c->p.num_init_seeds;
    sp_run **trials = sp_calloc(nj * (size_t)seeds, sizeof *trials);
    run_trials(c, jobs, nj, seeds, trials);
    c->cache = sp_realloc_array(c->cache, c->ncache + nj, sizeof *c->cache);
    for (size_t j = 0; j < nj; j++)
        c->cache[c->ncache++] = keep_best(c, trials + j * (size_t)seeds, seeds);
    for (size_t i = 0; i < m; i++)
        out[i] = cache_find(c, ks[i], c->p.compat ? rs[i] : -1);
    free(trials);
    free(jobs);
}

/* ------------------------------------------------------------ choosing k */

static void bic_range(sp_run *const *runs, size_t n, double *min, double *max)
{
    *min = INFINITY;
    *max = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        *min = fmin(*min, runs[i]->score.bic);
        *max = fmax(*max, runs[i]->score.bic);
    }
}

size_t select_run(sp_run *const *runs, size_t n, double t)
{
    double min, max;
    bic_range(runs, n, &min, &max);
    double threshold = bic_threshold(min, max, t);
    size_t best = n;
    for (size_t i = 0; i < n; i++)
        if (runs[i]->score.bic >= threshold && (best == n || runs[i]->k < runs[best]->k))
            best = i;
    return best == n ? 0 : best;
}

int ksearch_begin(ksearch *s, int max_k, int first[3])
{
    memset(s, 0, sizeof *s);
    s->lo = 1;
    s->hi = max_k;
    int n = 0;
    first[n++] = 1;
    if (max_k > 1)
        first[n++] = max_k;
    if (max_k - 1 > 1) {
        s->last = (1 + max_k) / 2;
        first[n++] = s->last;
    }
    return n;
}

void ksearch_record(ksearch *s, int k, double bic)
{
    if (s->n < (int)(sizeof s->k / sizeof s->k[0])) {
        s->k[s->n] = k;
        s->bic[s->n] = bic;
        s->n++;
    }
}

int ksearch_next(ksearch *s, double t)
{
    if (s->last == 0)
        return 0;
    int imin = 0, imax = 0;
    double last_bic = 0;
    for (int i = 0; i < s->n; i++) {
        if (s->bic[i] < s->bic[imin])
            imin = i;
        if (s->bic[i] > s->bic[imax])
            imax = i;
        if (s->k[i] == s->last)
            last_bic = s->bic[i];
    }
    double threshold = bic_threshold(s->bic[imin], s->bic[imax], t);
    if (imax > imin && last_bic < threshold)
        s->lo = s->last; /* the best scores are above: look at larger k */
    else
        s->hi = s->last;
    if (s->hi - s->lo <= 1)
        return s->last = 0;
    return s->last = (s->lo + s->hi) / 2;
}

size_t search_k(clusterer *c, int max_k, double t, sp_run **runs)
{
    ksearch s;
    int first[3], rs[3] = {0, 1, 2};
    int n = ksearch_begin(&s, max_k, first);
    cluster_runs(c, first, rs, (size_t)n, runs);
    for (int i = 0; i < n; i++)
        ksearch_record(&s, first[i], runs[i]->score.bic);
    for (int k; (k = ksearch_next(&s, t)) != 0;) {
        cluster_runs(c, &k, &n, 1, &runs[n]);
        ksearch_record(&s, k, runs[n]->score.bic);
        n++;
    }
    return (size_t)n;
}

size_t search_choose(clusterer *c, clusterer *floor, int max_k, double t, sp_run **runs, size_t *n)
{
    *n = search_k(c, max_k, t, runs);
    size_t chosen = select_run(runs, *n, t);
    if (!floor)
        return chosen;
    sp_run *plain[64];
    size_t np = search_k(floor, max_k, t, plain);
    int k = plain[select_run(plain, np, t)]->k, r = (int)*n;
    if (runs[chosen]->k >= k)
        return chosen;
    cluster_runs(c, &k, &r, 1, &runs[*n]);
    return (*n)++;
}

size_t search_list(clusterer *c, const int *ks, size_t n, sp_run **runs)
{
    int *rs = sp_malloc((n ? n : 1) * sizeof *rs);
    for (size_t i = 0; i < n; i++)
        rs[i] = (int)i;
    cluster_runs(c, ks, rs, n, runs);
    free(rs);
    return n;
}
