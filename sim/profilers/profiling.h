/* The profiling consumers of one measured run: the main sampler (--sample),
 * the frequency sweep (--sample-sweep-hz: periodic and random at each
 * frequency), the --samples record file, the --commit-trace writer, the
 * golden PICS, the shadow call stack of inclusive time (always: perf puts
 * it at 3.5% of sim's time on sort), ProfileMe and the dependence graph of icost.
 * They attach to the core before the run, start at the first measured
 * cycle, and leave their results in the run's sim_result. */
#ifndef SIM_PROFILING_H
#define SIM_PROFILING_H

#include "../core/core.h"
#include "../whatif/depgraph.h"
#include "callstack.h"
#include "pics.h"
#include "profileme.h"
#include "sampler.h"
#include "trace.h"

typedef struct sampling_options {
    const char **profilers;    /* policy names; none: no sampling */
    int nprofilers;
    sampler_config cfg;        /* the main sampler */
    double *sweep_hz;          /* frequencies of the sweep */
    int nsweep;
    const char *records;       /* --samples FILE */
    const char *commit_trace;  /* --commit-trace FILE */
    bool pics;                 /* the golden PICS even without an event-based profiler */
    bool profileme;            /* --sample profileme: instruction sampling (sim/profilers/profileme.h) */
    profileme_config pm;
    const char *pm_records;    /* --profileme-samples FILE */
    const depgraph_config *graph; /* the dependence-graph model of icost, or NULL */
    bool chunk;                /* a chunk of a chunked full run: its call stack from its first measured
                                  instruction (callstack_begin's fresh), stitched after */
} sampling_options;

typedef struct profiling {
    sampler **samplers;        /* main first, then the sweep */
    int nsamplers;
    outfile *records;
    trace_writer trace;
    pics_golden *pics;         /* when asked for, or an event-based profiler runs */
    callstack *calls;
    profileme *pm;
    outfile *pm_records;
    depgraph *graph;
    sim_core *core;            /* the core attached to, for the measured length at begin */
    bool chunk;                /* sampling_options' */
} profiling;

/* Period in cycles for a frequency on a core clocked at freq_mhz. */
uint64_t sampling_period(double hz, int freq_mhz);
/* cfg's period for a run of insts instructions on a core committing at most
 * width a cycle: no longer than cfg's, and short enough for min_samples
 * (the run takes at least insts / width cycles). */
uint64_t sampling_period_for(const sampler_config *cfg, uint64_t insts, int width);

void profiling_attach(profiling *p, const sampling_options *o, sim_core *c);
void profiling_begin(profiling *p, uint64_t origin);
struct sim_result;
/* End every sampler, move the results into r, write files. */
void profiling_finish(profiling *p, struct sim_result *r);

#endif
