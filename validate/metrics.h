/* The metrics validated, and how a sample of weighted intervals is
 * extrapolated to the whole program:
 *   CPI   = sum_k w_k cycles_k / insts_k                (SimPoint's estimate)
 *   IPC   = 1 / CPI                          (never the mean of IPCs: biased)
 *   rates = scale * sum_k w_k events_k / sum_k w_k insts_k
 * Rates are MPKI (scale 1000) for events and cycles per instruction for each
 * cycle-stack component and commit state (the ratio of weighted sums). */
#ifndef VD_METRICS_H
#define VD_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

typedef enum { VD_M_CPI, VD_M_IPC, VD_M_RATE } vd_mkind;

typedef struct vd_metric {
    char *id;    /* CSV/JSON name: cpi, branch_mpki, cpi_stalled_load_dram, ... */
    char *label; /* for people */
    vd_mkind kind;
    size_t *num; /* counters summed into the numerator (rates) */
    size_t nnum;
    double scale;
    bool headline; /* shown in the short tables */
} vd_metric;

typedef struct vd_metrics {
    vd_metric *m;
    size_t n;
} vd_metrics;

/* Metrics for counters NAMES[0..n) (names[0] instructions, names[1]
 * cycles) whose groups (stack, event, ...) are GROUPS. */
void vd_metrics_init(vd_metrics *ms, char *const *names, const vd_group *groups, size_t n);
void vd_metrics_free(vd_metrics *ms);
/* Index of metric ID, or -1. */
long vd_metrics_find(const vd_metrics *ms, const char *id);

/* OUT[i] = metric i estimated from K intervals: ROWS[k] holds interval k's
 * counters (in the order given to vd_metrics_init), W[k] its weight. The
 * whole program is K = 1 with its totals and weight 1. */
void vd_extrapolate(const vd_metrics *ms, size_t k, const double *w, const double *const *rows, double *out);

#endif
