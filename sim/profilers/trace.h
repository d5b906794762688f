/* --commit-trace: the per-cycle commit view as text, one line per view (a
 * run of identical idle cycles is one line), zlib-compressed when the name
 * ends in .gz. The format is in sim/RESULTS.md; it is what lets anyone
 * check a profiler, or write a new one, offline. */
#ifndef SIM_TRACE_H
#define SIM_TRACE_H

#include <stdint.h>

#include "outfile.h"
#include "../core/probe.h"

typedef struct trace_writer {
    outfile *out;
    uint64_t origin;           /* the first cycle written (the views it reads); UINT64_MAX before trace_begin */
} trace_writer;

void trace_open(trace_writer *t, const char *path, uint32_t units, int commit_width);
/* Lines start with the view covering cycle origin. */
void trace_begin(trace_writer *t, uint64_t origin);
void trace_view(void *trace_writer, const commit_view *v);
void trace_commit(trace_writer *t);

#endif
