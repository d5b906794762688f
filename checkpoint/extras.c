/* More members of each cluster than its representative, drawn at random, so
 * that the spread within clusters, and with it a confidence interval for the
 * estimate, can be measured without a full run (issue 12; the stratified
 * estimate is sim's, sim/combine.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "util.h"

/* Each interval's cluster, from SimPoint's .labels ("<cluster> <distance>"). */
static long long *read_labels(const char *path, size_t *n, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    long long *c = NULL;
    size_t cap = 0;
    char line[256];
    *n = 0;
    while (fgets(line, sizeof line, f)) {
        long long v;
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        if (sscanf(line, "%lld", &v) != 1 || v < 0) {
            snprintf(err, errlen, "%s:%zu: expected '<cluster> <distance>'", path, *n + 1);
            free(c);
            fclose(f);
            return NULL;
        }
        if (*n == cap && !(c = realloc(c, (cap = cap ? 2 * cap : 1024) * sizeof *c)))
            die("out of memory");
        c[(*n)++] = v;
    }
    fclose(f);
    return c;
}

/* splitmix64: the same draws on every machine for a seed. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int plan_add_extras(ckpt_plan *plan, const char *labels, int per_cluster, uint64_t seed, char *err, size_t errlen)
{
    size_t n;
    long long *label = read_labels(labels, &n, err, errlen);
    if (!label)
        return -1;
    /* The representatives' regions, copied: plan_add moves the plan's arrays. */
    size_t nrep = 0;
    for (int i = 0; i < plan->n; i++)
        nrep += (size_t)plan->points[i].nregions;
    ckpt_region *rep = malloc((nrep ? nrep : 1) * sizeof *rep);
    size_t *members = malloc((n ? n : 1) * sizeof *members);
    if (!rep || !members)
        die("out of memory");
    nrep = 0;
    for (int i = 0; i < plan->n; i++)
        for (int j = 0; j < plan->points[i].nregions; j++) {
            ckpt_region *r = &plan->points[i].regions[j];
            if (r->simpoint < 0 || (size_t)r->simpoint >= n || label[r->simpoint] != r->cluster) {
                snprintf(err, errlen, "%s: interval %lld is not in cluster %lld, as the simulation points say", labels,
                         r->simpoint, r->cluster);
                free(rep), free(members), free(label);
                return -1;
            }
            r->cluster_size = 0;
            for (size_t k = 0; k < n; k++)
                r->cluster_size += label[k] == r->cluster;
            rep[nrep++] = *r;
        }
    for (size_t i = 0; i < nrep; i++) {
        /* Members other than the representative; never the last interval, which may be partial. */
        size_t m = 0;
        for (size_t k = 0; k + 1 < n; k++)
            if (label[k] == rep[i].cluster && (long long)k != rep[i].simpoint)
                members[m++] = k;
        /* The same members for every warm-up of this representative: the seed and cluster decide. */
        uint64_t state = seed ^ ((uint64_t)rep[i].cluster * 0x2545f4914f6cdd1dULL);
        for (int e = 0; e < per_cluster && m > 0; e++) {
            size_t pick = (size_t)(next_random(&state) % m);
            uint64_t begin = (uint64_t)members[pick] * rep[i].interval;
            uint64_t warm = rep[i].warmup < begin ? rep[i].warmup : begin;
            ckpt_region x = rep[i];
            x.simpoint = (long long)members[pick];
            x.warmup = warm, x.start = begin - warm, x.extra = true;
            plan_add(plan, &x);
            members[pick] = members[--m]; /* without replacement */
        }
    }
    free(rep), free(members), free(label);
    return 0;
}
