#include "twostage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "member.h"
#include "sp_alloc.h"
#include "tquantile.h"

/* The prior of sigma^2: bench/accuracy_eval.sh's maximum marginal
 * likelihood fit to the budget design's points on the tuning set (its 16
 * programs: tests/corpus/SPLIT.md). */
const ts_model ts_model_default = {.level = 0.95, .prior_df = 0.39, .prior_sd = 0.0040};

/* ------------------------------------------------------------ the design */

/* One stratum: its point, k-means cluster, and the mass and spread of proxy
 * CPI over its intervals. */
typedef struct stratum {
    long rep;
    int cluster;
    double weight; /* normalised: the strata's weights sum to 1 */
    double mass, var;
} stratum;

typedef struct design {
    const ts_input *in;
    const sp_choice *ch;
    const int *label;  /* stratum per interval */
    size_t k;          /* k-means clusters */
    stratum *s;        /* per stratum id (rep < 0: empty) */
    double total;      /* sum of the design's weights */
    double *ratio;     /* per k-means cluster: CPI per unit of proxy CPI at its points */
    double resid2;     /* the variance of log(CPI / proxy CPI) within a stratum (posterior) */
    double pairs;      /* its degrees of freedom from the points: sum over clusters of n_h - 1 */
    double resid_ss;   /* and the points' sum of squares */
    double estimate;
} design;

static size_t clusters_of(const ts_input *in)
{
    int k = 0;
    for (size_t i = 0; i < in->n; i++)
        if (in->cluster[i] + 1 > k)
            k = in->cluster[i] + 1;
    return (size_t)k;
}

/* Mass and weighted variance of proxy CPI over the intervals labelled g. */
static void proxy_moments(const ts_input *in, const int *label, stratum *s, size_t nstrata)
{
    double *sx = sp_calloc(nstrata, sizeof *sx), *sxx = sp_calloc(nstrata, sizeof *sxx);
    for (size_t g = 0; g < nstrata; g++)
        s[g].mass = 0;
    for (size_t i = 0; i < in->n; i++) {
        size_t g = (size_t)label[i];
        if (s[g].rep < 0)
            continue;
        double d = in->proxy[i] - in->proxy[s[g].rep]; /* about the point, for precision */
        s[g].mass += in->w[i];
        sx[g] += in->w[i] * d;
        sxx[g] += in->w[i] * d * d;
    }
    for (size_t g = 0; g < nstrata; g++) {
        if (s[g].rep < 0 || !(s[g].mass > 0))
            continue;
        double m = sx[g] / s[g].mass;
        s[g].var = fmax(sxx[g] / s[g].mass - m * m, 0);
    }
    free(sx);
    free(sxx);
}

static void design_init(design *d, const ts_input *in, const sp_choice *ch)
{
    *d = (design){.in = in, .ch = ch, .label = ch->label ? ch->label : in->cluster, .k = clusters_of(in)};
    d->s = sp_calloc(ch->k, sizeof *d->s);
    for (size_t g = 0; g < ch->k; g++) {
        d->s[g].rep = ch->rep[g];
        if (ch->rep[g] >= 0) {
            d->s[g].cluster = in->cluster[ch->rep[g]];
            d->total += ch->weight[g];
        }
    }
    for (size_t g = 0; g < ch->k; g++)
        d->s[g].weight = ch->rep[g] >= 0 && d->total > 0 ? ch->weight[g] / d->total : 0;
    proxy_moments(in, d->label, d->s, ch->k);
    d->ratio = sp_calloc(d->k ? d->k : 1, sizeof *d->ratio);
}

static void design_free(design *d)
{
    free(d->s);
    free(d->ratio);
}

/* ------------------------------------------------------------- the model */

/* No cluster has two points: the clusters collapsed in pairs, neighbours in
 * proxy CPI at their points (known before simulating), each pair's log
 * ratios adding (a - b)^2 / 2 to *sum and a degree of freedom to *pairs. */
static void collapse_clusters(const design *d, double *pairs, double *sum)
{
    const ts_input *in = d->in;
    member *m = sp_malloc((d->ch->k ? d->ch->k : 1) * sizeof *m);
    size_t np = 0;
    for (size_t g = 0; g < d->ch->k; g++)
        if (d->s[g].rep >= 0)
            m[np++] = (member){(size_t)d->s[g].rep, in->proxy[d->s[g].rep]};
    members_sort(m, np);
    for (size_t j = 0; j + 1 < np; j += 2) {
        double a = log(in->cpi[m[j].i] / in->proxy[m[j].i]), b = log(in->cpi[m[j + 1].i] / in->proxy[m[j + 1].i]);
        *sum += (a - b) * (a - b) / 2;
        *pairs += 1;
    }
    free(m);
}

/* The estimate; each cluster's ratio of CPI to proxy CPI (the geometric
 * mean over its points); the residual variance's posterior from the points'
 * log ratios about their cluster's (twostage.h). False when a point is not
 * measured. */
static bool measure(design *d, const ts_model *m)
{
    const ts_input *in = d->in;
    d->estimate = 0;
    for (size_t g = 0; g < d->ch->k; g++) {
        if (d->s[g].rep < 0)
            continue;
        double y = in->cpi[d->s[g].rep];
        if (!isfinite(y) || !(y > 0) || !(in->proxy[d->s[g].rep] > 0))
            return false;
        d->estimate += d->s[g].weight * y;
    }
    if (!(d->estimate > 0))
        return false;
    size_t k = d->k ? d->k : 1;
    double *n = sp_calloc(k, sizeof *n), *mean = sp_calloc(k, sizeof *mean), *ss = sp_calloc(k, sizeof *ss);
    for (size_t g = 0; g < d->ch->k; g++) { /* Welford's running mean and sum of squares */
        long r = d->s[g].rep;
        if (r < 0)
            continue;
        size_t h = (size_t)d->s[g].cluster;
        double e = log(in->cpi[r] / in->proxy[r]), dh = e - mean[h];
        n[h]++;
        mean[h] += dh / n[h];
        ss[h] += dh * (e - mean[h]);
    }
    double pairs = 0, sum = 0;
    for (size_t h = 0; h < d->k; h++) {
        d->ratio[h] = exp(mean[h]);
        if (n[h] >= 2) {
            pairs += n[h] - 1;
            sum += ss[h];
        }
    }
    if (pairs == 0)
        collapse_clusters(d, &pairs, &sum);
    double prior_df = m->prior_df, prior_var = m->prior_sd * m->prior_sd;
    d->pairs = pairs;
    d->resid_ss = sum;
    d->resid2 = (prior_df * prior_var + sum) / (prior_df + pairs);
    free(n);
    free(mean);
    free(ss);
    return true;
}

/* What stratum s leaves in the estimate's variance (relative): its point's
 * CPI predicted from its proxy CPI by its cluster's ratio, so that a stratum
 * not yet simulated has one too. *known: the part the proxy's spread gives;
 * *est: sigma^2's (estimated). */
static void stratum_variance(const design *d, const stratum *s, double *known, double *est)
{
    double c = d->ratio[s->cluster], x = d->in->proxy[s->rep];
    double f = s->weight * s->weight * c * c / (d->estimate * d->estimate);
    *known = f * s->var;
    *est = f * x * x * d->resid2;
}

/* The design's variance (relative), and *z, Student's t quantile at
 * Satterthwaite's degrees of freedom *df: the variance as a sum of a known
 * part and sigma^2's, which has prior_df + pairs. */
static double variance(const design *d, const ts_model *m, double *z, double *df)
{
    double known = 0, est = 0;
    for (size_t g = 0; g < d->ch->k; g++)
        if (d->s[g].rep >= 0) {
            double a, b;
            stratum_variance(d, &d->s[g], &a, &b);
            known += a;
            est += b;
        }
    double v = known + est;
    *df = est > 0 ? v * v / (est * est / (m->prior_df + d->pairs)) : INFINITY;
    *z = t_quantile((1 + m->level) / 2, *df);
    return v;
}

/* The half-width of the design's interval. */
static double half_width(const design *d, const ts_model *m)
{
    double z, df, v = variance(d, m, &z, &df);
    return z * sqrt(v);
}

ts_interval ts_estimate(const ts_input *in, const sp_choice *ch, const ts_model *m)
{
    ts_interval r = {.estimate = NAN, .se = NAN, .half = NAN, .z = NAN, .df = NAN, .pairs = NAN, .resid_ss = NAN, .resid_sd = NAN};
    for (size_t g = 0; g < ch->k; g++)
        if (ch->rep[g] >= 0) {
            r.points++;
            r.measured += isfinite(in->cpi[ch->rep[g]]);
        }
    design d;
    design_init(&d, in, ch);
    r.complete = r.points > 0 && r.measured == r.points && measure(&d, m);
    if (r.complete) {
        r.estimate = d.estimate;
        r.se = sqrt(variance(&d, m, &r.z, &r.df));
        r.half = r.z * r.se;
        r.pairs = d.pairs;
        r.resid_ss = d.resid_ss;
        r.resid_sd = sqrt(d.resid2);
    }
    design_free(&d);
    return r;
}

/* ------------------------------------------------------- adding points */

/* The point whose stratum interval i joins among pts[0..np): the nearest
 * in proxy CPI, then in time, then the first listed. */
static size_t nearest(const ts_input *in, size_t i, const long *pts, size_t np)
{
    size_t best = 0;
    for (size_t j = 1; j < np; j++) {
        double a = fabs(in->proxy[i] - in->proxy[pts[j]]), b = fabs(in->proxy[i] - in->proxy[pts[best]]);
        size_t ta = (size_t)labs((long)i - pts[j]), tb = (size_t)labs((long)i - pts[best]);
        if (a < b || (a == b && ta < tb))
            best = j;
    }
    return best;
}

/* The new point that splits stratum g: cut at its weighted median of proxy
 * CPI, the interval nearest the k-means centre on the side without g's
 * point, never the last, partial interval (shorter than the first); -1 when
 * there is none. */
static long split_point(const design *d, size_t g)
{
    const ts_input *in = d->in;
    size_t cnt = 0;
    for (size_t i = 0; i < in->n; i++)
        cnt += (size_t)d->label[i] == g;
    if (cnt < 2)
        return -1;
    member *m = sp_malloc(cnt * sizeof *m);
    double total = 0;
    cnt = 0;
    for (size_t i = 0; i < in->n; i++)
        if ((size_t)d->label[i] == g) {
            m[cnt++] = (member){i, in->proxy[i]};
            total += in->w[i];
        }
    members_sort(m, cnt);
    size_t cut = cnt / 2;
    double acc = 0;
    for (size_t j = 0; j < cnt; j++) {
        acc += in->w[m[j].i];
        if (acc >= total / 2) {
            cut = j + 1;
            break;
        }
    }
    if (cut < 1)
        cut = 1;
    if (cut > cnt - 1)
        cut = cnt - 1;
    bool rep_low = false;
    for (size_t j = 0; j < cut; j++)
        rep_low |= (long)m[j].i == d->s[g].rep;
    size_t lo = rep_low ? cut : 0, hi = rep_low ? cnt : cut;
    long best = -1;
    bool partial = in->n > 1 && in->w[in->n - 1] < in->w[0];
    for (size_t j = lo; j < hi; j++) {
        if (partial && m[j].i == in->n - 1)
            continue;
        if (best < 0 || in->dist2[m[j].i] < in->dist2[best] ||
            (in->dist2[m[j].i] == in->dist2[best] && (long)m[j].i < best))
            best = (long)m[j].i;
    }
    free(m);
    return best;
}

/* Cluster h's strata with the points pts[0..np) (ids[j] for pts[j]): each
 * interval of h to the nearest point (labels), and the strata's moments. */
static void recut(const ts_input *in, int h, const long *pts, const size_t *ids, size_t np, int *label,
                  stratum *s)
{
    for (size_t i = 0; i < in->n; i++)
        if (in->cluster[i] == h)
            label[i] = (int)ids[nearest(in, i, pts, np)];
    double weight = 0;
    for (size_t j = 0; j < np; j++)
        weight += s[ids[j]].weight;
    /* moments over the strata of h only (the other clusters' intervals in
     * stratum np, left empty): the other strata are unchanged */
    stratum *u = sp_calloc(np + 1, sizeof *u);
    int *local = sp_malloc((in->n ? in->n : 1) * sizeof *local);
    for (size_t j = 0; j < np; j++)
        u[j].rep = pts[j];
    u[np].rep = -1;
    for (size_t i = 0; i < in->n; i++) {
        local[i] = (int)np;
        for (size_t j = 0; j < np && in->cluster[i] == h; j++)
            if ((size_t)label[i] == ids[j])
                local[i] = (int)j;
    }
    proxy_moments(in, local, u, np + 1);
    double mass = 0;
    for (size_t j = 0; j < np; j++)
        mass += u[j].mass;
    for (size_t j = 0; j < np; j++) {
        stratum *x = &s[ids[j]];
        x->rep = pts[j];
        x->cluster = h;
        x->mass = u[j].mass;
        x->var = u[j].var;
        x->weight = mass > 0 ? weight * u[j].mass / mass : weight / (double)np;
    }
    free(u);
    free(local);
}

/* The points of cluster h and their stratum ids, room for one more. */
static size_t points_of(const design *d, int h, long *pts, size_t *ids)
{
    size_t np = 0;
    for (size_t g = 0; g < d->ch->k; g++)
        if (d->s[g].rep >= 0 && d->s[g].cluster == h) {
            pts[np] = d->s[g].rep;
            ids[np++] = g;
        }
    return np;
}

/* The variance cluster h's strata leave. */
static double cluster_variance(const design *d, int h)
{
    double v = 0;
    for (size_t g = 0; g < d->ch->k; g++)
        if (d->s[g].rep >= 0 && d->s[g].cluster == h) {
            double a, b;
            stratum_variance(d, &d->s[g], &a, &b);
            v += a + b;
        }
    return v;
}

/* How much adding point p to cluster h (as stratum id `id`, a free slot of
 * d->s) cuts the variance; the labels are left as they were. */
static double gain(design *d, int h, long p, size_t id, long *pts, size_t *ids, int *label)
{
    size_t np = points_of(d, h, pts, ids);
    double before = cluster_variance(d, h);
    stratum *saved = sp_malloc(d->ch->k * sizeof *saved);
    memcpy(saved, d->s, d->ch->k * sizeof *saved);
    memcpy(label, d->label, d->in->n * sizeof *label);
    pts[np] = p;
    ids[np] = id;
    d->s[id] = (stratum){.rep = p, .cluster = h};
    recut(d->in, h, pts, ids, np + 1, label, d->s);
    double after = cluster_variance(d, h);
    memcpy(d->s, saved, d->ch->k * sizeof *saved);
    free(saved);
    return before - after;
}

static void grow(sp_choice *ch, size_t k)
{
    ch->rep = sp_realloc_array(ch->rep, k, sizeof *ch->rep);
    ch->weight = sp_realloc_array(ch->weight, k, sizeof *ch->weight);
    ch->k = k;
}

size_t ts_refine(const ts_input *in, sp_choice *ch, const ts_model *m, size_t budget, double target, double *half)
{
    *half = NAN;
    if (!ch->label) {
        ch->label = sp_malloc((in->n ? in->n : 1) * sizeof *ch->label);
        memcpy(ch->label, in->cluster, in->n * sizeof *ch->label);
    }
    design d;
    design_init(&d, in, ch);
    if (!measure(&d, m)) {
        design_free(&d);
        return 0;
    }
    size_t added = 0;
    long *pts = sp_malloc((ch->k + budget + 1) * sizeof *pts);
    size_t *ids = sp_malloc((ch->k + budget + 1) * sizeof *ids);
    int *scratch = sp_malloc((in->n ? in->n : 1) * sizeof *scratch);
    while (ch->nonempty < budget && !(target > 0 && half_width(&d, m) <= target)) {
        /* a free slot for the new stratum's trial */
        d.s = sp_realloc_array(d.s, ch->k + 1, sizeof *d.s);
        d.s[ch->k] = (stratum){.rep = -1};
        double best = 0;
        long best_p = -1;
        for (size_t g = 0; g < ch->k; g++) {
            if (d.s[g].rep < 0)
                continue;
            long p = split_point(&d, g);
            if (p < 0)
                continue;
            /* wrapped in a design of k + 1 strata for the trial */
            sp_choice trial = *ch;
            trial.k = ch->k + 1;
            d.ch = &trial;
            double v = gain(&d, d.s[g].cluster, p, ch->k, pts, ids, scratch);
            d.ch = ch;
            if (v > best) {
                best = v;
                best_p = p;
            }
        }
        if (best_p < 0)
            break;
        /* the new stratum, and cluster h cut again */
        int h = in->cluster[best_p];
        size_t id = ch->k;
        grow(ch, ch->k + 1);
        ch->rep[id] = best_p;
        ch->weight[id] = 0;
        ch->nonempty++;
        d.ch = ch;
        size_t np = points_of(&d, h, pts, ids);
        pts[np] = best_p;
        ids[np] = id;
        d.s[id] = (stratum){.rep = best_p, .cluster = h};
        recut(in, h, pts, ids, np + 1, ch->label, d.s);
        d.label = ch->label;
        for (size_t j = 0; j <= np; j++)
            ch->weight[ids[j]] = d.s[ids[j]].weight * d.total;
        added++;
    }
    *half = half_width(&d, m);
    free(pts);
    free(ids);
    free(scratch);
    design_free(&d);
    return added;
}
