#include "depgraph.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "uarch/config.h"
#include "util.h"

static const char *const class_names[GC_COUNT] = {"dl1", "dmiss", "win", "bw", "bmisp", "shalu", "lgalu", "imiss"};

static bool idealises(unsigned set, enum graph_class c) { return set >> c & 1; }

static int64_t max_i64(int64_t a, int64_t b) { return a > b ? a : b; }

int depgraph_class(const char *name)
{
    for (int c = 0; c < GC_COUNT; c++)
        if (!strcmp(class_names[c], name)) return c;
    return -1;
}

enum {
    RING = 2048,               /* a power of two above every structure's largest size */
    LINES = 4096,              /* cache-line fills remembered (direct-mapped) */
    LINE_SHIFT = 6,
    TIME_EVERY = 16,           /* the graph's host time is measured on one call in this many */
    IQ_MAX = 256,              /* an issue queue's largest size */
    IQ_SLOT_MAX = 16,          /* the widest decode packet */
    PORT_HORIZON = 4096,       /* issue ports are tracked this many cycles around (bw) */
    AHEAD_HORIZON = 2 * PROBE_AHEAD_MAX, /* instructions a line or page the wrong path ahead asked for is kept */
};

/* The issue ports of a queue taken in one cycle, a bit each. */
typedef struct port_cycle {
    uint64_t cycle;
    uint32_t used;
} port_cycle;

/* The release times of a structure's users in the order they took it:
 * with `size` entries, a new user waits for the one `size` back. */
typedef struct ring {
    uint64_t t[RING];
    uint64_t n;
} ring;

static uint64_t freed(const ring *r, uint64_t size)
{
    return r->n >= size ? r->t[(r->n - size) & (RING - 1)] : 0;
}

static void take(ring *r, uint64_t release) { r->t[r->n++ & (RING - 1)] = release; }

/* The same for the user `ahead` places after the next (ahead < size): the
 * wrong path takes entries beyond the correct path's. */
static uint64_t freed_ahead(const ring *r, uint64_t size, uint64_t ahead)
{
    return r->n + ahead >= size ? r->t[(r->n + ahead - size) & (RING - 1)] : 0;
}

/* An issue queue: entries are freed as they issue, out of order, so a new
 * entry waits until fewer than `size` of the older ones are still waiting:
 * for the size-th latest of their issue times. A ring sorted by release
 * keeps the `size` latest (the others can never bind again); releases
 * come mostly in order, so an insertion moves few. */
typedef struct queue {
    uint64_t r[IQ_MAX];        /* ascending from r[head] */
    unsigned head, n;
    unsigned never;            /* entries never released (UINT64_MAX: a wrong path's that waits for its squash), after r */
} queue;

static void queue_take(queue *q, unsigned size, uint64_t release)
{
    if (release == UINT64_MAX) {
        if (q->never < size) q->never++;
        if (q->n && q->n + q->never > size) q->head = (q->head + 1) & (IQ_MAX - 1), q->n--;
        return;
    }
    if (q->n + q->never >= size) {
        if (!q->n || release <= q->r[q->head]) return;
        q->head = (q->head + 1) & (IQ_MAX - 1), q->n--; /* the earliest can never bind again */
    }
    unsigned i = q->n++;
    for (; i && q->r[(q->head + i - 1) & (IQ_MAX - 1)] > release; i--)
        q->r[(q->head + i) & (IQ_MAX - 1)] = q->r[(q->head + i - 1) & (IQ_MAX - 1)];
    q->r[(q->head + i) & (IQ_MAX - 1)] = release;
}

/* When more than `want` entries are free: the (want+1)-th earliest release
 * of those kept, less the entries already free before the first; 0 if the
 * queue has room. */
static uint64_t queue_room(const queue *q, unsigned size, unsigned want)
{
    unsigned held = q->n + q->never;
    if (held + want < size) return 0;
    unsigned i = want - (size - held);
    return i < q->n ? q->r[(q->head + i) & (IQ_MAX - 1)] : UINT64_MAX;
}

/* How many of q's entries are released after t. */
static unsigned held_after(const queue *q, uint64_t t)
{
    unsigned lo = 0, hi = q->n; /* the first released after t is in [lo, hi] */
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (q->r[(q->head + mid) & (IQ_MAX - 1)] > t) hi = mid;
        else lo = mid + 1;
    }
    return q->n - lo + q->never;
}

/* queue_room over the entries of two queues together (the correct path's,
 * `held_a` of them released after t, and the wrong path's), asked at t:
 * when more than `want` of `size` are free, the (size - want)-th latest
 * release of both; 0 if that is not after t. */
static uint64_t queues_room(const queue *a, unsigned held_a, const queue *b, unsigned size, unsigned want, uint64_t t)
{
    if (held_a + b->n + b->never + want < size || held_a + held_after(b, t) + want < size) return 0;
    if (b->never >= size - want) return UINT64_MAX;
    unsigned i = a->n, j = b->n; /* not yet passed, from the latest down */
    uint64_t latest = 0;
    for (unsigned k = b->never; k < size - want; k++) {
        uint64_t ra = i ? a->r[(a->head + i - 1) & (IQ_MAX - 1)] : 0, rb = j ? b->r[(b->head + j - 1) & (IQ_MAX - 1)] : 0;
        bool from_a = i && (!j || ra >= rb);
        latest = from_a ? ra : rb;
        if (from_a) i--;
        else j--;
    }
    return latest;
}

/* The issue-queue entries a decode packet took, not yet in the queues:
 * BOOM's dispatcher counts the entries the last cycle ended with, so one
 * taken in the same cycle by an older slot is not counted again (the slot
 * number stands for it). */
typedef struct packet_entries {
    struct {
        int q;
        uint64_t d, release;
    } e[IQ_SLOT_MAX];
    int n;
} packet_entries;

/* A structure's size in the baseline and with the window idealised (at its
 * maximum, as re-simulation's infinite-rob). */
typedef struct sizes {
    uint64_t base, win;
} sizes;

enum resource { RES_INT_REGS, RES_FP_REGS, RES_LDQ, RES_IQ_INT, RES_IQ_MEM, RES_IQ_FP, RES_COUNT };
enum { RES_RINGS = RES_LDQ + 1 };

/* How a store's write reached the L1D: a hit on a line no fill the graph
 * knows brought, a merge with or a hit after such a fill, or a miss that
 * filled the line (holding an MSHR). */
enum store_kind { STORE_HIT, STORE_SHARES, STORE_FILLS };

typedef struct line_fill line_fill;

/* What the wrong path brought (an I-cache line, a D-TLB entry) that the
 * correct path may then find, by key mod LINES: key + 1 (0: none) and
 * the latency of the wrong path's access that brought it. */
typedef struct brought {
    uint64_t key, latency;
} brought;

/* The lines and pages that loads on the wrong path past the core's
 * dispatch (the probe's AHEAD_* records) ask for in some set's graph, by
 * key mod LINES: key + 1 (0: none), the instruction count when last asked,
 * and per set the earliest request (0: none). A correct-path load that
 * missed the line, or the page, in the core finds the request there. */
typedef struct ahead_table {
    uint64_t *key, *at, *asked; /* asked: [slot][set] */
} ahead_table;

/* A committed store's write to the L1D. */
typedef struct store_write {
    uint64_t seq, addr, committed, done; /* done: UINT64_MAX until seen */
    uint64_t began, wait;      /* seen: when its write began in the core, and its wait for an MSHR */
    bool absent;               /* its line was not in the L1D as it committed (the probe's l1d_line) */
    enum store_kind kind;
    uint64_t latency;          /* a fill's, without waiting for an MSHR */
    line_fill *fill;           /* the fill it made or merged with */
} store_write;

/* The wrong path after a mispredicted branch, in one set's graph: its
 * instructions take ROB rows and load-queue entries behind the correct
 * path's older ones, and dispatch in order until the branch resolves
 * (then they are squashed); a load's access, and the line it fills,
 * begins from its dispatch. With the window idealised the wrong path
 * dispatches sooner, and where the branch resolves sooner it dispatches
 * less. */
typedef struct wrong_path {
    uint64_t f, bd, resolves;  /* the branch's F, D and P */
    uint64_t d;                /* the last wrong-path instruction's D; UINT64_MAX: its window is full */
    bool gone;                 /* the branch resolved before the last one dispatched: no more do */
    int64_t shift;             /* the last one's D after the branch's, less the baseline graph's */
    int64_t moved;             /* the last one's issue after the branch's D, less the baseline graph's:
                                * its result and fill move so (its operands may hold it, not its D) */
    uint64_t rows, row_n;      /* rows taken, instructions in the last */
    uint64_t row_formed;       /* when the last row formed (its first instruction's D) */
    uint64_t packets, packet_n; /* fetch packets so far, instructions in the last */
    uint64_t bubbles;          /* fetch cycles the core lost to late fetch stages' redirects on it so far */
    uint64_t packet_end;       /* where its current fetch packet ends (read with bw, and past the core's fetch) */
    uint64_t taken[RES_RINGS]; /* registers and load-queue entries taken (wrong_path_takes) */
    uint64_t reg_p[64];        /* P of each register's last writer, the wrong path's own from the branch on */
    uint64_t branches;         /* its branches so far (graph_state.wp_branch_p) */
} wrong_path;

/* One idealisation set's graph, as far as the next instruction needs it. */
typedef struct graph_state {
    unsigned set;
    uint64_t d[RING], c[RING]; /* D and C of the last instructions, by index mod RING */
    uint64_t reg_p[64];        /* P of each register's last writer */
    uint64_t *mshr_free;       /* when each L1D MSHR is free again (held by a miss until it completes) */
    uint64_t divider_free[2][8]; /* when each integer and FP divider is free again (unpipelined) */
    uint64_t f_prev, d_prev, p_prev, c_prev;
    /* ROB rows: a decode packet takes a row; C of each row's last instruction. */
    uint64_t row_c[RING];
    uint64_t rows, row_n, row_formed, row_c_prev;
    bool opened_row;           /* the last instruction opened a row */
    ring res[RES_RINGS];       /* registers and the load queue, freed at commit in order */
    uint64_t store_c[RING];    /* C of each committed store, by store count mod RING */
    uint64_t store_p[RING];    /* ... and its P: its data is in the store queue */
    uint64_t store_free[RING]; /* when its store-queue entry is free: its write done, and the older ones' */
    uint64_t write_prev;       /* when the last store written began its write (one a cycle, in order) */
    uint64_t writes;           /* the resolved stores whose writes this set has made (in order) */
    queue iq[RES_COUNT - RES_RINGS]; /* the issue queues, freed at issue */
    packet_entries packet_iq;  /* the entries the current decode packet took, not yet in iq */
    port_cycle *ports[RES_COUNT - RES_RINGS]; /* each issue queue's ports, by cycle mod PORT_HORIZON */
    /* The front end's queues: the FTQ holds a fetch packet until its last
     * instruction commits; a branch holds one of the outstanding-branch
     * entries until it completes. */
    uint64_t packet_c[RING];   /* C of each packet's last instruction, by packet count mod RING */
    uint64_t packets;          /* packets so far (the current one is packets - 1) */
    uint64_t packet_pc, packet_end; /* the current packet's first pc, and where its bytes end */
    uint64_t packet_n;         /* its instructions */
    uint64_t icache_free;      /* the I-cache takes the next packet's request (it blocks on a miss) */
    uint64_t branch_p[RING];   /* P of each branch, by branch count mod RING */
    uint64_t branches;
    uint64_t wp_branch_p[RING]; /* P of each branch of the wrong path, by its count (wrong_path.branches) mod RING */
    wrong_path wp;             /* the wrong path after the last mispredicted branch, in this set's graph */
    queue wp_iq[RES_COUNT - RES_RINGS]; /* the issue-queue entries it holds, freed as it issues or at the squash */
    unsigned wp_iq_passed[RES_COUNT - RES_RINGS]; /* iq's entries it has seen released (wrong_path_sees_held) */
    packet_entries wp_row_iq;  /* ... and those its current decode packet took, not yet in wp_iq */
} graph_state;

/* A cache line's fill by a missing load, as the graph's sets see it: later
 * loads of the line wait for it (the paper's PP edge); where the set
 * idealises the load that filled it, the first of them misses instead. */
struct line_fill {
    uint64_t line;             /* line address + 1; 0: empty */
    uint64_t real_ready;       /* when the fill completed in the core */
    uint64_t latency;          /* the miss's latency, without its wait for an MSHR */
    unsigned absent_in;        /* set bits that remove the fill (bmisp for a wrong-path load, its pc's bit) */
};

struct depgraph {
    bool started;
    uint64_t n;                /* instructions so far */
    uint64_t fbw, cbw, fbw_ideal, cbw_ideal; /* bw idealised: the widths at their maxima, as re-simulation's */
    uint64_t buffer, buffer_ideal, mshrs, l1d_latency, fe_hit, fe_pipe;
    uint64_t ftq, max_branches;
    bool prefetch;             /* the next-line prefetcher (prefetch.next_line) */
    uarch_config fetch_cfg[2]; /* the fetch packet's geometry: the core's, and with bw idealised */
    int dividers[2];           /* integer and FP dividers */
    unsigned issue[2][RES_COUNT - RES_RINGS]; /* each queue's issue width: the core's, with bw idealised */
    sizes rob;
    sizes res[RES_COUNT];
    int nloads;
    uint64_t loads[DEPGRAPH_MAX_LOADS];
    /* The previous instruction, for DD, PD and the serialising edges. */
    bool prev_mispredict, prev_flush, prev_serial, prev_bubbled, prev_taken;
    bool packet_imiss, packet_itlb; /* the core's fetch packet missed the I-cache, the I-TLB */
    bool wp_open;              /* a mispredicted branch's wrong path is being told */
    uint32_t wp_packet;        /* its last instruction's fetch packet */
    uint64_t wp_next_pc;       /* ... and the pc after it */
    uint8_t wp_bubbles;        /* ... and the fetch cycles the core lost after it (a late fetch stage's redirect) */
    uint32_t prev_packet;
    uint64_t prev_pc;
    uint64_t prev_fetched, prev_dispatched, prev_completed, prev_ended;
    /* The committed stores (by count mod RING): when each committed in
     * the core and, once seen at the store queue's head, when its write
     * completed; once resolved, how its write reached the L1D. */
    store_write stores[RING];
    uint64_t nstores, store_seen; /* stores so far; the oldest not yet seen at the head */
    uint64_t stores_resolved;  /* the stores before this one are resolved in every set */
    /* The last store to each address (by address mod LINES): address and
     * store count + 1 (0: none), for the loads it forwards to. */
    struct {
        uint64_t addr, store;
    } *store_to;
    uint64_t write_core;       /* when the last store resolved began its write in the core */
    uint64_t fill_max;         /* the longest an L1D fill takes without waiting (DRAM, unloaded) */
    uint64_t store_fill;       /* the latency of the last store's fill seen */
    uint64_t load_fill;        /* ... and of the last load's (classify_load) */
    uint64_t l2tlb_latency, walk_latency; /* a D-TLB miss's: the L2 TLB's, a page walk's */
    bool ideal_l1d;            /* the core's L1D is ideal: what it holds tells nothing */
    sizes sq;
    line_fill *fills;
    brought *wrong_path_lines; /* I-cache lines the wrong path's fetches filled */
    brought *wrong_path_pages; /* pages the wrong path's loads translated, missing the D-TLB */
    bool *page_gone;           /* [page][set]: that set's wrong path did not get to it (wrong_path_dispatch) */
    ahead_table ahead_lines, ahead_pages; /* what the wrong path past the core's dispatch asks for (place_ahead) */
    int64_t wp_offset;         /* the core's time left until the branch resolved, less the baseline graph's, at the
                                * last wrong-path instruction the core dispatched (or the branch) */
    bool wp_blocked;           /* the core's wrong path stopped dispatching for its window: an instruction waited at
                                * decode while the branch was unresolved (place_ahead) */
    bool wp_ahead_gone;        /* no set dispatches the rest of the probe's records of this wrong path */
    int64_t wp_branch_offset;  /* wp_offset at the branch itself: the window that held the core's wrong path back had
                                * not delayed it yet (place_ahead) */
    uint64_t packet_wp_ifill;  /* the current core packet hit a line only the wrong path had filled: its latency */
    uint64_t *fill_ready;      /* [line][set]: when the fill arrives in the set's graph (0: absent there) */
    double seconds;
    int nsets;
    graph_state *g;
    FILE *trace;               /* RVSAMPLE_DEPGRAPH_TRACE: every load in every set (bench/icost_events.sh) */
};

static int param_max(const char *name)
{
    int lo, hi;
    uarch_param_range(uarch_param_index(name), &lo, &hi);
    return hi;
}

static sizes sized(int base, const char *name) { return (sizes){(uint64_t)base, (uint64_t)param_max(name)}; }

static void ahead_table_new(ahead_table *t, int nsets)
{
    t->key = calloc(LINES, sizeof *t->key);
    t->at = calloc(LINES, sizeof *t->at);
    t->asked = calloc((size_t)LINES * (size_t)nsets, sizeof *t->asked);
    if (!t->key || !t->at || !t->asked) die("out of memory");
}

static void ahead_table_free(ahead_table *t)
{
    free(t->key);
    free(t->at);
    free(t->asked);
}

static size_t ahead_slot(uint64_t key) { return (size_t)((key ^ key >> 12) & (LINES - 1)); }

/* Set k's graph asks for key at t. */
static void ahead_ask(depgraph *dg, ahead_table *t, uint64_t key, int k, uint64_t at)
{
    size_t s = ahead_slot(key);
    uint64_t *asked = &t->asked[s * (size_t)dg->nsets];
    if (t->key[s] != key + 1) {
        t->key[s] = key + 1;
        memset(asked, 0, (size_t)dg->nsets * sizeof *asked);
    }
    t->at[s] = dg->n;
    if (!asked[k] || at < asked[k]) asked[k] = at;
}

/* The requests for key, by set, if asked within the last AHEAD_HORIZON
 * instructions (the line or the page may be gone again after longer);
 * else NULL. The first correct-path access that finds them takes them. */
static const uint64_t *ahead_found(const depgraph *dg, ahead_table *t, uint64_t key)
{
    size_t s = ahead_slot(key);
    if (t->key[s] != key + 1 || dg->n - t->at[s] > AHEAD_HORIZON) return NULL;
    t->key[s] = 0;
    return &t->asked[s * (size_t)dg->nsets];
}

depgraph *depgraph_new(const depgraph_config *cfg, const uarch_config *core)
{
    depgraph *dg = calloc(1, sizeof *dg);
    if (!dg || !(dg->g = calloc((size_t)cfg->nsets, sizeof *dg->g))) die("out of memory");
    dg->fbw = (uint64_t)core->decode_width;
    dg->cbw = (uint64_t)core->commit_width;
    dg->fbw_ideal = (uint64_t)param_max("core.decode_width");
    dg->cbw_ideal = (uint64_t)param_max("core.commit_width");
    dg->rob = sized(core->rob_entries, "rob.entries");
    /* In flight: the registers beyond the 32 architectural ones. */
    dg->res[RES_INT_REGS] = sized(core->int_phys_regs - 32, "regs.int_phys");
    dg->res[RES_INT_REGS].win -= 32;
    dg->res[RES_FP_REGS] = sized(core->fp_phys_regs - 32, "regs.fp_phys");
    dg->res[RES_FP_REGS].win -= 32;
    dg->res[RES_LDQ] = sized(core->ldq_entries, "lsq.load_entries");
    dg->sq = sized(core->stq_entries, "lsq.store_entries");
    /* The L1D's, L2's and LLC's latencies and DRAM's (its transfer ends within it, unloaded). */
    dg->fill_max = (uint64_t)(core->l1d_latency + core->l2_latency + core->llc_latency) +
                   ((uint64_t)core->dram_latency_ns * (uint64_t)core->freq_mhz + 999) / 1000;
    dg->store_fill = dg->fill_max;
    dg->l2tlb_latency = core->l2tlb_entries ? (uint64_t)core->l2tlb_latency : 0;
    dg->walk_latency = (uint64_t)core->ptw_latency;
    dg->ideal_l1d = core->ideal_l1d;
    dg->res[RES_IQ_INT] = sized(core->iq_int_entries, "iq.int_entries");
    dg->res[RES_IQ_MEM] = sized(core->iq_mem_entries, "iq.mem_entries");
    dg->res[RES_IQ_FP] = sized(core->iq_fp_entries, "iq.fp_entries");
    dg->l1d_latency = (uint64_t)core->l1d_latency;
    dg->mshrs = (uint64_t)core->l1d_mshrs;
    dg->dividers[0] = core->div_units, dg->dividers[1] = core->fdiv_units;
    dg->issue[0][0] = (unsigned)core->iq_int_issue;
    dg->issue[0][1] = (unsigned)core->iq_mem_issue;
    dg->issue[0][2] = (unsigned)core->iq_fp_issue;
    dg->issue[1][0] = (unsigned)param_max("iq.int_issue");
    dg->issue[1][1] = (unsigned)param_max("iq.mem_issue");
    dg->issue[1][2] = (unsigned)param_max("iq.fp_issue");
    dg->buffer = (uint64_t)(core->fetch_buffer + core->fetch_width * core->icache_to_decode +
                            core->decode_width * core->decode_stages);
    dg->buffer_ideal = (uint64_t)(core->fetch_buffer + param_max("frontend.fetch_width") * core->icache_to_decode) +
                       dg->fbw_ideal * (uint64_t)core->decode_stages;
    dg->fe_pipe = (uint64_t)(core->icache_to_decode + core->decode_stages);
    dg->fe_hit = (uint64_t)core->l1i_latency + dg->fe_pipe;
    dg->fetch_cfg[0] = dg->fetch_cfg[1] = *core;
    dg->fetch_cfg[1].fetch_width = param_max("frontend.fetch_width");
    dg->prefetch = core->prefetch_next_line;
    dg->ftq = (uint64_t)core->ftq_entries;
    dg->max_branches = (uint64_t)core->max_branches;
    if (dg->buffer_ideal >= RING || dg->rob.win >= RING || dg->ftq + 1 >= RING || dg->max_branches >= RING ||
        dg->fbw_ideal > IQ_SLOT_MAX || dg->res[RES_IQ_INT].win > IQ_MAX || dg->res[RES_IQ_MEM].win > IQ_MAX ||
        dg->res[RES_IQ_FP].win > IQ_MAX || dg->issue[1][0] > 32 || dg->issue[1][1] > 32 || dg->issue[1][2] > 32)
        die("depgraph: a structure larger than its ring (a bug)");
    const char *trace = getenv("RVSAMPLE_DEPGRAPH_TRACE");
    if (trace && *trace && !(dg->trace = fopen(trace, "w"))) die("depgraph: cannot write %s", trace);
    if (dg->trace) fprintf(dg->trace, "set,index,pc,addr,line,dispatch,exec,latency,core_latency,fill_latency,tlb,wp_tlb,ahead\n");
    dg->nloads = cfg->nloads;
    memcpy(dg->loads, cfg->loads, sizeof dg->loads);
    dg->nsets = cfg->nsets;
    dg->fills = calloc(LINES, sizeof *dg->fills);
    dg->wrong_path_lines = calloc(LINES, sizeof *dg->wrong_path_lines);
    dg->wrong_path_pages = calloc(LINES, sizeof *dg->wrong_path_pages);
    dg->page_gone = calloc((size_t)LINES * (size_t)cfg->nsets, sizeof *dg->page_gone);
    dg->store_to = calloc(LINES, sizeof *dg->store_to);
    dg->fill_ready = calloc((size_t)LINES * (size_t)cfg->nsets, sizeof *dg->fill_ready);
    if (!dg->fills || !dg->fill_ready || !dg->wrong_path_lines || !dg->wrong_path_pages || !dg->page_gone || !dg->store_to)
        die("out of memory");
    ahead_table_new(&dg->ahead_lines, cfg->nsets);
    ahead_table_new(&dg->ahead_pages, cfg->nsets);
    for (int k = 0; k < cfg->nsets; k++) {
        graph_state *g = &dg->g[k];
        g->set = cfg->sets[k];
        if (!(g->mshr_free = calloc(dg->mshrs, sizeof *g->mshr_free))) die("out of memory");
        for (int q = 0; q < RES_COUNT - RES_RINGS; q++)
            if (!(g->ports[q] = calloc(PORT_HORIZON, sizeof *g->ports[q]))) die("out of memory");
    }
    return dg;
}

void depgraph_begin(depgraph *g) { g->started = true; }

/* How a load reaches its data, for the line-sharing (PP) edges. */
enum line_use {
    LINE_NONE,                 /* not a load of the cache (forwarded, or not a load) */
    LINE_FILLS,                /* it missed and filled the line itself */
    LINE_SHARES,               /* it found the line filled, or being filled, by an earlier load */
    LINE_HIT,                  /* a hit on a line no load the graph saw filled */
};

/* The measured edge latencies of one committed instruction. The front end
 * is a node of its own (F: the fetch of its packet), ahead of dispatch by
 * up to the fetch buffer, so a slower back end does not delay it. */
typedef struct edges {
    bool new_packet;           /* fetched in a later packet than its predecessor */
    bool after_taken;          /* that predecessor was a taken branch or jump (a packet ends there at any width) */
    bool after_flush;          /* a flush or replay refetches it: a packet starts there in every set */
    bool after_bmisp;          /* that predecessor mispredicted, or a late fetch stage redirected after it */
    uint64_t pc;
    uint64_t bubble;           /* extra fetch cycles after a branch a late fetch stage redirected on (bmisp) */
    uint64_t arrive;           /* fetch to decode: the I-cache hit path, plus its miss (imiss) */
    bool imiss;                /* its packet missed the I-cache (and not the I-TLB): imiss makes it hit */
    bool fe_blocks;            /* it starts a packet that missed the I-cache or I-TLB, which blocks until it arrives */
    uint64_t wp_ifill;         /* its packet hit a line the wrong path filled: fetch to decode without it (bmisp) */
    uint8_t wake;              /* after its completion, until its dependents may issue (unforwarded results) */
    uint64_t pd;               /* PD: after a mispredicted branch, from its completion to the refetch */
    uint64_t refetch;          /* after a flush, from the commit before to the refetch */
    bool after_serial;         /* a serialising instruction before it: it dispatches once that commits */
    bool serial;               /* serialising: it dispatches into an empty ROB */
    uint64_t serial_dispatch;  /* ... that long after the commit before (older stores drain too) */
    uint64_t ep;
    bool load, dmiss;
    uint64_t mshr_wait;        /* part of ep: the graph's own MSHRs decide it */
    unsigned load_bits;        /* the set bits that idealise this load (its pc) */
    enum line_use line;
    line_fill *fill;           /* its line's fill (LINE_FILLS, LINE_SHARES) */
    uint64_t store;            /* the last older store to its address, + 1 (0: none the graph knows) */
    uint64_t tlb;              /* its D-TLB miss's part of its latency (an L2 TLB hit, a walk) */
    uint64_t wp_tlb;           /* its page only the wrong path had translated: the D-TLB miss without it (bmisp) */
    const bool *wp_page_gone;  /* ... and the sets whose wrong path did not translate it (by set) */
    const uint64_t *ahead_line; /* it missed the line, the page, in the core: when each set's wrong path past the */
    const uint64_t *ahead_page; /* ... core's dispatch asked for them (0: not; NULL: no set did; place_ahead) */
    enum op_speed speed;
    int divider;               /* divide, square root: 0 integer, 1 FP, on an unpipelined unit; else -1 */
    bool is_store;
    bool branch;               /* holds an outstanding-branch entry from fetch until it completes */
    int iq;                    /* enum resource of its issue queue */
    int regs;                  /* RES_INT_REGS, RES_FP_REGS, or -1 */
} edges;

static int queue_of(unsigned cls)
{
    switch (cls) {
    case CLS_LOAD: case CLS_STORE: case CLS_AMO: case CLS_FLOAD: case CLS_FSTORE: case CLS_FENCE: return RES_IQ_MEM;
    default: return cls >= CLS_FADD && cls <= CLS_FMOVE ? RES_IQ_FP : RES_IQ_INT;
    }
}

static unsigned load_bits(const depgraph *dg, uint64_t pc)
{
    unsigned bits = 0;
    for (int k = 0; k < dg->nloads; k++)
        if (dg->loads[k] == pc) bits |= depgraph_load_bit(k);
    return bits;
}

static line_fill *fill_of(const depgraph *dg, uint64_t addr)
{
    uint64_t line = addr >> LINE_SHIFT;
    return &dg->fills[(line ^ line >> 12) & (LINES - 1)];
}

static uint64_t *fill_ready(const depgraph *dg, const line_fill *f)
{
    return &dg->fill_ready[(size_t)(f - dg->fills) * (size_t)dg->nsets];
}

/* Whether an access from `start` that completed at `done` merged with the
 * fill f of its line (known to the graph) in the core: the fill was in
 * flight, and the access's data came with it (not a fill of its own: the
 * graph's prefetches are its guesses of the core's). */
static bool merged(const depgraph *dg, const line_fill *f, uint64_t start, uint64_t done)
{
    return f->real_ready > start && done <= f->real_ready + dg->l1d_latency;
}

/* A D-TLB miss's latency, by what it missed: the L2 TLB's, and a page
 * walk's. */
static uint64_t tlb_latency(const depgraph *dg, uint16_t flags)
{
    return flags & UOP_L2TLB_MISS ? dg->l2tlb_latency + dg->walk_latency : flags & UOP_DTLB_MISS ? dg->l2tlb_latency : 0;
}

/* Of a load's access from `start` to its data, the part its address
 * translation took (its D-TLB miss), at most what it took beyond a hit
 * (less when it merged with a walk in flight). */
static uint64_t translation(const depgraph *dg, const instance_record *r, uint64_t start)
{
    uint64_t tlb = tlb_latency(dg, r->flags), took = cycles_after(r->completed, start);
    uint64_t beyond_hit = took > dg->l1d_latency ? took - dg->l1d_latency : 0;
    return tlb < beyond_hit ? tlb : beyond_hit;
}

/* A load that missed and did not merge with a fill of its line filled it:
 * the line's fill is now its own. Its latency is the memory's alone, from
 * the MSHR on: a load that later finds the line missing in a set that
 * lacks the fill (with bmisp, one a wrong-path load made) translates its
 * own address first, whatever the filler's translation took. */
static enum line_use classify_load(depgraph *dg, const instance_record *r, bool missed, line_fill **out)
{
    line_fill *f = fill_of(dg, r->mem_addr);
    uint64_t line = (r->mem_addr >> LINE_SHIFT) + 1;
    bool known = f->line == line;
    *out = f;
    if (missed && (!known || !merged(dg, f, r->issued, r->completed))) {
        *f = (line_fill){.line = line, .real_ready = r->completed,
                         .latency = cycles_after(r->completed, r->issued + r->mshr_wait + translation(dg, r, r->issued))};
        dg->load_fill = f->latency;
        return LINE_FILLS;
    }
    return known ? LINE_SHARES : LINE_HIT;
}

static brought *brought_slot(brought *table, uint64_t key) { return &table[(key ^ key >> 12) & (LINES - 1)]; }

/* The wrong path brought key, taking `latency`. */
static void wrong_path_brings(brought *table, uint64_t key, uint64_t latency)
{
    *brought_slot(table, key) = (brought){key + 1, latency};
}

/* A correct-path access to key that found it there (it did not miss
 * itself: found): the latency it would have had without the wrong path
 * (it would have missed, and the next access hit), or 0. Key is the
 * correct path's from now on. */
static uint64_t wrong_path_brought(brought *table, uint64_t key, bool found)
{
    brought *b = brought_slot(table, key);
    if (b->key != key + 1) return 0;
    b->key = 0;
    return found ? b->latency : 0;
}

static size_t store_slot(uint64_t addr) { return (size_t)((addr >> 3 ^ addr >> 15) & (LINES - 1)); }

/* The last store to addr, + 1, if it is among the stores the sets still
 * remember; else 0. */
static uint64_t store_to(const depgraph *dg, uint64_t addr)
{
    const __typeof__(*dg->store_to) *s = &dg->store_to[store_slot(addr)];
    return s->store && s->addr == addr && dg->nstores - (s->store - 1) < RING ? s->store : 0;
}

static edges measure(depgraph *dg, const instance_record *r)
{
    /* A store's address may issue before its data is ready: execution runs
     * from the later of the two. */
    uint64_t start = r->issued > r->ready ? r->issued : r->ready;
    unsigned cls = r->cls;
    edges e = {.ep = cycles_after(r->completed, start), .speed = core_op_speed(cls),
               .load = r->load, .wake = r->wake, .dmiss = r->load && !(r->flags & UOP_FORWARDED) && r->mem_level > MEM_L1,
               .mshr_wait = r->mshr_wait, .divider = cls == CLS_DIV ? 0 : cls == CLS_FDIV || cls == CLS_FSQRT ? 1 : -1,
               .new_packet = r->packet != dg->prev_packet, .after_taken = dg->prev_taken,
               .after_flush = dg->prev_flush || (r->flags & UOP_REPLAYED),
               .after_bmisp = dg->prev_mispredict || dg->prev_bubbled, .pc = r->pc,
               .arrive = cycles_after(r->fetch_ready, r->fetched),
               .is_store = cls == CLS_STORE || cls == CLS_FSTORE, .branch = r->branch_tag,
               .iq = queue_of(cls),
               .regs = r->dst == RV_REG_NONE ? -1 : r->dst < RV_REG_F0 ? RES_INT_REGS : RES_FP_REGS};
    if (e.new_packet) { /* the core marks a packet's misses on its first instruction */
        dg->packet_imiss = r->flags & UOP_L1I_MISS, dg->packet_itlb = r->flags & UOP_ITLB_MISS;
        e.fe_blocks = dg->packet_imiss || dg->packet_itlb;
        dg->packet_wp_ifill = wrong_path_brought(dg->wrong_path_lines, r->pc >> LINE_SHIFT,
                                                 !(r->flags & (UOP_L1I_MISS | UOP_ITLB_MISS)));
    }
    e.wp_ifill = dg->packet_wp_ifill;
    e.imiss = dg->packet_imiss && !dg->packet_itlb;
    if (e.load) {
        /* A hit takes its translation's time too (less when it merged with
         * a walk in flight); with bmisp, a page only the wrong path had
         * translated is translated by the load itself. */
        e.tlb = translation(dg, r, start);
        e.wp_page_gone = &dg->page_gone[(size_t)(brought_slot(dg->wrong_path_pages, r->mem_addr >> TLB_PAGE_SHIFT) -
                                                 dg->wrong_path_pages) * (size_t)dg->nsets];
        e.wp_tlb = wrong_path_brought(dg->wrong_path_pages, r->mem_addr >> TLB_PAGE_SHIFT, !(r->flags & UOP_DTLB_MISS));
        e.store = store_to(dg, r->mem_addr);
    }
    if (e.load && !(r->flags & UOP_FORWARDED)) {
        e.load_bits = load_bits(dg, r->pc);
        e.line = classify_load(dg, r, e.dmiss, &e.fill);
        if (e.line == LINE_FILLS) e.fill->absent_in = e.load_bits;
        if (e.line == LINE_FILLS) e.ahead_line = ahead_found(dg, &dg->ahead_lines, r->mem_addr >> LINE_SHIFT);
    }
    if (e.load && e.tlb) e.ahead_page = ahead_found(dg, &dg->ahead_pages, r->mem_addr >> TLB_PAGE_SHIFT);
    if (dg->prev_mispredict) e.pd = cycles_after(r->fetched, dg->prev_completed);
    else if (dg->prev_flush || (r->flags & UOP_REPLAYED)) e.refetch = cycles_after(r->fetched, dg->prev_ended);
    else if (dg->prev_bubbled && e.new_packet) e.bubble = cycles_after(r->fetched, dg->prev_fetched + 1);
    e.after_serial = dg->prev_serial;
    e.serial = r->flags & UOP_SERIAL;
    if (e.serial) e.serial_dispatch = cycles_after(r->dispatched, dg->prev_ended);
    return e;
}


/* A load's L1D hit latency under the set (dl1: down to 1 cycle). */
static uint64_t hit_latency(const depgraph *dg, unsigned set)
{
    return idealises(set, GC_DL1) ? 1 : dg->l1d_latency;
}

/* Whether the load reaches below the L1D in this set, and how long its
 * data then takes from its execution (without an MSHR wait). filled: its
 * line's fill has arrived in this set's graph (0: not). */
static bool load_misses(const depgraph *dg, const edges *e, unsigned set, uint64_t filled, uint64_t *latency)
{
    if (idealises(set, GC_DMISS) || (set & e->load_bits)) return false;
    if (e->line == LINE_FILLS) {
        uint64_t own = e->ep > e->mshr_wait ? e->ep - e->mshr_wait : 0;
        uint64_t saved = dg->l1d_latency - hit_latency(dg, set);
        *latency = own > saved ? own - saved : 0;
        return true;
    }
    /* The fill it found is not in this set's graph (the load that made it
     * is idealised, or on the wrong path with bmisp; a prefetch the set did
     * not make): the first to find the line missing fills it, the rest wait
     * for that. */
    if (e->line == LINE_SHARES && !filled) {
        *latency = e->tlb + e->fill->latency; /* its own translation, then the memory's part (the caller splits them) */
        return true;
    }
    return false;
}

/* Execution latency of a non-load under the set's edits (notes/icost.md §5). */
static uint64_t execution(const edges *e, unsigned set)
{
    if ((e->speed == OP_SHORT && idealises(set, GC_SHALU)) || (e->speed == OP_LONG && idealises(set, GC_LGALU))) return 0;
    return e->ep;
}

/* Where the fetch packet that starts at pc ends, at the core's width or
 * the ideal one: a packet's bytes from the start of the I-cache bank pc is
 * in, never across a cache line (sim/core/fetch.c). */
static uint64_t packet_end(const uarch_config *k, uint64_t pc)
{
    uint64_t bank = uarch_fetch_bank_bytes(k), line = (uint64_t)k->line_bytes;
    uint64_t end = (pc & ~(bank - 1)) + uarch_fetch_packet_bytes(k), line_end = (pc | (line - 1)) + 1;
    return end < line_end ? end : line_end;
}

/* Whether the instruction starts a fetch packet in the set's graph. The
 * core's packets in the baseline; where the set removes what ended one (a
 * misprediction's or a late fetch stage's redirect, with bmisp; the width,
 * with bw), the packet goes on as far as its bytes, its width and taken
 * branches let it. */
static bool starts_packet(const depgraph *dg, graph_state *g, const edges *e)
{
    unsigned set = g->set;
    bool bw = idealises(set, GC_BW), bmisp = idealises(set, GC_BMISP);
    bool start;
    if (!dg->n || e->after_taken || e->after_flush) start = true;
    else if (!bw && !bmisp) start = e->new_packet;
    else if (e->pc < g->packet_pc || e->pc >= g->packet_end || g->packet_n >= (uint64_t)dg->fetch_cfg[bw].fetch_width)
        start = true;
    else if (e->after_bmisp) start = !bmisp;
    else start = bw ? false : e->new_packet; /* the core's other breaks, at its width (a full fetch buffer) */
    if (start) g->packet_pc = e->pc, g->packet_end = packet_end(&dg->fetch_cfg[bw], e->pc), g->packet_n = 0;
    g->packet_n++;
    return start;
}

/* Fetch to decode under the set: its packet's I-cache miss gone with
 * imiss; with bmisp, the miss of a packet that hit only because the wrong
 * path had filled its line. */
static uint64_t arrival(const depgraph *dg, unsigned set, const edges *e)
{
    if (idealises(set, GC_IMISS)) return e->imiss ? dg->fe_hit : e->arrive;
    return e->wp_ifill && idealises(set, GC_BMISP) ? max_u64(e->arrive, e->wp_ifill) : e->arrive;
}

/* Whether its packet blocks the I-cache until it arrives (a miss). */
static bool fetch_blocks(unsigned set, const edges *e)
{
    return e->fe_blocks || (e->wp_ifill && idealises(set, GC_BMISP) && !idealises(set, GC_IMISS));
}

/* F: one packet per cycle, after bubbles, refetches and flushes, once the
 * I-cache has the last packet that missed, no further ahead of dispatch
 * than the fetch buffer holds, and only while the FTQ has room for the
 * packet (its packet `ftq` + 1 back has committed) and fewer than the
 * outstanding-branch limit of the branches before it are unresolved. */
static uint64_t fetch_node(const depgraph *dg, graph_state *g, const edges *e)
{
    unsigned set = g->set;
    bool bw = idealises(set, GC_BW);
    uint64_t i = dg->n, buffer = bw ? dg->buffer_ideal : dg->buffer;
    bool packet = starts_packet(dg, g, e);
    uint64_t f = g->f_prev + (packet && i ? 1 : 0);
    if (packet && g->packets++ > dg->ftq) f = max_u64(f, g->packet_c[(g->packets - dg->ftq - 2) & (RING - 1)]);
    if (g->branches >= dg->max_branches) f = max_u64(f, g->branch_p[(g->branches - dg->max_branches) & (RING - 1)]);
    if (e->bubble && !idealises(set, GC_BMISP)) f += e->bubble;
    if (e->pd && !idealises(set, GC_BMISP)) f = max_u64(f, g->p_prev + e->pd); /* PD */
    if (e->refetch) f = max_u64(f, g->c_prev + e->refetch);
    if (i >= buffer) f = max_u64(f, g->d[(i - buffer) & (RING - 1)]);
    if (packet) f = max_u64(f, g->icache_free);
    if (e->new_packet && fetch_blocks(set, e)) g->icache_free = f + arrival(dg, set, e) - dg->fe_pipe;
    return f;
}

/* The decode packet it dispatches with: it joins the packet being
 * dispatched if that has room and it had arrived when the packet formed;
 * else it opens a packet, which takes a ROB row once the row `rows` back
 * has committed. Returns its slot in the packet; *d: the earliest D. */
static uint64_t decode_packet(const depgraph *dg, graph_state *g, uint64_t arrive, uint64_t *d)
{
    unsigned set = g->set;
    uint64_t fbw = idealises(set, GC_BW) ? dg->fbw_ideal : dg->fbw;
    uint64_t rob = idealises(set, GC_WIN) ? dg->rob.win : dg->rob.base;
    g->opened_row = !(dg->n && g->row_n < fbw && arrive <= g->row_formed);
    if (!g->opened_row) {
        *d = max_u64(arrive, g->d_prev);
        return g->row_n++;
    }
    uint64_t rows = rob / fbw;
    g->row_formed = max_u64(arrive, dg->n ? g->d_prev + 1 : 0);
    *d = g->row_formed;
    if (g->rows >= rows) *d = max_u64(*d, g->row_c[(g->rows - rows) & (RING - 1)]); /* CD, by rows */
    g->rows++, g->row_n = 1;
    return 0;
}

static uint64_t size_of(const depgraph *dg, unsigned set, int res)
{
    return idealises(set, GC_WIN) ? dg->res[res].win : dg->res[res].base;
}

static void write_stores(depgraph *dg, graph_state *g, uint64_t upto, uint64_t t);

/* When the next store finds room in a store queue of `size` entries (the
 * store `size` back is resolved: depgraph_instance). */
static uint64_t store_queue_room(depgraph *dg, graph_state *g, uint64_t size)
{
    if (dg->nstores < size) return 0;
    write_stores(dg, g, dg->nstores - size + 1, 0);
    return g->store_free[(dg->nstores - size) & (RING - 1)];
}

/* The packet's entries taken before cycle d go into the queues (all of
 * them: d = UINT64_MAX). */
static void flush_packet(const depgraph *dg, unsigned set, packet_entries *p, queue *queues, uint64_t d)
{
    int kept = 0;
    for (int j = 0; j < p->n; j++) {
        int q = p->e[j].q;
        if (p->e[j].d < d) queue_take(&queues[q - RES_RINGS], (unsigned)size_of(dg, set, q), p->e[j].release);
        else p->e[kept++] = p->e[j];
    }
    p->n = kept;
}

static void packet_take(packet_entries *p, int q, uint64_t d, uint64_t release)
{
    p->e[p->n++] = (__typeof__(p->e[0])){q, d, release};
}

/* How many of the correct path's entries of queue q are released after t,
 * for its wrong path: those entries stay as they are while it goes on, and
 * t does not go back, so a cursor (wp_iq_passed) moves over them once. */
static unsigned wrong_path_sees_held(graph_state *g, int q, uint64_t t)
{
    const queue *a = &g->iq[q - RES_RINGS];
    unsigned *passed = &g->wp_iq_passed[q - RES_RINGS];
    while (*passed < a->n && a->r[(a->head + *passed) & (IQ_MAX - 1)] <= t) ++*passed;
    return a->n - *passed;
}

/* When the instruction in `slot` of its decode packet (whose entries not
 * yet in `queues` are p's), at d, may go: BOOM's dispatcher sends slot w
 * only if every issue queue had more than w entries free at the end of the
 * cycle before (a later cycle counts the entries the packet took before
 * it: again while D moves). The entries are g's, and the wrong path's
 * (wp_iq) when `queues` are those. */
static uint64_t queues_allow(const depgraph *dg, graph_state *g, packet_entries *p, queue *queues, uint64_t slot, uint64_t d)
{
    bool wrong_path = queues != g->iq;
    for (uint64_t before = UINT64_MAX; d != before && (before == UINT64_MAX || p->n);) {
        before = d;
        flush_packet(dg, g->set, p, queues, d);
        for (int q = RES_IQ_INT; q <= RES_IQ_FP; q++) {
            unsigned size = (unsigned)size_of(dg, g->set, q), want = slot < size ? (unsigned)slot : size - 1;
            const queue *a = &g->iq[q - RES_RINGS];
            if (wrong_path) d = max_u64(d, queues_room(a, wrong_path_sees_held(g, q, d), &queues[q - RES_RINGS], size, want, d));
            else d = max_u64(d, queue_room(a, size, want));
        }
    }
    return d;
}

/* D: in order, in its decode packet, once the structures it takes have room. */
static uint64_t dispatch_node(depgraph *dg, graph_state *g, const edges *e, uint64_t f)
{
    unsigned set = g->set;
    uint64_t arrive = f + arrival(dg, set, e); /* DD */
    uint64_t d;
    uint64_t slot = decode_packet(dg, g, arrive, &d);
    if (e->is_store) d = max_u64(d, store_queue_room(dg, g, idealises(set, GC_WIN) ? dg->sq.win : dg->sq.base));
    if (e->regs >= 0) d = max_u64(d, freed(&g->res[e->regs], size_of(dg, set, e->regs)));
    if (e->load) d = max_u64(d, freed(&g->res[RES_LDQ], size_of(dg, set, RES_LDQ)));
    if (g->opened_row) flush_packet(dg, set, &g->packet_iq, g->iq, UINT64_MAX);
    d = queues_allow(dg, g, &g->packet_iq, g->iq, slot, d);
    if (e->after_serial) d = max_u64(d, g->c_prev);                              /* it waits in dispatch */
    if (e->serial) d = max_u64(d, g->c_prev + e->serial_dispatch);               /* an empty ROB */
    return d;
}

/* The earliest free of n units held until an operation completes (L1D
 * MSHRs, dividers): the operation starts no earlier; the caller sets when
 * the unit is free again. */
static uint64_t *earliest(uint64_t *units, uint64_t n, uint64_t *exec)
{
    uint64_t *unit = &units[0];
    for (uint64_t k = 1; k < n; k++)
        if (units[k] < *unit) unit = &units[k];
    *exec = max_u64(*exec, *unit);
    return unit;
}

/* The next-line prefetcher: a miss of line L, requested at t in set k's
 * graph, prefetches line L + 1 there if the set has no fill of it and an
 * MSHR is idle at t, as the core's does; the prefetch takes as long as
 * the miss (real_ready: when it arrives in the core, about). Loads and
 * stores of L + 1 then share its fill (PP), and miss in a set that did not
 * make it. */
static void prefetch_next(depgraph *dg, int k, uint64_t addr, uint64_t t, uint64_t latency, uint64_t real_ready)
{
    if (!dg->prefetch) return;
    graph_state *g = &dg->g[k];
    uint64_t next = (addr >> LINE_SHIFT) + 1;
    line_fill *f = fill_of(dg, next << LINE_SHIFT);
    uint64_t *ready = fill_ready(dg, f);
    if (f->line != next + 1) {
        *f = (line_fill){.line = next + 1, .real_ready = real_ready, .latency = latency};
        memset(ready, 0, (size_t)dg->nsets * sizeof *ready);
    } else if (ready[k]) {
        return;
    }
    for (uint64_t m = 0; m < dg->mshrs; m++)
        if (g->mshr_free[m] <= t) {
            ready[k] = g->mshr_free[m] = t + latency;
            return;
        }
}

/* Whether store j (count) is still in the set's store queue at t: its
 * write not done (one not resolved yet is taken to be there). */
static bool in_store_queue(depgraph *dg, graph_state *g, uint64_t j, uint64_t t)
{
    if (j >= dg->stores_resolved) return true;
    write_stores(dg, g, j + 1, 0);
    return g->store_free[j & (RING - 1)] > t;
}

/* The walk a load of a page the wrong path had translated makes itself in
 * set k: where there is no wrong path (bmisp), or its wrong path did not
 * get to the page. */
static uint64_t own_walk(const edges *e, unsigned set, int k)
{
    return idealises(set, GC_BMISP) || (e->wp_tlb && e->wp_page_gone[k]) ? e->wp_tlb : 0;
}

/* In set k, where the wrong path past the core's dispatch asked for the
 * load's page (at `asked`) and walked it (taking what the load's walk took
 * in the core), the load's translation waits for that walk only. */
static uint64_t ahead_translation(const edges *e, int k, uint64_t exec)
{
    uint64_t asked = e->ahead_page ? e->ahead_page[k] : 0;
    if (!asked) return e->tlb;
    uint64_t left = cycles_after(asked + e->tlb, exec);
    return left < e->tlb ? left : e->tlb;
}

/* In set k, when a line a load filled in the core arrives for the request
 * the wrong path past the core's dispatch made (asked[k]: the load's walk,
 * then the fill's memory time); 0 if it made none. */
static uint64_t ahead_fill(const uint64_t *asked, int k, uint64_t tlb, const line_fill *f)
{
    return asked && asked[k] ? asked[k] + tlb + f->latency : 0;
}

/* P of a load: from an older store to its address still in the store
 * queue (a memory dependence: when the store's data is there), its own
 * miss, a hit, or the wait for the line an earlier load is filling (PP).
 * Updates the line's fill in this set. */
static uint64_t load_complete(depgraph *dg, graph_state *g, const edges *measured, const instance_record *r,
                              uint64_t exec, int k)
{
    unsigned set = g->set;
    uint64_t latency;
    const edges *e = measured;
    uint64_t *ready = e->fill ? &fill_ready(dg, e->fill)[k] : NULL;
    exec += own_walk(e, set, k); /* its own walk first */
    edges e_k;
    if (measured->ahead_page) {
        e_k = *measured;
        e_k.tlb = ahead_translation(measured, k, exec);
        e = &e_k;
    }
    if (e->store && in_store_queue(dg, g, e->store - 1, exec)) {
        if (e->line == LINE_FILLS && ready) *ready = 0; /* it fills nothing */
        return max_u64(exec + e->tlb + hit_latency(dg, set), g->store_p[(e->store - 1) & (RING - 1)]);
    }
    if (e->store && e->line == LINE_NONE) return exec + e->tlb + hit_latency(dg, set); /* the store has written the L1D */
    if (load_misses(dg, e, set, ready ? *ready : 0, &latency)) {
        uint64_t walked = e->line == LINE_FILLS ? measured->tlb - e->tlb : 0; /* of its walk, what the wrong path made */
        latency = latency > walked ? latency - walked : 0;
        uint64_t early = e->line == LINE_FILLS ? ahead_fill(e->ahead_line, k, measured->tlb, e->fill) : 0;
        if (early && early < exec + latency) { /* the wrong path's request brings the line */
            *ready = early;
            return max_u64(exec + e->tlb + hit_latency(dg, set), early);
        }
        /* Translated first: the miss takes an MSHR once the address is known. */
        uint64_t walk = e->tlb < latency ? e->tlb : latency, request = exec + walk, start = request;
        uint64_t *mshr = earliest(g->mshr_free, dg->mshrs, &start);
        uint64_t p = start + latency - walk;
        *mshr = p;
        if (ready) *ready = p;
        prefetch_next(dg, k, r->mem_addr, request, latency - walk, r->completed);
        return p;
    }
    uint64_t p = exec + e->tlb + hit_latency(dg, set);
    if (e->line == LINE_FILLS && ready) *ready = 0;                              /* idealised: it fills nothing */
    if (e->line == LINE_SHARES && !idealises(set, GC_DMISS)) p = max_u64(p, *ready); /* PP */
    if (e->line == LINE_NONE && e->load) p = exec + e->ep;                      /* forwarded from a store */
    return p;
}

/* How the store's write reached the L1D in the core, from when it began
 * (as the probe showed it at the store queue's head; one never seen there
 * began one cycle after the write before, or at its commit). A write that
 * took longer than a hit, to a line with no fill in flight, filled the
 * line itself (loads and stores after it share the fill), taking its time
 * less its wait for an MSHR. A store never seen at the store queue's head
 * merged with a fill of its line in flight, else missed if its line was
 * not in the L1D as it committed (taking as long as the last store's miss
 * seen, up to an unloaded fill's), else hit. Any other write to a line the
 * graph knows a fill of shares that fill (a merge, or a hit after it). */
static void classify_store(depgraph *dg, store_write *w)
{
    bool seen = w->done != UINT64_MAX;
    uint64_t start = dg->write_core = seen ? w->began : max_u64(w->committed, dg->write_core + 1);
    uint64_t line = (w->addr >> LINE_SHIFT) + 1;
    line_fill *f = fill_of(dg, w->addr);
    bool known = f->line == line;
    uint64_t latency = seen ? cycles_after(w->done, start + w->wait) : 0;
    if (!seen && w->absent && !(known && f->real_ready > start))
        latency = dg->store_fill < dg->fill_max ? dg->store_fill : dg->fill_max;
    *w = (store_write){.seq = w->seq, .addr = w->addr, .committed = w->committed, .done = w->done, .fill = f};
    if (latency <= dg->l1d_latency + 1 || (known && (seen ? merged(dg, f, start, w->done) : f->real_ready > start))) {
        w->kind = known ? STORE_SHARES : STORE_HIT;
    } else {
        w->kind = STORE_FILLS, w->latency = latency;
        if (seen) dg->store_fill = w->latency;
        *f = (line_fill){.line = line, .real_ready = seen ? w->done : start + w->latency, .latency = w->latency};
    }
}

/* The store's write in set k's graph: it begins once the store has
 * committed and the write before it has begun, merges with its line's fill
 * there or fills the line itself (an MSHR held until it is done), and its
 * store-queue entry is free once it is done and every older one is. */
static void write_store(depgraph *dg, int k, uint64_t j)
{
    graph_state *g = &dg->g[k];
    const store_write *w = &dg->stores[j & (RING - 1)];
    uint64_t start = g->write_prev = max_u64(g->store_c[j & (RING - 1)], j ? g->write_prev + 1 : 0);
    uint64_t done = start + hit_latency(dg, g->set);
    if (w->kind != STORE_HIT && !idealises(g->set, GC_DMISS)) {
        uint64_t *ready = &fill_ready(dg, w->fill)[k];
        if (w->kind == STORE_SHARES && *ready) {
            done = max_u64(done, *ready);
        } else { /* its own fill, or one the set does not have (made by an idealised load, a prefetch not made) */
            uint64_t request = start;
            uint64_t *mshr = earliest(g->mshr_free, dg->mshrs, &start);
            done = *mshr = *ready = start + w->latency;
            prefetch_next(dg, k, w->addr, request, w->latency, w->done != UINT64_MAX ? w->done : done);
        }
    }
    g->store_free[j & (RING - 1)] = max_u64(j ? g->store_free[(j - 1) & (RING - 1)] : 0, done);
}

/* Set g's writes of the resolved stores, in order: those before store
 * `upto`, and those that begin by cycle t. The core's L1D takes its MSHRs
 * in the order it is asked, a load's as it dispatches and a write's as it
 * begins: in this set's graph, a write goes after the loads that dispatch
 * before it begins there (with the window idealised, loads dispatch far
 * ahead of the stores' commits), whatever the baseline's order. */
static void write_stores(depgraph *dg, graph_state *g, uint64_t upto, uint64_t t)
{
    for (; g->writes < dg->stores_resolved; g->writes++) {
        uint64_t j = g->writes;
        if (j >= upto && max_u64(g->store_c[j & (RING - 1)], j ? g->write_prev + 1 : 0) > t) break;
        write_store(dg, (int)(g - dg->g), j);
    }
}

/* Resolve the stores before store `upto`: how their writes reached the
 * L1D in the core (each set makes them in its own time: write_stores). */
static void resolve_stores(depgraph *dg, uint64_t upto)
{
    for (; dg->stores_resolved < upto; dg->stores_resolved++) {
        store_write *w = &dg->stores[dg->stores_resolved & (RING - 1)];
        classify_store(dg, w);
        if (w->kind == STORE_SHARES) w->latency = w->fill->latency;
    }
}

/* The issue ports u can go to (sim/core/dispatch.c ports_of), at the
 * core's issue widths or (bw) the widest. */
static uint32_t ports_allowed(const depgraph *dg, const instance_record *r, const edges *e, bool bw)
{
    unsigned cls = r->cls;
    int only = -1;
    if (e->iq == RES_IQ_INT) {
        if (cls == CLS_JAL || cls == CLS_JALR || r->op == RV_OP_auipc) only = 0; /* the jump unit reads pcs */
        else if (cls == CLS_CSR) only = 1;
        else if (cls == CLS_MUL) only = 2;
        else if (cls == CLS_DIV) only = 3;
    } else if (e->iq == RES_IQ_FP) {
        if (cls == CLS_FDIV || cls == CLS_FSQRT || (r->dst != RV_REG_NONE && r->dst < RV_REG_F0)) only = 0;
    }
    unsigned width = dg->issue[bw][e->iq - RES_RINGS];
    return only < 0 ? (uint32_t)(((uint64_t)1 << width) - 1) : 1u << (only % (int)width);
}

/* The first cycle from t with a free port among `allowed`: it takes the
 * lowest, as the core's scheduler does (in program order, at dispatch). */
static uint64_t reserve_port(port_cycle *ports, uint32_t allowed, uint64_t t)
{
    for (;; t++) {
        port_cycle *s = &ports[t % PORT_HORIZON];
        if (s->cycle != t) s->cycle = t, s->used = 0;
        uint32_t free_ports = allowed & ~s->used;
        if (free_ports) {
            s->used |= free_ports & (0u - free_ports);
            return t;
        }
    }
}

/* Whether set k's wrong path past the core's dispatch asked for the
 * load's line (it filled it in the core) or page (it missed it): 1 line,
 * 2 page, 3 both (the trace's `ahead`). */
static int asked_ahead(const edges *e, int k)
{
    return (e->ahead_line && e->ahead_line[k] ? 1 : 0) | (e->ahead_page && e->ahead_page[k] ? 2 : 0);
}

static void step(depgraph *dg, int k, const instance_record *r, const edges *e)
{
    graph_state *g = &dg->g[k];
    unsigned set = g->set;
    uint64_t i = dg->n;
    bool bw = idealises(set, GC_BW);
    uint64_t f = fetch_node(dg, g, e);
    uint64_t d = dispatch_node(dg, g, e, f);
    write_stores(dg, g, 0, d); /* the writes begun by its dispatch ask the L1D first */
    uint64_t ready = d + 1;                                                       /* DR */
    for (int s = 0; s < 3; s++)
        if (r->src[s] != RV_REG_NONE) ready = max_u64(ready, g->reg_p[r->src[s]]); /* PR */
    /* A store issues once its address is ready (its first half, or its only
     * issue with its data ready too); its data joins it whenever it comes. */
    uint64_t from = !e->is_store ? ready : max_u64(d + 1, r->src[0] != RV_REG_NONE ? g->reg_p[r->src[0]] : 0);
    uint64_t *divider = e->divider >= 0 ? earliest(g->divider_free[e->divider], dg->dividers[e->divider], &from) : NULL;
    /* RE: the issue ports, taken as the core takes them (in program order
     * at dispatch, the lowest free; sim/core/dispatch.c reserve_issue), so
     * a set that brings operations together (bmisp, win) makes them
     * contend as the core would: every port has an ALU, but a jump, CSR
     * access, multiply, divide or FP divide goes to its one port, which an
     * ALU operation may have taken. An operation the set makes take no time
     * needs no port (but with bw). */
    uint64_t issue;
    if (!bw && ((e->speed == OP_LONG && idealises(set, GC_LGALU)) || (e->speed == OP_SHORT && idealises(set, GC_SHALU))))
        issue = from;
    else issue = reserve_port(g->ports[e->iq - RES_RINGS], ports_allowed(dg, r, e, bw), from);
    uint64_t exec = max_u64(issue, ready);
    /* A store whose data comes after its address issues its data as a
     * second half, on a port of its own; its issue-queue entry stays until
     * then (sim/core/dispatch.c schedule_store_halves). */
    uint64_t leaves = issue;
    if (e->is_store && ready > issue)
        leaves = reserve_port(g->ports[e->iq - RES_RINGS], ports_allowed(dg, r, e, bw), max_u64(issue + 1, ready));
    uint64_t p = e->load ? load_complete(dg, g, e, r, exec, k) : exec + execution(e, set); /* EP */
    if (dg->trace && e->load)
        fprintf(dg->trace, "%u,%" PRIu64 ",0x%" PRIx64 ",0x%" PRIx64 ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n", set, i, r->pc, r->mem_addr, (int)e->line, d, exec, p - exec, e->ep,
                e->fill ? e->fill->latency : 0, e->tlb, own_walk(e, set, k), asked_ahead(e, k));
    if (divider) *divider = p;
    uint64_t cbw = bw ? dg->cbw_ideal : dg->cbw;
    uint64_t c = max_u64(p, g->c_prev);                                           /* PC, CC */
    if (i >= cbw) c = max_u64(c, g->c[(i - cbw) & (RING - 1)] + 1);               /* CBW */
    if (g->opened_row && i) c = max_u64(c, g->c_prev + 1);                        /* one ROB row a cycle */
    if (r->dst != RV_REG_NONE) g->reg_p[r->dst] = p + (e->load || execution(e, set) ? e->wake : 0); /* an op that takes no time forwards */
    if (e->regs >= 0) take(&g->res[e->regs], c);
    if (e->load) take(&g->res[RES_LDQ], c);
    /* The entry is free the cycle after it issues (a store's, its last half). */
    packet_take(&g->packet_iq, e->iq, d, leaves + 1);
    g->row_c[(g->rows - 1) & (RING - 1)] = c;
    g->packet_c[(g->packets - 1) & (RING - 1)] = c;
    if (e->branch) g->branch_p[g->branches++ & (RING - 1)] = p;
    if (e->is_store) g->store_c[dg->nstores & (RING - 1)] = c, g->store_p[dg->nstores & (RING - 1)] = p;
    g->d[i & (RING - 1)] = d, g->c[i & (RING - 1)] = c;
    g->f_prev = f, g->d_prev = d, g->p_prev = p, g->c_prev = c;
}

/* Core time t moved into set k's graph: by the last committed
 * instruction's D there against the core's, and by `shift`. */
static uint64_t in_set(const depgraph *dg, const graph_state *g, uint64_t t, int64_t shift)
{
    return (uint64_t)max_i64((int64_t)(t + g->d_prev) + shift, (int64_t)dg->prev_dispatched + 1) - dg->prev_dispatched;
}

/* The fill of a load that did not commit holds an L1D MSHR in set k's
 * graph until it arrives there (`ready`), as it held one in the core past
 * the squash (a fill is not cancelled): a correct-path miss after it may
 * wait for it. */
static void hold_mshr(depgraph *dg, int k, uint64_t ready)
{
    graph_state *g = &dg->g[k];
    uint64_t start = 0;
    uint64_t *mshr = earliest(g->mshr_free, dg->mshrs, &start);
    *mshr = max_u64(*mshr, ready);
}

/* A load the core scheduled but did not commit (a wrong path's, or one a
 * flush squashed) may have filled a line a committed load then found: the
 * fill happened in every set at the same distance from the last committed
 * instruction, but a wrong path's moved as its issue moves in the set
 * and absent where the set's wrong path never got to it (bmisp: none
 * does). The core schedules a load's access at dispatch, so the fill goes
 * on when the load is squashed before it issues or before its data comes:
 * its access is taken as scheduled (load_issue, load_data), not as far as
 * it got. */
static void aborted_load(depgraph *dg, const instance_record *r)
{
    if (!r->load || !r->load_data || (r->flags & UOP_FORWARDED)) return;
    instance_record access = *r;
    access.issued = r->load_issue, access.completed = r->load_data;
    bool wrong = r->abort_key == STK_FLUSHED_MISPREDICT && dg->wp_open;
    line_fill *f = fill_of(dg, r->mem_addr);
    bool known = f->line == (r->mem_addr >> LINE_SHIFT) + 1;
    if (r->mem_level == MEM_L1 || classify_load(dg, &access, true, &f) != LINE_FILLS) {
        /* It found the line filled, or being filled, by an earlier load: in
         * a set whose wrong path did not make that fill but gets to this
         * one, this one fills it. */
        if (!wrong || !known) return;
        uint64_t *ready = fill_ready(dg, f);
        for (int k = 0; k < dg->nsets; k++) {
            const graph_state *g = &dg->g[k];
            if (ready[k] || idealises(g->set, GC_BMISP) || g->wp.gone) continue;
            ready[k] = in_set(dg, g, access.issued + translation(dg, &access, access.issued) + f->latency, g->wp.moved);
            hold_mshr(dg, k, ready[k]);
        }
        return;
    }
    f->absent_in = r->abort_key == STK_FLUSHED_MISPREDICT ? 1u << GC_BMISP : 0;
    uint64_t *ready = fill_ready(dg, f);
    /* An earlier wrong path past the core's dispatch may have asked first. */
    const uint64_t *asked = ahead_found(dg, &dg->ahead_lines, r->mem_addr >> LINE_SHIFT);
    uint64_t tlb = translation(dg, &access, access.issued);
    for (int k = 0; k < dg->nsets; k++) {
        const graph_state *g = &dg->g[k];
        if ((g->set & f->absent_in) || (wrong && g->wp.gone)) ready[k] = 0;
        else ready[k] = in_set(dg, g, access.completed, wrong ? g->wp.moved : 0);
        uint64_t early = ahead_fill(asked, k, tlb, f);
        if (early && (!ready[k] || early < ready[k])) ready[k] = early;
        else if (ready[k]) hold_mshr(dg, k, ready[k]);
    }
}

/* A wrong-path load: as the core executed it, or as the probe did. */
static bool wrong_path_load(const instance_record *r) { return r->load || r->ahead_access == RV_MEM_LOAD; }

/* How long the wrong path's last instruction dispatched before its branch
 * resolved in the set's graph; INT64_MIN: it never dispatches. */
static int64_t slack_of(const wrong_path *w)
{
    return w->d == UINT64_MAX ? INT64_MIN : (int64_t)w->resolves - (int64_t)w->d;
}

/* When the wrong path's last instruction r could issue in the set's
 * graph: a cycle after its dispatch, with its operands (the wrong path's
 * own registers, as place_ahead and wrong_path_result note them). */
static uint64_t wrong_path_issue(const wrong_path *w, const instance_record *r)
{
    uint64_t t = w->d + 1;
    for (int s = 0; s < 3; s++)
        if (r->src[s] != RV_REG_NONE) t = max_u64(t, w->reg_p[r->src[s]]);
    return t;
}

/* Its result, a cycle after it issues; a load's, after an L1D hit, or for
 * one the core did not dispatch whose line was not in the L1D at the
 * squash, as long as the last load's fill took (a branch on it holds an
 * outstanding-branch entry until then: unfetched_fetch). */
static uint64_t wrong_path_value(const depgraph *dg, const wrong_path *w, const instance_record *r, bool load)
{
    bool absent = r->ahead && r->l1d_line == L1D_ABSENT;
    return wrong_path_issue(w, r) + (!load ? 1 : absent ? dg->load_fill : dg->l1d_latency);
}

/* When the wrong path's last instruction r completes in set k's graph: as
 * the core completed it, moved as the set moves its issue (`moved`), else
 * as estimated. */
static uint64_t wrong_path_done(const depgraph *dg, const graph_state *g, const instance_record *r)
{
    uint64_t done = r->dispatched ? (r->completed ? r->completed : r->load_data) : 0; /* a load's data, once scheduled */
    return done ? in_set(dg, g, done, g->wp.moved) : wrong_path_value(dg, &g->wp, r, wrong_path_load(r));
}

/* The earliest fetch of an instruction of the wrong path past the core's
 * fetch in set k's graph: its fetch packet needs an FTQ entry (the
 * wrong path's never free: none past the FTQ) and fewer than
 * `core.max_branches` branches before it unresolved (the correct path's,
 * then the wrong path's own). */
static uint64_t unfetched_fetch(const depgraph *dg, const graph_state *g)
{
    const wrong_path *w = &g->wp;
    uint64_t t = 0, packets = g->packets + w->packets, branches = g->branches + w->branches;
    if (packets > dg->ftq + 1) {
        uint64_t j = packets - dg->ftq - 2;
        if (j >= g->packets) return UINT64_MAX;
        t = g->packet_c[j & (RING - 1)];
    }
    if (branches >= dg->max_branches) {
        uint64_t j = branches - dg->max_branches;
        t = max_u64(t, j < g->branches ? g->branch_p[j & (RING - 1)] : g->wp_branch_p[(j - g->branches) & (RING - 1)]);
    }
    return t;
}

/* The register a dispatched wrong-path instruction writes, in each set
 * that still has the wrong path: when the core completed it, moved as the
 * set moves it; one that had not completed by the squash, as if executed
 * in the set's graph. */
static void wrong_path_result(depgraph *dg, const instance_record *r)
{
    if (r->dst == RV_REG_NONE) return;
    for (int k = 0; k < dg->nsets; k++) {
        graph_state *g = &dg->g[k];
        wrong_path *w = &g->wp;
        if (w->d == UINT64_MAX || w->gone || idealises(g->set, GC_BMISP)) continue;
        w->reg_p[r->dst] = wrong_path_done(dg, g, r);
    }
}

/* A wrong-path instruction the core did not dispatch before its branch
 * resolved (the probe's AHEAD_* records), in each set: where its graph
 * dispatches it before the branch resolves (the core's time to spare, as
 * the last one it dispatched had it, or where the window held it back as
 * the branch had it, moved by the set's graph), it executes, if the set
 * lifts what held it back in the core: the window
 * (ROB, issue queues, registers, load queue: the graph's wrong path
 * knows only the first and the last) when the core's wrong path waited
 * at decode for it, else the front end (dispatching sooner against the
 * branch than the baseline's graph does). Its load, if it issues before
 * the branch resolves, asks for its line and page (the correct path's
 * loads that missed them in the core find them: ahead_found). The
 * baseline, and any other set, drop it as the core did, and with it the
 * rest. */
static void place_ahead(depgraph *dg, const instance_record *r)
{
    int64_t base_slack = slack_of(&dg->g[0].wp);
    bool load = wrong_path_load(r);
    dg->wp_ahead_gone = true;
    for (int k = 1; k < dg->nsets; k++) {
        graph_state *g = &dg->g[k];
        wrong_path *w = &g->wp;
        if (w->gone || idealises(g->set, GC_BMISP)) continue;
        int64_t slack = slack_of(w);
        bool lifted = dg->wp_blocked ? idealises(g->set, GC_WIN) : slack > base_slack;
        int64_t offset = dg->wp_blocked ? dg->wp_branch_offset : dg->wp_offset;
        if (!lifted || slack == INT64_MIN || offset + slack < 0) {
            w->gone = true;
            continue;
        }
        dg->wp_ahead_gone = false;
        uint64_t issue = wrong_path_issue(w, r);
        if (r->dst != RV_REG_NONE) w->reg_p[r->dst] = wrong_path_value(dg, w, r, load);
        if (!load || offset + (int64_t)w->resolves - (int64_t)issue < 0) continue;
        ahead_ask(dg, &dg->ahead_pages, r->ahead_addr >> TLB_PAGE_SHIFT, k, issue);
        if (r->l1d_line == L1D_ABSENT) { /* its miss waits for an L1D MSHR and holds it for a fill's time */
            uint64_t *mshr = earliest(g->mshr_free, dg->mshrs, &issue);
            *mshr = issue + dg->load_fill;
        }
        ahead_ask(dg, &dg->ahead_lines, r->ahead_addr >> LINE_SHIFT, k, issue);
    }
}

/* An entry of a structure freed at commit (the physical registers, the
 * load queue) for the wrong path's next instruction, dispatching at d:
 * behind the correct path's entries and the wrong path's own, which are
 * freed only at the squash (none past the structure's size). The core's
 * wrong path renames as the correct path does: without its registers the
 * baseline graph's wrong path dispatched sooner than the core's, so the
 * sets' wrong paths, moved from it, stopped short (sim/RESULTS.md). */
static uint64_t wrong_path_takes(const depgraph *dg, graph_state *g, int res, uint64_t d)
{
    uint64_t size = size_of(dg, g->set, res), *taken = &g->wp.taken[res];
    d = *taken < size ? max_u64(d, freed_ahead(&g->res[res], size, *taken)) : UINT64_MAX;
    ++*taken;
    return d;
}

/* The wrong path's issue-queue entries, from its branch on: those its
 * branch's decode packet took that are not yet in the queues (the next
 * correct-path instruction is refetched into a packet of its own). */
static void wrong_path_queues_start(const depgraph *dg, graph_state *g)
{
    for (int q = 0; q < RES_COUNT - RES_RINGS; q++) g->wp_iq[q].head = g->wp_iq[q].n = g->wp_iq[q].never = g->wp_iq_passed[q] = 0;
    packet_entries branch_packet = g->packet_iq;
    flush_packet(dg, g->set, &branch_packet, g->wp_iq, UINT64_MAX);
    g->wp_row_iq.n = 0;
}

/* The wrong path's instruction r, dispatched at d in g's graph, holds its
 * issue-queue entry until it issues there (with its operands, the wrong
 * path's own); one the core dispatched and did not issue by the squash
 * holds it to the end. */
static void wrong_path_queue_take(graph_state *g, const instance_record *r, uint64_t d)
{
    uint64_t release = r->dispatched && !r->issued ? UINT64_MAX : wrong_path_issue(&g->wp, r) + 1;
    packet_take(&g->wp_row_iq, queue_of(r->cls), d, release);
}

/* The wrong path's instruction r in each set's graph (but bmisp's, which
 * has none): its fetch packet (with bw, ended by its bytes or a taken
 * transfer at the wider width) arrives a cycle after the one before it,
 * and after the cycles the core's fetch lost there to a late fetch
 * stage's redirect (its bubbles: a front end as wide as bw's is slowed as
 * much), from the branch's fetch on; it fills ROB rows in order (the fetch
 * buffer holds more than the stalled dispatch takes), a row, formed of
 * what had reached decode as the row before it dispatched, taken once the
 * row `rows` back has committed (a row the wrong path took never does: it
 * stops), a physical register and a load's entry once the ones as far
 * back are free (wrong_path_takes), and an issue-queue entry as BOOM's
 * dispatcher gives one, the correct path's entries and its own counted
 * together, its own freed as it issues or at the squash (queues_allow,
 * wrong_path_queue_take). Against the core, each set
 * moves it as far as its graph moves it from the baseline graph's: it
 * dispatches while the core's time left until the branch resolved, so
 * moved, is not below zero. */
static void wrong_path_dispatch(depgraph *dg, const instance_record *r)
{
    if (r->abort_key != STK_FLUSHED_MISPREDICT || (!dg->wp_open && !dg->prev_mispredict)) return;
    bool first = !dg->wp_open;
    if (first) {
        dg->wp_packet = dg->prev_packet, dg->wp_next_pc = dg->prev_pc + 4; /* it may go on in the branch's packet */
        const graph_state *base = &dg->g[0];
        dg->wp_offset = dg->wp_branch_offset = ((int64_t)dg->prev_completed - (int64_t)dg->prev_dispatched) -
                                               ((int64_t)base->p_prev - (int64_t)base->d_prev);
        dg->wp_blocked = dg->wp_ahead_gone = false;
    }
    if (r->ahead && dg->wp_ahead_gone) return;
    if (r->ahead == AHEAD_FETCHED && r->fetch_ready < dg->prev_completed) dg->wp_blocked = true;
    /* The core did not fetch it: its packets end where their bytes do. */
    bool unfetched = r->ahead == AHEAD_UNFETCHED;
    bool packet = r->packet != dg->wp_packet;
    bool jumped = r->pc <= dg->wp_next_pc - 4 || r->pc > dg->wp_next_pc; /* not the next 2 or 4 bytes on */
    uint64_t bubbles = first ? 0 : dg->wp_bubbles; /* the core's, before this packet */
    dg->wp_open = true, dg->wp_packet = r->packet, dg->wp_next_pc = r->pc + 4;
    dg->wp_bubbles = unfetched ? 0 : r->fe_bubbles;
    uint64_t arrive = unfetched ? dg->fe_hit : cycles_after(r->fetch_ready, r->fetched);
    for (int k = 0; k < dg->nsets; k++) {
        graph_state *g = &dg->g[k];
        wrong_path *w = &g->wp;
        bool bw = idealises(g->set, GC_BW);
        uint64_t fbw = bw ? dg->fbw_ideal : dg->fbw;
        if (first) {
            *w = (wrong_path){.f = g->f_prev, .bd = g->d_prev, .resolves = g->p_prev, .d = g->d_prev, .row_n = g->row_n,
                              .row_formed = g->row_formed, .packet_end = g->packet_end, .packet_n = g->packet_n};
            memcpy(w->reg_p, g->reg_p, sizeof w->reg_p);
            wrong_path_queues_start(dg, g);
        }
        if (w->d == UINT64_MAX || idealises(g->set, GC_BMISP)) continue;
        if (bw || unfetched ? jumped || r->pc >= w->packet_end || w->packet_n >= (uint64_t)dg->fetch_cfg[bw].fetch_width
                            : packet) {
            w->packet_end = packet_end(&dg->fetch_cfg[bw], r->pc), w->packet_n = 0;
            w->packets++;
            w->bubbles += bubbles;
        }
        w->packet_n++;
        uint64_t decoded = w->f + w->packets + w->bubbles + arrive;
        if (unfetched) decoded = max_u64(decoded, unfetched_fetch(dg, g));
        if (decoded == UINT64_MAX) { /* it is never fetched, nor what follows */
            w->d = UINT64_MAX;
            continue;
        }
        uint64_t d = max_u64(w->d, decoded);
        /* A decode packet (a ROB row) takes what had reached decode when it
         * formed: the cycle after the one before it dispatched, or when its
         * first instruction arrived (not after its wait for a row). */
        if (w->row_n >= fbw || decoded > w->row_formed) {
            uint64_t rows = (idealises(g->set, GC_WIN) ? dg->rob.win : dg->rob.base) / fbw;
            w->row_formed = d = max_u64(w->d + 1, decoded);
            if (w->rows >= rows) d = UINT64_MAX;
            else if (g->rows + w->rows >= rows) d = max_u64(d, g->row_c[(g->rows + w->rows - rows) & (RING - 1)]);
            w->rows++, w->row_n = 0;
            flush_packet(dg, g->set, &g->wp_row_iq, g->wp_iq, UINT64_MAX);
        }
        uint64_t slot = w->row_n++;
        if (wrong_path_load(r) && d != UINT64_MAX) d = wrong_path_takes(dg, g, RES_LDQ, d);
        if (r->dst != RV_REG_NONE && d != UINT64_MAX)
            d = wrong_path_takes(dg, g, r->dst < RV_REG_F0 ? RES_INT_REGS : RES_FP_REGS, d);
        /* The issue queues, the correct path's entries and its own (the
         * core's wrong path waits for them: without them the graph's went
         * past the core's, the more so with bw's wide decode packets). */
        if (d != UINT64_MAX) d = queues_allow(dg, g, &g->wp_row_iq, g->wp_iq, slot, d);
        w->d = d;
        if (d != UINT64_MAX) wrong_path_queue_take(g, r, d);
        if (r->branch_tag) /* its tag freed once it executes */
            g->wp_branch_p[w->branches++ & (RING - 1)] = d == UINT64_MAX ? UINT64_MAX : wrong_path_done(dg, g, r);
    }
    if (!r->dispatched) { /* the core did not dispatch it: a set that dispatches it sooner may (the probe's) */
        if (r->ahead) place_ahead(dg, r);
        return;
    }
    const wrong_path *base = &dg->g[0].wp;
    int64_t left = (int64_t)dg->prev_completed - (int64_t)r->dispatched; /* in the core, until the branch resolved */
    if (base->d != UINT64_MAX) dg->wp_offset = left - slack_of(base);
    for (int k = 1; k < dg->nsets; k++) {
        wrong_path *w = &dg->g[k].wp;
        if (w->gone || idealises(dg->g[k].set, GC_BMISP)) continue;
        w->shift = w->moved = 0;
        if (base->d == UINT64_MAX) continue; /* the baseline graph's window was full: as in the core */
        if (w->d == UINT64_MAX) {
            w->gone = true;
            continue;
        }
        w->shift = ((int64_t)w->d - (int64_t)w->bd) - ((int64_t)base->d - (int64_t)base->bd);
        w->moved = ((int64_t)wrong_path_issue(w, r) - (int64_t)w->bd) - ((int64_t)wrong_path_issue(base, r) - (int64_t)base->bd);
        int64_t sooner = ((int64_t)w->resolves - (int64_t)w->bd) - ((int64_t)base->resolves - (int64_t)base->bd);
        w->gone = left + sooner - w->shift < 0;
    }
    wrong_path_result(dg, r);
}

/* A wrong-path packet that missed the I-cache filled its line, and a
 * wrong-path load that missed the D-TLB translated its page: a
 * correct-path access that then found them would have missed without the
 * wrong path. */
static void wrong_path_prefetches(depgraph *dg, const instance_record *r)
{
    if (r->abort_key != STK_FLUSHED_MISPREDICT) return;
    if ((r->flags & UOP_L1I_MISS) && !(r->flags & UOP_ITLB_MISS))
        wrong_path_brings(dg->wrong_path_lines, r->pc >> LINE_SHIFT, cycles_after(r->fetch_ready, r->fetched));
    if (r->load && r->issued) {
        /* A set whose wrong path did not get to the load that translated
         * the page, but gets to a later one of it, translates it there. */
        uint64_t page = r->mem_addr >> TLB_PAGE_SHIFT;
        brought *b = brought_slot(dg->wrong_path_pages, page);
        bool again = b->key == page + 1;
        if (!again && !(r->flags & UOP_DTLB_MISS)) return;
        if (!again) wrong_path_brings(dg->wrong_path_pages, page, tlb_latency(dg, r->flags));
        bool *gone = &dg->page_gone[(size_t)(b - dg->wrong_path_pages) * (size_t)dg->nsets];
        for (int k = 0; k < dg->nsets; k++) gone[k] = (!again || gone[k]) && dg->wp_open && dg->g[k].wp.gone;
    }
}

static void remember(depgraph *dg, const instance_record *r)
{
    dg->prev_mispredict = r->flags & UOP_MISPREDICT;
    dg->prev_flush = r->flags & (UOP_FLUSH_CSR | UOP_EXCEPTION);
    dg->prev_serial = r->flags & UOP_SERIAL;
    dg->prev_bubbled = r->fe_bubbles > 0;
    dg->prev_taken = r->taken;
    dg->prev_dispatched = r->dispatched;
    dg->prev_fetched = r->fetched;
    dg->prev_packet = r->packet;
    dg->prev_pc = r->pc;
    dg->prev_completed = r->completed;
    dg->prev_ended = r->ended;
}

/* The store at the store queue's head: the older ones have drained; note
 * when its write completes once it is under way. Resolves what is known. */
static void see_store_queue(depgraph *dg, const instance_record *r)
{
    if (r->sq_head_seq == UINT64_MAX) return;
    while (dg->store_seen < dg->nstores && dg->stores[dg->store_seen & (RING - 1)].seq < r->sq_head_seq) dg->store_seen++;
    bool head = dg->store_seen < dg->nstores && dg->stores[dg->store_seen & (RING - 1)].seq == r->sq_head_seq;
    if (head && r->sq_head_done != UINT64_MAX) {
        store_write *w = &dg->stores[dg->store_seen & (RING - 1)];
        w->done = r->sq_head_done, w->began = r->sq_head_start, w->wait = r->sq_head_wait;
    }
    resolve_stores(dg, dg->store_seen + (head && r->sq_head_done != UINT64_MAX));
}

static void add_store(depgraph *dg, const instance_record *r)
{
    dg->store_to[store_slot(r->mem_addr)].addr = r->mem_addr;
    dg->store_to[store_slot(r->mem_addr)].store = dg->nstores + 1;
    dg->stores[dg->nstores++ & (RING - 1)] =
        (store_write){.seq = r->seq, .addr = r->mem_addr, .committed = r->ended, .done = UINT64_MAX,
                      .absent = r->l1d_line == L1D_ABSENT && !dg->ideal_l1d};
}

void depgraph_instance(void *ctx, const instance_record *r)
{
    depgraph *dg = ctx;
    if (!dg->started) return;
    bool timed = r->instance % TIME_EVERY == 0;
    double t0 = timed ? now_seconds() : 0;
    see_store_queue(dg, r);
    if (!r->retired) {
        wrong_path_dispatch(dg, r);
        aborted_load(dg, r);
        wrong_path_prefetches(dg, r);
    } else {
        edges e = measure(dg, r);
        if (e.is_store && dg->nstores >= dg->sq.base) resolve_stores(dg, dg->nstores - dg->sq.base + 1);
        /* The core's L1D sees a load at its dispatch, a store's write as
         * it begins: the writes begun before this instruction dispatched
         * in the core are resolved first (the lines they fill). */
        while (dg->stores_resolved < dg->nstores &&
               max_u64(dg->stores[dg->stores_resolved & (RING - 1)].committed, dg->write_core + 1) <= r->dispatched)
            resolve_stores(dg, dg->stores_resolved + 1);
        for (int k = 0; k < dg->nsets; k++) step(dg, k, r, &e);
        dg->n++;
        dg->wp_open = false;
        if (e.is_store) add_store(dg, r);
        remember(dg, r);
    }
    if (timed) dg->seconds += TIME_EVERY * (now_seconds() - t0);
}

void depgraph_finish(depgraph *dg, depgraph_result *out)
{
    *out = (depgraph_result){.nsets = dg->nsets, .instructions = dg->n, .seconds = dg->seconds};
    for (int k = 0; k < dg->nsets; k++) {
        out->sets[k] = dg->g[k].set;
        out->cycles[k] = dg->n ? dg->g[k].c_prev + 1 : 0;
        free(dg->g[k].mshr_free);
        for (int q = 0; q < RES_COUNT - RES_RINGS; q++) free(dg->g[k].ports[q]);
    }
    if (dg->trace) fclose(dg->trace);
    free(dg->fills);
    free(dg->wrong_path_lines);
    free(dg->wrong_path_pages);
    free(dg->page_gone);
    ahead_table_free(&dg->ahead_lines);
    ahead_table_free(&dg->ahead_pages);
    free(dg->store_to);
    free(dg->fill_ready);
    free(dg->g);
    free(dg);
}
