#include "combine.h"

#include <stdlib.h>
#include <string.h>

#include "report_pics.h"
#include "util.h"

static bool combinable(const sim_result *res, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!res[i].pcs || !res[i].has_region || !res[i].c.instructions) return false;
        k++;
    }
    return k >= 2;
}

static double weight_sum(const sim_result *res, size_t n)
{
    double w = 0;
    for (size_t i = 0; i < n; i++) w += res[i].region.weight;
    return w;
}

static double projected_cpi(const sim_result *res, size_t n)
{
    double w = weight_sum(res, n), cpi = 0;
    for (size_t i = 0; i < n; i++) cpi += res[i].region.weight / w * (double)res[i].c.cycles / (double)res[i].c.instructions;
    return cpi;
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
    cost *c = profile_combine(rp, n, 1000.0 * projected_cpi(res, n) * res[0].units * RESOLUTION, out_n);
    free(rp);
    return c;
}

static json_t *lists(const cost *pcs, size_t n, const sim_result *r, const report_ctx *x)
{
    uint32_t units = r->units * RESOLUTION;
    return json_pack("{s:o, s:o}", "instructions", pcs_list_json(pcs, n, units, x), "functions",
                     functions_list_json(pcs, n, units, x));
}

json_t *combined_json(const sim_result *res, size_t n, const report_ctx *x)
{
    if (!combinable(res, n)) return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "regions", json_integer((json_int_t)n));
    json_object_set_new(o, "weight", json_real(weight_sum(res, n)));
    json_object_set_new(o, "cpi", json_real(projected_cpi(res, n)));
    json_object_set_new(o, "ipc", json_real(1 / projected_cpi(res, n)));
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

void combined_summary(FILE *f, const sim_result *res, size_t n)
{
    if (!combinable(res, n)) return;
    double cpi = projected_cpi(res, n);
    fprintf(f, "\n Whole program from %zu regions (weights summing to %.4f): CPI %.4f, IPC %.4f\n", n,
            weight_sum(res, n), cpi, 1 / cpi);
}
