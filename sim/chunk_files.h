/* --commit-trace and --samples across the chunks of a chunked full run
 * and --profileme-samples (sim --full --chunk-insts, sim --stitch CKPT...):
 * each chunk writes its
 * own file into a temporary directory, and the stitch joins them into the
 * file a serial run writes: one header, then every chunk's lines in chunk
 * order with each cycle moved to where the chunk starts in the stitched run
 * (the first chunk's origin plus the cycles of the chunks before), and the
 * first record of each profiler in a chunk weighing also the cycles the
 * chunk before left after its last (as the stitched profiles count them:
 * sampled_runs_stitch); --profileme-samples' samples and instances
 * numbered on from the chunks before (the instances as if the chunks'
 * fetched one after another: the aborted ones differ as the timing does).
 * So the stitched files are the serial run's but for
 * what the chunks' timing changes: with one chunk, the very bytes; with
 * several, each chunk's lines are the serial run's for the same
 * instructions once its detailed warm-up has converged (cycles counted from
 * the chunk's start; tests/e2e/chunked_full.sh measures where). */
#ifndef SIM_CHUNK_FILES_H
#define SIM_CHUNK_FILES_H

#include <stddef.h>

#include "run.h"

typedef struct chunk_files {
    char *dir;                   /* NULL: neither file asked for */
    const char *trace, *records; /* the stitched outputs (sampling_options'), or NULL */
    const char *pm;              /* --profileme-samples */
} chunk_files;

/* The directory, when o asks for a trace or records. */
void chunk_files_init(chunk_files *f, const sampling_options *o);
/* Chunk k's file of `what` ("trace", "records", "pm"): NULL when not asked for. */
char *chunk_files_path(const chunk_files *f, const char *what, size_t k);
/* The chunks' files (results res, in chunk order) into the outputs; removed. */
void chunk_files_stitch(chunk_files *f, const sim_result *res, size_t n);
/* The directory and whatever is in it removed (after a failure too). */
void chunk_files_remove(chunk_files *f, size_t n);

#endif
