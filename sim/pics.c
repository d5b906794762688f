#include "pics.h"

#include <stdlib.h>
#include <string.h>

#include "psv.h"
#include "util.h"

void pics_init(pics_golden *g, uint32_t units)
{
    *g = (pics_golden){.units = units};
}

void pics_begin(pics_golden *g, uint64_t origin)
{
    g->started = true;
    g->origin = origin;
}

void pics_free(pics_golden *g)
{
    cost_table_free(&g->table);
    free(g->pending);
    *g = (pics_golden){0};
}

static pics_pending *owed(pics_golden *g, uint64_t seq)
{
    for (size_t i = 0; i < g->npending; i++)
        if (g->pending[i].seq == seq) return &g->pending[i];
    if (g->npending == g->cap && !(g->pending = realloc(g->pending, (g->cap = g->cap ? g->cap * 2 : 8) * sizeof *g->pending)))
        die("out of memory");
    g->pending[g->npending] = (pics_pending){.seq = seq};
    return &g->pending[g->npending++];
}

static void charge(pics_golden *g, const probe_insn *in, int state, uint64_t units)
{
    cost_at(&g->table, pics_key(in->pc, in->psv))->units[state] += units;
}

/* A committing instruction takes its share of the cycle and what it is owed. */
static void commit(pics_golden *g, const probe_insn *in, uint64_t share)
{
    cost *c = cost_at(&g->table, pics_key(in->pc, in->psv));
    c->units[ST_COMPUTING] += share;
    c->commits++;
    for (size_t i = 0; i < g->npending; i++) {
        pics_pending *p = &g->pending[i];
        if (p->seq != in->seq) continue;
        c->units[ST_STALLED] += p->stalled_units;
        c->units[ST_DRAINED] += p->units - p->stalled_units;
        if (p->stalled_units && !(in->psv & PSV_TEA)) {
            uint64_t cycles = p->stalled_units / g->units;
            g->no_event_stalls[cycles < PICS_STALL_BUCKETS ? cycles : PICS_STALL_BUCKETS]++;
        }
        g->pending[i] = g->pending[--g->npending];
        break;
    }
}

void pics_view(void *ctx, const commit_view *v)
{
    pics_golden *g = ctx;
    if (!g->started || v->cycle + v->run <= g->origin) return;
    uint64_t run = v->cycle < g->origin ? v->cycle + v->run - g->origin : v->run;
    uint64_t units = run * g->units;
    for (int i = 0; i < v->ncommit; i++) commit(g, &v->commit[i], g->units / v->ncommit);
    if (v->state == ST_STALLED && v->nhead) {
        pics_pending *p = owed(g, v->head[0].seq);
        p->units += units, p->stalled_units += units;
    } else if (v->state == ST_FLUSHED) {
        charge(g, &v->flusher, ST_FLUSHED, units);
    } else if (v->state == ST_DRAINED) {
        g->drained_units += units;
    }
    if (v->ndispatch && g->drained_units) {
        owed(g, v->dispatch_first.seq)->units += g->drained_units;
        g->drained_units = 0;
    }
}

double pics_no_event_stall_percentile(const uint64_t hist[PICS_STALL_BUCKETS + 1], double p)
{
    uint64_t total = 0;
    for (int i = 0; i <= PICS_STALL_BUCKETS; i++) total += hist[i];
    if (!total) return 0;
    uint64_t want = (uint64_t)(p * (double)total + 0.5), seen = 0;
    for (int i = 0; i <= PICS_STALL_BUCKETS; i++) {
        seen += hist[i];
        if (seen >= want && seen) return i;
    }
    return PICS_STALL_BUCKETS;
}
