/* simpoint: k-means (Lloyd and the accelerated variant agree bit for bit),
 * initialisation, and known answers on data with clear clusters. */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../../simpoint/kmeans.h"
#include "../../simpoint/ran2.h"
#include "../../simpoint/search.h"

/* n points around `groups` centres spread far apart (spread 0: overlapping blobs). */
static dataset blobs(size_t n, size_t d, int groups, double spread, double noise, int seed, int *truth)
{
    dataset ds;
    dataset_init(&ds, n, d, true);
    ran2 r;
    ran2_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        int g = (int)((i * 7919) % (size_t)groups); /* interleaved, not sorted */
        if (truth)
            truth[i] = g;
        double *x = dataset_row(&ds, i);
        for (size_t j = 0; j < d; j++)
            x[j] = spread * (double)((g * 31 + (int)j * 17) % 11) + noise * (2 * ran2_float(&r) - 1);
        ds.w[i] = 1.0 / (double)n;
    }
    return ds;
}

static void run_both(const dataset *ds, size_t k, int iters, int seed)
{
    double *c1 = malloc(k * ds->d * sizeof(double)), *c2 = malloc(k * ds->d * sizeof(double));
    double *w1 = malloc(k * sizeof(double)), *w2 = malloc(k * sizeof(double));
    km_init_centres(ds, k, KM_INIT_SAMP, seed, c1);
    memcpy(c2, c1, k * ds->d * sizeof(double));
    km_stats a = km_run(ds, k, c1, w1, NULL, iters, false);
    km_stats b = km_run(ds, k, c2, w2, NULL, iters, true);
    cr_assert_eq(a.iterations, b.iterations, "k=%zu seed %d", k, seed);
    cr_assert_eq(a.converged, b.converged);
    cr_assert(memcmp(c1, c2, k * ds->d * sizeof(double)) == 0, "centres differ, k=%zu seed %d", k, seed);
    cr_assert(memcmp(w1, w2, k * sizeof(double)) == 0);
    free(c1);
    free(c2);
    free(w1);
    free(w2);
}

Test(simpoint_kmeans, hamerly_equals_lloyd)
{
    dataset ds = blobs(2000, 15, 9, 0.05, 1.0, 11, NULL); /* overlapping: many iterations */
    for (size_t k = 1; k <= 40; k += 6)
        for (int seed = 1; seed <= 2; seed++)
            run_both(&ds, k, 100, seed * 1000 + (int)k);
    run_both(&ds, 12, 400, 5);
    dataset_free(&ds);
    /* Other dimensions: no full block of four (2), blocks only (40). */
    size_t dims[] = {2, 40};
    for (size_t i = 0; i < 2; i++) {
        ds = blobs(1500, dims[i], 7, 0.05, 1.0, 3, NULL);
        for (size_t k = 2; k <= 30; k += 7)
            run_both(&ds, k, 100, (int)(k + dims[i]));
        dataset_free(&ds);
    }
}

Test(simpoint_kmeans, identical_points_and_ties)
{
    /* Every point equal: all distances tie, the lowest centre index must win in both variants. */
    dataset ds;
    dataset_init(&ds, 50, 3, true);
    for (size_t i = 0; i < 50; i++) {
        dataset_row(&ds, i)[0] = (double)(i % 2);
        ds.w[i] = 0.02;
    }
    run_both(&ds, 4, 100, 3);
    double c[12], w[4];
    km_init_centres(&ds, 4, KM_INIT_SAMP, 3, c);
    km_run(&ds, 4, c, w, NULL, 100, true);
    double sum = 0;
    for (int m = 0; m < 4; m++)
        sum += w[m];
    cr_assert_float_eq(sum, 1.0, 1e-12);
    dataset_free(&ds);
}

Test(simpoint_kmeans, empty_cluster_becomes_origin)
{
    double x[] = {1, 1, 1.1, 1.1, 5, 5};
    double wts[] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    dataset ds = {3, 2, x, wts};
    int labels[] = {0, 0, 2};
    double c[6], w[3];
    km_update(&ds, labels, 3, c, w);
    cr_assert_float_eq(c[0], 1.05, 1e-12);
    cr_assert_eq(c[2], 0.0);
    cr_assert_eq(c[3], 0.0);
    cr_assert_eq(w[1], 0.0);
    cr_assert_float_eq(w[0], 2.0 / 3, 1e-12);
    cr_assert_eq(c[4], 5.0);
}

Test(simpoint_kmeans, weighted_mean)
{
    double x[] = {0, 10};
    double wts[] = {0.75, 0.25};
    dataset ds = {2, 1, x, wts};
    int labels[] = {0, 0};
    double c[1], w[1];
    km_update(&ds, labels, 1, c, w);
    cr_assert_float_eq(c[0], 2.5, 1e-12);
}

Test(simpoint_kmeans, samp_draws_with_replacement_from_ran2)
{
    dataset ds = blobs(7, 2, 7, 1, 0, 1, NULL);
    double c[2 * 20];
    km_init_centres(&ds, 20, KM_INIT_SAMP, 42, c);
    ran2 r;
    ran2_seed(&r, 42);
    for (int m = 0; m < 20; m++) {
        size_t i = (size_t)ran2_int(&r) % 7;
        cr_assert(memcmp(&c[2 * m], dataset_row(&ds, i), 2 * sizeof(double)) == 0);
    }
    dataset_free(&ds);
}

Test(simpoint_kmeans, furthest_first_picks_extremes)
{
    double x[] = {0, 1, 2, 100, 50};
    double wts[] = {0.2, 0.2, 0.2, 0.2, 0.2};
    dataset ds = {5, 1, x, wts};
    double c[3];
    km_init_centres(&ds, 3, KM_INIT_FF, 9, c);
    /* Whatever the first, the next two are the extremes / middle in farthest order. */
    double seen[3] = {c[0], c[1], c[2]};
    int has100 = 0, has0or1 = 0;
    for (int i = 0; i < 3; i++) {
        has100 += seen[i] == 100;
        has0or1 += seen[i] <= 2;
    }
    cr_assert_eq(has100, 1);
    cr_assert(has0or1 >= 1);
}

/* Same partition up to renaming the clusters. */
static void assert_same_partition(const int *a, const int *b, size_t n)
{
    int map[64], back[64];
    memset(map, -1, sizeof map);
    memset(back, -1, sizeof back);
    for (size_t i = 0; i < n; i++) {
        if (map[a[i]] < 0 && back[b[i]] < 0) {
            map[a[i]] = b[i];
            back[b[i]] = a[i];
        }
        cr_assert_eq(map[a[i]], b[i], "row %zu", i);
    }
}

/* Random-sample initialisation (with replacement) rarely puts one seed in
 * each of 6 blobs, so SimPoint's samp finds the right k reliably only with
 * fewer clusters or more restarts; furthest-first finds 6 outright. */
static void known_answer(km_init init, bool compat, bool accel, int groups, int seeds)
{
    int truth[900];
    dataset ds = blobs(900, 15, groups, 1.0, 0.05, 5, truth);
    cluster_params p = {.num_init_seeds = seeds, .init = init, .max_iters = 100, .accel = accel,
                        .compat = compat, .seed_km = 493575226};
    clusterer c;
    clusterer_init(&c, &ds, &ds, &p);
    sp_run *runs[64];
    size_t n = search_k(&c, 20, 0.9, runs);
    sp_run *best = runs[select_run(runs, n, 0.9)];
    cr_assert_eq(best->k, groups, "chose k=%d", best->k);
    assert_same_partition(truth, best->labels, ds.n);
    clusterer_free(&c);
    dataset_free(&ds);
}

Test(simpoint_known, three_blobs_samp)
{
    known_answer(KM_INIT_SAMP, false, true, 3, 10);
}
Test(simpoint_known, six_blobs_ff)
{
    known_answer(KM_INIT_FF, false, true, 6, 5);
}
Test(simpoint_known, six_blobs_kmeanspp_lloyd)
{
    known_answer(KM_INIT_PP, false, false, 6, 5);
}
Test(simpoint_known, three_blobs_compat)
{
    known_answer(KM_INIT_SAMP, true, true, 3, 10);
}

Test(simpoint_known, threads_do_not_change_results)
{
    dataset ds = blobs(5000, 15, 9, 0.05, 1.0, 2, NULL);
    cluster_params p = {.num_init_seeds = 3, .init = KM_INIT_SAMP, .max_iters = 50, .accel = true,
                        .seed_km = 1};
    int *labels[2];
    double bic[2];
    for (int t = 0; t < 2; t++) {
        omp_set_num_threads(t + 1);
        clusterer c;
        clusterer_init(&c, &ds, &ds, &p);
        sp_run *runs[64];
        size_t n = search_k(&c, 12, 0.9, runs);
        sp_run *best = runs[select_run(runs, n, 0.9)];
        labels[t] = malloc(ds.n * sizeof(int));
        memcpy(labels[t], best->labels, ds.n * sizeof(int));
        bic[t] = best->score.bic;
        clusterer_free(&c);
    }
    cr_assert_eq(bic[0], bic[1]);
    cr_assert(memcmp(labels[0], labels[1], ds.n * sizeof(int)) == 0);
    free(labels[0]);
    free(labels[1]);
    dataset_free(&ds);
}

Test(simpoint_known, cache_reuses_runs)
{
    dataset ds = blobs(300, 5, 3, 1.0, 0.05, 5, NULL);
    cluster_params p = {.num_init_seeds = 2, .init = KM_INIT_SAMP, .max_iters = 100, .accel = true,
                        .seed_km = 1};
    clusterer c;
    clusterer_init(&c, &ds, &ds, &p);
    sp_run *a[64], *b[64];
    size_t na = search_k(&c, 10, 0.9, a);
    size_t cached = c.ncache;
    size_t nb = search_k(&c, 10, 0.9, b);
    cr_assert_eq(na, nb);
    cr_assert_eq(c.ncache, cached);
    for (size_t i = 0; i < na; i++)
        cr_assert_eq(a[i], b[i]);
    clusterer_free(&c);
    dataset_free(&ds);
}

Test(simpoint_kmeans, converged_labels_are_nearest_centres)
{
    dataset ds = blobs(2000, 15, 9, 0.05, 1.0, 4, NULL);
    for (int accel = 0; accel < 2; accel++) {
        double c[15 * 12], w[12];
        int *from_run = malloc(ds.n * sizeof(int)), *nearest_now = malloc(ds.n * sizeof(int));
        km_init_centres(&ds, 12, KM_INIT_SAMP, 77, c);
        km_stats st = km_run(&ds, 12, c, w, from_run, -1, accel);
        cr_assert(st.converged);
        km_assign(&ds, c, 12, nearest_now, NULL);
        cr_assert(memcmp(from_run, nearest_now, ds.n * sizeof(int)) == 0);
        free(from_run);
        free(nearest_now);
    }
    dataset_free(&ds);
}
