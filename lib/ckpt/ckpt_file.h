/* The checkpoint container: a header (magic, version, section count) then
 * tagged sections, each zlib-compressed and protected by a CRC32, so that a
 * truncated, corrupted or foreign file is recognised before anything is used. */
#ifndef RV_CKPT_FILE_H
#define RV_CKPT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outfile.h"

#define CKPT_VERSION 1

/* Section tags: four characters, as in "META". */
#define CKPT_TAG(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
enum {
    CKPT_META = CKPT_TAG('M', 'E', 'T', 'A'),  /* JSON: program, arguments, regions */
    CKPT_CPU = CKPT_TAG('C', 'P', 'U', ' '),   /* binary: architectural state */
    CKPT_OS = CKPT_TAG('O', 'S', ' ', ' '),    /* JSON: brk, mmap, files, clock, ... */
    CKPT_VMAS = CKPT_TAG('V', 'M', 'A', 'S'),  /* JSON: memory map with permissions */
    CKPT_PAGES = CKPT_TAG('P', 'A', 'G', 'E'), /* binary: (address, 4 KiB) for non-zero pages */
    CKPT_PAGE_REFS = CKPT_TAG('P', 'R', 'E', 'F'), /* instead of PAGE: the pages in a store beside (ckpt_pages.h) */
    CKPT_UARCH = CKPT_TAG('U', 'A', 'R', 'C'), /* optional, binary: warm caches, TLBs, predictors */
    CKPT_FDATA = CKPT_TAG('F', 'D', 'A', 'T'), /* binary: bytes the open files hold (pipes, unread stdin) */
};

typedef struct ckpt_section {
    uint32_t tag;
    unsigned char *data; /* decompressed */
    size_t len;
} ckpt_section;

void ckpt_write_header(outfile *o, uint32_t nsections);
/* Compress and append one section. */
void ckpt_write_section(outfile *o, uint32_t tag, const void *data, size_t len);

/* Read and verify a whole checkpoint file. Returns 0, or -1 with a one-line
 * reason (not a checkpoint, version mismatch, truncated, CRC mismatch). */
int ckpt_read(const char *path, ckpt_section **sections, int *count, char *err, size_t errlen);
/* The section with that tag, or NULL. */
const ckpt_section *ckpt_find(const ckpt_section *sections, int count, uint32_t tag);
void ckpt_sections_free(ckpt_section *sections, int count);

/* A checkpoint names the files it needs beside it (its page store, its
 * pass's file history) by a plain name: not empty, no '/', neither "." nor
 * "..". Is name one? */
bool ckpt_plain_name(const char *name);
/* The path of plain name `name` beside the checkpoint at ckpt_path (to free). */
char *ckpt_beside(const char *ckpt_path, const char *name);

#endif
