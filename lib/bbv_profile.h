/* Basic-block vector collection for one or more interval sizes at once.
 * Blocks get dense 1-based ids in order of first execution; interval i of
 * size N covers retired instructions [i*N, (i+1)*N) exactly, even when the
 * boundary falls inside a block: the run stops exactly at every boundary
 * (rv_run's limit) and block counts are drained there. */
#ifndef RV_BBV_PROFILE_H
#define RV_BBV_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/exec.h"
#include "outfile.h"

enum { BBV_MAX_SIZES = 16 };

typedef struct bbv_series {
    uint64_t size;          /* interval length */
    uint64_t next_boundary; /* retired count at which the current interval ends */
    uint64_t *counts;       /* per block id: instructions in the current interval */
    uint32_t *touched;      /* ids with a non-zero count, in first-touch order */
    uint32_t ntouched;
    uint64_t written;       /* complete intervals written */
    outfile *out;           /* NULL: count only */
} bbv_series;

typedef struct bbv_block_info {
    uint64_t pc;
    uint32_t len;
} bbv_block_info;

/* A client of every block the run executes and of every interval closed,
 * beside the counting (bbv --proxy: the warming model and its metrics). */
typedef struct bbv_client {
    rv_block_hook block; /* each block, whole or in part (rv_run's hook) */
    /* series' interval `index` ends at `retired` (the last, partial one
     * included, when it is written) */
    void (*closed)(void *ctx, int series, uint64_t index, uint64_t retired);
    void *ctx;
} bbv_client;

typedef struct bbv_profile {
    bbv_series series[BBV_MAX_SIZES];
    int nseries;
    bbv_block_info *blocks; /* index id - 1 */
    uint32_t nblocks, cap;
    uint64_t *id_of_pc;     /* open-addressing table of (pc, id) pairs */
    uint32_t table_mask;
    uint64_t retired;       /* instructions seen */
    void (*on_progress)(void *ctx, uint64_t retired);
    void *progress_ctx;
    uint64_t next_progress;
    uint64_t next_event;    /* the earliest interval boundary or progress point */
    bbv_client client;      /* .block NULL: none */
    rv_proc *proc;          /* the process bbv_profile_run runs */
} bbv_profile;

/* sizes[0..n): interval lengths; outs[i] the file for sizes[i] (or NULL). */
void bbv_profile_init(bbv_profile *bp, const uint64_t *sizes, outfile *const *outs, int n);
/* Count intervals from instruction `start` on (a run resumed from a checkpoint). */
void bbv_profile_rebase(bbv_profile *bp, uint64_t start);
/* Call fn(ctx, retired) about every 64M instructions. */
void bbv_profile_on_progress(bbv_profile *bp, void (*fn)(void *ctx, uint64_t retired), void *ctx);
/* Give every block and every closed interval to c as well (before bbv_profile_run). */
void bbv_profile_attach(bbv_profile *bp, const bbv_client *c);
/* Run p, profiling, until it stops or `limit` instructions have retired in
 * total. Returns what rv_run returned last. */
enum rv_run_result bbv_profile_run(bbv_profile *bp, rv_proc *p, uint64_t limit);
/* Write the final partial interval of every series (unless drop_partial). */
void bbv_profile_finish(bbv_profile *bp, bool drop_partial);
void bbv_profile_free(bbv_profile *bp);

#endif
