/* simpoint's proxy methods: --select-by proxy, --stratify, --proxy-dims and
 * the .proxy reader, on small known answers. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../simpoint/output.h"
#include "../../simpoint/proxy.h"
#include "../../simpoint/proxy_dims.h"

/* One cluster of six intervals, nearest the centre first; weighted mean
 * proxy CPI 7.8 / 6 = 1.3. */
static double one_x[6], one_w[6] = {1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6};
static int one_labels[6];
static double one_dist2[6] = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5};
static double one_weights[1] = {1};
static const double one_cpi[6] = {2.0, 1.5, 1.1, 1.0, 1.2, 1.0};

static long rep_of_one(bool select, int candidates)
{
    dataset ds = {6, 1, one_x, one_w};
    sp_run run = {.k = 1, .labels = one_labels, .dist2 = one_dist2, .weights = one_weights};
    sp_proxy px = {.cpi = one_cpi, .n = 6, .select = select, .candidates = candidates};
    sp_choice ch;
    choice_from_run(&run, &ds, false, &px, &ch);
    long rep = ch.rep[0];
    cr_assert_eq(ch.k, 1);
    cr_assert_null(ch.label);
    choice_free(&ch);
    return rep;
}

Test(simpoint_proxy, select_by_proxy_known_answers)
{
    cr_assert_eq(rep_of_one(false, 5), 0, "without --select-by proxy: the nearest the centre");
    /* candidates 0, 1, 2: |CPI - 1.3| = 0.7, 0.2, 0.2; the tie goes to the nearer */
    cr_assert_eq(rep_of_one(true, 3), 1);
    /* all six: interval 4 (|1.2 - 1.3| = 0.1) */
    cr_assert_eq(rep_of_one(true, 6), 4);
    cr_assert_eq(rep_of_one(true, 1), 0, "one candidate: the nearest, whatever its CPI");
}

/* Two clusters; cluster 0 holds CPI 1 and 3 (wide), cluster 1 CPI ~1 (narrow). */
static double two_x[8], two_w[8] = {.125, .125, .125, .125, .125, .125, .125, .125};
static int two_labels[8] = {0, 0, 0, 0, 1, 1, 1, 1};
static double two_dist2[8] = {0.4, 0.3, 0.2, 0.1, 0.1, 0.2, 0.3, 0.4};
static double two_weights[2] = {0.5, 0.5};
static const double two_cpi[8] = {1, 3, 1, 3, 1, 1, 1, 1.01};

Test(simpoint_proxy, select_never_leaves_its_cluster)
{
    dataset ds = {8, 1, two_x, two_w};
    sp_run run = {.k = 2, .labels = two_labels, .dist2 = two_dist2, .weights = two_weights};
    /* cluster 0's mean is 2: every member is 1 away, so the nearest (3) stays;
     * the other cluster's CPIs are nearer 2 but never candidates */
    for (int cand = 1; cand <= 8; cand++) {
        sp_proxy px = {.cpi = two_cpi, .n = 8, .select = true, .candidates = cand};
        sp_choice ch;
        choice_from_run(&run, &ds, false, &px, &ch);
        for (size_t c = 0; c < ch.k; c++)
            cr_assert_eq(two_labels[ch.rep[c]], (int)c, "candidates %d: cluster %zu's representative %ld", cand, c,
                         ch.rep[c]);
        choice_free(&ch);
    }
}

Test(simpoint_proxy, stratify_splits_the_wide_cluster)
{
    dataset ds = {8, 1, two_x, two_w};
    sp_run run = {.k = 2, .labels = two_labels, .dist2 = two_dist2, .weights = two_weights};
    /* 0.5 x 2 clusters = one extra point: to cluster 0 (W^2 s^2 = 0.25 x 1 against ~0) */
    sp_proxy px = {.cpi = two_cpi, .n = 8, .candidates = 5, .stratify = 0.5};
    sp_choice ch;
    choice_from_run(&run, &ds, false, &px, &ch);
    cr_assert_eq(ch.k, 3);
    cr_assert_eq(ch.nonempty, 3);
    /* CPI 1: intervals 0, 2 (nearest 2) keep id 0; CPI 3: 1, 3 (nearest 3) become id 2 */
    long reps[3] = {2, 4, 3};
    double weights[3] = {0.25, 0.5, 0.25};
    int labels[8] = {0, 2, 0, 2, 1, 1, 1, 1};
    for (int c = 0; c < 3; c++) {
        cr_assert_eq(ch.rep[c], reps[c], "cluster %d: %ld", c, ch.rep[c]);
        cr_assert_float_eq(ch.weight[c], weights[c], 1e-12);
    }
    cr_assert_not_null(ch.label);
    for (int i = 0; i < 8; i++)
        cr_assert_eq(ch.label[i], labels[i], "interval %d: label %d", i, ch.label[i]);
    choice_free(&ch);
}

Test(simpoint_proxy, stratify_allocates_by_weight_and_spread)
{
    /* the same spread, weights 0.8 and 0.2: both extra points to the heavy
     * cluster (gains 0.32 and then 0.107 s^2, against 0.02 for the light one) */
    double x[8], w[8] = {.2, .2, .2, .2, .05, .05, .05, .05};
    int labels[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    double dist2[8] = {0, 0.1, 0.2, 0.3, 0, 0.1, 0.2, 0.3};
    double cw[2] = {0.8, 0.2};
    double cpi[8] = {1, 2, 1, 2, 1, 2, 1, 2};
    dataset ds = {8, 1, x, w};
    sp_run run = {.k = 2, .labels = labels, .dist2 = dist2, .weights = cw};
    sp_proxy px = {.cpi = cpi, .n = 8, .candidates = 5, .stratify = 1};
    sp_choice ch;
    choice_from_run(&run, &ds, false, &px, &ch);
    cr_assert_eq(ch.k, 4);
    int in_heavy = 0;
    double total = 0;
    for (size_t c = 0; c < ch.k; c++) {
        in_heavy += labels[ch.rep[c]] == 0;
        total += ch.weight[c];
        cr_assert_eq(ch.label[ch.rep[c]], (int)c, "a representative outside its stratum");
    }
    cr_assert_eq(in_heavy, 3);
    cr_assert_float_eq(total, 1.0, 1e-12);
    choice_free(&ch);
}

Test(simpoint_proxy, extend_scales_to_the_bbv_spread)
{
    /* BBVs 0, 1, 2 and CPI 1, 2, 3: the same spread (sqrt(2/3)), nothing
     * beyond 3 MADs of the median, so the new column is -S, 0, +S, the rows
     * and weights copied */
    double x[3] = {0, 1, 2}, w[3] = {1. / 3, 1. / 3, 1. / 3}, cpi[3] = {1, 2, 3};
    dataset bbv = {3, 1, x, w}, ds;
    proxy_extend(&bbv, cpi, 2, &ds);
    cr_assert_eq(ds.d, 2);
    for (int i = 0; i < 3; i++) {
        cr_assert_float_eq(ds.x[2 * i], x[i], 1e-12);
        cr_assert_float_eq(ds.x[2 * i + 1], 2.0 * (i - 1), 1e-12);
    }
    cr_assert(ds.w != w && ds.w[0] == w[0] && ds.w[2] == w[2]);
    dataset_free(&ds);
}

/* 99 intervals whose proxy CPI spreads evenly over 1.0 .. 1.2, and a
 * start-up interval at 5: the standard deviation would be 0.40, mostly the
 * outlier's, and squeeze the others into a fifth of their room. */
enum { BULK = 99 };

static void bulk_and_outlier(double *cpi, double outlier)
{
    for (int i = 0; i < BULK; i++)
        cpi[i] = 1.0 + 0.2 * i / (BULK - 1);
    cpi[BULK] = outlier;
}

Test(simpoint_proxy, one_outlier_interval_does_not_set_the_scale)
{
    double cpi[BULK + 1];
    bulk_and_outlier(cpi, 1.1); /* no outlier: the bulk's own scale, its SD */
    double alone = proxy_scale(cpi, NULL, BULK + 1);
    cr_assert_float_eq(alone, 0.0577, 0.001, "the SD of an even spread over 0.2: %g", alone);
    /* an outlier counts as if it were 3 MADs from the median, however far */
    bulk_and_outlier(cpi, 2);
    double bounded = proxy_scale(cpi, NULL, BULK + 1);
    cr_assert(bounded < 1.15 * alone, "outlier 2: scale %g, %g without it", bounded, alone);
    for (double outlier = 5; outlier <= 1000; outlier *= 10) {
        bulk_and_outlier(cpi, outlier);
        cr_assert_float_eq(proxy_scale(cpi, NULL, BULK + 1), bounded, 1e-12, "outlier %g", outlier);
    }
}

Test(simpoint_proxy, the_outlier_keeps_its_distance_and_the_bulk_its_room)
{
    double cpi[BULK + 1], x[BULK + 1], w[BULK + 1];
    for (int i = 0; i <= BULK; i++) {
        x[i] = i % 2; /* two code phases: spread 0.5 */
        w[i] = 1.0 / (BULK + 1);
    }
    bulk_and_outlier(cpi, 5);
    dataset bbv = {BULK + 1, 1, x, w}, ds;
    proxy_extend(&bbv, cpi, 1, &ds);
    /* the bulk spans about 0.2 / 0.065 scale units of 0.5 each (the SD
     * would have left it 0.25); the outlier stays 20 times as far */
    double bulk = ds.x[2 * (BULK - 1) + 1] - ds.x[1], far = ds.x[2 * BULK + 1] - ds.x[1];
    cr_assert(bulk > 1.4, "the bulk squeezed into %g", bulk);
    cr_assert_float_eq(far / bulk, 20, 1e-9, "the outlier %g away, the bulk %g wide", far, bulk);
    dataset_free(&ds);
}

Test(simpoint_proxy, differences_under_5pct_of_the_cpi_are_not_stretched)
{
    /* proxy CPI 2.000 .. 2.002: the scale is 5% of the median (0.1), not the
     * tiny SD, so the column stays within 0.02 spreads */
    double cpi[BULK + 1];
    for (int i = 0; i <= BULK; i++)
        cpi[i] = 2.0 + 0.002 * i / BULK;
    cr_assert_float_eq(proxy_scale(cpi, NULL, BULK + 1), 0.1, 1e-3);
}

static char path[] = "/tmp/sp_proxy_XXXXXX";

static void remove_proxy(void)
{
    unlink(path);
}

/* Removed at exit, so also after the tests that end in die(). */
/* A proxy file of the header and the rows after it. */
static const char *write_proxy(const char *header, const char *rows)
{
    int fd = mkstemp(path);
    atexit(remove_proxy);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(header, f);
    fputs(rows, f);
    fclose(f);
    return path;
}

static const char header[] = "# rvsample proxy 1\n# interval 10\ninterval\tinstructions\tproxy_cpi\n";

Test(simpoint_proxy, load_reads_the_proxy_cpi_column)
{
    write_proxy(header, "0\t10\t1.5\n1\t10\t2.25\n");
    double *cpi = proxy_load(path, 2, 0, 0);
    cr_assert_float_eq(cpi[0], 1.5, 1e-12);
    cr_assert_float_eq(cpi[1], 2.25, 1e-12);
    free(cpi);
}

Test(simpoint_proxy, load_refuses_a_count_mismatch, .exit_code = 1)
{
    proxy_load(write_proxy(header, "0\t10\t1.5\n"), 2, 0, 0);
}

Test(simpoint_proxy, load_refuses_a_bad_value, .exit_code = 1)
{
    proxy_load(write_proxy(header, "0\t10\tnan\n"), 1, 0, 0);
}

/* --proxy-long W: the proxy CPI is proxy_cpi + W x long_cpi, whatever the
 * columns' order; without W the long_cpi column is not read. */
static const char header_long[] = "# rvsample proxy 2\ninterval\tinstructions\tlong_cpi\tproxy_cpi\n";

Test(simpoint_proxy, load_adds_the_weighted_long_operations)
{
    write_proxy(header_long, "0\t10\t0.5\t1.5\n1\t10\t0\t2.25\n");
    double *cpi = proxy_load(path, 2, 2, 0);
    cr_assert_float_eq(cpi[0], 2.5, 1e-12);
    cr_assert_float_eq(cpi[1], 2.25, 1e-12);
    free(cpi);
    cpi = proxy_load(path, 2, 0, 0);
    cr_assert_float_eq(cpi[0], 1.5, 1e-12);
    free(cpi);
}

Test(simpoint_proxy, load_refuses_a_weight_without_the_long_column, .exit_code = 1)
{
    proxy_load(write_proxy(header, "0\t10\t1.5\n"), 1, 1, 0);
}

Test(simpoint_proxy, load_refuses_a_bad_long_value, .exit_code = 1)
{
    proxy_load(write_proxy(header_long, "0\t10\t-1\t1.5\n"), 1, 1, 0);
}

/* --proxy-exposed W: ... plus W x exposed_cpi (format 3), with or without
 * --proxy-long; a file without the column needs W = 0. */
static const char header_exposed[] = "# rvsample proxy 3\ninterval\tinstructions\tproxy_cpi\tlong_cpi\texposed_cpi\n";

Test(simpoint_proxy, load_adds_the_weighted_exposed_latency)
{
    write_proxy(header_exposed, "0\t10\t1.5\t0.5\t0.25\n1\t10\t2\t0\t0\n");
    double *cpi = proxy_load(path, 2, 0, 2);
    cr_assert_float_eq(cpi[0], 2.0, 1e-12);
    cr_assert_float_eq(cpi[1], 2.0, 1e-12);
    free(cpi);
    cpi = proxy_load(path, 2, 1, 4);
    cr_assert_float_eq(cpi[0], 1.5 + 0.5 + 1, 1e-12, "both terms");
    free(cpi);
}

Test(simpoint_proxy, load_refuses_an_exposed_weight_without_the_column, .exit_code = 1)
{
    proxy_load(write_proxy(header_long, "0\t10\t0.5\t1.5\n"), 1, 0, 1);
}

Test(simpoint_proxy, load_refuses_a_bad_exposed_value, .exit_code = 1)
{
    proxy_load(write_proxy(header_exposed, "0\t10\t1.5\t0.5\tnan\n"), 1, 0, 1);
}

/* Without --proxy-exposed (a negative weight): 4 x exposed_cpi where the
 * file has the column, and formats 1 and 2 as before. */
Test(simpoint_proxy, load_weighs_the_exposed_latency_by_default)
{
    double *cpi = proxy_load(write_proxy(header_exposed, "0\t10\t1.5\t0.5\t0.25\n"), 1, 0, -1);
    cr_assert_float_eq(cpi[0], 1.5 + PROXY_EXPOSED_DEFAULT * 0.25, 1e-12);
    cr_assert_float_eq(PROXY_EXPOSED_DEFAULT, 4, 1e-12, "the weight the tuning set chose");
    free(cpi);
}

Test(simpoint_proxy, load_adds_nothing_by_default_to_a_file_without_exposed_cpi)
{
    double *cpi = proxy_load(write_proxy(header_long, "0\t10\t0.5\t1.5\n"), 1, 0, -1);
    cr_assert_float_eq(cpi[0], 1.5, 1e-12, "format 2: no exposed_cpi, none added");
    free(cpi);
}
