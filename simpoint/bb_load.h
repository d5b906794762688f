/* Loading a .bb file (plain or gzip, detected by zlib) in one streaming pass:
 * batches of complete lines are parsed and projected in parallel, so memory
 * holds intervals x dim numbers, never intervals x blocks. */
#ifndef SP_BB_LOAD_H
#define SP_BB_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "dataset.h"
#include "project.h"

typedef struct bb_input {
    dataset vectors;      /* one row per interval, no weights */
    double *row_sums;     /* instructions in each interval */
    uint32_t num_blocks;  /* largest block id (after shifting a 0-based file) */
    bool zero_based;      /* ids started at 0 (QEMU's bbv plugin): all shifted by one */
    long partial_index;   /* interval announced as "# partial interval", or -1 */
    uint64_t partial_len;
    uint64_t bytes;       /* uncompressed bytes read */
} bb_input;

typedef struct bb_load_options {
    bool compat;   /* drop a final T line without newline, as SimPoint 3.2 does */
    bool progress; /* --progress */
} bb_load_options;

/* Read PATH ("-" = stdin). With proj == NULL the vectors are the L1-normalised
 * rows themselves (-dim noProject). Dies with "file:line:col: problem". */
void bb_load(const char *path, projection *proj, const bb_load_options *opt, bb_input *in);
void bb_input_free(bb_input *in);

#endif
