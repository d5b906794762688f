/* SimPoint 3.2's output files, byte for byte:
 *   .simpoints  "<interval> <cluster>"  one line per non-empty cluster, in label order;
 *               interval = 0-based index of the member nearest its centre
 *               (Euclidean, projected space; the earliest wins ties)
 *   .weights    "<weight> <cluster>"    cluster weight / sum over the lines written
 *   .labels     "<cluster> <distance>"  one line per interval
 *   .lptP       the largest clusters covering a fraction P, for both files above
 * Numbers use the ostream default (%g, 6 significant digits). */
#ifndef SP_OUTPUT_H
#define SP_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "dataset.h"
#include "proxy.h"
#include "search.h"

typedef struct sp_choice {
    size_t k;
    long *rep;       /* per cluster: representative interval, -1 for an empty cluster */
    double *weight;  /* per cluster: its weight (0 when empty) */
    size_t nonempty;
    int *label;      /* per interval when --stratify split clusters, else NULL (the run's labels) */
} sp_choice;

/* Representatives and weights of a run (by proxy metrics when px != NULL). Weights are the k-means cluster
 * weights; after -sampleSize (sampled) they are recomputed from the labels of
 * every interval, so they describe the whole program, not the sample. */
void choice_from_run(const sp_run *run, const dataset *full, bool sampled, const sp_proxy *px, sp_choice *ch);
void choice_free(sp_choice *ch);
/* Clusters kept by -coveragePct p: the heaviest first while the cumulative
 * weight is below p. Returns a k-entry mask. */
bool *coverage_mask(const sp_choice *ch, double p);

/* keep == NULL: every non-empty cluster. */
void write_simpoints(const char *path, const sp_choice *ch, const bool *keep);
void write_weights(const char *path, const sp_choice *ch, const bool *keep);
void write_labels(const char *path, const sp_run *run, const sp_choice *ch, size_t n);

/* The simpoints, weights and labels files asked for, each named with `suffix`
 * appended ("" for the plain names), plus their .lptP when p < 1. */
typedef struct output_names {
    const char *simpoints, *weights, *labels;
    double coverage;
    const sp_proxy *proxy; /* NULL: SimPoint 3.2's choice */
} output_names;
void write_run_outputs(const output_names *names, const char *suffix, const sp_run *run,
                       const dataset *full, bool sampled);
/* The same for a choice made already (ch of run, n intervals). */
void write_choice_outputs(const output_names *names, const char *suffix, const sp_run *run, const sp_choice *ch,
                          size_t n);

#endif
