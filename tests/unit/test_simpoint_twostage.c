/* simpoint --measured and --target-ci (simpoint/twostage.h): the estimate's
 * interval from the simulated points, and the second stage's points. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../simpoint/tquantile.h"
#include "../../simpoint/twostage.h"

/* Two k-means clusters of four intervals: cluster 0's proxy CPI 1, 3, 1, 3
 * (variance 1), cluster 1's about 1 (variance 1.875e-5); each interval 1/8. */
static const double w[8] = {.125, .125, .125, .125, .125, .125, .125, .125};
static const double proxy[8] = {1, 3, 1, 3, 1, 1, 1, 1.01};
static const double dist2[8] = {0.4, 0.3, 0.2, 0.1, 0.1, 0.2, 0.3, 0.4};
static const int cluster[8] = {0, 0, 0, 0, 1, 1, 1, 1};
/* sigma^2's prior: 2 degrees of freedom about 0.1^2 */
static const ts_model model = {.level = 0.95, .prior_df = 2, .prior_sd = 0.1};

/* The interval of variance known + est, est with df degrees of freedom. */
static double half_of(double known, double est, double df)
{
    double v = known + est;
    return t_quantile(0.975, v * v / (est * est / df)) * sqrt(v);
}

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
    /* no cluster has two points: the two collapsed into a pair, CPI / proxy
     * CPI 2/3 in cluster 0 (point 3, proxy 3) and 1/2 in cluster 1; sigma^2
     * with the prior's 0.01 at 2 degrees of freedom */
    double l = log(2.0 / 3) - log(0.5), s2 = (2 * 0.01 + l * l / 2) / 3;
    cr_assert_float_eq(t.pairs, 1, 1e-12);
    cr_assert_float_eq(t.resid_sd, sqrt(s2), 1e-12);
    double e2 = 1.25 * 1.25, c0 = 4.0 / 9, c1 = 0.25;
    double known = 0.25 * c0 * 1 / e2 + 0.25 * c1 * 1.875e-5 / e2;
    double est = 0.25 * c0 * 9 * s2 / e2 + 0.25 * c1 * 1 * s2 / e2;
    cr_assert_float_eq(t.se, sqrt(known + est), 1e-12);
    cr_assert_float_eq(t.df, (known + est) * (known + est) / (est * est / 3), 1e-9);
    cr_assert_float_eq(t.half, half_of(known, est, 3), 1e-9);
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
    /* each half of cluster 0 is flat in proxy CPI: only sigma^2 (the first
     * stage's) is left there, the new point's CPI predicted as 2/3 of its
     * proxy CPI, 1 */
    double l = log(2.0 / 3) - log(0.5), s2 = (2 * 0.01 + l * l / 2) / 3;
    double e2 = 1.25 * 1.25, c0 = 4.0 / 9;
    double known = 0.25 * 0.25 * 1.875e-5 / e2;
    double est = 0.0625 * c0 * (9 + 1) * s2 / e2 + 0.25 * 0.25 * s2 / e2;
    cr_assert_float_eq(half, half_of(known, est, 3), 1e-9);
    choice_free(&ch);
}

Test(simpoint_twostage, the_second_stage_stops_at_the_target_or_the_budget)
{
    double cpi[8] = {NAN, NAN, NAN, 2.0, 0.5, NAN, NAN, NAN}, half;
    ts_input in = input(cpi);
    sp_choice ch;
    ts_interval t = first_estimate(2.0, 0.5);
    cr_assert(t.half > 0.5 && t.half < 0.6, "%g", t.half);
    first_stage(&ch); /* within 60% already: nothing to add */
    cr_assert_eq(ts_refine(&in, &ch, &model, 8, 0.6, &half), 0);
    cr_assert_float_eq(half, t.half, 1e-12);
    choice_free(&ch);
    first_stage(&ch); /* one point brings it within 30%: cluster 0's spread of proxy CPI is gone */
    cr_assert_eq(ts_refine(&in, &ch, &model, 8, 0.3, &half), 1);
    cr_assert(half <= 0.3, "%g", half);
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
    /* points 2 (proxy 1) and 3 (proxy 3) of cluster 0, CPI 1 and 2: log
     * ratios 0 and log(2/3), one pair */
    ts_interval t = measured_with(1.0);
    cr_assert(t.complete);
    cr_assert_float_eq(t.estimate, 0.25 * 1.0 + 0.25 * 2.0 + 0.5 * 0.5, 1e-12);
    cr_assert_float_eq(t.pairs, 1, 1e-12);
    double l = log(2.0 / 3), ss = l * l / 2, s2 = (2 * 0.01 + ss) / 3;
    cr_assert_float_eq(t.resid_sd, sqrt(s2), 1e-12);
    /* cluster 0's ratio the geometric mean, sqrt(2/3); the estimate 1 */
    double e2 = 1, c0 = 2.0 / 3, c1 = 0.25;
    double known = 0.25 * c1 * 1.875e-5 / e2;
    double est = (0.0625 * c0 * (1 + 9) + 0.25 * c1 * 1) * s2 / e2;
    cr_assert_float_eq(t.se, sqrt(known + est), 1e-12);
    cr_assert_float_eq(t.half, half_of(known, est, 3), 1e-9);
    /* the same proxy CPIs, CPIs further apart: wider */
    ts_interval far = measured_with(0.2);
    cr_assert(far.half > t.half, "%g <= %g", far.half, t.half);
    cr_assert(far.resid_sd > t.resid_sd);
}

Test(simpoint_twostage, points_that_agree_narrow_it_below_the_prior)
{
    /* point 2 at the ratio of point 3: the pair says sigma^2 = 0 */
    ts_interval t = measured_with(2.0 / 3);
    cr_assert_float_eq(t.pairs, 1, 1e-12);
    cr_assert_float_eq(t.resid_sd, sqrt(2 * 0.01 / 3), 1e-12);
    cr_assert(t.resid_sd < 0.1);
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
