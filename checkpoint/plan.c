#include "plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckpt/ckpt_chunks.h"
#include "util.h"

void plan_add(ckpt_plan *plan, const ckpt_region *r)
{
    ckpt_point *pt = NULL;
    for (int i = 0; i < plan->n && !pt; i++)
        if (plan->points[i].start == r->start)
            pt = &plan->points[i];
    if (!pt) {
        plan->points = realloc(plan->points, (size_t)(plan->n + 1) * sizeof *plan->points);
        if (!plan->points)
            die("out of memory");
        pt = &plan->points[plan->n++];
        *pt = (ckpt_point){r->start, NULL, 0};
    }
    pt->regions = realloc(pt->regions, (size_t)(pt->nregions + 1) * sizeof *pt->regions);
    if (!pt->regions)
        die("out of memory");
    pt->regions[pt->nregions++] = *r;
}

int plan_chunks(ckpt_plan *plan, uint64_t C, uint64_t W, char *err, size_t errlen)
{
    if (ckpt_chunks_check(C, W, err, errlen)) return -1;
    plan->chunk = C, plan->chunk_warmup = W;
    return 0;
}

ckpt_point *plan_point(ckpt_plan *plan, int i)
{
    while (plan->chunk && plan->n <= i) {
        ckpt_region r = ckpt_chunk_region((uint64_t)plan->n, plan->chunk, plan->chunk_warmup);
        plan_add(plan, &r);
    }
    return i < plan->n ? &plan->points[i] : NULL;
}

static int by_start(const void *a, const void *b)
{
    uint64_t x = ((const ckpt_point *)a)->start, y = ((const ckpt_point *)b)->start;
    return (x > y) - (x < y);
}

void plan_sort(ckpt_plan *plan)
{
    qsort(plan->points, (size_t)plan->n, sizeof *plan->points, by_start);
}

void plan_free(ckpt_plan *plan)
{
    for (int i = 0; i < plan->n; i++)
        free(plan->points[i].regions);
    free(plan->points);
    memset(plan, 0, sizeof *plan);
}

/* A SimPoint output file: lines "<number> <cluster id>". */
typedef struct pair_file {
    double *value;
    long long *cluster;
    int n;
} pair_file;

static int read_pairs(const char *path, bool integral, pair_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[256];
    int lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
            continue;
        double v;
        long long c;
        char extra;
        if (sscanf(line, "%lf %lld %c", &v, &c, &extra) != 2 || c < 0 || v < 0 || (integral && v != (double)(long long)v)) {
            snprintf(err, errlen, "%s:%d: expected '<%s> <cluster>', got '%.*s'", path, lineno,
                     integral ? "interval" : "weight", (int)strcspn(line, "\r\n"), line);
            rc = -1;
            break;
        }
        out->value = realloc(out->value, (size_t)(out->n + 1) * sizeof *out->value);
        out->cluster = realloc(out->cluster, (size_t)(out->n + 1) * sizeof *out->cluster);
        if (!out->value || !out->cluster)
            die("out of memory");
        out->value[out->n] = v;
        out->cluster[out->n++] = c;
    }
    fclose(f);
    if (!rc && out->n == 0) {
        snprintf(err, errlen, "%s: no simulation points", path);
        rc = -1;
    }
    return rc;
}

static void free_pairs(pair_file *p)
{
    free(p->value);
    free(p->cluster);
}

int plan_from_simpoints(ckpt_plan *plan, const char *simpoints, const char *weights, uint64_t interval,
                        const uint64_t *warmups, int nwarmups, char *err, size_t errlen)
{
    pair_file sp, wt;
    if (read_pairs(simpoints, true, &sp, err, errlen))
        return -1;
    if (read_pairs(weights, false, &wt, err, errlen)) {
        free_pairs(&sp);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < sp.n && !rc; i++) {
        int w = -1;
        for (int j = 0; j < wt.n; j++)
            if (wt.cluster[j] == sp.cluster[i])
                w = j;
        if (w < 0) {
            snprintf(err, errlen, "%s: no weight for cluster %lld of %s", weights, sp.cluster[i], simpoints);
            rc = -1;
            break;
        }
        uint64_t begin = (uint64_t)sp.value[i] * interval;
        for (int k = 0; k < nwarmups; k++) {
            uint64_t warm = warmups[k] < begin ? warmups[k] : begin;
            ckpt_region r = {.simpoint = (long long)sp.value[i], .cluster = sp.cluster[i], .weight = wt.value[w],
                             .interval = interval, .warmup = warm, .start = begin - warm};
            plan_add(plan, &r);
        }
    }
    if (!rc && wt.n != sp.n) {
        snprintf(err, errlen, "%s has %d simulation points but %s has %d weights", simpoints, sp.n, weights, wt.n);
        rc = -1;
    }
    free_pairs(&sp);
    free_pairs(&wt);
    return rc;
}
