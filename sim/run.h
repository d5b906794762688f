/* The two ways sim runs a program: the whole of it in detail (with a
 * per-interval log), or the regions of checkpoints after a warm-up. */
#ifndef SIM_RUN_H
#define SIM_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/account.h"
#include "ckpt/ckpt.h"
#include "guest_cli.h"
#include "profilers/profiling.h"
#include "uarch/config.h"

/* checkpoint+detailed: the checkpoint's warm state, then the warm-up window in
 * detail (a chunked full run's chunks). */
enum warmup_mode { WARMUP_NONE, WARMUP_DETAILED, WARMUP_FUNCTIONAL, WARMUP_CHECKPOINT, WARMUP_CHECKPOINT_DETAILED, WARMUP_MODES };
extern const char *const warmup_mode_names[WARMUP_MODES];

typedef struct sim_options {
    uarch_config cfg;
    const char *config_source;   /* file read, or "built-in" */
    enum warmup_mode warmup;
    uint64_t log_interval;       /* G: instructions per interval-log row */
    const char *interval_log;    /* CSV path, NULL for none */
    uint64_t max_insts;          /* 0: no limit */
    uint64_t total_insts;        /* the program's length when known (--total-insts): progress, projections */
    const char *guest_output;    /* NULL: the guest's own streams */
    const char *bbmap;           /* block ids to label blocks with */
    const char *program;         /* checkpoint mode: the program to use instead of the recorded path */
    guest_args guest;
    bool progress;
    sampling_options sampling;
    const uint64_t *ideal_loads;  /* loads that hit the L1D (sorted pcs; icost per load) */
    size_t nideal_loads;
    const struct ustate *warm_state; /* regions: caches, TLBs and predictors already warmed to the
                                        region's start (sim_region_warm), shared by what-if runs */
    bool region_to_end;          /* the region runs to the program's end (a chunked run's last chunk) */
    bool region_log;             /* keep the region's per-interval log in the result (chunks) */
} sim_options;

/* A run's per-interval log kept in memory: one row per log_interval
 * instructions (the last may be shorter), as --interval-log writes them. */
typedef struct interval_rows {
    counters *rows;
    size_t n, cap;
} interval_rows;

void interval_rows_append(interval_rows *l, const counters *row);
/* The CSV of --interval-log (sim/RESULTS.md): its header, and row `index`,
 * which starts at instruction `start`. */
struct outfile;
void interval_log_header(struct outfile *o);
void interval_log_row(struct outfile *o, uint64_t index, uint64_t start, const counters *row);

/* One measured run: totals, the golden attribution, how it was warmed. */
typedef struct sim_result {
    char *program;
    const char *checkpoint;      /* NULL for --full */
    bool has_region;
    ckpt_region region;
    enum warmup_mode warmup;
    uint64_t warmup_insts, warmup_cycles;
    uint64_t start;              /* instruction count where measurement began */
    uint64_t origin;             /* the core's cycle where it began (--commit-trace's and --samples' first) */
    counters c;
    const char *stopped_by;      /* "limit", "exit", "fault" */
    int exit_status;
    char *message;               /* why the guest stopped, when it faulted */
    cost *pcs, *blocks;          /* sorted by attributed time */
    size_t npcs, nblocks;
    uint32_t units;
    sampled_run *sampled;        /* the main sampler, then the sweep's */
    int nsampled;
    cost *pics;                  /* the golden PICS (pics_key(pc, PSV)), when asked for */
    size_t npics;
    uint64_t *no_event_stalls;   /* PICS_STALL_BUCKETS + 1 counts */
    call_profile *calls;         /* calling contexts, for inclusive time (sim/profilers/callstack.h) */
    profileme_result *profileme; /* --sample profileme */
    depgraph_result *graph;      /* --icost: the dependence graph's critical paths */
    interval_rows log;           /* with region_log: the measured part's interval log */
    uint64_t elf_bias;
    uint64_t end_pc, end_digest; /* stopped by its limit: the pc of the next instruction, rv_cpu_digest */
    double seconds;
} sim_result;

void sim_result_free(sim_result *r);

/* --full: dies on errors (the guest's own failure is a result). */
void sim_full(const sim_options *o, int argc, char **argv, sim_result *r);

/* All regions of the checkpoints, in parallel; results in argument order
 * then region order. Returns the number of results (*out allocated). */
size_t sim_regions(const sim_options *o, char **paths, int npaths, sim_result **out);

/* The regions sim_regions runs, in its order (dies on unreadable checkpoints). */
typedef struct region_job {
    const char *path;
    int region;
    bool to_end;                 /* it runs to the program's end (a chunked run's last chunk) */
    const char *commit_trace;    /* this job's --commit-trace and --samples files instead of the options' */
    const char *records;         /* (a chunk's, stitched after: sim/chunk_files.h) */
    const char *pm_records;      /* and --profileme-samples */
} region_job;
size_t sim_region_jobs(char **paths, int npaths, region_job **out);
/* The jobs in parallel (OpenMP, no more threads than jobs; the results do
 * not depend on their number), results in job order; what: the progress
 * line's name. */
void sim_run_jobs(const sim_options *o, const region_job *jobs, size_t n, const char *what, sim_result *res);
/* One job: sim_region with the job's own options (to the end, its files). */
bool sim_run_job(const sim_options *o, const region_job *job, const char *output, sim_result *r);

/* One region of one checkpoint; output: where the guest's output goes
 * ("none" to discard). Failures become r->message (the other regions still
 * run); returns false then. */
bool sim_region(const sim_options *o, const char *path, int region, const char *output, sim_result *r);

/* The warm state o's functional or checkpoint warm-up builds for a region:
 * what sim_region would start from, for runs that share it (their
 * configurations agree on uarch_state_digest). False if the checkpoint
 * cannot be restored (sim_region then says why). */
struct ustate;
bool sim_region_warm(const sim_options *o, const char *path, int region, struct ustate *out);

#endif
