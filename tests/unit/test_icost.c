/* icost's comparison of the dependence graph with re-simulation
 * (sim/whatif/icost.c): where an idealisation changes how often the
 * predictor mispredicts (bw moves its rows with the fetch packets), the
 * graph, which keeps the baseline's events, is compared also against
 * re-simulation's cost with the mispredictions held at the baseline's,
 * priced at what a misprediction costs in the set's world. */
#include <criterion/criterion.h>

#include "../../sim/run.h"
#include "../../sim/whatif/icost.h"

/* A bmisp,bw study: the baseline 1 CPI and 0.05 mispredictions per
 * instruction; bw saves 0.05 CPI in re-simulation while mispredicting
 * 0.051 per instruction, which bmisp + bw shows cost 16 cycles each
 * (0.866 - 0.05 = 0.051 * 16). The graph, with the baseline's
 * mispredictions, says bw saves 0.066 = 0.05 + 0.001 * 16: all of its
 * difference from re-simulation is the extra mispredictions. */
static void study(icost_study *s, depgraph_result *g)
{
    char err[128];
    cr_assert_eq(icost_parse(s, "bmisp,bw", err, sizeof err), 0, "%s", err);
    static icost_set sets[3];
    sets[0] = (icost_set){.mask = 1, .cost = 0.8, .mispredicts = 0};
    sets[1] = (icost_set){.mask = 2, .cost = 0.05, .mispredicts = 0.051};
    sets[2] = (icost_set){.mask = 3, .cost = 0.866, .mispredicts = 0};
    s->sets = sets, s->nsets = 3;
    s->base_cpi = 1, s->base_mispredicts = 0.05;
    unsigned bmisp = 1u << depgraph_class("bmisp"), bw = 1u << depgraph_class("bw");
    *g = (depgraph_result){.nsets = 4, .sets = {0, bmisp, bw, bmisp | bw}, .cycles = {1000, 200, 934, 134},
                           .instructions = 1000};
}

Test(icost, the_graph_is_compared_with_the_baselines_mispredictions_too)
{
    icost_study s;
    depgraph_result g;
    study(&s, &g);
    icost_price_mispredicts(&s);
    cr_assert_float_eq(s.sets[1].mispredict_price, 16, 1e-9, "%g", s.sets[1].mispredict_price);
    sim_result base = {.c = {.instructions = 1000, .cycles = 1000}, .graph = &g};
    icost_compare_graph(&s, &base, 1);
    cr_assert(s.has_graph);
    cr_assert_float_eq(s.sets[1].graph_cost, 0.066, 1e-9);
    cr_assert_float_eq(icost_same_mispredicts_cost(&s, &s.sets[1]), 0.066, 1e-9);
    /* Sets with bmisp mispredict never: their cost is not adjusted. */
    cr_assert_float_eq(icost_same_mispredicts_cost(&s, &s.sets[2]), 0.866, 1e-9);
    cr_assert_eq(s.graph_compared, 3);
    cr_assert_float_eq(s.graph_worst_diff, 0.016 / 0.05, 1e-6, "%g", s.graph_worst_diff);
    cr_assert(s.graph_same_worst_diff < 1e-6, "%g", s.graph_same_worst_diff);
}

Test(icost, a_pair_is_priced_as_its_member_that_moves_the_predictor)
{
    /* dmiss,bmisp,bw without triples: dmiss+bw has no run with bmisp, so
     * its extra mispredictions are priced as bw's (which changes the
     * count; dmiss does not), not as the baseline's (100 cycles each:
     * mispredictions bw's overlap with other time cost less). */
    icost_study s;
    char err[128];
    cr_assert_eq(icost_parse(&s, "dmiss,bmisp,bw", err, sizeof err), 0, "%s", err);
    icost_set sets[6] = {{.mask = 1, .cost = 0.1, .mispredicts = 0.01},  {.mask = 2, .cost = 1, .mispredicts = 0},
                         {.mask = 4, .cost = 0.05, .mispredicts = 0.02}, {.mask = 3, .cost = 1.1, .mispredicts = 0},
                         {.mask = 5, .cost = 0.15, .mispredicts = 0.02}, {.mask = 6, .cost = 0.09, .mispredicts = 0}};
    s.sets = sets, s.nsets = 6, s.base_cpi = 2, s.base_mispredicts = 0.01;
    icost_price_mispredicts(&s);
    cr_assert_float_eq(sets[2].mispredict_price, 2, 1e-9, "%g", sets[2].mispredict_price); /* (0.09 - 0.05) / 0.02 */
    cr_assert_float_eq(icost_same_mispredicts_cost(&s, &sets[4]), 0.15 + 0.01 * 2, 1e-9);
}

Test(icost, without_bmisp_in_the_study_nothing_is_adjusted)
{
    icost_study s;
    char err[128];
    cr_assert_eq(icost_parse(&s, "dmiss,bw", err, sizeof err), 0, "%s", err);
    icost_set set = {.mask = 2, .cost = 0.05, .mispredicts = 0.06, .mispredict_price = 16};
    s.base_mispredicts = 0.05;
    cr_assert_float_eq(icost_same_mispredicts_cost(&s, &set), 0.05, 1e-12);
}
