/* Reporting Per-Instruction Cycle Stacks (TEA): the golden PICS with the
 * paper's diagnostics (combined events, the no-event stall percentile, the
 * correlation of event counts with cycles that event-driven profiling
 * relies on), and any PICS as per-unit stacks, one component per PSV
 * combination ("Base", "ST-L1", "ST-L1, ST-TLB"). */
#ifndef SIM_REPORT_PICS_H
#define SIM_REPORT_PICS_H

#include <jansson.h>
#include <stdio.h>

#include "../core/psv.h"
#include "report.h"

/* Units of pics grouped at granularity g, categories masked: the first
 * x->top units by time, each {"pc"/"name", ..., "cycles", "stack": {...}},
 * cycles in 1/units (r supplies the encodings for disassembly). */
json_t *pics_stacks_json(const cost *pics, size_t n, uint16_t mask, enum granularity g, const symbolizer *sym,
                         const sim_result *r, uint32_t units, const report_ctx *x);
/* The share of event-carrying dynamic instructions that carry several of the
 * events in mask (the paper: 30%). */
double pics_combined_share(const cost *pics, size_t n, uint16_t mask);
/* Pearson r, over static instructions, between the executions that carried
 * event e and the golden cycles of the categories containing e (Fig. B.7);
 * NaN when undefined. */
double pics_event_correlation(const cost *pics, size_t n, int event);

json_t *golden_pics_json(const sim_result *r, const report_ctx *x, const symbolizer *sym);
void pics_summary(FILE *f, const sim_result *r, const symbolizer *sym);

#endif
