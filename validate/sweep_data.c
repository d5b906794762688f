/* The sweep for machines: CSV tables and JSON. */
#include <math.h>
#include <stdlib.h>

#include "sink.h"
#include "sweep_report.h"

static const char *pct(double fraction)
{
    return vd_cell(100 * fraction);
}

static void rows_csv(const vd_sweep *sw, const char *prefix)
{
    char *path = vd_format("%s.rows.csv", prefix);
    vd_sink o;
    vd_sink_open(&o, path);
    vd_sink_printf(&o, "program,interval,max_k,bic,k,instructions,simulated,simulated_with_warmup,speedup,"
                       "speedup_without_warmup,parallel_speedup,cpi_full,cpi_oracle,sampling_error_pct,ci_half_pct,"
                       "coverage,has_regions,cpi_estimate,error_pct,warmup_error_pct,warnings,method,seconds\n");
    for (size_t i = 0; i < sw->n; i++) {
        const vd_sweep_row *r = &sw->rows[i];
        vd_sink_str(&o, r->program);
        vd_sink_printf(&o, ",%llu,%ld,%s,%zu,%s,%llu,%llu,%s,%s,%s,",
                       (unsigned long long)r->m->interval, r->m->max_k, vd_cell(r->m->bic), r->k, vd_cell(r->insts),
                       (unsigned long long)r->sim, (unsigned long long)r->sim_warm, vd_cell(r->speedup),
                       vd_cell(r->speedup_nowarm), vd_cell(r->parallel_speedup));
        vd_sink_printf(&o, "%s,%s,%s,%s,%s,%d,%s,%s,%s,%zu,%s,%s\n", vd_cell(r->cpi_full), vd_cell(r->cpi_oracle),
                       pct(r->err_sampling), pct(r->ci_half), vd_cell(r->coverage), r->has_regions,
                       vd_cell(r->cpi_est), pct(r->err), pct(r->err_warmup), r->nwarnings, r->m->method,
                       vd_cell(r->m->seconds));
    }
    vd_sink_commit(&o);
    free(path);
}

static void configs_csv(const vd_sweep *sw, const char *prefix)
{
    char *path = vd_format("%s.configs.csv", prefix);
    vd_sink o;
    vd_sink_open(&o, path);
    vd_sink_printf(&o, "interval,max_k,bic,programs,k_mean,k_min,k_max,simulated,simulated_with_warmup,speedup,"
                       "mean_abs_error_pct,max_abs_error_pct,rms_error_pct,complete,pareto,meets_target,regions,"
                       "mean_abs_estimate_error_pct,mean_abs_warmup_error_pct,method,seconds,"
                       "mean_abs_error_plus_ci_pct\n");
    for (size_t c = 0; c < sw->ncfg; c++) {
        const vd_sweep_cfg *x = &sw->cfgs[c];
        vd_sink_printf(&o, "%llu,%ld,%s,%zu,%s,%zu,%zu,%s,%s,%s,%s,%s,%s,%d,%d,%d,%zu,%s,%s,%s,",
                       (unsigned long long)x->interval, x->max_k, vd_cell(x->bic), x->nprog,
                       vd_cell((double)x->k_total / (double)x->nprog), x->k_min, x->k_max,
                       vd_cell(x->sim), vd_cell(x->sim_warm), vd_cell(x->speedup), pct(x->mean_abs), pct(x->max_abs),
                       pct(x->rms), x->complete, x->pareto, x->meets, x->nregions, pct(x->mean_abs_est),
                       pct(x->mean_abs_warmup), x->method);
        vd_sink_printf(&o, "%s,%s\n", vd_cell(x->seconds), pct(x->mean_bound));
    }
    vd_sink_commit(&o);
    free(path);
}

void vd_sweep_csv(const vd_sweep *sw, const char *prefix)
{
    rows_csv(sw, prefix);
    configs_csv(sw, prefix);
}

static json_t *real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cfg_json(const vd_sweep *sw, long c)
{
    if (c < 0)
        return json_null();
    const vd_sweep_cfg *x = &sw->cfgs[c];
    json_t *j = json_object(), *progs = json_array();
    json_object_set_new(j, "interval", json_integer((json_int_t)x->interval));
    json_object_set_new(j, "max_k", json_integer(x->max_k));
    json_object_set_new(j, "bic", real(x->bic));
    json_object_set_new(j, "method", json_string(x->method));
    json_object_set_new(j, "seconds", real(x->seconds));
    json_object_set_new(j, "k", json_pack("{s:f, s:I, s:I}", "mean", (double)x->k_total / (double)x->nprog, "min",
                                          (json_int_t)x->k_min, "max", (json_int_t)x->k_max));
    json_object_set_new(j, "simulated", real(x->sim));
    json_object_set_new(j, "simulated_with_warmup", real(x->sim_warm));
    json_object_set_new(j, "speedup", real(x->speedup));
    json_object_set_new(j, "mean_abs_error", real(x->mean_abs));
    json_object_set_new(j, "max_abs_error", real(x->max_abs));
    json_object_set_new(j, "rms_error", real(x->rms));
    json_object_set_new(j, "mean_abs_error_plus_ci", real(x->mean_bound)); /* what the target is checked against */
    json_object_set_new(j, "programs_without_ci", json_integer((json_int_t)x->no_interval));
    json_object_set_new(j, "complete", json_boolean(x->complete));
    json_object_set_new(j, "pareto", json_boolean(x->pareto));
    json_object_set_new(j, "meets_target", json_boolean(x->meets));
    json_object_set_new(j, "mean_abs_estimate_error", real(x->mean_abs_est));
    json_object_set_new(j, "mean_abs_warmup_error", real(x->mean_abs_warmup));
    for (size_t i = 0; i < x->nprog; i++)
        json_array_append_new(progs, json_string(sw->rows[x->rows[i]].program));
    json_object_set_new(j, "programs", progs);
    return j;
}

static json_t *row_json(const vd_sweep_row *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "program", json_string(r->program));
    json_object_set_new(j, "interval", json_integer((json_int_t)r->m->interval));
    json_object_set_new(j, "max_k", json_integer(r->m->max_k));
    json_object_set_new(j, "bic", real(r->m->bic));
    json_object_set_new(j, "method", json_string(r->m->method));
    json_object_set_new(j, "k", json_integer((json_int_t)r->k));
    json_object_set_new(j, "instructions", real(r->insts));
    json_object_set_new(j, "simulated", json_integer((json_int_t)r->sim));
    json_object_set_new(j, "simulated_with_warmup", json_integer((json_int_t)r->sim_warm));
    json_object_set_new(j, "speedup", real(r->speedup));
    json_object_set_new(j, "speedup_without_warmup", real(r->speedup_nowarm));
    json_object_set_new(j, "parallel_speedup", real(r->parallel_speedup));
    json_object_set_new(j, "cpi_full", real(r->cpi_full));
    json_object_set_new(j, "cpi_oracle", real(r->cpi_oracle));
    json_object_set_new(j, "sampling_error", real(r->err_sampling));
    json_object_set_new(j, "ci_half_width", real(r->ci_half));
    json_object_set_new(j, "coverage", real(r->coverage));
    json_object_set_new(j, "cpi_estimate", real(r->cpi_est));
    json_object_set_new(j, "error", real(r->err));
    json_object_set_new(j, "warmup_error", real(r->err_warmup));
    json_object_set_new(j, "simpoints", json_string(r->m->simpoints));
    json_object_set_new(j, "line", json_integer((json_int_t)r->m->line));
    return j;
}

json_t *vd_sweep_json(const vd_sweep *sw)
{
    json_t *root = json_object(), *cfgs = json_array(), *rows = json_array(), *by_iv = json_array(),
           *notes = json_array();
    json_object_set_new(root, "tool", json_string("validate"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "mode", json_string("sweep"));
    json_object_set_new(root, "manifest", json_string(sw->manifest->path));
    json_object_set_new(root, "target", real(sw->target));
    json_object_set_new(root, "best", cfg_json(sw, sw->best));
    json_object_set_new(root, "most_accurate", cfg_json(sw, sw->most_accurate));
    for (size_t i = 0; i < sw->nintervals; i++) {
        json_t *j = json_object();
        json_object_set_new(j, "interval", json_integer((json_int_t)sw->intervals[i]));
        json_object_set_new(j, "baseline", cfg_json(sw, sw->baseline_by_interval[i]));
        json_object_set_new(j, "cheapest_within_target", cfg_json(sw, sw->best_by_interval[i]));
        json_array_append_new(by_iv, j);
    }
    json_object_set_new(root, "by_interval", by_iv);
    for (size_t c = 0; c < sw->ncfg; c++)
        json_array_append_new(cfgs, cfg_json(sw, (long)c));
    json_object_set_new(root, "configs", cfgs);
    for (size_t i = 0; i < sw->n; i++)
        json_array_append_new(rows, row_json(&sw->rows[i]));
    json_object_set_new(root, "rows", rows);
    for (size_t i = 0; i < sw->notes.nwarnings; i++)
        json_array_append_new(notes, json_string(sw->notes.warnings[i]));
    json_object_set_new(root, "warnings", notes);
    return root;
}
