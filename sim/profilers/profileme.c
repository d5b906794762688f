#include "profileme.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/core.h"
#include "gnuplot.h"
#include "outfile.h"
#include "util.h"

const char *const pm_latency_names[PM_LATENCIES] = {
    "fetch_to_map", "map_to_data_ready", "data_ready_to_issue", "issue_to_retire_ready", "retire_ready_to_retire",
    "load_issue_to_completion",
};
const char *const pm_event_names[PM_EVENTS] = {
    "retired", "aborted", "aborted_mispredict", "aborted_csr_flush", "aborted_exception", "aborted_ordering", "icache_miss", "itlb_miss",
    "dcache_miss", "l2_miss", "llc_miss", "dtlb_miss", "taken", "mispredicted", "memory_trap",
};

/* What the exact overlap count needs of an instance. */
typedef struct pm_slot {
    uint64_t instance, pc, fetched, issued, completed;
    bool retired, valid;
} pm_slot;

struct profileme {
    profileme_config cfg;
    bool started, armed;
    uint64_t rng, next;        /* the next first sample's instance */
    bool awaiting_second;
    uint64_t second;           /* paired: the second member's instance */
    instance_record first;
    pm_pc *pcs;
    size_t npcs, cap;
    cost_table index;          /* pc -> position + 1 (in execs) */
    pm_slot *ring;             /* the last 2W+1 instances, by instance mod 2W+1 */
    uint64_t last;             /* the newest instance in the ring + 1 (0: none) */
    uint64_t samples, pairs, instances;
    uint64_t first_instance;
};

profileme *profileme_new(const profileme_config *cfg)
{
    profileme *pm = calloc(1, sizeof *pm);
    if (!pm) die("out of memory");
    pm->cfg = *cfg;
    pm->rng = cfg->seed;
    if (cfg->window && !(pm->ring = calloc(2 * (size_t)cfg->window + 1, sizeof *pm->ring))) die("out of memory");
    return pm;
}

void profileme_begin(profileme *pm) { pm->started = true; }

static pm_pc *pc_of(profileme *pm, uint64_t pc)
{
    cost *slot = cost_at(&pm->index, pc);
    if (slot->execs) return &pm->pcs[slot->execs - 1];
    if (pm->npcs == pm->cap && !(pm->pcs = realloc(pm->pcs, (pm->cap = pm->cap ? 2 * pm->cap : 256) * sizeof *pm->pcs)))
        die("out of memory");
    pm->pcs[pm->npcs] = (pm_pc){.pc = pc};
    slot->execs = ++pm->npcs;
    return &pm->pcs[pm->npcs - 1];
}

/* The random distance to the next sample: uniform in [1, 2S-1], mean S. */
static uint64_t draw(profileme *pm)
{
    uint64_t span = 2 * pm->cfg.interval - 1;
    return 1 + splitmix64_next(&pm->rng) % span;
}


static unsigned events_of(const instance_record *r)
{
    unsigned e = 0;
    e |= (unsigned)r->retired << PM_RETIRED | (unsigned)!r->retired << PM_ABORTED;
    e |= (unsigned)!!(r->flags & UOP_L1I_MISS) << PM_IMISS | (unsigned)!!(r->flags & UOP_ITLB_MISS) << PM_ITLB;
    bool from_memory = r->load && !(r->flags & UOP_FORWARDED);
    e |= (unsigned)(from_memory && r->mem_level > MEM_L1) << PM_DMISS | (unsigned)!!(r->flags & UOP_DTLB_MISS) << PM_DTLB;
    e |= (unsigned)(from_memory && r->mem_level > MEM_L2) << PM_L2_MISS;
    e |= (unsigned)(from_memory && r->mem_level > MEM_LLC) << PM_LLC_MISS;
    if (!r->retired) {
        e |= (unsigned)(r->abort_key == STK_FLUSHED_MISPREDICT) << PM_ABORT_MISPREDICT;
        e |= (unsigned)(r->abort_key == STK_FLUSHED_CSR) << PM_ABORT_CSR;
        e |= (unsigned)(r->abort_key == STK_FLUSHED_EXCEPTION) << PM_ABORT_EXCEPTION;
        e |= (unsigned)(r->abort_key == STK_FLUSHED_ORDERING) << PM_ABORT_ORDERING;
    }
    e |= (unsigned)r->taken << PM_TAKEN | (unsigned)!!(r->flags & UOP_MISPREDICT) << PM_MISPREDICT;
    e |= (unsigned)!!(r->flags & UOP_REPLAYED) << PM_TRAP;
    return e;
}

/* The Table 1 latencies of a retired instance. */
static void latencies_of(const instance_record *r, uint64_t lat[PM_LATENCIES])
{
    lat[PM_FETCH_MAP] = cycles_after(r->dispatched, r->fetched);
    lat[PM_MAP_READY] = cycles_after(r->ready, r->dispatched);
    lat[PM_READY_ISSUE] = cycles_after(r->issued, r->ready);
    lat[PM_ISSUE_RETIRE_READY] = cycles_after(r->completed, r->issued);
    lat[PM_RETIRE_READY_RETIRE] = cycles_after(r->ended, r->completed);
    lat[PM_LOAD_ISSUE_DONE] = r->load ? cycles_after(r->completed, r->issued) : 0;
}

/* In progress: fetch to ready-to-retire (0 if it never got that far). */
static uint64_t progress(const instance_record *r) { return r->completed ? cycles_after(r->completed, r->fetched) : 0; }

static void add(uint64_t *sum, const instance_record *r, unsigned events, uint64_t *lat)
{
    for (int e = 0; e < PM_EVENTS; e++) sum[e] += events >> e & 1;
    if (!r->retired) return;
    uint64_t l[PM_LATENCIES];
    latencies_of(r, l);
    for (int i = 0; i < PM_LATENCIES; i++) lat[i] += l[i];
}

/* J usefully overlaps I: J issues while I is in progress, and retires. */
static bool useful(uint64_t i_fetched, uint64_t i_completed, bool j_retired, uint64_t j_issued)
{
    return j_retired && j_issued && j_issued >= i_fetched && j_issued < i_completed;
}

/* The exact useful overlaps of the ring's instance `center` with every
 * other instance within +-W that the ring holds. */
static void exact_overlaps(profileme *pm, uint64_t center)
{
    size_t size = 2 * (size_t)pm->cfg.window + 1;
    const pm_slot *c = &pm->ring[center % size];
    if (!c->valid || !c->completed) return;
    uint64_t n = 0;
    for (size_t k = 0; k < size; k++) {
        const pm_slot *j = &pm->ring[k];
        if (j->valid && j->instance != center && j->instance + pm->cfg.window >= center &&
            j->instance <= center + pm->cfg.window)
            n += useful(c->fetched, c->completed, j->retired, j->issued);
    }
    pm_pc *p = pc_of(pm, c->pc);
    p->exact_useful += n;
    p->exact_progress += c->completed - c->fetched;
}

static void ring_push(profileme *pm, const instance_record *r)
{
    size_t size = 2 * (size_t)pm->cfg.window + 1;
    pm->ring[r->instance % size] = (pm_slot){r->instance, r->pc, r->fetched, r->issued, r->completed, r->retired, true};
    pm->last = r->instance + 1;
    if (r->instance >= pm->cfg.window) exact_overlaps(pm, r->instance - pm->cfg.window);
}

/* The sample's profile registers as one CSV row (--profileme-samples):
 * member 0 alone or first of a pair, 1 second (with the intra-pair fetch
 * latency). */
static void record(profileme *pm, const instance_record *r, unsigned events, int member, uint64_t first_fetched)
{
    outfile *o = pm->cfg.records;
    outfile_printf(o, "%" PRIu64 ",%d,%" PRIu64 ",0x%" PRIx64 ",%d,", pm->samples, member, r->instance, r->pc, r->retired);
    for (int e = 0, n = 0; e < PM_EVENTS; e++)
        if (events >> e & 1) outfile_printf(o, "%s%s", n++ ? ";" : "", pm_event_names[e]);
    uint64_t lat[PM_LATENCIES] = {0};
    if (r->retired) latencies_of(r, lat);
    for (int l = 0; l < PM_LATENCIES; l++) outfile_printf(o, ",%" PRIu64, lat[l]);
    outfile_printf(o, ",0x%" PRIx64 ",0x%016" PRIx64 ",", r->mem_addr, r->history);
    if (member) outfile_printf(o, "%" PRIu64, cycles_after(r->fetched, first_fetched));
    outfile_printf(o, "\n");
}

void profileme_records_header(struct outfile *o)
{
    outfile_printf(o, "sample,member,instance,pc,retired,events");
    for (int l = 0; l < PM_LATENCIES; l++) outfile_printf(o, ",%s", pm_latency_names[l]);
    outfile_printf(o, ",effective_address,history,intra_pair_fetch_latency\n");
}

static void sample(profileme *pm, const instance_record *r, unsigned events, int member)
{
    pm_pc *p = pc_of(pm, r->pc);
    p->samples++;
    add(p->sampled, r, events, p->sampled_latency);
    if (pm->cfg.records) record(pm, r, events, member, pm->first.fetched);
    pm->samples++;
}

static void pair(profileme *pm, const instance_record *a, const instance_record *b)
{
    pm_pc *pa = pc_of(pm, a->pc);
    pa->useful_fwd += useful(a->fetched, a->completed, b->retired, b->issued);
    pa->pair_latency += progress(a);
    pm_pc *pb = pc_of(pm, b->pc);
    pb->useful_bwd += useful(b->fetched, b->completed, a->retired, a->issued);
    pb->pair_latency += progress(b);
    pm->pairs++;
}

void profileme_instance(void *ctx, const instance_record *r)
{
    profileme *pm = ctx;
    if (!pm->started) return;
    unsigned events = events_of(r);
    pm_pc *p = pc_of(pm, r->pc);
    add(p->exact, r, events, p->exact_latency);
    if (!pm->instances++) pm->first_instance = r->instance;
    if (pm->ring) ring_push(pm, r);
    if (!pm->armed) pm->next = r->instance + draw(pm), pm->armed = true;
    if (pm->awaiting_second) {
        if (r->instance < pm->second) return;
        sample(pm, r, events, 1);
        pair(pm, &pm->first, r);
        pm->awaiting_second = false;
        if (pm->next <= r->instance) pm->next = r->instance + 1;
        return;
    }
    if (r->instance < pm->next) return;
    sample(pm, r, events, 0);
    pm->next = r->instance + draw(pm);
    if (pm->cfg.window) {
        pm->first = *r;
        pm->second = r->instance + 1 + splitmix64_next(&pm->rng) % pm->cfg.window;
        pm->awaiting_second = true;
    }
}

static int by_samples(const void *a, const void *b)
{
    const pm_pc *x = a, *y = b;
    if (x->samples != y->samples) return x->samples < y->samples ? 1 : -1;
    if (x->exact[PM_RETIRED] != y->exact[PM_RETIRED]) return x->exact[PM_RETIRED] < y->exact[PM_RETIRED] ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

void profileme_finish(profileme *pm, profileme_result *out)
{
    /* The last W instances: their windows end with the run. */
    for (uint64_t c = pm->last > pm->cfg.window ? pm->last - pm->cfg.window : 0; pm->ring && c < pm->last; c++)
        exact_overlaps(pm, c);
    *out = (profileme_result){.cfg = pm->cfg, .pcs = pm->pcs, .npcs = pm->npcs, .samples = pm->samples,
                              .pairs = pm->pairs, .instances = pm->instances, .first_instance = pm->first_instance};
    if (out->npcs) qsort(out->pcs, out->npcs, sizeof *out->pcs, by_samples);
    cost_table_free(&pm->index);
    free(pm->ring);
    free(pm);
}

void profileme_results_stitch(const profileme_result *const *r, size_t n, profileme_result *out)
{
    profileme *pm = calloc(1, sizeof *pm);
    if (!pm) die("out of memory");
    pm->cfg = r[0]->cfg;
    pm->first_instance = r[0]->first_instance;
    for (size_t k = 0; k < n; k++) {
        pm->samples += r[k]->samples, pm->pairs += r[k]->pairs, pm->instances += r[k]->instances;
        for (size_t i = 0; i < r[k]->npcs; i++) {
            const pm_pc *from = &r[k]->pcs[i];
            pm_pc *to = pc_of(pm, from->pc);
            for (int e = 0; e < PM_EVENTS; e++) to->exact[e] += from->exact[e], to->sampled[e] += from->sampled[e];
            for (int l = 0; l < PM_LATENCIES; l++)
                to->exact_latency[l] += from->exact_latency[l], to->sampled_latency[l] += from->sampled_latency[l];
            to->samples += from->samples;
            to->useful_fwd += from->useful_fwd, to->useful_bwd += from->useful_bwd;
            to->pair_latency += from->pair_latency;
            to->exact_useful += from->exact_useful, to->exact_progress += from->exact_progress;
        }
    }
    profileme_finish(pm, out);
}

void profileme_result_free(profileme_result *r)
{
    free(r->pcs);
    *r = (profileme_result){0};
}

/* Each instance is sampled with probability 1/S, twice that when pairs
 * count both members. */
double pm_estimate(const profileme_result *r, uint64_t k)
{
    return (double)k * (double)r->cfg.interval / (r->cfg.window ? 2.0 : 1.0);
}

double pm_wasted_estimate(const profileme_result *r, const pm_pc *p)
{
    double S = (double)r->cfg.interval;
    return (double)p->pair_latency * r->cfg.issue_width * S / 2 - (double)(p->useful_fwd + p->useful_bwd) * r->cfg.window * S;
}

double pm_wasted_exact(const profileme_result *r, const pm_pc *p)
{
    return (double)p->exact_progress * r->cfg.issue_width - (double)p->exact_useful;
}

double pm_within_envelope(const profileme_result *r, enum pm_event e, size_t *npcs)
{
    size_t n = 0, in = 0;
    for (size_t i = 0; i < r->npcs; i++) {
        const pm_pc *p = &r->pcs[i];
        uint64_t k = p->sampled[e];
        if (!k || !p->exact[e]) continue;
        double ratio = pm_estimate(r, k) / (double)p->exact[e], band = 1 / sqrt((double)k);
        n++;
        in += ratio >= 1 - band && ratio <= 1 + band;
    }
    *npcs = n;
    return n ? (double)in / (double)n : 0;
}

/* ---------------------------------------------------------------- output */

/* Golden time of a pc, and of all pcs, in cycles. */
static double golden_cycles(const cost *golden, size_t n, uint32_t units, uint64_t pc, double *total)
{
    double mine = 0;
    *total = 0;
    for (size_t i = 0; i < n; i++) {
        double c = (double)cost_total(&golden[i]) / units;
        *total += c;
        if (golden[i].key == pc) mine = c;
    }
    return mine;
}

/* Share of all samples' fetch-to-retire latency (ProfileMe's latency-weighted view). */
static double latency_share(const profileme_result *r, const pm_pc *p)
{
    double all = 0, mine = 0;
    for (size_t i = 0; i < r->npcs; i++) {
        double l = 0;
        for (int k = PM_FETCH_MAP; k <= PM_RETIRE_READY_RETIRE; k++) l += (double)r->pcs[i].sampled_latency[k];
        all += l;
        if (&r->pcs[i] == p) mine = l;
    }
    return all > 0 ? mine / all : 0;
}

json_t *profileme_json(const profileme_result *r, const cost *golden, size_t ngolden, uint32_t units,
                       const rv_symtab *syms, size_t top)
{
    json_t *pcs = json_array();
    for (size_t i = 0; i < r->npcs && (!top || i < top); i++) {
        const pm_pc *p = &r->pcs[i];
        char pc[24], sym[256];
        snprintf(pc, sizeof pc, "0x%" PRIx64, p->pc);
        symtab_describe(syms, p->pc, sym, sizeof sym);
        json_t *events = json_object(), *lat = json_object();
        for (int e = 0; e < PM_EVENTS; e++)
        {
            /* The 95% interval of a count from k samples: relative sd 1/sqrt(k). */
            double est = pm_estimate(r, p->sampled[e]), half = p->sampled[e] ? 1.96 * est / sqrt((double)p->sampled[e]) : 0;
            json_object_set_new(events, pm_event_names[e],
                                json_pack("{s:I, s:f, s:[f, f], s:I}", "samples", (json_int_t)p->sampled[e], "estimate",
                                          est, "ci95", est - half, est + half, "exact", (json_int_t)p->exact[e]));
        }
        for (int l = 0; l < PM_LATENCIES; l++) {
            uint64_t ks = p->sampled[PM_RETIRED];
            json_object_set_new(lat, pm_latency_names[l],
                                json_pack("{s:f, s:f}", "sampled_mean",
                                          ks ? (double)p->sampled_latency[l] / (double)ks : 0.0, "exact_mean",
                                          p->exact[PM_RETIRED] ? (double)p->exact_latency[l] / (double)p->exact[PM_RETIRED]
                                                               : 0.0));
        }
        double total, mine = golden_cycles(golden, ngolden, units, p->pc, &total);
        json_t *o = json_pack("{s:s, s:s, s:I, s:o, s:o, s:f, s:f}", "pc", pc, "symbol", sym, "samples",
                              (json_int_t)p->samples, "events", events, "mean_latency", lat, "latency_share",
                              latency_share(r, p), "golden_time_share", total > 0 ? mine / total : 0.0);
        if (r->cfg.window)
            json_object_set_new(o, "paired",
                                json_pack("{s:I, s:I, s:f, s:f}", "useful_forward", (json_int_t)p->useful_fwd,
                                          "useful_backward", (json_int_t)p->useful_bwd, "wasted_slots_estimate",
                                          pm_wasted_estimate(r, p), "wasted_slots_exact", pm_wasted_exact(r, p)));
        json_array_append_new(pcs, o);
    }
    size_t nr, nd;
    double env_r = pm_within_envelope(r, PM_RETIRED, &nr), env_d = pm_within_envelope(r, PM_DMISS, &nd);
    return json_pack("{s:I, s:i, s:i, s:I, s:I, s:I, s:s, s:{s:{s:f, s:I}, s:{s:f, s:I}}, s:o}", "interval",
                     (json_int_t)r->cfg.interval, "window", (int)r->cfg.window, "issue_width", (int)r->cfg.issue_width,
                     "samples", (json_int_t)r->samples, "pairs", (json_int_t)r->pairs, "instances",
                     (json_int_t)r->instances, "proportional_to",
                     "fetched instructions, not time: estimates count events (k x interval); latencies overlap",
                     "within_envelope", "retired", "share", env_r, "pcs", (json_int_t)nr, "dcache_miss", "share",
                     env_d, "pcs", (json_int_t)nd, "pcs", pcs);
}

void profileme_summary(FILE *f, const profileme_result *r, const cost *golden, size_t ngolden, uint32_t units,
                       const rv_symtab *syms)
{
    size_t nr;
    double env = pm_within_envelope(r, PM_RETIRED, &nr);
    fprintf(f, "\nProfileMe: %" PRIu64 " samples of %" PRIu64 " fetched instances (one per %" PRIu64
               " on average)%s; instruction-proportional, not time-proportional\n",
            r->samples, r->instances, r->cfg.interval, r->cfg.window ? ", paired" : "");
    fprintf(f, "  retire counts within 1 +- 1/sqrt(k) of the exact ones: %.0f%% of %zu pcs (expected ~68%%)\n",
            100 * env, nr);
    fprintf(f, "  %-12s %-26s %7s %11s %11s %9s %9s %9s", "pc", "symbol", "samples", "retired est", "exact",
            "fetch->rr", "lat share", "TIP time");
    if (r->cfg.window) fprintf(f, " %12s %12s", "wasted est", "wasted exact");
    fprintf(f, "\n");
    for (size_t i = 0; i < r->npcs && i < 10; i++) {
        const pm_pc *p = &r->pcs[i];
        char sym[256];
        symtab_describe(syms, p->pc, sym, sizeof sym);
        uint64_t k = p->sampled[PM_RETIRED];
        double progress_mean = 0;
        for (int l = PM_FETCH_MAP; l <= PM_ISSUE_RETIRE_READY; l++) progress_mean += (double)p->sampled_latency[l];
        progress_mean = k ? progress_mean / (double)k : 0;
        double total, mine = golden_cycles(golden, ngolden, units, p->pc, &total);
        fprintf(f, "  0x%-10" PRIx64 " %-26.26s %7" PRIu64 " %11.0f %11" PRIu64 " %9.1f %8.1f%% %8.1f%%", p->pc, sym,
                p->samples, pm_estimate(r, k), p->exact[PM_RETIRED], progress_mean, 100 * latency_share(r, p),
                total > 0 ? 100 * mine / total : 0);
        if (r->cfg.window) fprintf(f, " %12.0f %12.0f", pm_wasted_estimate(r, p), pm_wasted_exact(r, p));
        fprintf(f, "\n");
    }
}

void profileme_plot(const profileme_result *r, const char *dir)
{
    char *data = NULL;
    size_t n = 0;
    FILE *d = open_memstream(&data, &n);
    if (!d) die("out of memory");
    fprintf(d, "# samples_with_event estimate/exact: retired, then D-cache misses\n");
    const enum pm_event shown[] = {PM_RETIRED, PM_DMISS};
    for (int s = 0; s < 2; s++) {
        fprintf(d, "%s# %s\n", s ? "\n\n" : "", pm_event_names[shown[s]]);
        for (size_t i = 0; i < r->npcs; i++) {
            const pm_pc *p = &r->pcs[i];
            uint64_t k = p->sampled[shown[s]];
            if (k && p->exact[shown[s]])
                fprintf(d, "%" PRIu64 " %.6f\n", k, pm_estimate(r, k) / (double)p->exact[shown[s]]);
        }
    }
    fclose(d);
    char body[1024];
    snprintf(body, sizeof body,
             "set title \"ProfileMe: estimated / exact count per pc against its samples (one per %" PRIu64
             " fetched)\"\nset logscale x\nset xlabel \"samples having the event\"\n"
             "set ylabel \"estimate / exact\"\nset yrange [0:3]\nset grid\nset key top right\n"
             "plot \"profileme_convergence.dat\" index 0 using 1:2 with points pt 7 ps 0.5 title \"retired\", "
             "\"\" index 1 using 1:2 with points pt 6 ps 0.6 title \"D-cache misses\", "
             "[1:*] 1 + 1/sqrt(x) with lines lc rgb \"black\" title \"1 +- 1/sqrt(k)\", "
             "[1:*] 1 - 1/sqrt(x) with lines lc rgb \"black\" notitle\n",
             r->cfg.interval);
    gnuplot g = {0};
    gnuplot_plot(&g, dir, "profileme_convergence", data, body);
    free(data);
}

/* ------------------------------------------------------------- regions */

typedef struct pm_rate {
    uint64_t pc;
    double estimate[PM_EVENTS], exact[PM_EVENTS]; /* per 1,000 instructions of the whole */
} pm_rate;

static int by_retired_rate(const void *a, const void *b)
{
    const pm_rate *x = a, *y = b;
    if (x->estimate[PM_RETIRED] != y->estimate[PM_RETIRED]) return x->estimate[PM_RETIRED] < y->estimate[PM_RETIRED] ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

json_t *profileme_combined_json(const profileme_result *const *r, const double *weight, const uint64_t *insts, size_t n,
                                const rv_symtab *syms, size_t top)
{
    double w = 0;
    uint64_t samples = 0;
    for (size_t i = 0; i < n; i++) w += weight[i], samples += r[i]->samples;
    cost_table index = {0};
    pm_rate *rates = NULL;
    size_t nrates = 0, cap = 0;
    for (size_t i = 0; i < n && w > 0; i++) {
        if (!insts[i]) continue;
        double f = weight[i] / w * 1000.0 / (double)insts[i];
        for (size_t k = 0; k < r[i]->npcs; k++) {
            const pm_pc *p = &r[i]->pcs[k];
            cost *slot = cost_at(&index, p->pc);
            if (!slot->execs) {
                if (nrates == cap && !(rates = realloc(rates, (cap = cap ? 2 * cap : 256) * sizeof *rates))) die("out of memory");
                rates[nrates] = (pm_rate){.pc = p->pc};
                slot->execs = ++nrates;
            }
            pm_rate *rate = &rates[slot->execs - 1];
            for (int e = 0; e < PM_EVENTS; e++) {
                rate->estimate[e] += f * pm_estimate(r[i], p->sampled[e]);
                rate->exact[e] += f * (double)p->exact[e];
            }
        }
    }
    cost_table_free(&index);
    if (nrates) qsort(rates, nrates, sizeof *rates, by_retired_rate);
    json_t *pcs = json_array();
    for (size_t i = 0; i < nrates && (!top || i < top); i++) {
        char pc[24], sym[256];
        snprintf(pc, sizeof pc, "0x%" PRIx64, rates[i].pc);
        symtab_describe(syms, rates[i].pc, sym, sizeof sym);
        json_t *events = json_object();
        for (int e = 0; e < PM_EVENTS; e++)
            if (rates[i].estimate[e] > 0 || rates[i].exact[e] > 0)
                json_object_set_new(events, pm_event_names[e], json_pack("{s:f, s:f}", "estimate", rates[i].estimate[e],
                                                                         "exact", rates[i].exact[e]));
        json_array_append_new(pcs, json_pack("{s:s, s:s, s:o}", "pc", pc, "symbol", sym, "per_1000_instructions", events));
    }
    free(rates);
    return json_pack("{s:I, s:o}", "samples", (json_int_t)samples, "pcs", pcs);
}
