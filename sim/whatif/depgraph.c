#include "depgraph.h"

#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "uarch/config.h"
#include "util.h"

static const char *const class_names[GC_COUNT] = {"dl1", "dmiss", "win", "bw", "bmisp", "shalu", "lgalu", "imiss"};

int depgraph_class(const char *name)
{
    for (int c = 0; c < GC_COUNT; c++)
        if (!strcmp(class_names[c], name)) return c;
    return -1;
}

/* One idealisation set's graph, as far as the next instruction needs it. */
typedef struct graph_state {
    unsigned set;
    uint64_t *d, *c;           /* D and C of the last `ring` instructions, by index mod ring */
    uint64_t reg_p[64];        /* P of each register's last writer */
    uint64_t f_prev;           /* the previous instruction's fetch (its packet's start) */
    uint64_t *mshr_free;       /* when each L1D MSHR is free again (held by a miss until it completes) */
    uint64_t d_prev, p_prev, c_prev;
} graph_state;

struct depgraph {
    bool started;
    uint64_t n;                /* instructions so far */
    uint64_t ring;             /* a power of two above the ROB and both widths */
    uint64_t rob, fbw, cbw, buffer, mshrs, l1d_latency, fe_hit;
    uint64_t fbw_ideal, cbw_ideal; /* bw idealised: the widths at their maxima, as re-simulation's */
    /* The previous instruction, for DD, PD and the serialising edges. */
    bool prev_mispredict, prev_serial, prev_bubbled, prev_taken;
    uint32_t prev_packet;
    uint64_t prev_fetched, prev_dispatched, prev_completed, prev_ended;
    int nsets;
    graph_state *g;
};


depgraph *depgraph_new(const depgraph_config *cfg, const uarch_config *core)
{
    depgraph *dg = calloc(1, sizeof *dg);
    if (!dg || !(dg->g = calloc((size_t)cfg->nsets, sizeof *dg->g))) die("out of memory");
    dg->rob = (uint64_t)core->rob_entries;
    dg->fbw = (uint64_t)core->decode_width;
    dg->cbw = (uint64_t)core->commit_width;
    int lo, hi;
    uarch_param_range(uarch_param_index("core.decode_width"), &lo, &hi);
    dg->fbw_ideal = (uint64_t)hi;
    uarch_param_range(uarch_param_index("core.commit_width"), &lo, &hi);
    dg->cbw_ideal = (uint64_t)hi;
    dg->l1d_latency = (uint64_t)core->l1d_latency;
    dg->mshrs = (uint64_t)core->l1d_mshrs;
    dg->buffer = (uint64_t)(core->fetch_buffer + core->fetch_width * core->icache_to_decode +
                            core->decode_width * core->decode_stages);
    dg->fe_hit = (uint64_t)(core->l1i_latency + core->icache_to_decode + core->decode_stages);
    dg->ring = 1;
    while (dg->ring <= max_u64(max_u64(dg->rob, dg->buffer), max_u64(dg->fbw_ideal, dg->cbw_ideal))) dg->ring *= 2;
    dg->nsets = cfg->nsets;
    for (int k = 0; k < cfg->nsets; k++) {
        graph_state *g = &dg->g[k];
        g->set = cfg->sets[k];
        if (!(g->d = calloc(dg->ring, sizeof *g->d)) || !(g->c = calloc(dg->ring, sizeof *g->c)) ||
            !(g->mshr_free = calloc(dg->mshrs, sizeof *g->mshr_free)))
            die("out of memory");
    }
    return dg;
}

void depgraph_begin(depgraph *g) { g->started = true; }

/* The measured edge latencies of one committed instruction. The front end
 * is a node of its own (F: the fetch of its packet), ahead of dispatch by
 * up to the fetch buffer, so a slower back end does not delay it. */
typedef struct edges {
    bool new_packet;           /* fetched in a later packet than its predecessor */
    bool after_taken;          /* that predecessor was a taken branch or jump (a packet ends there at any width) */
    uint64_t bubble;           /* extra fetch cycles after a branch a late fetch stage redirected on (bmisp) */
    uint64_t arrive;           /* fetch to decode: the I-cache hit path, plus its miss (imiss) */
    bool imiss;
    uint64_t pd;               /* PD: after a mispredicted branch, from its completion to the refetch */
    uint64_t serial;           /* after a flush or a serialising instruction, from the commit before to the refetch */
    uint64_t serial_dispatch;  /* a serialising instruction waits for the ROB to drain */
    uint64_t sq;               /* a store waiting for the store queue: gone with dmiss (its misses drain
                                  slowly) or win (the store queue is part of the window) */
    uint64_t re, ep;
    bool load, dmiss;
    uint64_t mshr_wait;        /* part of ep: the graph's own MSHRs decide it */
    enum op_speed speed;
    bool unpipelined;          /* divide, square root: RE is the unit being busy */
} edges;

static edges measure(const depgraph *dg, const instance_record *r)
{
    /* A store's address may issue before its data is ready: execution runs
     * from the later of the two. */
    uint64_t start = r->issued > r->ready ? r->issued : r->ready;
    edges e = {.re = cycles_after(start, r->ready), .ep = cycles_after(r->completed, start), .speed = core_op_speed(r->cls),
               .load = r->load, .dmiss = r->load && !(r->flags & UOP_FORWARDED) && r->mem_level > MEM_L1,
               .mshr_wait = r->mshr_wait,
               .unpipelined = r->cls == CLS_DIV || r->cls == CLS_FDIV || r->cls == CLS_FSQRT,
               .new_packet = r->packet != dg->prev_packet, .after_taken = dg->prev_taken,
               .arrive = cycles_after(r->fetch_ready, r->fetched),
               .imiss = r->flags & UOP_L1I_MISS};
    if (dg->prev_mispredict) e.pd = cycles_after(r->fetched, dg->prev_completed);
    else if (dg->prev_serial) e.serial = cycles_after(r->fetched, dg->prev_ended);
    else if (dg->prev_bubbled && e.new_packet) e.bubble = cycles_after(r->fetched, dg->prev_fetched + 1);
    if (r->flags & UOP_SERIAL) e.serial_dispatch = cycles_after(r->dispatched, dg->prev_ended);
    if (r->flags & UOP_SQ_FULL) {
        uint64_t could = r->fetch_ready > dg->prev_dispatched ? r->fetch_ready : dg->prev_dispatched;
        e.sq = cycles_after(r->dispatched, could);
    }
    return e;
}

/* Execution latency under the set's edits (notes/icost.md §5). */
static uint64_t execution(const depgraph *dg, const edges *e, unsigned set)
{
    bool on[GC_COUNT];
    for (int c = 0; c < GC_COUNT; c++) on[c] = set >> c & 1;
    if (e->load) {
        uint64_t saved = on[GC_DL1] ? dg->l1d_latency - 1 : 0; /* the hit latency down to 1 cycle */
        if (e->dmiss && on[GC_DMISS]) return dg->l1d_latency - saved;
        uint64_t ep = e->ep > e->mshr_wait ? e->ep - e->mshr_wait : 0; /* the wait is the graph's to decide */
        return ep > saved ? ep - saved : 0;
    }
    if ((e->speed == OP_SHORT && on[GC_SHALU]) || (e->speed == OP_LONG && on[GC_LGALU])) return 0;
    return e->ep;
}

static void step(depgraph *dg, graph_state *g, const instance_record *r, const edges *e)
{
    unsigned set = g->set;
    uint64_t i = dg->n, m = dg->ring - 1;
    bool bw = set >> GC_BW & 1;
    /* F: one packet per cycle, after bubbles, refetches and flushes, and
     * no further ahead of dispatch than the fetch buffer holds. */
    uint64_t f = g->f_prev + (e->new_packet && (!bw || e->after_taken) ? 1 : 0);
    if (e->bubble && !(set >> GC_BMISP & 1)) f += e->bubble;
    if (e->pd && !(set >> GC_BMISP & 1)) f = max_u64(f, g->p_prev + e->pd);       /* PD */
    if (e->serial) f = max_u64(f, g->c_prev + e->serial);
    if (i >= dg->buffer) f = max_u64(f, g->d[(i - dg->buffer) & m]);
    uint64_t arrive = e->imiss && (set >> GC_IMISS & 1) ? dg->fe_hit : e->arrive;
    uint64_t d = max_u64(f + arrive, g->d_prev);                                   /* DD */
    if (e->sq && !(set & (1u << GC_DMISS | 1u << GC_WIN))) d = max_u64(d, g->d_prev + e->sq); /* the store queue */
    uint64_t fbw = bw ? dg->fbw_ideal : dg->fbw, cbw = bw ? dg->cbw_ideal : dg->cbw;
    if (i >= fbw) d = max_u64(d, g->d[(i - fbw) & m] + 1);                        /* FBW */
    if (!(set >> GC_WIN & 1) && i >= dg->rob) d = max_u64(d, g->c[(i - dg->rob) & m]); /* CD */
    if (e->serial_dispatch) d = max_u64(d, g->c_prev + e->serial_dispatch);       /* an empty ROB */
    uint64_t ready = d + 1;                                                       /* DR */
    for (int s = 0; s < 3; s++)
        if (r->src[s] != RV_REG_NONE) ready = max_u64(ready, g->reg_p[r->src[s]]); /* PR */
    /* RE: contention, gone with the issue bandwidth (but for a divider
     * busy with an older division), or with the unit's latency (a unit that
     * takes no time is never busy). */
    bool free_unit = (bw && !e->unpipelined) || (e->speed == OP_LONG && (set >> GC_LGALU & 1)) ||
                     (e->speed == OP_SHORT && (set >> GC_SHALU & 1));
    uint64_t exec = ready + (free_unit ? 0 : e->re);
    bool miss = e->dmiss && !(set >> GC_DMISS & 1);
    uint64_t *mshr = NULL;
    if (miss) {
        /* A miss holds an MSHR until it completes: it takes the first free. */
        mshr = &g->mshr_free[0];
        for (uint64_t k = 1; k < dg->mshrs; k++)
            if (g->mshr_free[k] < *mshr) mshr = &g->mshr_free[k];
        exec = max_u64(exec, *mshr);
    }
    uint64_t p = exec + execution(dg, e, set);                                    /* EP */
    if (mshr) *mshr = p;
    uint64_t c = max_u64(p, g->c_prev);                                           /* PC, CC */
    if (i >= cbw) c = max_u64(c, g->c[(i - cbw) & m] + 1);                        /* CBW */
    if (r->dst != RV_REG_NONE) g->reg_p[r->dst] = p;
    g->d[i & m] = d, g->c[i & m] = c;
    g->f_prev = f, g->d_prev = d, g->p_prev = p, g->c_prev = c;
}

void depgraph_instance(void *ctx, const instance_record *r)
{
    depgraph *dg = ctx;
    if (!dg->started || !r->retired) return;
    edges e = measure(dg, r);
    for (int k = 0; k < dg->nsets; k++) step(dg, &dg->g[k], r, &e);
    dg->n++;
    dg->prev_mispredict = r->flags & UOP_MISPREDICT;
    dg->prev_serial = r->flags & (UOP_FLUSH_CSR | UOP_EXCEPTION | UOP_SERIAL);
    dg->prev_bubbled = r->fe_bubbles > 0;
    dg->prev_taken = r->taken;
    dg->prev_dispatched = r->dispatched;
    dg->prev_fetched = r->fetched;
    dg->prev_packet = r->packet;
    dg->prev_completed = r->completed;
    dg->prev_ended = r->ended;
}

void depgraph_finish(depgraph *dg, depgraph_result *out)
{
    *out = (depgraph_result){.nsets = dg->nsets, .instructions = dg->n};
    for (int k = 0; k < dg->nsets; k++) {
        out->sets[k] = dg->g[k].set;
        out->cycles[k] = dg->n ? dg->g[k].c_prev + 1 : 0;
        free(dg->g[k].d);
        free(dg->g[k].c);
        free(dg->g[k].mshr_free);
    }
    free(dg->g);
    free(dg);
}
