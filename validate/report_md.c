/* Markdown: a header like perf stat's, then the tables. */
#include <math.h>

#include "report.h"

#include "profiles.h"
#include "sink.h"
#include "text.h"

static void header(vd_sink *o, const vd_analysis *a)
{
    const vd_sampling *s = a->s;
    const vd_full *f = a->full;
    vd_sink_printf(o, "# validate: %s\n\n", a->name);
    vd_sink_printf(o, "- sampling: %zu simulation points of %s instructions (%s, %s%s%s)\n", s->npts,
                   vd_count((double)s->interval), s->simpoints, s->weights, s->labels ? ", " : "",
                   s->labels ? s->labels : "");
    vd_sink_printf(o, "- full run: %s instructions, %s cycles, CPI %s (%s; log of %zu rows of %s)\n",
                   vd_count((double)f->insts), vd_count(f->cycles), vd_num(f->values[0], 6), f->res.path,
                   f->log.nrows, vd_count((double)f->log.G));
    const vd_chunked *ch = &f->run->chunked;
    if (ch->chunks)
        vd_sink_printf(o, "- the full run was chunked: %s chunks of %s instructions simulated in parallel, each from "
                          "warm caches and predictors after %s instructions of detailed warm-up; its CPI is within "
                          "%s of a serial run's (%s instructions' worth per chunk boundary, the most measured in "
                          "bench/results/chunked_full.md), a bound on how exactly the errors below are known\n",
                       vd_count((double)ch->chunks), vd_count((double)ch->insts), vd_count((double)ch->warmup),
                       vd_upct(vd_full_chunked_uncertainty(f)), vd_count(VD_CHUNK_BOUNDARY_INSTS));
    if (a->has_regions)
        vd_sink_printf(o, "- regions: %zu simulated, %s instructions with %s of warm-up\n", a->nrows,
                       vd_count((double)a->sim_insts), vd_count((double)(a->sim_insts_warm - a->sim_insts)));
    else
        vd_sink_printf(o, "- regions: none given: the prediction is the representatives' CPI in the full run "
                          "(sampling error only)\n");
    vd_sink_printf(o, "\n");
}

static void summary(vd_sink *o, const vd_analysis *a)
{
    const vd_full *f = a->full;
    vd_sink_printf(o, "## Summary\n\n");
    vd_sink_printf(o, "| application | actual cycles | predicted cycles | error | speedup in instructions (serial, "
                      "parallel) | speedup in wall time (serial, parallel) | coverage |\n|---|--:|--:|--:|--:|--:|--:|\n");
    vd_sink_printf(o, "| %s | %s | %s | %s | %s, %s | %s, %s | %s |\n\n", a->name, vd_count(f->cycles),
                   vd_count(a->projected_cycles), vd_pct(vd_rel(a->projected_cycles, f->cycles)),
                   vd_times(a->speedup, 4), vd_times(a->parallel_speedup, 4), vd_times(a->wall_speedup, 3),
                   vd_times(a->wall_parallel_speedup, 3), vd_upct(a->coverage));
    vd_sink_printf(o, "- CPI: full run %s, %s %s: error %s", vd_num(f->values[0], 6),
                   a->has_regions ? "estimate" : "oracle", vd_num(a->predicted[0], 6), vd_pct(vd_err(a, 0)));
    if (a->has_regions)
        vd_sink_printf(o, " = sampling %s + warm-up %s", vd_pct(vd_err_sampling(a, 0)), vd_pct(vd_err_warmup(a, 0)));
    vd_sink_printf(o, " (signed: (predicted - full) / full)\n");
    if (a->has_labels && isnan(a->se)) {
        vd_sink_printf(o, "- no confidence interval: every cluster has one interval\n");
    } else if (a->has_labels) {
        vd_sink_printf(o, "- 95%% interval, clusters as strata: %s .. %s (±%s), %s the full-run CPI\n",
                       vd_num(a->ci_lo, 5), vd_num(a->ci_hi, 5), vd_upct((a->ci_hi - a->ci_lo) / 2 / a->predicted[0]),
                       a->ci_covers_full     ? "contains"
                       : a->ci_covers_oracle ? "does not contain (by the warm-up error, which it leaves out)"
                                             : "**does not contain**");
        if (a->boot.n)
            vd_sink_printf(o, "- bootstrap over the choice of representative (%zu draws, seed %llu): %s .. %s, "
                              "median %s; the chosen representatives beat %s of random choices\n",
                           a->boot.n, (unsigned long long)a->boot.seed, vd_num(a->boot.lo, 5), vd_num(a->boot.hi, 5),
                           vd_num(a->boot.median, 5), vd_upct(a->boot.chosen_better_than));
    } else {
        vd_sink_printf(o, "- confidence: give --labels for the interval, the clusters and the bootstrap\n");
    }
    vd_sink_printf(o, "- cost: %s instructions simulated, %s with warm-up; speedup %sx (%sx without warm-up), "
                      "%sx with every region in parallel\n",
                   vd_count((double)a->sim_insts), vd_count((double)a->sim_insts_warm), vd_num(a->speedup, 4),
                   vd_num(a->speedup_nowarm, 4), vd_num(a->parallel_speedup, 4));
    if (!a->has_regions) {
        vd_sink_printf(o, "\n");
        return;
    }
    if (a->nextra)
        vd_sink_printf(o, "- the cost includes %zu extra cluster members simulated for the spread within clusters "
                          "(%s instructions; they are not in the estimate)\n",
                       a->nextra, vd_count((double)a->extra_insts));
    if (isnan(a->wall_speedup))
        vd_sink_printf(o, "- wall time: full run %s s, the regions %s s; give --profile-summary and --checkpoints "
                          "for the whole sampled flow's cost\n\n",
                       vd_num(a->wall_full, 3), vd_num(a->wall_regions, 3));
    else
        vd_sink_printf(o, "- wall time: full run %s s; sampled flow %s s (profiling %s s, checkpoints with their "
                          "warm state %s s, regions %s s): speedup %sx, %sx with every region in parallel\n\n",
                       vd_num(a->wall_full, 3),
                       vd_num(a->p.profile_seconds + a->p.ckpt_seconds + a->wall_regions, 3),
                       vd_num(a->p.profile_seconds, 3), vd_num(a->p.ckpt_seconds, 3), vd_num(a->wall_regions, 3),
                       vd_num(a->wall_speedup, 3), vd_num(a->wall_parallel_speedup, 3));
}

static void metrics(vd_sink *o, const vd_analysis *a)
{
    const vd_metrics *ms = &a->full->ms;
    /* The difference beside the relative error: +40,000% of an MPKI of 0.001 is not a large error. */
    vd_sink_printf(o, "## Metrics\n\n| metric | full run | %s | difference | error | sampling |%s\n|---|--:|--:|--:|--:|--:|%s\n",
                   a->has_regions ? "estimate" : "oracle", a->has_regions ? " warm-up |" : "",
                   a->has_regions ? "--:|" : "");
    for (size_t i = 0; i < ms->n; i++) {
        if (!ms->m[i].headline)
            continue;
        char diff[64];
        snprintf(diff, sizeof diff, "%+.4g", a->predicted[i] - a->full->values[i]);
        vd_sink_printf(o, "| %s | %s | %s | %s | %s | %s |", ms->m[i].label, vd_num(a->full->values[i], 5),
                       vd_num(a->predicted[i], 5), isnan(a->predicted[i] - a->full->values[i]) ? "n/a" : diff,
                       vd_pct(vd_err(a, i)), vd_pct(vd_err_sampling(a, i)));
        if (a->has_regions)
            vd_sink_printf(o, " %s |", vd_pct(vd_err_warmup(a, i)));
        vd_sink_printf(o, "\n");
    }
    vd_sink_printf(o, "\nEvery cycle-stack component and event is in the CSV and JSON outputs.\n\n");
}

static void regions(vd_sink *o, const vd_analysis *a)
{
    vd_sink_printf(o, "## Regions\n\n| cluster | interval | weight | multiplier | instructions | warm-up | cycles | "
                      "CPI simulated | CPI full run | Δ | warm-up contribution | cluster size | CoV |\n"
                      "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (size_t i = 0; i < a->nrows; i++) {
        const vd_region_row *r = &a->rows[i];
        const vd_point *pt = &a->s->pts[r->point];
        const vd_cluster_row *c = r->cluster_row >= 0 ? &a->clusters[r->cluster_row] : NULL;
        vd_sink_printf(o, "| %ld | %llu | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", pt->cluster,
                       (unsigned long long)pt->index, vd_num(pt->weight, 4), vd_num(r->multiplier, 6),
                       vd_count((double)r->insts), vd_count((double)r->warmup), vd_count(r->cycles),
                       vd_num(r->cpi_sim, 5), vd_num(r->cpi_full, 5), vd_pct(vd_rel(r->cpi_sim, r->cpi_full)),
                       vd_pct(r->contrib_warmup), c ? vd_count((double)c->n) : "n/a", c ? vd_num(c->cov, 3) : "n/a");
    }
    vd_sink_printf(o, "\nΔ: simulated against the same interval in the full run; contribution: weight x Δ, as a "
                      "share of the full-run CPI (they add up to the warm-up error).\n\n");
}

static void clusters(vd_sink *o, const vd_analysis *a)
{
    if (!a->has_labels)
        return;
    vd_sink_printf(o, "## Clusters\n\n| cluster | weight | intervals | share by count | share by length | CPI | "
                      "mean | sd | min | max | CoV | representative | z | sampling contribution | flags |\n"
                      "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
    for (size_t k = 0; k < a->nclusters; k++) {
        const vd_cluster_row *c = &a->clusters[k];
        bool rep = c->point >= 0;
        const char *flags = !rep ? "no representative" : c->variable && c->unrepresentative ? "varies widely, unrepresentative"
                            : c->variable ? "varies widely" : c->unrepresentative ? "unrepresentative" : "";
        vd_sink_printf(o, "| %ld | %s | %zu | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                       c->id, rep ? vd_num(c->weight, 4) : "-", c->n, rep ? vd_num(c->count_weight, 4) : "-",
                       rep ? vd_num(c->length_weight, 4) : "-", vd_num(c->cpi_agg, 5), vd_num(c->cpi_mean, 5),
                       vd_num(c->cpi_sd, 3), vd_num(c->cpi_min, 4), vd_num(c->cpi_max, 4), vd_num(c->cov, 3),
                       rep ? vd_num(a->rows[c->point].cpi_full, 5) : "none", vd_num(c->rep_z, 3),
                       vd_pct(c->contrib_sampling), flags);
    }
    if (a->unlabelled)
        vd_sink_printf(o, "| (unlabelled) | - | %zu | - | - | | | | | | | | | %s | |\n", a->unlabelled,
                       vd_pct(-a->unlabelled_cycles / a->full->cycles));
    vd_sink_printf(o, "\nCPI: the cluster's cycles / instructions in the full run; z: the representative's distance "
                      "from the members' mean in standard deviations; contributions add up to the sampling error.\n\n");
    if (a->weights_basis)
        vd_sink_printf(o, "The weights are the clusters' shares by %s.\n\n", a->weights_basis);
}

static void checks(vd_sink *o, const vd_analysis *a, const vd_diag *d)
{
    const vd_full *f = a->full;
    vd_sink_printf(o, "## Checks passed\n\n");
    if (a->p.has_profile)
        vd_sink_printf(o, "- instruction totals: profile %s, full run %s%s\n", vd_count((double)a->p.profile_insts),
                       vd_count((double)f->insts), a->p.profile_insts == f->insts ? " (equal)" : " (DIFFERENT: allowed)");
    vd_sink_printf(o, "- the full run's %zu log rows add up to its totals in every counter; cycle stacks add up to "
                      "the cycles\n",
                   f->log.nrows);
    vd_sink_printf(o, "- weights sum to %s (used normalised); one weight and one representative per cluster%s\n",
                   vd_num(a->s->weight_sum, 7), a->has_labels ? "; every representative labelled with its cluster" : "");
    if (a->has_regions)
        vd_sink_printf(o, "- every simulation point has one region result that began at its interval and ran it "
                          "exactly\n");
    vd_sink_printf(o, "\n");
    if (d->nwarnings) {
        vd_sink_printf(o, "## Warnings\n\n");
        for (size_t i = 0; i < d->nwarnings; i++)
            vd_sink_printf(o, "- %s\n", d->warnings[i]);
        vd_sink_printf(o, "\n");
    }
}

void vd_report_md(const vd_analysis *a, const vd_diag *d, const char *path)
{
    vd_sink o;
    vd_sink_open(&o, path);
    header(&o, a);
    summary(&o, a);
    metrics(&o, a);
    regions(&o, a);
    clusters(&o, a);
    if (a->profiles) vd_profiles_md(&o, a->profiles);
    checks(&o, a, d);
    vd_sink_commit(&o);
}
