/* Choosing simulation points with the per-interval proxy metrics of
 * bbv --proxy (beyond SimPoint 3.2; nothing here runs without --proxy):
 *
 *  --select-by proxy   each cluster's representative is, among its
 *                      --proxy-candidates members nearest the BBV centre,
 *                      the one whose proxy CPI is nearest the cluster's
 *                      weighted mean proxy CPI (ties: the nearer to the
 *                      centre, then the earlier interval);
 *  --stratify F        floor(F x clusters) extra representatives go, one at
 *                      a time, to the cluster where one more stratum cuts
 *                      the variance of the estimate most (Neyman:
 *                      W^2 s^2 (1/m - 1/(m+1)), W the cluster's weight, s the
 *                      spread of its proxy CPI, m its strata); a cluster with
 *                      m strata is cut into m groups of equal size by proxy
 *                      CPI, each a cluster of its own in the outputs (new ids
 *                      after the k-means ones, weight = the cluster's weight x
 *                      the group's share, labels rewritten), with a
 *                      representative chosen as above within the group;
 *  --points N          the same allocation, spending a budget of N points in
 *                      all: N less the clusters extra representatives;
 *  --proxy-dims S      k-means runs on the projected BBVs with one more
 *                      dimension, the proxy CPI robustly scaled to S times
 *                      the BBVs' own spread (proxy_dims.h);
 *  --proxy-long W      the proxy CPI all of these (and the predicted and
 *                      measured intervals) use is bbv's proxy_cpi plus W x
 *                      its long_cpi (the long-latency operations);
 *  --proxy-exposed W   ... plus W x its exposed_cpi (the long operations'
 *                      latency an out-of-order core cannot hide), by default
 *                      PROXY_EXPOSED_DEFAULT where the file has the column. */
#ifndef SP_PROXY_H
#define SP_PROXY_H

#include <stdbool.h>
#include <stddef.h>

#include "dataset.h"
#include "search.h"

typedef struct sp_choice sp_choice;

typedef struct sp_proxy {
    const double *cpi;  /* per interval */
    size_t n;
    bool select;        /* --select-by proxy */
    int candidates;     /* --proxy-candidates */
    double stratify;    /* --stratify F; 0: off */
    size_t points;      /* --points N; 0: F x clusters */
} sp_proxy;

/* The weight of exposed_cpi without --proxy-exposed, chosen on the tuning
 * set (tests/corpus/SPLIT.md; bench/results/accuracy_eval.md: of 0.25-8,
 * 4 had the best mean and worst per-program errors). */
#define PROXY_EXPOSED_DEFAULT 4.0

/* The proxy CPI of each interval of a .proxy file: its proxy_cpi column
 * plus long_weight x its long_cpi column (the long-latency operations'
 * cycles per instruction, --proxy-long) plus exposed_weight x its
 * exposed_cpi column (their cycles not overlapped, --proxy-exposed; a
 * negative weight: PROXY_EXPOSED_DEFAULT if the file has the column, else
 * 0); a column whose weight is 0 is not read. It must have n interval
 * lines. Dies with file:line and the problem. */
double *proxy_load(const char *path, size_t n, double long_weight, double exposed_weight);

/* Representatives (and strata) of ch, a choice_from_run of run, by px. */
void proxy_apply(const sp_proxy *px, const sp_run *run, const dataset *full, sp_choice *ch);

/* The standard error of the estimate sum_c W_c x_c that the proxy CPI
 * predicts before anything is simulated: every cluster of ch (labels: label
 * per interval, w its weight) stands in by one member drawn at random, so
 * sqrt(sum_c W_c^2 s_c^2), s_c the weighted spread of the proxy CPI over
 * cluster c's members. *mean: the program's weighted mean proxy CPI. */
double proxy_predicted_se(const double *cpi, const double *w, const int *label, size_t n, const sp_choice *ch,
                          double *mean);

#endif
