/* ProfileMe (Dean et al., notes/profileme.md §1-§2): instruction sampling
 * over fetched instances, aborted ones included, one every S fetched on
 * average (a uniformly random interval in [1, 2S-1], seeded), each sample
 * recording its profile registers: the Table 1 latencies, its events, and
 * whether it retired or why it aborted. Paired sampling (window W) adds a
 * second instance 1..W fetch slots after the first, from which it estimates
 * useful concurrency and wasted issue slots per pc.
 *
 * A consumer of the core's instance probe: it sees every instance, so it
 * also keeps the exact figures each estimate is scored against (counts,
 * latencies, and the useful overlaps within +-W). ProfileMe is
 * instruction-proportional, not time-proportional: its kS estimates count
 * events, and its latencies overlap. */
#ifndef SIM_PROFILEME_H
#define SIM_PROFILEME_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/probe.h"
#include "profile.h"
#include "symbols.h"

/* The Table 1 intervals of our core (rename is dispatch here). */
enum pm_latency { PM_FETCH_MAP, PM_MAP_READY, PM_READY_ISSUE, PM_ISSUE_RETIRE_READY, PM_RETIRE_READY_RETIRE,
                  PM_LOAD_ISSUE_DONE, PM_LATENCIES };
extern const char *const pm_latency_names[PM_LATENCIES];

/* Event bits of a profile (the Profiled Event register). */
enum pm_event { PM_RETIRED, PM_ABORTED, PM_ABORT_MISPREDICT, PM_ABORT_CSR, PM_ABORT_EXCEPTION, PM_ABORT_ORDERING, PM_IMISS, PM_ITLB,
                PM_DMISS, PM_L2_MISS, PM_LLC_MISS, PM_DTLB, PM_TAKEN, PM_MISPREDICT, PM_TRAP, PM_EVENTS };
extern const char *const pm_event_names[PM_EVENTS];

/* Per pc: exact figures and the samples' (sums). */
typedef struct pm_pc {
    uint64_t pc;
    uint64_t exact[PM_EVENTS], samples, sampled[PM_EVENTS];
    uint64_t exact_latency[PM_LATENCIES], sampled_latency[PM_LATENCIES]; /* sums over retired instances */
    /* Paired sampling: useful overlaps forward (I first) and backward (I
     * second), fetch->retire-ready cycles of the samples involving I; the
     * exact useful overlaps within +-W and fetch->retire-ready cycles. */
    uint64_t useful_fwd, useful_bwd, pair_latency, exact_useful, exact_progress;
} pm_pc;

struct outfile;
typedef struct profileme_config {
    uint64_t interval;         /* S: mean fetched instances between samples */
    struct outfile *records;   /* every sample's profile registers as CSV (--profileme-samples), or NULL */
    uint32_t window;           /* W: paired sampling's window; 0 = single sampling */
    uint64_t seed;
    uint32_t issue_width;      /* C: slots per cycle (the dispatch width) */
} profileme_config;

typedef struct profileme profileme;

profileme *profileme_new(const profileme_config *cfg);
/* The header of --profileme-samples' CSV. */
void profileme_records_header(struct outfile *o);
void profileme_begin(profileme *pm);   /* samples and exact figures count from here */
instance_fn profileme_instance;
/* The per-pc results (*n of them, by samples then pc) and the totals. */
typedef struct profileme_result {
    profileme_config cfg;
    pm_pc *pcs;
    size_t npcs;
    uint64_t samples, pairs, instances;
    uint64_t first_instance;   /* the first measured instance's number (--profileme-samples' across chunks) */
} profileme_result;
void profileme_finish(profileme *pm, profileme_result *out); /* frees pm */
void profileme_result_free(profileme_result *r);
/* The results of a chunked run's chunks as one: every per-pc figure and
 * total summed (each chunk samples from a seed of its own: profiling.c). */
void profileme_results_stitch(const profileme_result *const *r, size_t n, profileme_result *out);

/* The estimate of an event count from k samples: k x S (k x S/2 when
 * pairs count both members). */
double pm_estimate(const profileme_result *r, uint64_t k);
/* Paired: wasted issue slots of a pc, estimated (L C S/2 - U W S) and exact
 * (C x progress - useful overlaps within +-W). */
double pm_wasted_estimate(const profileme_result *r, const pm_pc *p);
double pm_wasted_exact(const profileme_result *r, const pm_pc *p);

/* Fig. 3's test: of the pcs with at least one sample having the event, the
 * share whose estimate/exact lies within 1 +- 1/sqrt(k) (expected ~2/3). */
double pm_within_envelope(const profileme_result *r, enum pm_event e, size_t *npcs);

/* Regions combined by their weights: each pc's estimated and exact event
 * counts per 1,000 instructions of the whole program (top: list length, 0
 * = all). */
json_t *profileme_combined_json(const profileme_result *const *r, const double *weight, const uint64_t *insts, size_t n,
                                const rv_symtab *syms, size_t top);
json_t *profileme_json(const profileme_result *r, const cost *golden, size_t ngolden, uint32_t units,
                       const rv_symtab *syms, size_t top);
/* Fig. 3's shape (gnuplot): estimate/exact against samples per pc, with the
 * 1 +- 1/sqrt(k) envelope: DIR/profileme_convergence.svg and .png. */
void profileme_plot(const profileme_result *r, const char *dir);
void profileme_summary(FILE *f, const profileme_result *r, const cost *golden, size_t ngolden, uint32_t units,
                       const rv_symtab *syms);

#endif
