/* CSV: one table per file, percentages in *_pct columns, empty cells for
 * values that do not exist (no region results, no labels, division by 0). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#include "profiles.h"
#include "sink.h"

static const char *pct(double fraction)
{
    return vd_cell(100 * fraction);
}

static vd_sink open_table(const char *prefix, const char *table)
{
    size_t n = strlen(prefix);
    char *path = vd_format("%s%s%s.csv", prefix, n && prefix[n - 1] == '/' ? "" : ".", table);
    vd_sink o;
    vd_sink_open(&o, path);
    free(path);
    return o;
}

static void summary(const vd_analysis *a, const char *prefix)
{
    const vd_full *f = a->full;
    vd_sink o = open_table(prefix, "summary");
    vd_sink_printf(&o, "application,actual,predicted,error_pct,serial_speedup,parallel_speedup,coverage,"
                       "instructions,interval,simpoints,cpi_full,cpi_predicted,cpi_oracle,cpi_estimate,"
                       "sampling_error_pct,warmup_error_pct,ci_low,ci_high,simulated_instructions,"
                       "simulated_with_warmup,speedup_without_warmup,wall_speedup,wall_parallel_speedup\n");
    vd_sink_str(&o, a->name);
    vd_sink_printf(&o, ",%s,%s,%s,%s,%s,%s,", vd_cell(f->cycles), vd_cell(a->projected_cycles),
                   pct(vd_rel(a->projected_cycles, f->cycles)), vd_cell(a->speedup), vd_cell(a->parallel_speedup),
                   vd_cell(a->coverage));
    vd_sink_printf(&o, "%llu,%llu,%zu,%s,%s,%s,%s,", (unsigned long long)f->insts, (unsigned long long)a->s->interval,
                   a->s->npts, vd_cell(f->values[0]), vd_cell(a->predicted[0]), vd_cell(a->oracle[0]),
                   vd_cell(a->est ? a->est[0] : NAN));
    vd_sink_printf(&o, "%s,%s,%s,%s,%llu,%llu,%s,%s,%s\n", pct(vd_err_sampling(a, 0)), pct(vd_err_warmup(a, 0)),
                   vd_cell(a->ci_lo), vd_cell(a->ci_hi), (unsigned long long)a->sim_insts,
                   (unsigned long long)a->sim_insts_warm, vd_cell(a->speedup_nowarm), vd_cell(a->wall_speedup),
                   vd_cell(a->wall_parallel_speedup));
    vd_sink_commit(&o);
}

static void metrics(const vd_analysis *a, const char *prefix)
{
    const vd_metrics *ms = &a->full->ms;
    vd_sink o = open_table(prefix, "metrics");
    vd_sink_printf(&o, "metric,label,full,oracle,estimate,error_pct,abs_error_pct,sampling_pct,warmup_pct\n");
    for (size_t i = 0; i < ms->n; i++) {
        double e = vd_err(a, i);
        vd_sink_printf(&o, "%s,", ms->m[i].id);
        vd_sink_str(&o, ms->m[i].label);
        vd_sink_printf(&o, ",%s,%s,%s,%s,%s,%s,%s\n", vd_cell(a->full->values[i]), vd_cell(a->oracle[i]),
                       vd_cell(a->est ? a->est[i] : NAN), pct(e), pct(fabs(e)), pct(vd_err_sampling(a, i)),
                       pct(vd_err_warmup(a, i)));
    }
    vd_sink_commit(&o);
}

static void regions(const vd_analysis *a, const char *prefix)
{
    vd_sink o = open_table(prefix, "regions");
    vd_sink_printf(&o, "cluster,interval,weight,multiplier,instructions,warmup,cycles,cpi_simulated,cpi_full,"
                       "delta_pct,warmup_contribution_pct,cluster_size,cov,z\n");
    for (size_t i = 0; i < a->nrows; i++) {
        const vd_region_row *r = &a->rows[i];
        const vd_point *pt = &a->s->pts[r->point];
        const vd_cluster_row *c = r->cluster_row >= 0 ? &a->clusters[r->cluster_row] : NULL;
        vd_sink_printf(&o, "%ld,%llu,%s,%s,%llu,%llu,%s,%s,%s,%s,%s,%s,%s,%s\n", pt->cluster,
                       (unsigned long long)pt->index, vd_cell(pt->weight), vd_cell(r->multiplier),
                       (unsigned long long)r->insts, (unsigned long long)r->warmup, vd_cell(r->cycles),
                       vd_cell(r->cpi_sim), vd_cell(r->cpi_full), pct(vd_rel(r->cpi_sim, r->cpi_full)),
                       pct(r->contrib_warmup), c ? vd_cell((double)c->n) : "", c ? vd_cell(c->cov) : "",
                       c ? vd_cell(c->rep_z) : "");
    }
    vd_sink_commit(&o);
}

static void clusters(const vd_analysis *a, const char *prefix)
{
    vd_sink o = open_table(prefix, "clusters");
    vd_sink_printf(&o, "cluster,weight,intervals,instructions,cycles,share_by_count,share_by_length,cpi,cpi_mean,"
                       "cpi_sd,cpi_min,cpi_max,cov,representative,cpi_representative,z,sampling_contribution_pct,"
                       "varies_widely,unrepresentative\n");
    for (size_t k = 0; k < a->nclusters; k++) {
        const vd_cluster_row *c = &a->clusters[k];
        bool rep = c->point >= 0;
        vd_sink_printf(&o, "%ld,%s,%zu,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,", c->id, rep ? vd_cell(c->weight) : "", c->n,
                       vd_cell(c->insts), vd_cell(c->cycles), rep ? vd_cell(c->count_weight) : "",
                       rep ? vd_cell(c->length_weight) : "", vd_cell(c->cpi_agg), vd_cell(c->cpi_mean),
                       vd_cell(c->cpi_sd), vd_cell(c->cpi_min), vd_cell(c->cpi_max), vd_cell(c->cov));
        if (rep)
            vd_sink_printf(&o, "%llu,%s,", (unsigned long long)a->s->pts[c->point].index,
                           vd_cell(a->rows[c->point].cpi_full));
        else
            vd_sink_printf(&o, ",,");
        vd_sink_printf(&o, "%s,%s,%d,%d\n", vd_cell(c->rep_z), pct(c->contrib_sampling), c->variable,
                       c->unrepresentative);
    }
    vd_sink_commit(&o);
}

void vd_report_csv(const vd_analysis *a, const char *prefix)
{
    summary(a, prefix);
    metrics(a, prefix);
    regions(a, prefix);
    if (a->has_labels)
        clusters(a, prefix);
    if (a->profiles && a->profiles->present) {
        vd_sink o = open_table(prefix, "profile");
        vd_profiles_csv(&o, a->profiles);
        vd_sink_commit(&o);
    }
}
