/* One chunk of a chunked full run simulated in a process of its own (a
 * task of a Slurm job array): `sim --stitch --part K --part-out FILE CKPT...`
 * writes what stitching needs of chunk K's result into FILE, and
 * `sim --stitch FILE...` stitches the parts into the serial run's result.
 * The file is binary, for the sim that wrote it (sim/RESULTS.md, "Chunk
 * parts"): a magic line, the build's shapes, the payload and its CRC32. A
 * truncated, corrupted or foreign file is refused with a one-line reason. */
#ifndef SIM_CHUNK_PART_H
#define SIM_CHUNK_PART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run.h"

/* Which chunk of which run. */
typedef struct chunk_part {
    uint64_t index, count;       /* chunk k of n; n 0 when unknown as it ran (a pass still running: not the last) */
    ckpt_region region;          /* its region (checkpoint --chunk-insts's) */
    uint32_t elf_crc;            /* the program's */
    uint64_t config_digest;      /* the core configuration it ran on (uarch_config_digest) */
    double started, ended;       /* wall clock (epoch seconds) of its simulation */
} chunk_part;

/* Write r (a chunk's result) atomically; dies on I/O errors. */
void chunk_part_write(const char *path, const chunk_part *m, const sim_result *r);
/* Read a part into *m and *r (r's to free); 0, or -1 with a one-line reason. */
int chunk_part_read(const char *path, chunk_part *m, sim_result *r, char *err, size_t errlen);
/* Whether PATH begins as a part does (not a checkpoint). */
bool chunk_part_is(const char *path);

#endif
