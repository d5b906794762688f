#include "stratify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

typedef struct stratum {
    long long id;
    double weight;         /* W_c: the representative's */
    uint64_t size;         /* N_c: intervals in the cluster (0: not known) */
    double sum, sum_sq;    /* of the sampled members' CPI */
    size_t n;
} stratum;

/* The cluster's stratum, added when new (s has room for one per region). */
static stratum *find(stratum *s, size_t *ns, long long id)
{
    for (size_t i = 0; i < *ns; i++)
        if (s[i].id == id) return &s[i];
    s[*ns] = (stratum){.id = id};
    return &s[(*ns)++];
}

stratified stratify(const sim_result *res, size_t n)
{
    stratified r = {0};
    stratum *s = calloc(n ? n : 1, sizeof *s);
    if (!s) die("out of memory");
    size_t ns = 0;
    for (size_t i = 0; i < n; i++) {
        const sim_result *x = &res[i];
        if (!x->has_region || !x->c.instructions) continue;
        stratum *c = find(s, &ns, x->region.cluster);
        double cpi = (double)x->c.cycles / (double)x->c.instructions;
        c->sum += cpi, c->sum_sq += cpi * cpi, c->n++;
        if (!x->region.extra) c->weight = x->region.weight;
        if (x->region.cluster_size) c->size = x->region.cluster_size;
        r.members++;
    }
    double wsum = 0, est = 0, var = 0;
    for (size_t i = 0; i < ns; i++) wsum += s[i].weight;
    for (size_t i = 0; i < ns && wsum > 0; i++) {
        const stratum *c = &s[i];
        double w = c->weight / wsum, mean = c->sum / (double)c->n;
        est += w * mean;
        if (c->n < 2 && c->size != 1 && !*r.why)
            snprintf(r.why, sizeof r.why, "cluster %lld has one member simulated: its spread is unknown (checkpoint "
                     "--extra-per-cluster N simulates more)", c->id);
        if (c->n >= 2) {
            double s2 = (c->sum_sq - c->sum * mean) / (double)(c->n - 1);
            double fpc = c->size ? fmax(0.0, 1.0 - (double)c->n / (double)c->size) : 1.0;
            var += w * w * fpc * fmax(s2, 0.0) / (double)c->n;
        }
    }
    r.clusters = ns;
    r.cpi = est;
    r.given = wsum > 0 && !*r.why;
    if (wsum <= 0)
        snprintf(r.why, sizeof r.why, "no region carries a SimPoint weight");
    r.lo = est - 1.959964 * sqrt(var);
    r.hi = est + 1.959964 * sqrt(var);
    free(s);
    return r;
}
