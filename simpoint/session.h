/* One invocation of the tool: the loaded data, the runs and what was chosen,
 * shared by the driver (run.c), the sweep (sweep.c) and the summary (summary.c). */
#ifndef SP_SESSION_H
#define SP_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "bb_load.h"
#include "dataset.h"
#include "options.h"
#include "output.h"
#include "proxy.h"
#include "search.h"
#include "twostage.h"

typedef struct sweep_row {
    int max_k;
    double threshold;
    int k;            /* chosen */
    double bic, distortion;
    size_t simpoints; /* non-empty clusters written */
    size_t nruns;
    int ks[64];       /* k values of the search, in order */
} sweep_row;

typedef struct session {
    const sp_options *o;
    const char *input;       /* file the vectors came from */
    bb_input bb;             /* when read from a .bb file */
    bool from_bb;
    dataset full, train;
    bool sampled;
    clusterer cl;
    /* --proxy-dims: the BBVs alone (full is them plus the proxy dimension),
     * clustered for the least k (search_choose); floor is NULL without it */
    dataset bbv, bbv_train;
    clusterer bbv_cl, *floor;
    sp_run *runs[SP_MAX_LIST];
    size_t nruns;
    size_t chosen;
    int max_k;               /* -maxK, no more than the intervals */
    sp_proxy proxy;          /* --proxy */
    double *proxy_cpi;
    sweep_row *sweep;
    size_t nsweep;
    /* --points (a budget) and --pilot */
    size_t simpoint_points;  /* SimPoint's own choice on the BBVs alone (0: not needed) */
    size_t budget, stage1;   /* points in all, and in the first stage (0: no budget) */
    bool reclustered;        /* the clusters exceeded the budget: k-means again at k = budget */
    sp_choice choice;        /* the points written (one choice: not a sweep) */
    /* --measured, --target-ci (twostage.h) */
    double *cpi;             /* measured CPI per interval, NAN where none */
    ts_interval first, interval; /* the first stage's design; the design written */
    size_t added;            /* points the second stage added (choice's last strata) */
    double predicted_half;   /* the half-width the second stage predicts for them */
    double t_start, t_loaded, t_clustered, t_end;
} session;

/* Everything after option parsing; returns the exit status. */
int simpoint_run(const sp_options *o);

/* --sweep-max-k: search for every (maxK, threshold), write per-maxK outputs and the CSV. */
void run_sweep(session *s);
/* --json */
void write_summary(const session *s, const char *path);
/* The proxy choice of --proxy, or NULL. */
const sp_proxy *session_proxy(const session *s);

#endif
