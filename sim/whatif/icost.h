/* Interaction cost (Fields et al., notes/icost.md §2) by re-simulation, the
 * paper's exact method: each event class is idealised in the core (a limit
 * study of sim/whatif/resources.c), cost(S) = CPI(baseline) - CPI(every class of S
 * idealised), and icost(S) is the Möbius inversion of cost over S's
 * subsets: icost(a,b) = cost(ab) - cost(a) - cost(b), positive when a and b
 * overlap (parallel: only removing both saves the time), negative when they
 * are in series. Runs the baseline's program or regions once per singleton,
 * pair (and triple, when asked), all in parallel; costs are in CPI
 * (regions weighted, so they combine linearly) and in percent of the
 * baseline's. */
#ifndef SIM_ICOST_H
#define SIM_ICOST_H

#include <jansson.h>
#include <stdio.h>

#include "depgraph.h"
#include "resources.h"
#include "symbols.h"
#include "what_if.h"

enum { ICOST_MAX_ELEMENTS = 8 };

/* What is idealised together: an event class, or one static load. */
typedef struct icost_element {
    char name[64];             /* "dmiss", or "load 0x10a4c" */
    const char *resource;      /* the class's limit study; NULL for a load */
    const char *meaning;
    uint64_t pc;               /* the load */
    char where[128];           /* the load's symbol and disassembly */
    double stalled_share;      /* the load's share of the baseline's Stalled cycles */
    double missed_share;       /* of the load's own Stalled cycles, those with an L1D miss (ST-L1); < 0: unknown */
} icost_element;

typedef struct icost_set {
    unsigned mask;             /* bit i: element i idealised */
    variant v;
    uint64_t loads[ICOST_MAX_ELEMENTS]; /* its idealised loads, sorted */
    what_if run;
    double cpi, cost, icost;   /* CPI units */
    double mispredicts;        /* re-simulation's branch mispredictions per instruction */
    double mispredict_price;   /* cycles one more costs in the set's world (icost_same_mispredicts_cost) */
    double graph_cost, graph_icost; /* the dependence graph's, when it ran */
} icost_set;

typedef struct icost_study {
    const char *title;
    int n;
    icost_element el[ICOST_MAX_ELEMENTS];
    icost_set *sets;           /* singletons, then pairs, then triples */
    int nsets;
    double base_cpi;
    /* The dependence graph against re-simulation: its baseline critical
     * path per instruction, and the relative difference of its costs from
     * re-simulation's over the costs above 5% of the cycles (the paper's
     * 8.1% mean, 14.3% worst). */
    bool has_graph;
    double graph_cpi, graph_mean_diff, graph_worst_diff;
    int graph_compared;
    /* The same against re-simulation's costs with its branch mispredictions
     * held at the baseline's (icost_same_mispredicts_cost): the events the
     * graph keeps. */
    double base_mispredicts;
    double graph_same_mean_diff, graph_same_worst_diff;
    double graph_seconds, resim_seconds; /* host time: the graph's, one re-simulation's (mean) */
} icost_study;

/* The classes of a comma-separated list (dl1, dmiss, win, bw, bmisp, shalu,
 * lgalu, imiss; 'all'): 0, or -1 with the reason. */
int icost_parse(icost_study *s, const char *list, char *err, size_t errlen);
/* The n static loads with the most Stalled time in the baseline (regions
 * weighted), each idealised alone (it hits the L1D): what to prefetch. */
void icost_choose_loads(icost_study *s, int n, const sim_result *base, size_t nbase, const rv_symtab *syms);
/* The dependence-graph model's sets for the same study: of classes, to
 * attach to the baseline run before it runs; of loads, icost_run runs the
 * baseline again with it beside the re-simulations. */
void icost_graph_config(const icost_study *s, bool triples, depgraph_config *out);
/* Runs every singleton and pair (and triple) over what base came from;
 * puts the graph's costs beside them when base carries its results (a
 * study of loads builds its graph in a run of its own). */
void icost_run(icost_study *s, bool triples, const sim_options *o, const sim_target *t, const sim_result *base,
               size_t n);
/* Puts the graph's costs of base's graph results beside re-simulation's
 * (icost_run does). */
void icost_compare_graph(icost_study *s, const sim_result *base, size_t n);
/* Re-simulation's cost of the set with its branch mispredictions held at the
 * baseline's: the predictor's tables and history follow the fetch packets,
 * so a set that changes them (bw) mispredicts more or less, an event the
 * graph, which keeps the baseline's events, cannot see. The difference is
 * priced at what a misprediction costs in the set's world (its
 * mispredict_price); without bmisp in the study, or with bmisp in the
 * set, the cost itself. */
double icost_same_mispredicts_cost(const icost_study *s, const icost_set *set);
/* Each set's mispredict_price, from re-simulation's costs and mispredictions
 * (icost_run does): where it ran the set with bmisp too, cost(S + bmisp) -
 * cost(S) over the set's mispredictions; else its member's whose
 * mispredictions differ most from the baseline's. */
void icost_price_mispredicts(icost_study *s);
json_t *icost_json(const icost_study *s);
/* The paper's Table III shape: singletons, pairs labelled, "other". */
void icost_print(FILE *f, const icost_study *s);
/* Fig. 1(b): one stacked bar, negative terms below the axis (gnuplot):
 * DIR/NAME.svg and .png. */
void icost_plot(const icost_study *s, const char *dir, const char *name);
void icost_free(icost_study *s);

/* The label of an interaction: "parallel", "serial" or "independent"
 * (|icost| under 0.5% of the baseline CPI). */
const char *icost_kind(double icost, double base_cpi);

#endif
