/* Command-line options: every SimPoint 3.2 option under its own name and
 * default (-name value), the same names as GNU long options (--name value,
 * --name=value, and case/dash-insensitive spellings such as --max-k or
 * --load-fv-file), plus this tool's own options. */
#ifndef SP_OPTIONS_H
#define SP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmeans.h"

#define SP_MAX_LIST 4096
#define SP_MAX_MEASURED 64

typedef struct sp_options {
    /* input */
    const char *fv_file;
    bool fv_gzipped;
    long num_fvs, fv_dim;
    const char *load_vectors_txt, *load_vectors_bin;
    const char *load_proj_txt, *load_proj_bin;
    const char *load_vector_weights;
    const char *load_init_ctrs, *load_init_labels;
    /* clustering */
    bool k_search;        /* -k search (default) or an explicit list */
    int *k_list;
    size_t n_k;
    int max_k;            /* -1: not given */
    int iters;            /* -1: off (until convergence) */
    int dim;              /* 0: noProject */
    int num_init_seeds;
    km_init initkm;
    double bic_threshold, coverage_pct;
    bool fixed_length;
    long sample_size;     /* -1: all */
    int32_t seed_km, seed_proj, seed_sample;
    /* outputs */
    const char *save_simpoints, *save_weights, *save_labels;
    const char *save_vector_weights, *save_init_ctrs, *save_final_ctrs;
    const char *save_vectors_txt, *save_vectors_bin, *save_proj_txt, *save_proj_bin;
    bool save_all;
    int verbose;
    /* beyond 3.2 */
    bool compat, lloyd, progress;
    int threads;          /* 0: OpenMP's default */
    const char *json;
    int *sweep_maxk;
    size_t n_sweep_maxk;
    double *sweep_bic;
    size_t n_sweep_bic;
    const char *sweep_table;
    /* proxy metrics (bbv --proxy): see proxy.h */
    const char *proxy;
    bool select_proxy;
    int proxy_candidates;
    int points;            /* --points: the budget --stratify spends (0: F x clusters) */
    double points_ratio;   /* --points Fx: F x SimPoint's own points (0: points as given) */
    int pilot;             /* --pilot: the first stage's points of the budget (0: all of it) */
    double pilot_ratio;    /* --pilot Fx */
    double stratify, proxy_dims, proxy_long, proxy_exposed;
    /* two-stage sampling (twostage.h): CPIs of simulated points, and when to stop adding */
    const char *measured[SP_MAX_MEASURED];
    size_t n_measured;
    double target_ci;      /* --target-ci PCT as a fraction; 0: add nothing */
} sp_options;

void sp_options_defaults(sp_options *o);
/* Parse and check argv. Returns true to go on, false after --help/--version
 * (exit 0). Dies with a one-line message on any misuse. */
bool sp_options_parse(sp_options *o, int argc, char **argv);
void sp_options_free(sp_options *o);
/* Parse SimPoint's -k list syntax (k, a:b, a:step:b, also a..b; reverse
 * ranges allowed) into a new array; false on a syntax error. */
bool parse_k_list(const char *s, int **out, size_t *n);

#endif
