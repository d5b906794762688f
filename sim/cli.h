/* sim's command line: everything it decides, parsed and checked before
 * anything runs (a bad option or an output that cannot be written fails
 * before a long simulation, not after). */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "chunks.h"
#include "report/report_md.h"
#include "run.h"
#include "whatif/icost.h"
#include "whatif/sensitivity.h"

/* What sim was asked to do. */
enum sim_mode { SIM_HELP, SIM_LIST_PARAMS, SIM_FULL, SIM_REGIONS, SIM_PART, SIM_PASS, SIM_MODES };

typedef struct sim_cli {
    sim_options o;               /* the core, the run and its sampling */
    sim_target target;           /* the program and its arguments (--full) or the checkpoints */
    int jobs;                    /* regions in parallel; 0: OpenMP's default */
    chunk_options chunks;        /* --full in chunks, or --stitch */
    bool quiet;
    /* Outputs (NULL: not asked for). */
    const char *output, *profile, *sampled_csv, *report, *plots;
    size_t top;                  /* profile entries per list in the JSON */
    report_md_options md;
    /* The what-if analyses. */
    sensitivity_options sens;    /* no variants: no sensitivity study */
    bool icost;                  /* --icost: the classes of icost_classes */
    icost_study icost_classes;
    int icost_loads;             /* --icost-loads N; 0: none */
    bool icost_triples;
    depgraph_config graph;       /* --icost's dependence graph, attached to the baseline run */
} sim_cli;

/* sim --help. */
extern const char sim_usage[];

/* Parses and checks argv into *cli (dies with a one-line reason on a bad
 * command line). SIM_HELP and SIM_LIST_PARAMS need nothing else. */
enum sim_mode sim_cli_parse(int argc, char **argv, sim_cli *cli);
void sim_cli_free(sim_cli *cli);

#endif
