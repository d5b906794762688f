/* The functional pass of a chunked full run (issue 38), overlapped with the
 * chunks' simulation: the pass leaves chunk k's warm checkpoint at kC - W
 * and calls the chunk *ready* once it knows whether chunk k is the run's
 * last: when it has run past (k+1)C (there is a chunk after it) or when the
 * program has ended (it is the last). A chunk simulated before that could
 * stop at (k+1)C where the serial run goes on to the program's exit. So
 * chunk k starts one chunk's pass (C + W instructions at warming's speed)
 * after its checkpoint, not after the whole pass.
 *
 * In one process the pass runs on one of OpenMP's threads, the chunks on the
 * others, and that thread simulates chunks too once the pass is done: no
 * more threads than OMP_NUM_THREADS (bench/results/chunk_overlap.md: on CPUs
 * that other work keeps busy, one more thread for the pass was slower).
 *
 * In one process the chunks wait for readiness on a condition variable
 * (sim --full --chunk-insts). For a Slurm job array the pass publishes into
 * a directory (sim --full --chunk-insts --chunk-pass DIR): chunk k's
 * checkpoint appears as DIR/chunk-K.ckpt (renamed into place) when it is
 * ready, and DIR/chunks.json, written at the pass's end before the last
 * chunks appear, gives their number; a task waits for its own file. */
#ifndef SIM_CHUNK_PASS_H
#define SIM_CHUNK_PASS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ckpt/ckpt_chunks.h"
#include "progress.h"
#include "run.h"

/* A chunk to simulate: its checkpoint (or part) and its region. */
typedef struct chunk {
    char *path;
    ckpt_region region;
    uint32_t elf_crc;            /* the program's (--stitch) */
    uint64_t begin_pc, begin_digest; /* the functional pass's pc and rv_cpu_digest at its first measured
                                        instruction (pc 0: not known) */
    uint64_t end;                /* the last chunk's: the program's instructions as the pass ran them
                                    (0: not known) */
} chunk;

typedef struct chunk_pass {
    pthread_mutex_t mu;
    pthread_cond_t cv;           /* broadcast when ready, done or finished change */
    chunk *chunks;               /* the checkpoints written so far */
    size_t n;
    size_t ready;                /* chunks [0, ready) may be simulated */
    bool done;                   /* the pass has ended: n is the run's number of chunks, all ready */
    size_t finished;             /* chunks simulated (counted by their consumers) */
    bool show_progress;          /* --progress */
    progress chunks_progress;    /* the chunks', once the pass is done */
    const char *dir;             /* --chunk-pass DIR, or NULL: temporary files */
    char *store;                 /* the checkpoints' page store */
    char *history;               /* the pass's file history (lib/sys/path_history.h) */
    uint64_t insts;              /* the program's instructions (when done) */
    double seconds;              /* the pass's wall time (when done) */
} chunk_pass;

/* An empty pass; dir: where to publish (NULL: temporary files, in-process). */
void chunk_pass_init(chunk_pass *p, const char *dir);
/* The pass itself: checkpoint --warm --chunk-insts C --warmup W's, with the
 * guest's output where o says (dies on errors). */
void chunk_pass_run(chunk_pass *p, const sim_options *o, uint64_t C, uint64_t W, int argc, char **argv);
/* Wait until chunk k is ready or the pass done: false when there is no
 * chunk k; else *c (path shared with p) and whether it is the last. */
bool chunk_pass_wait(chunk_pass *p, size_t k, chunk *c, bool *last);
/* One more chunk simulated (the chunks' progress line once the pass is done). */
void chunk_pass_finished(chunk_pass *p);
/* Frees p; temporary checkpoints and store removed (a DIR's kept). */
void chunk_pass_destroy(chunk_pass *p);

/* A task's chunk k of a pass publishing into dir: 1 and *path (to free)
 * and *last when its checkpoint is there; 0 with *count when the run has no
 * chunk k (count <= k); -1 with the reason when it is not there yet. */
int chunk_pass_dir_chunk(const char *dir, uint64_t k, char **path, bool *last, uint64_t *count, char *err,
                         size_t errlen);

void chunks_free(chunk *chunks, size_t n);
void chunks_append(chunk **chunks, size_t *n, char *path, const ckpt_region *rg, uint32_t elf_crc);

#endif
