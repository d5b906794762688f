#include "trace.h"

#include <inttypes.h>

#include "../core/account.h"
#include "../core/core.h"

void trace_open(trace_writer *t, const char *path, uint32_t units, int commit_width)
{
    *t = (trace_writer){.out = outfile_open(path), .origin = UINT64_MAX};
    outfile_printf(t->out, "# rvsample commit trace, version 1, commit width %d, units per cycle %u\n", commit_width,
                   units);
    outfile_printf(t->out, "cycle,run,state,stack,commit_pcs,head_pc,flush_pc,flush_flags,dispatch_pcs,fetch_pc\n");
}

void trace_begin(trace_writer *t, uint64_t origin)
{
    t->origin = origin;
}

static char flush_flags(uint16_t f)
{
    if (f & UOP_MISPREDICT) return 'm';
    if (f & UOP_EXCEPTION) return 'e';
    if (f & UOP_FLUSH_CSR) return 'c';
    return 'o';
}

void trace_view(void *ctx, const commit_view *v)
{
    trace_writer *t = ctx;
    if (v->cycle + v->run <= t->origin) return;
    uint64_t cycle = v->cycle, run = v->run;
    if (cycle < t->origin) run -= t->origin - cycle, cycle = t->origin;
    outfile *o = t->out;
    outfile_printf(o, "%" PRIu64 ",%" PRIu64 ",%s,%s,", cycle, run, commit_state_names[v->state],
                   stack_key_names[v->stack_key]);
    for (int i = 0; i < v->ncommit; i++) outfile_printf(o, "%s%" PRIx64, i ? ";" : "", v->commit[i].pc);
    outfile_printf(o, ",");
    if (v->nhead) outfile_printf(o, "%" PRIx64, v->head[0].pc);
    outfile_printf(o, ",");
    if (v->has_flusher) outfile_printf(o, "%" PRIx64 ",%c", v->flusher.pc, flush_flags(v->flusher.flags));
    else outfile_printf(o, ",");
    outfile_printf(o, ",");
    if (v->ndispatch) outfile_printf(o, "%" PRIx64 ";%" PRIx64, v->dispatch_first.pc, v->dispatch_last.pc);
    outfile_printf(o, ",");
    if (v->nfetch) outfile_printf(o, "%" PRIx64, v->fetch_first.pc);
    outfile_printf(o, "\n");
}

void trace_commit(trace_writer *t)
{
    if (t->out) outfile_commit(t->out);
    t->out = NULL;
}
