/* A full detailed run in chunks (issue 38): one functional pass leaves a
 * warm checkpoint before every chunk (lib/ckpt/ckpt_chunks.h), the chunks
 * run in detail in parallel, each as soon as the pass has made it ready
 * (sim/chunk_pass.h), each after a detailed warm-up from its
 * checkpoint's warm state, and are stitched into the result a serial
 * --full run writes: exact instruction counts and intervals; cycles, cycle
 * stack, events, interval log, golden profile and PICS summed over chunks,
 * off the serial run's only by what the warm-ups miss (bench/chunked_full.sh);
 * sampled profiles with the samplers' periods going on across chunks
 * (sampled_runs_stitch, bench/chunked_sampled.sh). */
#ifndef SIM_CHUNKS_H
#define SIM_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "ckpt/ckpt_chunks.h"
#include "run.h"


typedef struct chunk_options {
    uint64_t insts;              /* --chunk-insts C; 0: from count */
    uint64_t count;              /* --chunks N: C = total / N, rounded up to the log interval */
    uint64_t warmup;             /* --chunk-warmup W */
    bool stitch;                 /* --stitch: the chunks are checkpoint --chunk-insts's checkpoints, or parts */
    uint64_t part;               /* --part K: chunk K alone, into part_out */
    const char *part_out;        /* --part-out FILE; NULL: no --part */
    const char *pass_dir;        /* --chunk-pass DIR: the pass alone, publishing there (sim/chunk_pass.h) */
} chunk_options;

/* How a run was chunked, for the result ("chunked" in sim/RESULTS.md). */
typedef struct chunk_summary {
    size_t chunks;
    uint64_t insts, warmup;
    double pass_seconds;         /* the functional pass (0 for --stitch) */
    double chunk_seconds;        /* the chunks' simulation, summed (CPU time of one thread each) */
    double wall_seconds;         /* pass and chunks */
} chunk_summary;

/* The chunks' size C as given (--chunk-insts) or from --chunks N and the
 * program's length, whole log rows of G; unchecked. */
uint64_t chunk_insts(const chunk_options *co, uint64_t total_insts, uint64_t G);
/* C from --chunk-insts, or --chunks N of the program's total_insts rounded
 * up to a multiple of the log interval G (chunks cut no log row); 0 with
 * the reason when the chunks cannot be so (C not a multiple of G, W >= C). */
uint64_t chunk_size(const chunk_options *co, uint64_t total_insts, uint64_t G, char *err, size_t errlen);
/* sim --full in chunks: dies on errors (the guest's own failure is a result). */
void sim_full_chunked(const sim_options *o, const chunk_options *co, int argc, char **argv, sim_result *r,
                      chunk_summary *s);
/* sim --full --chunk-insts C --chunk-pass DIR: the functional pass alone,
 * each chunk's checkpoint published into DIR once ready (a Slurm array's
 * tasks wait for theirs: sim/chunk_pass.h). */
void sim_chunk_pass(const sim_options *o, const chunk_options *co, int argc, char **argv);
/* sim --stitch: the chunk checkpoints of checkpoint --chunk-insts, or the
 * parts sim_chunk_part wrote (sim/chunk_part.h), any order. */
void sim_stitch(const sim_options *o, char **paths, int npaths, sim_result *r, chunk_summary *s);
/* sim --stitch --part K --part-out FILE: chunk K of the checkpoints alone,
 * its result into the part FILE (a task of a job array); the checkpoints are
 * checkpoint --chunk-insts's, or a --chunk-pass DIR (perhaps still running). */
void sim_chunk_part(const sim_options *o, char **paths, int npaths, uint64_t index, const char *out);

struct json_t;
struct json_t *chunk_summary_json(const chunk_summary *s);

#endif
