/* --json: what was read, every run's score, what was chosen, time and memory. */
#include <math.h>
#include <omp.h>
#include <sys/resource.h>

#include "json_out.h"
#include "output.h"
#include "session.h"

/* jansson cannot encode NaN or infinities (e.g. the BIC of a zero-distortion run). */
static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *run_json(const sp_run *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "k", json_integer(r->k));
    json_object_set_new(j, "bic", real_or_null(r->score.bic));
    json_object_set_new(j, "distortion", real_or_null(r->score.distortion));
    json_object_set_new(j, "variance", real_or_null(r->score.variance));
    json_object_set_new(j, "restart", json_integer(r->trial));
    json_object_set_new(j, "seed", json_integer(r->seed));
    json_object_set_new(j, "iterations", json_integer(r->km.iterations));
    json_object_set_new(j, "converged", json_boolean(r->km.converged));
    return j;
}

static json_t *input_json(const session *s)
{
    const sp_options *o = s->o;
    json_t *j = json_object();
    json_object_set_new(j, "file", json_string(s->input));
    json_object_set_new(j, "intervals", json_integer((json_int_t)s->full.n));
    if (s->from_bb) {
        json_object_set_new(j, "blocks", json_integer(s->bb.num_blocks));
        json_object_set_new(j, "zero_based_ids", json_boolean(s->bb.zero_based));
        json_object_set_new(j, "bytes", json_integer((json_int_t)s->bb.bytes));
        double total = 0;
        for (size_t i = 0; i < s->full.n; i++)
            total += s->bb.row_sums[i];
        json_object_set_new(j, "instructions", json_real(total));
        if (s->bb.partial_index >= 0) {
            json_object_set_new(j, "partial_interval", json_integer(s->bb.partial_index));
            json_object_set_new(j, "partial_length", json_integer((json_int_t)s->bb.partial_len));
        }
    }
    json_object_set_new(j, "dimensions", json_integer((json_int_t)s->full.d));
    json_object_set_new(j, "projected", json_boolean(o->dim > 0));
    json_object_set_new(j, "fixed_length", json_boolean(o->fixed_length));
    json_object_set_new(j, "sampled", json_integer(s->sampled ? (json_int_t)s->train.n : 0));
    return j;
}

static json_t *sweep_json(const session *s)
{
    json_t *a = json_array();
    for (size_t i = 0; i < s->nsweep; i++) {
        const sweep_row *r = &s->sweep[i];
        json_t *j = json_object(), *ks = json_array();
        json_object_set_new(j, "max_k", json_integer(r->max_k));
        json_object_set_new(j, "bic_threshold", json_real(r->threshold));
        json_object_set_new(j, "chosen_k", json_integer(r->k));
        json_object_set_new(j, "bic", real_or_null(r->bic));
        json_object_set_new(j, "distortion", real_or_null(r->distortion));
        json_object_set_new(j, "simpoints", json_integer((json_int_t)r->simpoints));
        for (size_t k = 0; k < r->nruns && k < 64; k++)
            json_array_append_new(ks, json_integer(r->ks[k]));
        json_object_set_new(j, "k_tried", ks);
        json_array_append_new(a, j);
    }
    return a;
}

/* The standard error the proxy CPI predicts for the estimate (proxy.h), in
 * proxy CPI and relative to its mean, with the 95% interval's half-width. */
static json_t *predicted_json(const session *s, const sp_run *best, const sp_choice *ch)
{
    double mean, se = proxy_predicted_se(s->proxy_cpi, s->full.w, ch->label ? ch->label : best->labels, s->full.n,
                                         ch, &mean);
    json_t *j = json_object();
    json_object_set_new(j, "points", json_integer((json_int_t)ch->nonempty));
    json_object_set_new(j, "proxy_cpi", real_or_null(mean));
    json_object_set_new(j, "se", real_or_null(se));
    json_object_set_new(j, "relative_se", real_or_null(mean > 0 ? se / mean : NAN));
    json_object_set_new(j, "ci95_relative", real_or_null(mean > 0 ? 1.96 * se / mean : NAN));
    return j;
}

/* --points: the budget, and what it was measured against. */
static json_t *budget_json(const session *s)
{
    json_t *j = json_object();
    json_object_set_new(j, "points", json_integer((json_int_t)s->budget));
    json_object_set_new(j, "stage1_points", json_integer((json_int_t)s->stage1));
    json_object_set_new(j, "simpoint_points", s->simpoint_points ? json_integer((json_int_t)s->simpoint_points)
                                                                 : json_null());
    json_object_set_new(j, "reclustered", json_boolean(s->reclustered));
    return j;
}

/* The estimate and 95% interval of a design from its measured points. */
static json_t *interval_json(const ts_interval *t)
{
    json_t *j = json_object();
    json_object_set_new(j, "points", json_integer((json_int_t)t->points));
    json_object_set_new(j, "measured", json_integer((json_int_t)t->measured));
    json_object_set_new(j, "complete", json_boolean(t->complete));
    json_object_set_new(j, "cpi", real_or_null(t->estimate));
    json_object_set_new(j, "se_relative", real_or_null(t->se));
    json_object_set_new(j, "ci95_relative", real_or_null(t->half));
    json_object_set_new(j, "low", real_or_null(t->estimate * (1 - t->half)));
    json_object_set_new(j, "high", real_or_null(t->estimate * (1 + t->half)));
    json_object_set_new(j, "df", real_or_null(t->df));
    json_object_set_new(j, "t", real_or_null(t->z));
    json_object_set_new(j, "pairs", real_or_null(t->pairs));
    json_object_set_new(j, "pairs_ss", real_or_null(t->resid_ss));
    json_object_set_new(j, "residual_sd", real_or_null(t->resid_sd));
    return j;
}

/* --measured: the design written, and with --target-ci the first stage and what was added. */
static json_t *measured_json(const session *s)
{
    const ts_model *m = &ts_model_default;
    json_t *j = interval_json(&s->interval);
    json_object_set_new(j, "model", json_pack("{s:f, s:f, s:f}", "level", m->level, "prior_df", m->prior_df,
                                              "prior_sd", m->prior_sd));
    /* each point's k-means cluster: the groups whose points' disagreement is the variance's */
    json_t *strata = json_array();
    const int *cluster = s->runs[s->chosen]->labels;
    for (size_t c = 0; c < s->choice.k; c++)
        if (s->choice.rep[c] >= 0)
            json_array_append_new(strata, json_pack("{s:I, s:I, s:I}", "stratum", (json_int_t)c, "interval",
                                                    (json_int_t)s->choice.rep[c], "kmeans_cluster",
                                                    (json_int_t)cluster[s->choice.rep[c]]));
    json_object_set_new(j, "strata", strata);
    if (!s->o->target_ci)
        return j;
    json_object_set_new(j, "target_ci", json_real(s->o->target_ci));
    json_object_set_new(j, "first_stage", interval_json(&s->first));
    json_object_set_new(j, "predicted_ci95_relative", real_or_null(s->predicted_half));
    json_object_set_new(j, "target_met", json_boolean(s->predicted_half <= s->o->target_ci));
    json_t *added = json_array();
    for (size_t c = s->choice.k - s->added; c < s->choice.k; c++)
        json_array_append_new(added, json_pack("{s:I, s:I}", "interval", (json_int_t)s->choice.rep[c], "cluster",
                                               (json_int_t)c));
    json_object_set_new(j, "added", added);
    return j;
}

void write_summary(const session *s, const char *path)
{
    const sp_options *o = s->o;
    json_t *root = json_object();
    json_object_set_new(root, "tool", json_string("simpoint"));
    json_object_set_new(root, "input", input_json(s));
    json_t *opts = json_object();
    json_object_set_new(opts, "compat", json_boolean(o->compat));
    json_object_set_new(opts, "num_init_seeds", json_integer(o->num_init_seeds));
    json_object_set_new(opts, "iters", json_integer(o->iters));
    json_object_set_new(opts, "bic_threshold", json_real(o->bic_threshold));
    json_object_set_new(opts, "seedkm", json_integer(o->seed_km));
    json_object_set_new(opts, "seedproj", json_integer(o->seed_proj));
    json_object_set_new(opts, "kmeans", json_string(o->lloyd ? "lloyd" : "hamerly"));
    json_object_set_new(root, "options", opts);
    json_t *runs = json_array();
    if (s->nsweep) {
        /* Every distinct clustering the sweep computed. */
        for (size_t i = 0; i < s->cl.ncache; i++)
            json_array_append_new(runs, run_json(s->cl.cache[i]));
        json_object_set_new(root, "runs", runs);
        json_object_set_new(root, "sweep", sweep_json(s));
    } else {
        for (size_t i = 0; i < s->nruns; i++)
            json_array_append_new(runs, run_json(s->runs[i]));
        json_object_set_new(root, "runs", runs);
        const sp_run *best = s->runs[s->chosen];
        const sp_choice *ch = &s->choice;
        json_object_set_new(root, "chosen_k", json_integer(best->k));
        json_object_set_new(root, "simpoints", json_integer((json_int_t)ch->nonempty));
        json_object_set_new(root, "bic", real_or_null(best->score.bic));
        json_object_set_new(root, "distortion", real_or_null(best->score.distortion));
        if (s->proxy_cpi)
            json_object_set_new(root, "predicted", predicted_json(s, best, ch));
        if (s->budget)
            json_object_set_new(root, "budget", budget_json(s));
        if (s->o->n_measured)
            json_object_set_new(root, "measured", measured_json(s));
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    json_t *perf = json_object();
    json_object_set_new(perf, "threads", json_integer(omp_get_max_threads()));
    json_object_set_new(perf, "load_seconds", json_real(s->t_loaded - s->t_start));
    json_object_set_new(perf, "cluster_seconds", json_real(s->t_clustered - s->t_loaded));
    json_object_set_new(perf, "total_seconds", json_real(s->t_end - s->t_start));
    json_object_set_new(perf, "peak_rss_kib", json_integer(ru.ru_maxrss));
    json_object_set_new(root, "performance", perf);
    json_write_file(path, root);
    json_decref(root);
}
