/* simpoint --measured and --target-ci (simpoint/twostage.h): the estimate's
 * interval from the simulated points, and the second stage's points. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../simpoint/twostage.h"

/* Two k-means clusters of four intervals: cluster 0's proxy CPI 1, 3, 1, 3
 * (variance 1), cluster 1's about 1 (variance 1.875e-5); each interval 1/8. */
static const double w[8] = {.125, .125, .125, .125, .125, .125, .125, .125};
static const double proxy[8] = {1, 3, 1, 3, 1, 1, 1, 1.01};
static const double dist2[8] = {0.4, 0.3, 0.2, 0.1, 0.1, 0.2, 0.3, 0.4};
static const int cluster[8] = {0, 0, 0, 0, 1, 1, 1, 1};
static const ts_model model = {.kappa = 1, .kappa_weight = 1, .rho = 0.02, .nu_cluster = 2, .z = 2};

/* SimPoint's design: interval 3 for cluster 0, 4 for cluster 1, weight 1/2 each. */
static void first_stage(sp_choice *ch)
{
    ch->k = 2;
    ch->nonempty = 2;
    ch->rep = malloc(2 * sizeof *ch->rep);
    ch->weight = malloc(2 * sizeof *ch->weight);
    ch->label = NULL;
    ch->rep[0] = 3, ch->rep[1] = 4;
    ch->weight[0] = ch->weight[1] = 0.5;
}

static ts_input input(double *cpi)
{
    return (ts_input){.n = 8, .w = w, .proxy = proxy, .dist2 = dist2, .cluster = cluster, .cpi = cpi};
}

/* The first stage's estimate with intervals 3 and 4 measured at y3 and y4. */
static ts_interval first_estimate(double y3, double y4)
{
    double cpi[8] = {NAN, NAN, NAN, y3, y4, NAN, NAN, NAN};
    ts_input in = input(cpi);
    sp_choice ch;
    first_stage(&ch);
    ts_interval t = ts_estimate(&in, &ch, &model);
    choice_free(&ch);
    return t;
}

Test(simpoint_twostage, one_point_a_cluster_known_answer)
{
    ts_interval t = first_estimate(2.0, 0.5);
    cr_assert(t.complete);
    cr_assert_eq(t.points, 2);
    cr_assert_float_eq(t.estimate, 1.25, 1e-12);
    /* no cluster has two points: kappa is the prior's, every factor 1 */
    cr_assert_float_eq(t.kappa, 1, 1e-12);
    cr_assert_float_eq(t.pairs, 0, 1e-12);
    double v = 0.25 * (1 / (1.25 * 1.25) + 0.0004) + 0.25 * (1.875e-5 / (1.25 * 1.25) + 0.0004);
    cr_assert_float_eq(t.se, sqrt(v), 1e-12);
    cr_assert_float_eq(t.half, 2 * sqrt(v), 1e-12);
}

Test(simpoint_twostage, a_point_not_simulated_gives_no_estimate)
{
    ts_interval t = first_estimate(2.0, NAN);
    cr_assert(!t.complete);
    cr_assert_eq(t.measured, 1);
    cr_assert(isnan(t.estimate) && isnan(t.half));
}

Test(simpoint_twostage, the_second_stage_splits_the_wide_cluster)
{
    double cpi[8] = {NAN, NAN, NAN, 2.0, 0.5, NAN, NAN, NAN}, half;
    ts_input in = input(cpi);
    sp_choice ch;
    first_stage(&ch);
    cr_assert_eq(ts_refine(&in, &ch, &model, 3, 0, &half), 1);
    /* cut at cluster 0's median proxy CPI: the point 3 is on the high side,
     * the new one the low side's nearest the centre, interval 2 */
    cr_assert_eq(ch.k, 3);
    cr_assert_eq(ch.nonempty, 3);
    cr_assert_eq(ch.rep[0], 3);
    cr_assert_eq(ch.rep[1], 4);
    cr_assert_eq(ch.rep[2], 2);
    cr_assert_float_eq(ch.weight[0], 0.25, 1e-12);
    cr_assert_float_eq(ch.weight[1], 0.5, 1e-12);
    cr_assert_float_eq(ch.weight[2], 0.25, 1e-12);
    static const int want[8] = {2, 0, 2, 0, 1, 1, 1, 1};
    for (int i = 0; i < 8; i++)
        cr_assert_eq(ch.label[i], want[i], "interval %d in stratum %d", i, ch.label[i]);
    /* each half of cluster 0 is flat in proxy CPI: only rho is left there */
    double v = 2 * 0.0625 * 0.0004 + 0.25 * (1.875e-5 / (1.25 * 1.25) + 0.0004);
    cr_assert_float_eq(half, 2 * sqrt(v), 1e-12);
    choice_free(&ch);
}

Test(simpoint_twostage, the_second_stage_stops_at_the_target_or_the_budget)
{
    double cpi[8] = {NAN, NAN, NAN, 2.0, 0.5, NAN, NAN, NAN}, half;
    ts_input in = input(cpi);
    sp_choice ch;
    first_stage(&ch); /* +- 80% now: within 90%, nothing to add */
    cr_assert_eq(ts_refine(&in, &ch, &model, 8, 0.9, &half), 0);
    cr_assert_float_eq(half, 2 * sqrt(0.25 * (0.64 + 0.0004) + 0.25 * (1.2e-5 + 0.0004)), 1e-12);
    choice_free(&ch);
    first_stage(&ch); /* one point brings it within 50% */
    cr_assert_eq(ts_refine(&in, &ch, &model, 8, 0.5, &half), 1);
    cr_assert(half <= 0.5);
    choice_free(&ch);
    first_stage(&ch); /* no target: the budget, one point an interval at most */
    size_t added = ts_refine(&in, &ch, &model, 100, 0, &half);
    cr_assert(added >= 2 && added <= 6, "%zu added", added);
    cr_assert_eq(ch.nonempty, 2 + added);
    double sum = 0;
    for (size_t g = 0; g < ch.k; g++)
        sum += ch.weight[g];
    cr_assert_float_eq(sum, 1, 1e-12);
    for (int i = 0; i < 8; i++) /* every interval in a stratum of its own cluster, with its point */
        cr_assert_eq(cluster[ch.rep[ch.label[i]]], cluster[i]);
    choice_free(&ch);
}

/* The design after the second stage, its new point measured at CPI y2. */
static ts_interval measured_with(double y2)
{
    double cpi[8] = {NAN, NAN, NAN, 2.0, 0.5, NAN, NAN, NAN}, half;
    ts_input in = input(cpi);
    sp_choice ch;
    first_stage(&ch);
    ts_refine(&in, &ch, &model, 3, 0, &half);
    cpi[2] = y2;
    ts_interval t = ts_estimate(&in, &ch, &model);
    choice_free(&ch);
    return t;
}

Test(simpoint_twostage, points_that_disagree_widen_the_interval)
{
    /* points 2 (proxy 1) and 3 (proxy 3) of cluster 0, CPI 1 and 2 */
    ts_interval t = measured_with(1.0);
    cr_assert(t.complete);
    cr_assert_float_eq(t.estimate, 0.25 * 1.0 + 0.25 * 2.0 + 0.5 * 0.5, 1e-12);
    cr_assert_float_eq(t.pairs, 1, 1e-12);
    double lambda = pow(0.05 * 12.01 / 8, 2), kappa2 = (0.5 + lambda) / (2 + lambda);
    cr_assert_float_eq(t.kappa, sqrt(kappa2), 1e-12);
    /* cluster 0: measured Syy / e^2 = 0.5 against the model's kappa^2 x 1 + rho^2 */
    double model0 = kappa2 + 0.0004, f = (2 * model0 + 0.5) / (3 * model0);
    double v = 2 * 0.0625 * f * 0.0004 + 0.25 * (kappa2 * 1.875e-5 + 0.0004);
    cr_assert_float_eq(t.se, sqrt(v), 1e-12);
    /* the same proxy CPIs, CPIs further apart: wider */
    ts_interval far = measured_with(0.2);
    cr_assert(far.half > t.half, "%g <= %g", far.half, t.half);
    cr_assert(far.kappa > t.kappa);
}

Test(simpoint_twostage, clusters_apart_in_cpi_more_than_in_proxy_widen_the_prior)
{
    /* no cluster has two points, but the two points differ in CPI (4 and
     * 0.5) 1.75 times as much as in proxy CPI (3 and 1): kappa^2 3.0625 */
    ts_interval t = first_estimate(4.0, 0.5);
    cr_assert_float_eq(t.kappa, 1.75, 1e-12);
    double e2 = 2.25 * 2.25, v = 0.25 * (3.0625 / e2 + 0.0004) + 0.25 * (3.0625 * 1.875e-5 / e2 + 0.0004);
    cr_assert_float_eq(t.se, sqrt(v), 1e-12);
}

Test(simpoint_twostage, never_the_last_partial_interval)
{
    /* interval 7 is short (the program's last, partial interval): every other can become a point */
    static const double short_last[8] = {.13, .13, .13, .13, .13, .13, .13, .09};
    double cpi[8] = {NAN, NAN, NAN, 2.0, 0.5, NAN, NAN, NAN}, half;
    ts_input in = input(cpi);
    in.w = short_last;
    sp_choice ch;
    first_stage(&ch);
    size_t added = ts_refine(&in, &ch, &model, 100, 0, &half);
    cr_assert_eq(added, 5, "%zu added", added);
    for (size_t g = 0; g < ch.k; g++)
        cr_assert_neq(ch.rep[g], 7);
    choice_free(&ch);
}
