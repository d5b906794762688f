#include "session.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measured.h"
#include "output.h"
#include "project.h"
#include "proxy_dims.h"
#include "sample.h"
#include "util.h"
#include "sp_alloc.h"

/* --------------------------------------------------------------- loading */

static void load_projection(const sp_options *o, projection *proj)
{
    if (o->load_proj_txt || o->load_proj_bin) {
        dataset m;
        if (o->load_proj_txt)
            dataset_read_txt(o->load_proj_txt, &m);
        else
            dataset_read_bin(o->load_proj_bin, &m);
        if (o->dim != 15 && (size_t)o->dim != m.d)
            die("the projection matrix has %zu columns, -dim says %d", m.d, o->dim);
        projection_load(proj, &m);
        dataset_free(&m);
    } else {
        projection_init(proj, (size_t)o->dim, o->seed_proj);
    }
}

static void save_projection(const sp_options *o, const projection *proj)
{
    if (o->save_proj_txt)
        dataset_write_txt(o->save_proj_txt, &proj->m);
    if (o->save_proj_bin)
        dataset_write_bin(o->save_proj_bin, &proj->m);
}

static void load_bb(session *s)
{
    const sp_options *o = s->o;
    projection proj;
    bool projected = o->dim > 0;
    if (projected)
        load_projection(o, &proj);
    bb_load_options lo = {.compat = o->compat, .progress = o->progress};
    bb_load(o->fv_file, projected ? &proj : NULL, &lo, &s->bb);
    s->from_bb = true;
    if (o->num_fvs != -1 && ((size_t)o->num_fvs != s->bb.vectors.n || (long)s->bb.num_blocks != o->fv_dim))
        die("%s: %zu intervals and largest block id %u, but -numFVs %ld -FVDim %ld", o->fv_file,
            s->bb.vectors.n, s->bb.num_blocks, o->num_fvs, o->fv_dim);
    if (projected) {
        /* Rows up to the largest id exist; a loaded matrix may have more, keep them. */
        save_projection(o, &proj);
        projection_free(&proj);
    }
    s->full = s->bb.vectors;
    s->bb.vectors = (dataset){0};
    s->full.w = sp_malloc(s->full.n * sizeof(double));
}

static void load_vectors(session *s)
{
    const sp_options *o = s->o;
    if (o->load_vectors_txt)
        dataset_read_txt(o->load_vectors_txt, &s->full);
    else
        dataset_read_bin(o->load_vectors_bin, &s->full);
    bool had_weights = s->full.w != NULL;
    if (!had_weights)
        s->full.w = sp_calloc(s->full.n, sizeof(double));
    if (o->fixed_length || o->load_vector_weights)
        return; /* set_weights() decides */
    if (!had_weights)
        die("%s has no vector weights: -fixedLength off needs them (or -loadVectorWeights)", s->input);
    double sum = dataset_weight_sum(&s->full);
    if (!(sum > 0))
        die("%s: vector weights do not sum to a positive number", s->input);
    for (size_t i = 0; i < s->full.n; i++)
        s->full.w[i] /= sum;
}

static void set_weights(session *s)
{
    const sp_options *o = s->o;
    size_t n = s->full.n;
    if (o->load_vector_weights) {
        size_t m;
        double *w = read_number_column(o->load_vector_weights, &m), sum = 0;
        if (m != n)
            die("%s: %zu weights for %zu intervals", o->load_vector_weights, m, n);
        for (size_t i = 0; i < n; i++) {
            if (!(w[i] >= 0))
                die("%s: weight %zu is negative", o->load_vector_weights, i + 1);
            sum += w[i];
        }
        if (!(sum > 0))
            die("%s: weights sum to zero", o->load_vector_weights);
        for (size_t i = 0; i < n; i++)
            s->full.w[i] = w[i] / sum;
        free(w);
    } else if (o->fixed_length) {
        for (size_t i = 0; i < n; i++)
            s->full.w[i] = 1.0 / (double)n;
    } else if (s->from_bb) { /* variable-length intervals: weight by instructions */
        double total = 0;
        for (size_t i = 0; i < n; i++)
            total += s->bb.row_sums[i];
        for (size_t i = 0; i < n; i++)
            s->full.w[i] = s->bb.row_sums[i] / total;
    }
}

/* ---------------------------------------------------------------- runs */

static double *given_centres(session *s, int *k)
{
    const sp_options *o = s->o;
    size_t d = s->full.d;
    if (o->load_init_ctrs) {
        dataset c;
        dataset_read_txt(o->load_init_ctrs, &c);
        if (c.d != d)
            die("%s: centres have %zu dimensions, the vectors %zu", o->load_init_ctrs, c.d, d);
        if (c.n > s->full.n)
            die("%s: %zu centres for %zu intervals", o->load_init_ctrs, c.n, s->full.n);
        *k = (int)c.n;
        double *x = c.x;
        free(c.w);
        return x;
    }
    size_t m;
    double *v = read_number_column(o->load_init_labels, &m);
    if (m != s->full.n)
        die("%s: %zu labels for %zu intervals", o->load_init_labels, m, s->full.n);
    int *labels = sp_malloc(m * sizeof *labels);
    int top = 0;
    for (size_t i = 0; i < m; i++) {
        if (v[i] < 0 || v[i] != floor(v[i]) || v[i] >= (double)m)
            die("%s: label %zu is not an integer in [0, %zu)", o->load_init_labels, i + 1, m);
        labels[i] = (int)v[i];
        if (labels[i] + 1 > top)
            top = labels[i] + 1;
    }
    double *c = sp_malloc((size_t)top * d * sizeof *c), *w = sp_malloc((size_t)top * sizeof *w);
    km_update(&s->full, labels, (size_t)top, c, w);
    free(w);
    free(labels);
    free(v);
    *k = top;
    return c;
}

/* More clusters than intervals only makes empty clusters; --compat keeps
 * 3.2's search sequence anyway. */
static int clamp_max_k(const session *s, int max_k)
{
    if ((size_t)max_k > s->full.n && !s->o->compat) {
        warn("maxK %d is more than the %zu intervals; using %zu", max_k, s->full.n, s->full.n);
        return (int)s->full.n;
    }
    return max_k;
}

static void cluster(session *s, double *centres, int given_k)
{
    const sp_options *o = s->o;
    if (centres) {
        s->nruns = search_list(&s->cl, &given_k, 1, s->runs);
    } else if (o->k_search) {
        s->max_k = clamp_max_k(s, o->max_k);
        s->chosen = search_choose(&s->cl, s->floor, s->max_k, o->bic_threshold, s->runs, &s->nruns);
        return;
    } else {
        s->nruns = search_list(&s->cl, o->k_list, o->n_k, s->runs);
    }
    s->chosen = select_run(s->runs, s->nruns, o->bic_threshold);
}

/* Non-empty clusters of run: the points SimPoint writes for it. */
static size_t points_of_run(const sp_run *run, const dataset *full, bool sampled)
{
    sp_choice ch;
    choice_from_run(run, full, sampled, NULL, &ch);
    size_t n = ch.nonempty;
    choice_free(&ch);
    return n;
}

/* The points SimPoint 3.2 chooses: the search on the BBVs alone (the
 * floor of --proxy-dims, whose runs are cached), or this search itself. */
static size_t simpoint_points(session *s)
{
    const sp_options *o = s->o;
    if (!s->floor)
        return points_of_run(s->runs[s->chosen], &s->full, s->sampled);
    sp_run *plain[64];
    size_t n = search_k(s->floor, s->max_k, o->bic_threshold, plain);
    return points_of_run(plain[select_run(plain, n, o->bic_threshold)], &s->bbv, s->sampled);
}

static size_t budget_of(int points, double ratio, size_t simpoint)
{
    if (points)
        return (size_t)points;
    size_t b = (size_t)floor(ratio * (double)simpoint + 1e-9);
    return b ? b : 1;
}

/* --points N|Fx: when the chosen clusters alone are more than the budget,
 * k-means again at k = budget; the first stage (--pilot) or the whole
 * budget is what --stratify's allocation spends. */
static void apply_budget(session *s, bool given_centres)
{
    const sp_options *o = s->o;
    if (!o->points && !o->points_ratio)
        return;
    if (o->points_ratio || o->pilot_ratio)
        s->simpoint_points = simpoint_points(s);
    s->budget = budget_of(o->points, o->points_ratio, s->simpoint_points);
    size_t k = points_of_run(s->runs[s->chosen], &s->full, s->sampled);
    if (k > s->budget) {
        if (given_centres)
            die("the %zu clusters of -loadInitCtrs/-loadInitLabels are more than the --points budget of %zu", k,
                s->budget);
        if (s->nruns == SP_MAX_LIST)
            die("too many runs");
        int kb = (int)s->budget, r = (int)s->nruns;
        cluster_runs(&s->cl, &kb, &r, 1, &s->runs[s->nruns]);
        s->chosen = s->nruns++;
        s->reclustered = true;
        k = points_of_run(s->runs[s->chosen], &s->full, s->sampled);
    }
    s->stage1 = s->budget;
    if (o->pilot || o->pilot_ratio) {
        /* the pilot's points, and two strata more where the budget allows: their disagreement is measured */
        size_t pilot = budget_of(o->pilot, o->pilot_ratio, s->simpoint_points);
        s->stage1 = pilot > k + 2 ? pilot : k + 2;
        if (s->stage1 > s->budget)
            s->stage1 = s->budget;
    }
    s->proxy.points = s->stage1;
}

/* --measured: the estimate and its interval; with --target-ci, the second
 * stage first (points where the variance is, the design rewritten). */
static void two_stage(session *s)
{
    const sp_options *o = s->o;
    const sp_run *best = s->runs[s->chosen];
    s->cpi = measured_load(o->measured, o->n_measured, s->full.n);
    ts_input in = {.n = s->full.n, .w = s->full.w, .proxy = s->proxy_cpi, .dist2 = best->dist2,
                   .cluster = best->labels, .cpi = s->cpi};
    s->first = ts_estimate(&in, &s->choice, &ts_model_default);
    if (o->target_ci) {
        for (size_t c = 0; c < s->choice.k; c++)
            if (s->choice.rep[c] >= 0 && isnan(s->cpi[s->choice.rep[c]]))
                die("--target-ci: simulation point %ld (cluster %zu) has no result in the --measured files: the "
                    "second stage adds to a first stage whose every point was simulated",
                    s->choice.rep[c], c);
        s->added = ts_refine(&in, &s->choice, &ts_model_default, s->budget, o->target_ci, &s->predicted_half);
    }
    s->interval = ts_estimate(&in, &s->choice, &ts_model_default);
    if (!s->interval.complete && !s->added)
        warn("%zu of the %zu points have no result in the --measured files: no estimate",
             s->interval.points - s->interval.measured, s->interval.points);
}

static void write_outputs(session *s)
{
    const sp_options *o = s->o;
    output_names names = {o->save_simpoints, o->save_weights, o->save_labels, o->coverage_pct, session_proxy(s)};
    sp_run *best = s->runs[s->chosen];
    write_choice_outputs(&names, "", best, &s->choice, s->full.n);
    if (o->save_all)
        for (size_t r = 0; r < s->nruns; r++) {
            char suffix[64];
            snprintf(suffix, sizeof suffix, ".run_%zu_k_%d", r, s->runs[r]->k);
            write_run_outputs(&names, suffix, s->runs[r], &s->full, s->sampled);
        }
    dataset c = {.n = (size_t)best->k, .d = s->full.d};
    if (o->save_init_ctrs) {
        c.x = best->init_centres;
        dataset_write_txt(o->save_init_ctrs, &c);
    }
    if (o->save_final_ctrs) {
        c.x = best->centres;
        c.w = best->weights;
        dataset_write_txt(o->save_final_ctrs, &c);
    }
}

static bool writes_something(const sp_options *o)
{
    return o->save_simpoints || o->save_weights || o->save_labels || o->json || o->n_sweep_maxk ||
           o->save_vectors_txt || o->save_vectors_bin || o->save_proj_txt || o->save_proj_bin ||
           o->save_vector_weights || o->save_init_ctrs || o->save_final_ctrs;
}

const sp_proxy *session_proxy(const session *s)
{
    return s->proxy_cpi && (s->proxy.select || s->proxy.stratify > 0 || s->proxy.points) ? &s->proxy : NULL;
}

/* Vectors and weights, checked against the options before anything is written. */
static void load_input(session *s)
{
    const sp_options *o = s->o;
    s->input = o->fv_file ? o->fv_file : o->load_vectors_txt ? o->load_vectors_txt : o->load_vectors_bin;
    if (o->fv_file)
        load_bb(s);
    else
        load_vectors(s);
    set_weights(s);
    if (o->proxy) {
        s->proxy_cpi = proxy_load(o->proxy, s->full.n, o->proxy_long, o->proxy_exposed);
        s->proxy = (sp_proxy){.cpi = s->proxy_cpi, .n = s->full.n, .select = o->select_proxy,
                              .candidates = o->proxy_candidates, .stratify = o->stratify,
                              .points = (size_t)o->points};
        if (o->proxy_dims > 0) {
            s->bbv = s->full;
            proxy_extend(&s->bbv, s->proxy_cpi, o->proxy_dims, &s->full);
        }
    }
    if (!o->k_search)
        for (size_t i = 0; i < o->n_k; i++)
            if ((size_t)o->k_list[i] > s->full.n)
                die("k = %d is more than the %zu intervals", o->k_list[i], s->full.n);
}

static void save_input(const session *s)
{
    const sp_options *o = s->o;
    if (o->save_vectors_txt)
        dataset_write_txt(o->save_vectors_txt, &s->full);
    if (o->save_vectors_bin)
        dataset_write_bin(o->save_vectors_bin, &s->full);
    if (o->save_vector_weights)
        write_number_column(o->save_vector_weights, s->full.w, s->full.n);
}

int simpoint_run(const sp_options *o)
{
    session s = {.o = o};
    if (!writes_something(o))
        warn("no output asked for (-saveSimpoints, -saveSimpointWeights, -saveLabels, --json ...)");
    s.t_start = now_seconds();
    if (o->threads > 0)
        omp_set_num_threads(o->threads);
    load_input(&s);
    int given_k = 0;
    double *centres = o->load_init_ctrs || o->load_init_labels ? given_centres(&s, &given_k) : NULL;
    save_input(&s);
    s.t_loaded = now_seconds();

    s.sampled = o->sample_size > 0 && (size_t)o->sample_size < s.full.n;
    if (s.sampled)
        sample_rows(&s.full, (size_t)o->sample_size, o->seed_sample, &s.train);
    if (s.sampled && s.bbv.x) /* the same rows: the draw depends on the weights alone */
        sample_rows(&s.bbv, (size_t)o->sample_size, o->seed_sample, &s.bbv_train);
    cluster_params p = {
        .num_init_seeds = o->num_init_seeds, .init = o->initkm, .max_iters = o->iters,
        .accel = !o->lloyd, .compat = o->compat, .seed_km = o->seed_km, .given_centres = centres,
    };
    clusterer_init(&s.cl, &s.full, s.sampled ? &s.train : &s.full, &p);
    s.cl.verbose = o->verbose;
    if (s.bbv.x && !centres) {
        clusterer_init(&s.bbv_cl, &s.bbv, s.sampled ? &s.bbv_train : &s.bbv, &p);
        s.floor = &s.bbv_cl;
    }
    if (o->n_sweep_maxk) {
        run_sweep(&s);
    } else {
        cluster(&s, centres, given_k);
        apply_budget(&s, centres != NULL);
        choice_from_run(s.runs[s.chosen], &s.full, s.sampled, session_proxy(&s), &s.choice);
        if (o->n_measured)
            two_stage(&s);
        s.t_clustered = now_seconds();
        write_outputs(&s);
        if (o->verbose >= 1)
            fprintf(stderr, "simpoint: chose k=%d (BIC %.6g) among %zu runs\n", s.runs[s.chosen]->k,
                    s.runs[s.chosen]->score.bic, s.nruns);
    }
    s.t_end = now_seconds();
    if (o->json)
        write_summary(&s, o->json);
    clusterer_free(&s.cl);
    if (s.floor)
        clusterer_free(s.floor);
    dataset_free(&s.bbv);
    dataset_free(&s.bbv_train);
    free(centres);
    free(s.sweep);
    dataset_free(&s.full);
    dataset_free(&s.train);
    bb_input_free(&s.bb);
    free(s.proxy_cpi);
    free(s.cpi);
    choice_free(&s.choice);
    return 0;
}
