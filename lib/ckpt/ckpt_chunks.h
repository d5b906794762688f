/* Chunked full runs: the program cut into chunks of C instructions, each
 * simulated in detail from a warm checkpoint and stitched into one full run
 * (sim --full --chunk-insts, checkpoint --chunk-insts). Chunk k measures
 * [kC, (k+1)C) after a detailed warm-up of W < C instructions, from a
 * checkpoint at kC - W (chunk 0: at 0, without warm-up); the last chunk runs
 * to the program's end, so a plan of chunks is open-ended. */
#ifndef RV_CKPT_CHUNKS_H
#define RV_CKPT_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "ckpt.h"

/* The detailed warm-up before every chunk but the first, by default (sim
 * --chunk-warmup, checkpoint --chunk-insts), for chunks of C instructions:
 * 500k (bench/results/chunked_full.md and chunked_corpus.md: against 100k,
 * the bundled workloads' largest |CPI difference| in 4M chunks falls from
 * 0.21% to 0.06%, the corpus's from 0.11% to 0.10%), a quarter of C for
 * chunks under 2M, so that it stays shorter than a chunk. */
#define CKPT_CHUNK_WARMUP_DEFAULT 500000
uint64_t ckpt_chunk_warmup_default(uint64_t C);

/* 0, or -1 with the reason the chunk size C and warm-up W cannot be used. */
int ckpt_chunks_check(uint64_t C, uint64_t W, char *err, size_t errlen);
/* Chunk k's region: simpoint k, no cluster or weight, interval C. */
ckpt_region ckpt_chunk_region(uint64_t k, uint64_t C, uint64_t W);
/* The instruction where a region's measurement begins. */
static inline uint64_t ckpt_region_begin(const ckpt_region *r) { return r->start + r->warmup; }

#endif
