#include "clusters.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Shares recomputed from labels match printed weights to ~1e-6. */
#define SHARE_EQUAL 1e-5
#define Z95 1.959963984540054

static int by_id(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

static long row_of(const vd_analysis *a, long id)
{
    long lo = 0, hi = (long)a->nclusters - 1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (a->clusters[mid].id == id)
            return mid;
        if (a->clusters[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* One row per cluster id seen in the labels or the simulation points, by id. */
static void make_rows(vd_analysis *a, size_t nlabelled)
{
    const vd_sampling *s = a->s;
    long *ids = vd_malloc((nlabelled + s->npts) * sizeof *ids);
    size_t n = 0;
    for (size_t j = 0; j < nlabelled; j++)
        ids[n++] = s->label[j];
    for (size_t i = 0; i < s->npts; i++)
        ids[n++] = s->pts[i].cluster;
    qsort(ids, n, sizeof *ids, by_id);
    a->clusters = vd_calloc(n, sizeof *a->clusters);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || ids[i] != ids[i - 1])
            a->clusters[a->nclusters++] = (vd_cluster_row){.id = ids[i], .point = -1};
    free(ids);
}

static void members(vd_analysis *a, size_t nlabelled)
{
    for (size_t j = 0; j < nlabelled; j++) {
        vd_cluster_row *c = &a->clusters[row_of(a, a->s->label[j])];
        c->n++;
        c->insts += vd_ival_len(&a->iv, j);
        c->cycles += vd_ival(&a->iv, j)[1];
    }
    for (size_t k = 0; k < a->nclusters; k++)
        a->clusters[k].member_cpi = vd_malloc(a->clusters[k].n * sizeof(double));
    size_t *fill = vd_calloc(a->nclusters, sizeof *fill);
    for (size_t j = 0; j < nlabelled; j++) {
        long k = row_of(a, a->s->label[j]);
        const double *v = vd_ival(&a->iv, j);
        a->clusters[k].member_cpi[fill[k]++] = v[1] / v[0];
    }
    free(fill);
    for (size_t j = nlabelled; j < a->iv.n; j++)
        a->unlabelled_cycles += vd_ival(&a->iv, j)[1];
    a->unlabelled = a->iv.n - nlabelled;
}

static void describe(vd_analysis *a)
{
    double cpi_full = a->full->values[0], cycles_full = a->full->cycles;
    for (size_t k = 0; k < a->nclusters; k++) {
        vd_cluster_row *c = &a->clusters[k];
        vd_mean_sd(c->member_cpi, c->n, &c->cpi_mean, &c->cpi_sd);
        c->cpi_min = c->n ? INFINITY : NAN;
        c->cpi_max = c->n ? -INFINITY : NAN;
        for (size_t i = 0; i < c->n; i++) {
            c->cpi_min = fmin(c->cpi_min, c->member_cpi[i]);
            c->cpi_max = fmax(c->cpi_max, c->member_cpi[i]);
        }
        c->cpi_agg = c->insts > 0 ? c->cycles / c->insts : NAN;
        c->cov = c->cpi_mean > 0 ? c->cpi_sd / c->cpi_mean : NAN;
        c->rep_z = NAN;
        /* Without a representative the cluster's whole share is missing. */
        c->contrib_sampling = -c->cycles / cycles_full;
        if (c->point >= 0) {
            double rep = a->rows[c->point].cpi_full;
            c->rep_z = c->cpi_sd > 0 ? (rep - c->cpi_mean) / c->cpi_sd : NAN;
            c->contrib_sampling = (c->weight * rep - c->cycles / (double)a->full->insts) / cpi_full;
            c->contrib_rep = c->weight * (rep - c->cpi_agg) / cpi_full;
            c->contrib_weight = (c->weight - c->insts / (double)a->full->insts) * c->cpi_agg / cpi_full;
        }
    }
}

/* Which rule produced the weights: SimPoint's interval count (-fixedLength
 * on) or instruction count (off), among the represented clusters. */
static void weights_basis(vd_analysis *a, vd_diag *d)
{
    double n = 0, insts = 0, worst_count = 0, worst_len = 0;
    long worst = -1;
    for (size_t k = 0; k < a->nclusters; k++)
        if (a->clusters[k].point >= 0) {
            n += (double)a->clusters[k].n;
            insts += a->clusters[k].insts;
        }
    for (size_t k = 0; k < a->nclusters; k++) {
        vd_cluster_row *c = &a->clusters[k];
        if (c->point < 0)
            continue;
        c->count_weight = n > 0 ? (double)c->n / n : NAN;
        c->length_weight = insts > 0 ? c->insts / insts : NAN;
        double dc = fabs(c->weight - c->count_weight), dl = fabs(c->weight - c->length_weight);
        if (worst < 0 || !(dc <= worst_count))
            worst = (long)k;
        worst_count = isnan(dc) ? INFINITY : fmax(worst_count, dc);
        worst_len = isnan(dl) ? INFINITY : fmax(worst_len, dl);
    }
    if (worst_count <= SHARE_EQUAL)
        a->weights_basis = "interval count";
    else if (worst_len <= SHARE_EQUAL)
        a->weights_basis = "instruction count";
    else {
        const vd_cluster_row *c = &a->clusters[worst];
        vd_warn(d, "%s: the weights do not follow %s: cluster %ld has weight %.6g, but %zu of its intervals are "
                   "%.6g of the intervals and %.6g of the instructions",
                a->s->weights, a->s->labels, c->id, c->weight, c->n, c->count_weight, c->length_weight);
    }
}

static void confidence(vd_analysis *a, vd_diag *d)
{
    vd_stratum *strata = vd_malloc(a->nclusters * sizeof *strata);
    size_t k = 0;
    double covered = 0;
    for (size_t i = 0; i < a->nclusters; i++) {
        const vd_cluster_row *c = &a->clusters[i];
        if (c->point >= 0 && c->n > 0)
            strata[k++] = (vd_stratum){c->weight, c->member_cpi, c->n};
        if (c->point >= 0)
            covered += c->insts;
    }
    double full = a->full->values[0], centre = a->predicted[0];
    a->coverage = covered / (double)a->full->insts;
    a->se = vd_stratified_se(strata, k);
    a->ci_lo = centre - Z95 * a->se;
    a->ci_hi = centre + Z95 * a->se;
    a->ci_covers_full = a->ci_lo <= full && full <= a->ci_hi;
    a->ci_covers_oracle = fabs(a->oracle[0] - full) <= Z95 * a->se;
    vd_bootstrap(strata, k, a->p.bootstrap, a->p.seed, a->oracle[0], full, &a->boot);
    bool any_spread = false; /* a cluster of one interval has no variance to measure */
    for (size_t i = 0; i < k; i++)
        any_spread |= strata[i].n > 1;
    if (!any_spread) {
        a->se = a->ci_lo = a->ci_hi = NAN;
        a->ci_covers_full = a->ci_covers_oracle = true;
        vd_warn(d, "every cluster has one interval: no confidence interval can be given");
    } else if (!a->ci_covers_oracle) {
        vd_warn(d, "the full-run CPI %.4g lies outside the 95%% interval %.4g .. %.4g even around the "
                   "representatives' own CPIs in the full run (sampling error %+.2f%%): a representative does not "
                   "stand for its cluster",
                full, a->ci_lo, a->ci_hi, 100 * vd_err_sampling(a, 0));
    } else if (!a->ci_covers_full) {
        vd_warn(d, "the full-run CPI %.4g lies outside the 95%% interval %.4g .. %.4g by the warm-up error "
                   "(%+.2f%%), which the interval (the spread within clusters) leaves out; around the "
                   "representatives' own CPIs in the full run it contains the full-run CPI",
                full, a->ci_lo, a->ci_hi, 100 * vd_err_warmup(a, 0));
    }
    free(strata);
    if (a->boot.n && a->boot.chosen_better_than < 0.05)
        vd_warn(d, "the chosen representatives are worse than %.0f%% of random choices of representative",
                100 * (1 - a->boot.chosen_better_than));
}

/* Most of the cluster's error is its weight, not its representative:
 * weights that count intervals give the last, partial interval a whole
 * interval's weight. */
static void weight_warning(const vd_analysis *a, const vd_cluster_row *c, vd_diag *d)
{
    char why[256] = "";
    if (a->partial_len && a->weights_basis && strcmp(a->weights_basis, "interval count") == 0)
        snprintf(why, sizeof why, ": the weights count intervals (SimPoint's -fixedLength on), and the last holds "
                                  "%llu instructions, not %llu; weight by length with -fixedLength off",
                 (unsigned long long)a->partial_len, (unsigned long long)a->s->interval);
    vd_warn(d, "cluster %ld: its weight %.4g against its %.4g share of the instructions accounts for %+.2f%% of the "
               "CPI error (its representative for %+.2f%%)%s",
            c->id, c->weight, c->insts / (double)a->full->insts, 100 * c->contrib_weight, 100 * c->contrib_rep, why);
}

static void flag(vd_analysis *a, vd_diag *d)
{
    for (size_t k = 0; k < a->nclusters; k++) {
        vd_cluster_row *c = &a->clusters[k];
        if (c->point < 0) {
            if (c->n)
                vd_warn(d, "cluster %ld (%zu intervals, %.2f%% of the cycles) has no simulation point", c->id, c->n,
                        -100 * c->contrib_sampling);
            continue;
        }
        c->variable = c->weight >= a->p.heavy && c->cov >= a->p.cov_limit;
        c->unrepresentative = fabs(c->contrib_sampling) >= a->p.flag_error;
        if (c->variable)
            vd_warn(d, "cluster %ld (weight %.3g) varies widely: CPI %.3g .. %.3g, CoV %.2f; one representative "
                       "cannot stand for it (Paper C §6.2, xalancbmk)",
                    c->id, c->weight, c->cpi_min, c->cpi_max, c->cov);
        if (!c->unrepresentative)
            continue;
        if (fabs(c->contrib_weight) > fabs(c->contrib_rep))
            weight_warning(a, c, d);
        else if (isnan(c->rep_z))
            vd_warn(d, "cluster %ld: its representative (CPI %.4g; the cluster's members all have one CPI, or it "
                       "has one) against the cluster's %.4g accounts for %+.2f%% of the CPI error",
                    c->id, a->rows[c->point].cpi_full, c->cpi_agg, 100 * c->contrib_sampling);
        else
            vd_warn(d, "cluster %ld: its representative (CPI %.4g, z %+.2f) against the cluster's %.4g accounts "
                       "for %+.2f%% of the CPI error",
                    c->id, a->rows[c->point].cpi_full, c->rep_z, c->cpi_agg, 100 * c->contrib_sampling);
    }
}

void vd_clusters(vd_analysis *a, vd_diag *d)
{
    size_t nlabelled = a->s->nlabels < a->iv.n ? a->s->nlabels : a->iv.n;
    make_rows(a, nlabelled);
    members(a, nlabelled);
    for (size_t i = 0; i < a->nrows; i++) {
        long k = row_of(a, a->s->pts[i].cluster);
        a->rows[i].cluster_row = k;
        a->clusters[k].point = (long)i;
        a->clusters[k].weight = a->s->pts[i].weight;
    }
    describe(a);
    weights_basis(a, d);
    confidence(a, d);
    flag(a, d);
}

void vd_clusters_free(vd_analysis *a)
{
    for (size_t k = 0; k < a->nclusters; k++)
        free(a->clusters[k].member_cpi);
    free(a->clusters);
    a->clusters = NULL;
    a->nclusters = 0;
}
