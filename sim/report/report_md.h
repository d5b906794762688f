/* The report a person reads (--report FILE.md): for each result, the error
 * of every sampled profiler, the cycle categories, a `perf report`-style
 * table of the hottest functions and instructions with the golden
 * attribution beside every profiler, and a `perf annotate`-style listing of
 * the hottest functions: disassembly with source lines (when the program has
 * DWARF line tables), each instruction's share of time and its commit-state
 * split for the golden attribution and one profiler, and its cycle stack
 * when the golden PICS are there. */
#ifndef SIM_REPORT_MD_H
#define SIM_REPORT_MD_H

#include <stddef.h>

#include "report.h"

typedef struct report_md_options {
    const char *annotate;      /* the profiler annotated beside the golden attribution */
    size_t functions;          /* functions annotated */
    size_t rows;               /* rows of the report tables */
} report_md_options;

void report_markdown(const char *path, const sim_result *res, size_t n, const report_ctx *x,
                     const report_md_options *o);

#endif
