/* Reporting sampled profiles: each profiler's error against the golden
 * attribution at instruction, block and function level, its profile lists,
 * the cycle categories of the paper's Fig. A.7, the frequency sweep; as JSON,
 * CSV and a text summary. */
#ifndef SIM_REPORT_SAMPLED_H
#define SIM_REPORT_SAMPLED_H

#include <jansson.h>
#include <stdio.h>

#include "outfile.h"
#include "report.h"

/* The golden profile sorted by pc, and the encoding of a pc in it (0 if
 * the pc never committed), for disassembling sampled pcs. */
cost *golden_by_pc(const cost *golden, size_t n);
uint32_t bits_of(const cost *by_pc, size_t n, uint64_t pc);

/* Fig. A.7 categories of a pc x state profile. */
#define CATEGORY_KEYS(C) \
    C(EXECUTION, execution) C(FRONT_END, front_end) C(STALL_ALU, stall_alu) C(STALL_LOAD, stall_load) \
    C(STALL_STORE, stall_store) C(FLUSH_MISPREDICT, flush_mispredict) C(FLUSH_MISC, flush_misc)
enum category {
#define C(id, name) CAT_##id,
    CATEGORY_KEYS(C)
#undef C
    CAT_COUNT
};
extern const char *const category_names[CAT_COUNT];

/* Units per category; the blamed instruction's type comes from its encoding
 * in the golden profile (bits), the state from the profile. */
void profile_categories(const cost *pcs, size_t n, const cost *golden, size_t ngolden, uint64_t out[CAT_COUNT]);

/* The three errors of one sampled profile against r's golden profile. */
void sampled_errors(const sim_result *r, const symbolizer *sym, const sampled_profile *p, double err[GRAN_COUNT]);

json_t *sampled_json(const sim_result *r, const report_ctx *x, const symbolizer *sym);
json_t *sample_sweep_json(const sim_result *r, const symbolizer *sym);
void sampled_summary(FILE *f, const sim_result *r, const symbolizer *sym);
void sampled_csv_header(outfile *o);
void sampled_csv_rows(outfile *o, const sim_result *r, size_t index, const symbolizer *sym);

#endif
