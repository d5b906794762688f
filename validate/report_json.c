/* JSON for scripts: every number the other reports show, errors as fractions. */
#include <math.h>

#include "report.h"

#include "profiles.h"
#include "text.h"

/* jansson cannot encode NaN or infinities: they become null. */
static json_t *real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *count(uint64_t v)
{
    return json_integer((json_int_t)v);
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *inputs(const vd_analysis *a)
{
    const vd_sampling *s = a->s;
    json_t *j = json_object();
    json_object_set_new(j, "simpoints", json_string(s->simpoints));
    json_object_set_new(j, "weights", json_string(s->weights));
    json_object_set_new(j, "labels", str_or_null(s->labels));
    json_object_set_new(j, "interval", count(s->interval));
    json_object_set_new(j, "full", json_string(a->full->res.path));
    json_object_set_new(j, "log", json_string(a->full->log.path));
    json_object_set_new(j, "log_interval", count(a->full->log.G));
    const vd_full *f = a->full;
    const vd_chunked *ch = &f->run->chunked;
    json_object_set_new(j, "full_chunked",
                        ch->chunks ? json_pack("{s:o, s:o, s:o, s:o}", "chunks", count(ch->chunks),
                                               "instructions_per_chunk", count(ch->insts), "warmup", count(ch->warmup),
                                               "cpi_uncertainty", real(vd_full_chunked_uncertainty(f)))
                                   : json_null());
    json_object_set_new(j, "profile", str_or_null(a->p.profile_path));
    json_object_set_new(j, "profile_instructions", a->p.has_profile ? count(a->p.profile_insts) : json_null());
    return j;
}

static json_t *summary(const vd_analysis *a)
{
    const vd_full *f = a->full;
    json_t *j = json_object();
    json_object_set_new(j, "application", json_string(a->name));
    json_object_set_new(j, "actual", real(f->cycles));
    json_object_set_new(j, "predicted", real(a->projected_cycles));
    json_object_set_new(j, "error", real(vd_rel(a->projected_cycles, f->cycles)));
    json_object_set_new(j, "serial_speedup", real(a->speedup));
    json_object_set_new(j, "parallel_speedup", real(a->parallel_speedup));
    json_object_set_new(j, "speedup_without_warmup", real(a->speedup_nowarm));
    json_object_set_new(j, "wall_time", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "full_run", real(a->wall_full),
                                                  "profiling", real(a->p.profile_seconds), "checkpoints",
                                                  real(a->p.ckpt_seconds), "regions", real(a->wall_regions),
                                                  "speedup", real(a->wall_speedup), "parallel_speedup",
                                                  real(a->wall_parallel_speedup)));
    json_object_set_new(j, "coverage", real(a->coverage));
    json_object_set_new(j, "instructions", count(f->insts));
    json_object_set_new(j, "intervals", json_integer((json_int_t)a->iv.n));
    json_object_set_new(j, "partial_interval", a->partial_len ? count(a->partial_len) : json_null());
    json_object_set_new(j, "simpoints", json_integer((json_int_t)a->nrows));
    json_object_set_new(j, "simulated_instructions", count(a->sim_insts));
    json_object_set_new(j, "simulated_with_warmup", count(a->sim_insts_warm));
    json_object_set_new(j, "has_regions", json_boolean(a->has_regions));
    json_object_set_new(j, "weights_basis", str_or_null(a->weights_basis));
    return j;
}

static json_t *metrics(const vd_analysis *a)
{
    const vd_metrics *ms = &a->full->ms;
    json_t *arr = json_array();
    for (size_t i = 0; i < ms->n; i++) {
        json_t *j = json_object();
        json_object_set_new(j, "id", json_string(ms->m[i].id));
        json_object_set_new(j, "label", json_string(ms->m[i].label));
        json_object_set_new(j, "full", real(a->full->values[i]));
        json_object_set_new(j, "oracle", real(a->oracle[i]));
        json_object_set_new(j, "estimate", real(a->est ? a->est[i] : NAN));
        json_object_set_new(j, "error", real(vd_err(a, i)));
        json_object_set_new(j, "abs_error", real(fabs(vd_err(a, i))));
        json_object_set_new(j, "sampling_error", real(vd_err_sampling(a, i)));
        json_object_set_new(j, "warmup_error", real(vd_err_warmup(a, i)));
        json_array_append_new(arr, j);
    }
    return arr;
}

static json_t *regions(const vd_analysis *a)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < a->nrows; i++) {
        const vd_region_row *r = &a->rows[i];
        const vd_point *pt = &a->s->pts[r->point];
        json_t *j = json_object();
        json_object_set_new(j, "cluster", json_integer(pt->cluster));
        json_object_set_new(j, "interval", count(pt->index));
        json_object_set_new(j, "weight", real(pt->weight));
        json_object_set_new(j, "multiplier", real(r->multiplier));
        json_object_set_new(j, "instructions", count(r->insts));
        json_object_set_new(j, "warmup", count(r->warmup));
        json_object_set_new(j, "cycles", real(r->cycles));
        json_object_set_new(j, "cpi_simulated", real(r->cpi_sim));
        json_object_set_new(j, "cpi_full", real(r->cpi_full));
        json_object_set_new(j, "warmup_contribution", real(r->contrib_warmup));
        json_object_set_new(j, "checkpoint", str_or_null(r->run ? r->run->checkpoint : NULL));
        json_array_append_new(arr, j);
    }
    return arr;
}

static json_t *clusters(const vd_analysis *a)
{
    json_t *arr = json_array();
    for (size_t k = 0; k < a->nclusters; k++) {
        const vd_cluster_row *c = &a->clusters[k];
        bool rep = c->point >= 0;
        json_t *j = json_object(), *cpis = json_array();
        json_object_set_new(j, "cluster", json_integer(c->id));
        json_object_set_new(j, "weight", real(rep ? c->weight : NAN));
        json_object_set_new(j, "intervals", json_integer((json_int_t)c->n));
        json_object_set_new(j, "instructions", real(c->insts));
        json_object_set_new(j, "cycles", real(c->cycles));
        json_object_set_new(j, "share_by_count", real(rep ? c->count_weight : NAN));
        json_object_set_new(j, "share_by_length", real(rep ? c->length_weight : NAN));
        json_object_set_new(j, "cpi", real(c->cpi_agg));
        json_object_set_new(j, "cpi_mean", real(c->cpi_mean));
        json_object_set_new(j, "cpi_sd", real(c->cpi_sd));
        json_object_set_new(j, "cpi_min", real(c->cpi_min));
        json_object_set_new(j, "cpi_max", real(c->cpi_max));
        json_object_set_new(j, "cov", real(c->cov));
        json_object_set_new(j, "representative", rep ? count(a->s->pts[c->point].index) : json_null());
        json_object_set_new(j, "cpi_representative", real(rep ? a->rows[c->point].cpi_full : NAN));
        json_object_set_new(j, "z", real(c->rep_z));
        json_object_set_new(j, "sampling_contribution", real(c->contrib_sampling));
        json_object_set_new(j, "varies_widely", json_boolean(c->variable));
        json_object_set_new(j, "unrepresentative", json_boolean(c->unrepresentative));
        for (size_t i = 0; i < c->n; i++)
            json_array_append_new(cpis, real(c->member_cpi[i]));
        json_object_set_new(j, "member_cpi", cpis);
        json_array_append_new(arr, j);
    }
    return arr;
}

static json_t *confidence(const vd_analysis *a)
{
    if (!a->has_labels)
        return json_null();
    json_t *j = json_object(), *strata = json_object(), *boot = json_object();
    json_object_set_new(strata, "se", real(a->se));
    json_object_set_new(strata, "low", real(a->ci_lo));
    json_object_set_new(strata, "high", real(a->ci_hi));
    json_object_set_new(strata, "contains_full", json_boolean(a->ci_covers_full));
    json_object_set_new(strata, "contains_full_without_warmup_error", json_boolean(a->ci_covers_oracle));
    json_object_set_new(j, "stratified", strata);
    if (a->boot.n) {
        json_object_set_new(boot, "draws", json_integer((json_int_t)a->boot.n));
        json_object_set_new(boot, "seed", count(a->boot.seed));
        json_object_set_new(boot, "mean", real(a->boot.mean));
        json_object_set_new(boot, "sd", real(a->boot.sd));
        json_object_set_new(boot, "low", real(a->boot.lo));
        json_object_set_new(boot, "median", real(a->boot.median));
        json_object_set_new(boot, "high", real(a->boot.hi));
        json_object_set_new(boot, "chosen_better_than", real(a->boot.chosen_better_than));
        json_object_set_new(j, "bootstrap", boot);
    } else {
        json_decref(boot);
        json_object_set_new(j, "bootstrap", json_null());
    }
    return j;
}

json_t *vd_report_json(const vd_analysis *a, const vd_diag *d)
{
    json_t *root = json_object(), *warnings = json_array();
    json_object_set_new(root, "tool", json_string("validate"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "inputs", inputs(a));
    json_object_set_new(root, "summary", summary(a));
    json_object_set_new(root, "cpi", json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "full", real(a->full->values[0]),
                                               "oracle", real(a->oracle[0]), "estimate",
                                               real(a->est ? a->est[0] : NAN), "predicted", real(a->predicted[0]),
                                               "error", real(vd_err(a, 0)), "sampling_error",
                                               real(vd_err_sampling(a, 0)), "warmup_error", real(vd_err_warmup(a, 0))));
    json_object_set_new(root, "metrics", metrics(a));
    json_object_set_new(root, "regions", regions(a));
    json_object_set_new(root, "clusters", a->has_labels ? clusters(a) : json_null());
    json_object_set_new(root, "confidence", confidence(a));
    json_object_set_new(root, "profile", a->profiles ? vd_profiles_json(a->profiles) : json_null());
    for (size_t i = 0; i < d->nwarnings; i++)
        json_array_append_new(warnings, json_string(d->warnings[i]));
    json_object_set_new(root, "warnings", warnings);
    return root;
}
