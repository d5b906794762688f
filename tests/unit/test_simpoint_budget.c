/* simpoint --points (a budget of simulation points spent by Neyman
 * allocation) and the standard error the proxy CPI predicts (issue 37). */
#include <criterion/criterion.h>
#include <math.h>

#include "../../simpoint/output.h"
#include "../../simpoint/proxy.h"

/* Two clusters of four: cluster 0 holds proxy CPI 1 and 3 (s = 1), cluster 1
 * about 1 (s^2 = 1.875e-5); weight 1/2 each. */
static double x[8], w[8] = {.125, .125, .125, .125, .125, .125, .125, .125};
static int labels[8] = {0, 0, 0, 0, 1, 1, 1, 1};
static double dist2[8] = {0.4, 0.3, 0.2, 0.1, 0.1, 0.2, 0.3, 0.4};
static double cw[2] = {0.5, 0.5};
static const double cpi[8] = {1, 3, 1, 3, 1, 1, 1, 1.01};

static void choose(size_t points, sp_choice *ch)
{
    dataset ds = {8, 1, x, w};
    sp_run run = {.k = 2, .labels = labels, .dist2 = dist2, .weights = cw};
    sp_proxy px = {.cpi = cpi, .n = 8, .candidates = 5, .points = points};
    choice_from_run(&run, &ds, false, points ? &px : NULL, ch);
}

/* The predicted standard error of ch is SE, the mean proxy CPI always
 * (2 + 1.0025) / 2; frees ch. */
static void assert_predicted(sp_choice *ch, double se)
{
    double mean;
    cr_assert_float_eq(proxy_predicted_se(cpi, w, ch->label ? ch->label : labels, 8, ch, &mean), se, 1e-12);
    cr_assert_float_eq(mean, 1.50125, 1e-12);
    choice_free(ch);
}

Test(simpoint_budget, predicted_se_known_answer)
{
    sp_choice ch;
    choose(0, &ch);
    assert_predicted(&ch, sqrt(0.25 + 0.25 * 1.875e-5));
}

Test(simpoint_budget, points_go_where_the_proxy_cpi_varies)
{
    sp_choice ch;
    choose(3, &ch);
    /* one extra point: to cluster 0, split at CPI 1 | 3; cluster 1 keeps one */
    cr_assert_eq(ch.nonempty, 3);
    int in_wide = 0;
    for (size_t c = 0; c < ch.k; c++)
        in_wide += ch.rep[c] >= 0 && labels[ch.rep[c]] == 0;
    cr_assert_eq(in_wide, 2);
    /* each stratum of cluster 0 is flat: only cluster 1's spread is left */
    assert_predicted(&ch, sqrt(0.25 * 1.875e-5));
}

Test(simpoint_budget, a_budget_below_the_clusters_adds_nothing)
{
    sp_choice ch;
    choose(1, &ch);
    cr_assert_eq(ch.nonempty, 2);
    for (int i = 0; ch.label && i < 8; i++)
        cr_assert_eq(ch.label[i], labels[i]);
    choice_free(&ch);
}

Test(simpoint_budget, a_budget_stops_at_one_point_per_interval)
{
    sp_choice ch;
    choose(100, &ch);
    cr_assert_eq(ch.nonempty, 8);
    assert_predicted(&ch, 0);
}
