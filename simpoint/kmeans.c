#include "kmeans.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "ran2.h"
#include "sp_alloc.h"

/* Below this many rows a parallel loop costs more than it saves. */
#define PARALLEL_MIN_ROWS 2048

/* Squared distance summed in four interleaved partial sums, combined as
 * (s0 + s1) + (s2 + s3): this breaks the chain of dependent additions. Every
 * distance in the program is computed this way, so all comparisons agree.
 * Once the running total exceeds `limit` it returns that total early: the
 * partial sums only grow, so the full distance would exceed `limit` too. */
static inline double dist2_upto(const double *x, const double *c, size_t d, double limit)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t j = 0;
    for (; j + 4 <= d; j += 4) {
        double t0 = x[j] - c[j], t1 = x[j + 1] - c[j + 1];
        double t2 = x[j + 2] - c[j + 2], t3 = x[j + 3] - c[j + 3];
        s0 += t0 * t0;
        s1 += t1 * t1;
        s2 += t2 * t2;
        s3 += t3 * t3;
        double total = (s0 + s1) + (s2 + s3);
        if (total > limit)
            return total;
    }
    for (; j < d; j++) {
        double t = x[j] - c[j];
        s0 += t * t;
    }
    return (s0 + s1) + (s2 + s3);
}

double km_dist2(const double *a, const double *b, size_t d)
{
    return dist2_upto(a, b, d, INFINITY);
}

/* Nearest centre, lowest index on ties. */
static int nearest(const double *x, const double *c, size_t k, size_t d, double *best_out)
{
    int best = 0;
    double bd = km_dist2(x, c, d);
    for (size_t m = 1; m < k; m++) {
        double s = dist2_upto(x, c + m * d, d, bd);
        if (s < bd) {
            bd = s;
            best = (int)m;
        }
    }
    *best_out = bd;
    return best;
}

void km_assign(const dataset *ds, const double *centres, size_t k, int *labels, double *dist2)
{
    long n = (long)ds->n;
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && n >= PARALLEL_MIN_ROWS)
    for (long i = 0; i < n; i++) {
        double d2;
        labels[i] = nearest(dataset_row(ds, (size_t)i), centres, k, ds->d, &d2);
        if (dist2)
            dist2[i] = d2;
    }
}

void km_distances(const dataset *ds, const double *centres, const int *labels, double *dist2)
{
    for (size_t i = 0; i < ds->n; i++)
        dist2[i] = km_dist2(dataset_row(ds, i), centres + (size_t)labels[i] * ds->d, ds->d);
}

/* Recompute the centres and weights of the clusters flagged in `redo`
 * (all when redo is NULL); the others keep their values. A cluster whose
 * members did not change would get the same sums in the same order, so
 * skipping it changes nothing, bit for bit. */
static void update_clusters(const dataset *ds, const int *labels, size_t k, const bool *redo,
                            double *centres, double *weights)
{
    size_t d = ds->d;
    for (size_t m = 0; m < k; m++)
        if (!redo || redo[m]) {
            memset(centres + m * d, 0, d * sizeof *centres);
            weights[m] = 0;
        }
    /* Sequential, in row order: the sums must not depend on the thread count. */
    for (size_t i = 0; i < ds->n; i++) {
        int l = labels[i];
        if (redo && !redo[l])
            continue;
        double w = ds->w[i];
        double *restrict c = centres + (size_t)l * d;
        const double *restrict x = dataset_row(ds, i);
        weights[l] += w;
        for (size_t j = 0; j < d; j++)
            c[j] += w * x[j];
    }
    for (size_t m = 0; m < k; m++)
        if ((!redo || redo[m]) && weights[m] > 0)
            for (size_t j = 0; j < d; j++)
                centres[m * d + j] /= weights[m];
}

void km_update(const dataset *ds, const int *labels, size_t k, double *centres, double *weights)
{
    update_clusters(ds, labels, k, NULL, centres, weights);
}

/* ------------------------------------------------------------ initialisation */

static void copy_row(const dataset *ds, size_t i, double *dst)
{
    memcpy(dst, dataset_row(ds, i), ds->d * sizeof *dst);
}

static size_t draw_index(ran2 *r, size_t n)
{
    return (size_t)ran2_int(r) % n;
}

/* mind[i] = min(mind[i], distance of row i to centre c). */
static void lower_min_dist(const dataset *ds, const double *c, double *mind)
{
    for (size_t i = 0; i < ds->n; i++) {
        double d2 = km_dist2(dataset_row(ds, i), c, ds->d);
        if (d2 < mind[i])
            mind[i] = d2;
    }
}

static size_t farthest(const dataset *ds, const double *mind)
{
    size_t best = 0;
    for (size_t i = 1; i < ds->n; i++)
        if (mind[i] > mind[best])
            best = i;
    return best;
}

static size_t draw_by_weighted_distance(const dataset *ds, const double *mind, ran2 *r)
{
    double total = 0;
    for (size_t i = 0; i < ds->n; i++)
        total += ds->w[i] * mind[i];
    if (!(total > 0))
        return draw_index(r, ds->n);
    double u = (double)ran2_float(r) * total, cum = 0;
    for (size_t i = 0; i < ds->n; i++) {
        cum += ds->w[i] * mind[i];
        if (cum > u)
            return i;
    }
    return ds->n - 1;
}

void km_init_centres(const dataset *ds, size_t k, km_init how, int32_t seed, double *centres)
{
    ran2 r;
    ran2_seed(&r, seed);
    size_t d = ds->d;
    if (how == KM_INIT_SAMP) {
        for (size_t m = 0; m < k; m++)
            copy_row(ds, draw_index(&r, ds->n), centres + m * d);
        return;
    }
    double *mind = sp_malloc(ds->n * sizeof *mind);
    for (size_t i = 0; i < ds->n; i++)
        mind[i] = INFINITY;
    copy_row(ds, draw_index(&r, ds->n), centres);
    for (size_t m = 1; m < k; m++) {
        lower_min_dist(ds, centres + (m - 1) * d, mind);
        size_t pick = how == KM_INIT_FF ? farthest(ds, mind) : draw_by_weighted_distance(ds, mind, &r);
        copy_row(ds, pick, centres + m * d);
    }
    free(mind);
}

/* --------------------------------------------------------------- iterations */

/* Hamerly's bounds per row: upper on the distance to its centre, lower on the
 * distance to every other centre. */
typedef struct hamerly {
    int *label;
    double *upper, *lower;
    double *gap;      /* k x k distances between centres */
    double *half_gap; /* per centre: half the distance to its nearest other centre */
    double *moved;    /* per centre: how far the last update moved it */
    bool started;
} hamerly;

/* Relative slack on bound comparisons: far above the rounding error of the
 * distances, so a skipped row is one plain Lloyd would not have moved. */
#define SLACK 1e-9

/* Nearest and second-nearest centre, starting from centre `a` at squared
 * distance `da` (the row's current centre, just measured). Lower indexes win
 * ties, as in a plain scan. A centre whose partial sum passes the second-best
 * distance can be neither, so the winners' distances are computed in full.
 * With `gap` (distances from centre a to every centre), a centre at least
 * twice as far from a as the row is (with slack) is provably farther than a
 * and is skipped; gap - distance(a) still bounds its distance from below. */
static void full_scan(const double *x, const double *c, size_t k, size_t d, int a, double da,
                      const double *gap, int *label, double *upper, double *lower)
{
    int best = a;
    double b1 = da, b2 = INFINITY, ua = sqrt(da), skipped_low = INFINITY;
    for (size_t m = 0; m < k; m++) {
        if ((int)m == a)
            continue;
        if (gap && 0.5 * gap[m] * (1 - SLACK) > ua * (1 + SLACK)) {
            double low = (gap[m] - ua) * (1 - SLACK);
            if (low < skipped_low)
                skipped_low = low;
            continue;
        }
        double s = dist2_upto(x, c + m * d, d, b2);
        if (s < b1 || (s == b1 && (int)m < best)) {
            b2 = b1;
            b1 = s;
            best = (int)m;
        } else if (s < b2) {
            b2 = s;
        }
    }
    *label = best;
    *upper = sqrt(b1);
    *lower = fmin(sqrt(b2), skipped_low);
}

static void hamerly_prepare(hamerly *h, const double *c, size_t k, size_t d)
{
    for (size_t a = 0; a < k; a++) {
        h->gap[a * k + a] = 0;
        for (size_t b = a + 1; b < k; b++)
            h->gap[a * k + b] = h->gap[b * k + a] = sqrt(km_dist2(c + a * d, c + b * d, d));
    }
    for (size_t a = 0; a < k; a++) {
        double g = INFINITY;
        for (size_t b = 0; b < k; b++)
            if (b != a && h->gap[a * k + b] < g)
                g = h->gap[a * k + b];
        h->half_gap[a] = 0.5 * g;
    }
}

static void hamerly_assign(const dataset *ds, const double *c, size_t k, hamerly *h)
{
    size_t d = ds->d;
    long n = (long)ds->n;
    hamerly_prepare(h, c, k, d);
    if (!h->started) { /* no bounds yet: scan from centre 0 */
        h->started = true;
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && n >= PARALLEL_MIN_ROWS)
        for (long i = 0; i < n; i++) {
            const double *x = dataset_row(ds, (size_t)i);
            full_scan(x, c, k, d, 0, km_dist2(x, c, d), h->gap, &h->label[i], &h->upper[i],
                      &h->lower[i]);
        }
        return;
    }
    size_t far1 = 0, far2 = k > 1 ? 1 : 0;
    for (size_t m = 0; m < k; m++)
        if (h->moved[m] > h->moved[far1])
            far1 = m;
    for (size_t m = 0; m < k; m++)
        if (m != far1 && (far2 == far1 || h->moved[m] > h->moved[far2]))
            far2 = m;
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && n >= PARALLEL_MIN_ROWS)
    for (long i = 0; i < n; i++) {
        int a = h->label[i];
        h->upper[i] += h->moved[a];
        h->lower[i] -= (size_t)a == far1 ? h->moved[far2] : h->moved[far1];
        double bound = h->half_gap[a] > h->lower[i] ? h->half_gap[a] : h->lower[i];
        if (h->upper[i] * (1 + SLACK) < bound * (1 - SLACK))
            continue;
        const double *x = dataset_row(ds, (size_t)i);
        double da = km_dist2(x, c + (size_t)a * d, d);
        h->upper[i] = sqrt(da);
        if (h->upper[i] * (1 + SLACK) < bound * (1 - SLACK))
            continue;
        full_scan(x, c, k, d, a, da, h->gap + (size_t)a * k, &h->label[i], &h->upper[i],
                  &h->lower[i]);
    }
}

static bool same_centres(const double *a, const double *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* Flag the clusters that gained or lost a member since `prev`; prev := labels. */
static void mark_changed(const int *labels, int *prev, size_t n, bool *redo, size_t k)
{
    memset(redo, 0, k * sizeof *redo);
    for (size_t i = 0; i < n; i++)
        if (labels[i] != prev[i]) {
            redo[labels[i]] = true;
            redo[prev[i]] = true;
            prev[i] = labels[i];
        }
}

km_stats km_run(const dataset *ds, size_t k, double *centres, double *weights, int *labels,
                int max_iters, bool accel)
{
    size_t d = ds->d, len = k * d;
    km_stats st = {0, false};
    double *next = sp_malloc(len * sizeof *next);
    int *prev = sp_malloc(ds->n * sizeof *prev);
    bool *redo = sp_malloc(k * sizeof *redo);
    hamerly h = {0};
    h.label = sp_malloc(ds->n * sizeof *h.label);
    if (accel) {
        h.upper = sp_malloc(ds->n * sizeof *h.upper);
        h.lower = sp_malloc(ds->n * sizeof *h.lower);
        h.gap = sp_malloc(k * k * sizeof *h.gap);
        h.half_gap = sp_malloc(k * sizeof *h.half_gap);
        h.moved = sp_calloc(k, sizeof *h.moved);
    }
    while (max_iters < 0 || st.iterations < max_iters) {
        if (accel)
            hamerly_assign(ds, centres, k, &h);
        else
            km_assign(ds, centres, k, h.label, NULL);
        if (st.iterations == 0) { /* the initial centres are not means: compute them all */
            memcpy(prev, h.label, ds->n * sizeof *prev);
            update_clusters(ds, h.label, k, NULL, next, weights);
        } else {
            mark_changed(h.label, prev, ds->n, redo, k);
            update_clusters(ds, h.label, k, redo, next, weights);
        }
        st.iterations++;
        st.converged = same_centres(next, centres, len);
        if (accel)
            for (size_t m = 0; m < k; m++)
                h.moved[m] = sqrt(km_dist2(centres + m * d, next + m * d, d));
        memcpy(centres, next, len * sizeof *next);
        if (st.converged)
            break;
    }
    if (labels)
        memcpy(labels, h.label, ds->n * sizeof *labels);
    free(next);
    free(prev);
    free(redo);
    free(h.label);
    free(h.upper);
    free(h.lower);
    free(h.gap);
    free(h.half_gap);
    free(h.moved);
    return st;
}
