/* Presenting results: the JSON of sim/RESULTS.md, a perf-stat-like text
 * summary, and the complete golden profile as CSV. */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "../run.h"
#include "profile.h"
#include "symbols.h"

/* bbv's block ids by entry pc (from a .bbmap). */
typedef struct block_ids {
    uint64_t *pcs;
    uint32_t *ids;
    size_t n;
} block_ids;

void block_ids_load(block_ids *b, const char *path);
void block_ids_free(block_ids *b);

typedef struct report_ctx {
    const rv_symtab *syms;
    const block_ids *blocks;
    size_t top;               /* profile entries per list in the JSON, 0 = all */
} report_ctx;

json_t *result_json(const sim_result *r, const report_ctx *x);
/* Profile lists as in the result JSON (the first x->top entries). */
json_t *pcs_list_json(const cost *pcs, size_t npcs, uint32_t units, const report_ctx *x);
json_t *functions_list_json(const cost *pcs, size_t npcs, uint32_t units, const report_ctx *x);
/* A block list rolled up from a pc profile (static blocks of sym). */
json_t *blocks_list_json(const cost *blocks, size_t n, uint32_t units, const report_ctx *x);
json_t *cycles_json(uint64_t units, uint32_t per_cycle);
void result_summary(FILE *f, const sim_result *r, const report_ctx *x);
/* Every static instruction: pc, symbol, disassembly, commits, cycles per state. */
void profile_csv(const char *path, const sim_result *r, const report_ctx *x);

#endif
