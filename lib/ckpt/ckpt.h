/* Saving a guest process to a checkpoint file and restoring it: registers,
 * memory map and non-zero pages, OS state (brk, mmap, open files and their
 * offsets, the deterministic clock), the program's identity (path and CRC)
 * and the region(s) the checkpoint was taken for. */
#ifndef RV_CKPT_H
#define RV_CKPT_H

#include <stdbool.h>
#include <stdint.h>

#include "proc.h"

/* One simulation region that starts at this checkpoint. */
typedef struct ckpt_region {
    long long simpoint;  /* interval index in the .simpoints file, -1 for --at points */
    long long cluster;   /* cluster id, -1 if none */
    double weight;
    uint64_t interval;   /* region length in instructions (0 if not given) */
    uint64_t warmup;     /* instructions between the checkpoint and the region */
    uint64_t start;      /* the checkpoint's instruction count */
    bool extra;          /* another member of the cluster, drawn to measure its spread
                            (checkpoint --extra-per-cluster), not its representative */
    uint64_t cluster_size; /* intervals in the cluster (0: not known) */
    bool chunk;          /* a chunk of a chunked full run (ckpt_chunk_region): its checkpoint is
                            restored apart from the host's files (lib/ckpt/ckpt_fds.h) */
} ckpt_region;

/* What --info shows and restore checks. */
typedef struct ckpt_meta {
    char *program;       /* absolute path when taken */
    uint32_t elf_crc;
    uint64_t elf_size;
    uint64_t icount, pc;
    ckpt_region *regions;
    int nregions;
    uint64_t pages, vmas, files;
} ckpt_meta;

/* The regions as a JSON array (the form the META section, the manifest and
 * --info --json share). */
struct json_t;
struct json_t *ckpt_regions_json(const ckpt_region *regions, int nregions);
struct json_t *ckpt_region_json(const ckpt_region *region);

/* CRC32 and size of a file; false if it cannot be read. */
bool ckpt_file_crc(const char *path, uint32_t *crc, uint64_t *size);
/* The same of an open file, from its start, without moving its offset;
 * false on a read error or past max_bytes. */
bool ckpt_fd_crc(int fd, uint64_t max_bytes, uint32_t *crc, uint64_t *size);

/* Write the checkpoint atomically (dies with a reason on I/O errors). */
void ckpt_save(const rv_proc *p, const char *path, const ckpt_region *regions, int nregions);

/* The same with warm micro-architectural state (an opaque blob, see
 * uarch_save) stored in an extra section. */
void ckpt_save_warm(const rv_proc *p, const char *path, const ckpt_region *regions, int nregions, const void *warm,
                    size_t warm_len);
/* The same with the pages in a store shared by the checkpoints of one run
 * (lib/ckpt/ckpt_pages.h; NULL: in the checkpoint). */
struct ckpt_page_store;
void ckpt_save_shared(const rv_proc *p, const char *path, const ckpt_region *regions, int nregions, const void *warm,
                      size_t warm_len, struct ckpt_page_store *store);
/* That blob (malloc'd), or -1 with a reason when absent or damaged. */
int ckpt_read_warm(const char *path, void **data, size_t *len, char *err, size_t errlen);

/* Read only the metadata (the whole file is verified). 0 or -1 with err. */
int ckpt_read_meta(const char *path, ckpt_meta *meta, char *err, size_t errlen);
void ckpt_meta_free(ckpt_meta *meta);

/* Rebuild the process from a checkpoint. o->exe may name the program to use
 * (NULL: the path recorded); its CRC must match. o->write_dirs and
 * o->syscall_enosys apply as for a fresh start; argv/env come from the
 * checkpoint. 0 or -1 with a one-line reason; either way p and meta are then
 * for rv_proc_destroy and ckpt_meta_free. */
int ckpt_restore(rv_proc *p, const char *path, const rv_proc_options *o, ckpt_meta *meta, char *err, size_t errlen);

#endif
