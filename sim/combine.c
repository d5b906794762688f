#include "combine.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_pics.h"
#include "stratify.h"
#include "util.h"

/* Regions with SimPoint weights that ran: what the counters need. */
static bool combinable(const sim_result *res, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!res[i].has_region || !res[i].c.instructions) return false;
    return n >= 2;
}

/* The profiles need every region's golden attribution too. */
static bool profiles_combinable(const sim_result *res, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!res[i].pcs) return false;
    return combinable(res, n);
}

static double weight_sum(const sim_result *res, size_t n)
{
    double w = 0;
    for (size_t i = 0; i < n; i++) w += res[i].region.weight;
    return w;
}

/* Every counter of the whole program per instruction: sum over the regions
 * of weight x count / instructions, the ratios of weighted sums validate
 * extrapolates with (CPI, each cycle-stack component, each event rate). */
typedef struct whole {
    double cpi, stack[STK_COUNT], events[EV_COUNT];
} whole;

static whole project(const sim_result *res, size_t n)
{
    whole p = {0};
    double w = weight_sum(res, n);
    for (size_t i = 0; i < n; i++) {
        const counters *c = &res[i].c;
        double f = res[i].region.weight / w / (double)c->instructions;
        p.cpi += f * (double)c->cycles;
        for (int s = 0; s < STK_COUNT; s++) p.stack[s] += f * (double)c->stack[s];
        for (int e = 0; e < EV_COUNT; e++) p.events[e] += f * (double)c->events[e];
    }
    return p;
}

static json_t *whole_json(const whole *p, uint64_t total_insts)
{
    json_t *stack = json_object(), *events = json_object();
    for (int s = 0; s < STK_COUNT; s++)
        json_object_set_new(stack, stack_key_names[s], json_pack("{s:f, s:f}", "cpi", p->stack[s], "share",
                                                                 p->cpi > 0 ? p->stack[s] / p->cpi : 0.0));
    for (int e = 0; e < EV_COUNT; e++) json_object_set_new(events, event_key_names[e], json_real(1000 * p->events[e]));
    json_t *o = json_pack("{s:o, s:o}", "cycle_stack", stack, "events_per_1000_instructions", events);
    if (total_insts)
        json_object_set_new(o, "projected", json_pack("{s:I, s:f}", "instructions", (json_int_t)total_insts,
                                                      "cycles", p->cpi * (double)total_insts));
    return o;
}

/* Combined profiles are kept in units of 1/(U x RESOLUTION) cycle per 1,000
 * instructions: small shares must not round away. */
enum { RESOLUTION = 100000 };

enum { GOLDEN = -1, GOLDEN_PICS = -2 };

/* Profile `which` (GOLDEN, GOLDEN_PICS, or the main sampler's k-th
 * profiler) of every region, combined. */
static cost *combine(const sim_result *res, size_t n, int which, size_t *out_n)
{
    region_profile *rp = calloc(n, sizeof *rp);
    if (!rp) die("out of memory");
    double w = weight_sum(res, n);
    for (size_t i = 0; i < n; i++) {
        const sim_result *r = &res[i];
        rp[i].weight = r->region.weight / w;
        rp[i].cpi = (double)r->c.cycles / (double)r->c.instructions;
        if (which == GOLDEN) rp[i].pcs = r->pcs, rp[i].n = r->npcs;
        else if (which == GOLDEN_PICS) rp[i].pcs = r->pics, rp[i].n = r->npics;
        else if (r->nsampled && which < r->sampled[0].nprofs)
            rp[i].pcs = r->sampled[0].profs[which].pcs, rp[i].n = r->sampled[0].profs[which].npcs;
    }
    cost *c = profile_combine(rp, n, 1000.0 * project(res, n).cpi * res[0].units * RESOLUTION, out_n);
    free(rp);
    return c;
}

static json_t *lists(const cost *pcs, size_t n, const sim_result *r, const report_ctx *x)
{
    uint32_t units = r->units * RESOLUTION;
    return json_pack("{s:o, s:o}", "instructions", pcs_list_json(pcs, n, units, x), "functions",
                     functions_list_json(pcs, n, units, x));
}

/* The representatives alone (shallow copies): extra members measure the
 * spread within clusters, they do not add to their weight. */
static sim_result *representatives(const sim_result *all, size_t n_all, size_t *n)
{
    sim_result *r = malloc((n_all ? n_all : 1) * sizeof *r);
    if (!r) die("out of memory");
    *n = 0;
    for (size_t i = 0; i < n_all; i++)
        if (!all[i].has_region || !all[i].region.extra) r[(*n)++] = all[i];
    return r;
}

static json_t *interval_json(const stratified *s)
{
    if (!s->given) return json_pack("{s:n, s:s}", "interval", "why", s->why);
    return json_pack("{s:f, s:f, s:f, s:I, s:I}", "cpi", s->cpi, "low", s->lo, "high", s->hi, "clusters",
                     (json_int_t)s->clusters, "members_simulated", (json_int_t)s->members);
}

static json_t *combined_reps(const sim_result *res, size_t n, uint64_t total_insts, const report_ctx *x);

json_t *combined_json(const sim_result *all, size_t n_all, uint64_t total_insts, const report_ctx *x)
{
    size_t n;
    sim_result *res = representatives(all, n_all, &n);
    json_t *o = combined_reps(res, n, total_insts, x);
    if (o) {
        stratified s = stratify(all, n_all);
        json_object_set_new(o, "confidence_interval", interval_json(&s));
    }
    free(res);
    return o;
}

/* ProfileMe's estimates and exact counts, regions weighted. */
static json_t *combined_profileme(const sim_result *res, size_t n, const report_ctx *x)
{
    const profileme_result **r = calloc(n, sizeof *r);
    double *w = calloc(n, sizeof *w);
    uint64_t *insts = calloc(n, sizeof *insts);
    if (!r || !w || !insts) die("out of memory");
    for (size_t i = 0; i < n; i++) r[i] = res[i].profileme, w[i] = res[i].region.weight, insts[i] = res[i].c.instructions;
    json_t *o = profileme_combined_json(r, w, insts, n, x->syms, x->top);
    free(r);
    free(w);
    free(insts);
    return o;
}

static json_t *combined_reps(const sim_result *res, size_t n, uint64_t total_insts, const report_ctx *x)
{
    if (!combinable(res, n)) return NULL;
    json_t *o = json_object();
    whole p = project(res, n);
    json_object_set_new(o, "regions", json_integer((json_int_t)n));
    json_object_set_new(o, "weight", json_real(weight_sum(res, n)));
    json_object_set_new(o, "cpi", json_real(p.cpi));
    json_object_set_new(o, "ipc", json_real(1 / p.cpi));
    json_object_update_new(o, whole_json(&p, total_insts));
    if (!profiles_combinable(res, n)) return o;
    size_t m;
    cost *g = combine(res, n, GOLDEN, &m);
    /* The golden pcs carry their encodings; the sampled ones take them from it. */
    json_object_set_new(o, "profile", lists(g, m, &res[0], x));
    json_t *sampled = json_object();
    for (int k = 0; res[0].nsampled && k < res[0].sampled[0].nprofs; k++) {
        if (res[0].sampled[0].profs[k].events) continue; /* time profiles only */
        size_t ms;
        cost *s = combine(res, n, k, &ms);
        for (size_t i = 0; i < ms; i++)
            for (size_t j = 0; j < m && !s[i].bits; j++)
                if (g[j].key == s[i].key) s[i].bits = g[j].bits;
        json_object_set_new(sampled, res[0].sampled[0].profs[k].name, lists(s, ms, &res[0], x));
        free(s);
    }
    json_object_set_new(o, "sampled", sampled);
    if (res[0].profileme) json_object_set_new(o, "profileme", combined_profileme(res, n, x));
    bool pics = true;
    for (size_t i = 0; i < n; i++) pics &= res[i].pics != NULL;
    if (pics) {
        size_t mp;
        cost *c = combine(res, n, GOLDEN_PICS, &mp);
        symbolizer sym;
        symbolizer_init(&sym, x->syms, res[0].blocks, res[0].nblocks);
        json_object_set_new(o, "pics", json_pack("{s:o}", "instructions",
                                                  pics_stacks_json(c, mp, UINT16_MAX, GRAN_INSTRUCTION, &sym, &res[0],
                                                                   res[0].units * RESOLUTION, x)));
        symbolizer_free(&sym);
        free(c);
    }
    free(g);
    return o;
}

void combined_summary(FILE *f, const sim_result *all, size_t n_all, uint64_t total_insts)
{
    size_t n;
    sim_result *res = representatives(all, n_all, &n);
    if (!combinable(res, n)) {
        free(res);
        return;
    }
    whole p = project(res, n);
    fprintf(f, "\n Whole program from %zu regions (weights summing to %.4f): CPI %.4f, IPC %.4f\n", n,
            weight_sum(res, n), p.cpi, 1 / p.cpi);
    if (total_insts)
        fprintf(f, "   projected: %.0f cycles for %" PRIu64 " instructions\n", p.cpi * (double)total_insts,
                total_insts);
    fprintf(f, "   cycle stack:");
    for (int s = 0, shown = 0; s < STK_COUNT; s++)
        if (p.stack[s] >= 0.001 * p.cpi)
            fprintf(f, "%s %s %.1f%%", shown++ ? "," : "", stack_key_names[s], 100 * p.stack[s] / p.cpi);
    fprintf(f, "\n   per 1000 instructions:");
    for (int e = 0, shown = 0; e < EV_COUNT; e++)
        if (p.events[e] > 0)
            fprintf(f, "%s %s %.3f", shown++ ? "," : "", event_key_names[e], 1000 * p.events[e]);
    stratified s = stratify(all, n_all);
    if (s.given)
        fprintf(f, "\n   stratified over %zu clusters from %zu members: CPI %.4f, 95%% interval %.4f .. %.4f (±%.2f%%)\n",
                s.clusters, s.members, s.cpi, s.lo, s.hi, 100 * (s.hi - s.cpi) / s.cpi);
    else
        fprintf(f, "\n   no confidence interval: %s\n", s.why);
    free(res);
}
