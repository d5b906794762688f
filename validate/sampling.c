#include "sampling.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Rounding of weights printed with 6 significant digits (%g) stays far
 * below this; anything above it is a different or edited file. */
#define WEIGHT_ROUNDING 1e-4
#define WEIGHT_SUM_LIMIT 0.01

static vd_point *find_cluster(vd_point *pts, size_t n, long cluster)
{
    for (size_t i = 0; i < n; i++)
        if (pts[i].cluster == cluster)
            return &pts[i];
    return NULL;
}

/* The next "<value> <cluster>" line of a SimPoint file, comments and blank
 * lines skipped: false at the end; *value NULL when the line is malformed. */
static bool next_pair(vd_lines *l, char **value, long *cluster)
{
    char *line, *f[3];
    while ((line = vd_lines_next(l)) && vd_skippable(line))
        ;
    if (!line)
        return false;
    bool well_formed = vd_split(line, 0, f, 3) == 2 && vd_parse_long(f[1], cluster) && *cluster >= 0;
    *value = well_formed ? f[0] : NULL;
    return true;
}

static bool read_simpoints(vd_sampling *s, vd_diag *d)
{
    vd_lines l;
    if (!vd_lines_open(&l, s->simpoints, d))
        return false;
    bool ok = true;
    char *value;
    long cluster;
    while (ok && next_pair(&l, &value, &cluster)) {
        uint64_t index;
        if (!value || !vd_parse_u64(value, &index)) {
            ok = vd_fail(d, "%s:%zu: expected '<interval> <cluster>'", s->simpoints, l.lineno);
        } else if (find_cluster(s->pts, s->npts, cluster)) {
            ok = vd_fail(d, "%s:%zu: a second simulation point for cluster %ld", s->simpoints, l.lineno, cluster);
        } else {
            for (size_t i = 0; i < s->npts; i++)
                if (s->pts[i].index == index)
                    ok = vd_fail(d, "%s:%zu: interval %llu is already the simulation point of cluster %ld",
                                 s->simpoints, l.lineno, (unsigned long long)index, s->pts[i].cluster);
            s->pts = vd_realloc(s->pts, (s->npts + 1) * sizeof *s->pts);
            s->pts[s->npts++] = (vd_point){.index = index, .cluster = cluster, .sp_line = l.lineno};
        }
    }
    vd_lines_close(&l);
    if (ok && s->npts == 0)
        ok = vd_fail(d, "%s: no simulation points", s->simpoints);
    return ok;
}

static bool read_weights(vd_sampling *s, vd_diag *d)
{
    vd_lines l;
    if (!vd_lines_open(&l, s->weights, d))
        return false;
    bool ok = true;
    char *value;
    long cluster;
    while (ok && next_pair(&l, &value, &cluster)) {
        double w;
        vd_point *p;
        if (!value || !vd_parse_real(value, &w) || w < 0 || w > 1)
            ok = vd_fail(d, "%s:%zu: expected '<weight> <cluster>' with a weight in [0, 1]", s->weights, l.lineno);
        else if (!(p = find_cluster(s->pts, s->npts, cluster)))
            ok = vd_fail(d, "%s:%zu: cluster %ld has a weight but no simulation point in %s", s->weights,
                         l.lineno, cluster, s->simpoints);
        else if (p->w_line)
            ok = vd_fail(d, "%s:%zu: a second weight for cluster %ld (line %zu)", s->weights, l.lineno, cluster,
                         p->w_line);
        else {
            p->raw_weight = w;
            p->w_line = l.lineno;
            s->weight_sum += w;
        }
    }
    vd_lines_close(&l);
    for (size_t i = 0; ok && i < s->npts; i++)
        if (!s->pts[i].w_line)
            ok = vd_fail(d, "%s:%zu: cluster %ld has no weight in %s", s->simpoints, s->pts[i].sp_line,
                         s->pts[i].cluster, s->weights);
    return ok;
}

static bool normalise_weights(vd_sampling *s, vd_diag *d)
{
    double off = fabs(s->weight_sum - 1);
    if (off > WEIGHT_SUM_LIMIT)
        return vd_fail(d, "%s: the weights sum to %.6g, not 1", s->weights, s->weight_sum);
    if (off > WEIGHT_ROUNDING)
        vd_warn(d, "%s: the weights sum to %.6g, not 1; renormalised", s->weights, s->weight_sum);
    for (size_t i = 0; i < s->npts; i++) {
        s->pts[i].weight = s->pts[i].raw_weight / s->weight_sum;
        if (s->pts[i].raw_weight == 0)
            vd_warn(d, "%s:%zu: cluster %ld has weight 0: its region is simulated for nothing", s->weights,
                    s->pts[i].w_line, s->pts[i].cluster);
    }
    return true;
}

static bool read_labels(vd_sampling *s, vd_diag *d)
{
    vd_lines l;
    if (!vd_lines_open(&l, s->labels, d))
        return false;
    bool ok = true;
    size_t cap = 0;
    char *line, *f[3];
    while (ok && (line = vd_lines_next(&l))) {
        if (vd_skippable(line))
            continue;
        size_t n = vd_split(line, 0, f, 3);
        long cluster;
        double dist;
        if (n < 1 || n > 2 || !vd_parse_long(f[0], &cluster) || cluster < 0 || (n == 2 && (!vd_parse_real(f[1], &dist) || dist < 0))) {
            ok = vd_fail(d, "%s:%zu: expected '<cluster> <distance>' (a distance is never negative)", s->labels,
                         l.lineno);
            break;
        }
        if (s->nlabels == cap) {
            cap = cap ? 2 * cap : 1024;
            s->label = vd_realloc(s->label, cap * sizeof *s->label);
        }
        s->label[s->nlabels++] = cluster;
    }
    vd_lines_close(&l);
    if (ok && s->nlabels == 0)
        ok = vd_fail(d, "%s: no labels", s->labels);
    for (size_t i = 0; ok && i < s->npts; i++) {
        const vd_point *p = &s->pts[i];
        if (p->index < s->nlabels && s->label[p->index] != p->cluster)
            ok = vd_fail(d, "%s:%zu: interval %llu is the simulation point of cluster %ld but %s labels it %ld",
                         s->simpoints, p->sp_line, (unsigned long long)p->index, p->cluster, s->labels,
                         s->label[p->index]);
    }
    return ok;
}

bool vd_sampling_load(vd_sampling *s, const char *simpoints, const char *weights, const char *labels,
                      uint64_t interval, vd_diag *d)
{
    memset(s, 0, sizeof *s);
    s->simpoints = vd_strdup(simpoints);
    s->weights = vd_strdup(weights);
    s->labels = labels ? vd_strdup(labels) : NULL;
    s->interval = interval;
    if (interval == 0)
        return vd_fail(d, "the interval size must be positive");
    return read_simpoints(s, d) && read_weights(s, d) && normalise_weights(s, d) && (!labels || read_labels(s, d));
}

void vd_sampling_free(vd_sampling *s)
{
    free(s->simpoints);
    free(s->weights);
    free(s->labels);
    free(s->pts);
    free(s->label);
    memset(s, 0, sizeof *s);
}

/* The simulation point at interval index, or -1. */
static long point_at(const vd_sampling *s, json_int_t index)
{
    for (size_t i = 0; i < s->npts; i++)
        if ((json_int_t)s->pts[i].index == index)
            return (long)i;
    return -1;
}

/* The checkpoints' regions are the simulation points of s, each with its
 * cluster (the members drawn besides a representative, "extra", aside). */
static bool checkpoint_regions_match(json_t *root, const vd_sampling *s, const char *path, vd_diag *d)
{
    bool *seen = vd_calloc(s->npts, sizeof *seen), ok = true;
    json_t *c, *r;
    size_t i, j;
    json_array_foreach(json_object_get(root, "checkpoints"), i, c) {
        json_array_foreach(json_object_get(c, "regions"), j, r) {
            if (!ok || json_is_true(json_object_get(r, "extra")))
                continue;
            json_int_t index = json_integer_value(json_object_get(r, "simpoint"));
            json_int_t cluster = json_integer_value(json_object_get(r, "cluster"));
            long pt = point_at(s, index);
            if (pt < 0)
                ok = vd_fail(d, "%s: checkpoints[%zu] starts interval %lld, not a simulation point of %s", path, i,
                             (long long)index, s->simpoints);
            else if (cluster != s->pts[pt].cluster)
                ok = vd_fail(d, "%s: checkpoints[%zu]: simulation point %lld is of cluster %lld, but %s says %ld", path,
                             i, (long long)index, (long long)cluster, s->simpoints, s->pts[pt].cluster);
            else
                seen[pt] = true;
        }
    }
    for (size_t k = 0; ok && k < s->npts; k++)
        if (!seen[k])
            ok = vd_fail(d, "%s: no checkpoint for simulation point %llu (cluster %ld) of %s", path,
                         (unsigned long long)s->pts[k].index, s->pts[k].cluster, s->simpoints);
    free(seen);
    return ok;
}

/* Are the checkpoints of root those of program, at s's simulation points? */
static bool checkpoints_match(json_t *root, const vd_sampling *s, const char *program, const char *path, vd_diag *d)
{
    const char *taken_of = json_string_value(json_object_get(root, "program"));
    json_int_t interval = json_integer_value(json_object_get(root, "interval"));
    if (!taken_of)
        return vd_fail(d, "%s: not a checkpoints.json (no \"program\")", path);
    if (program && strcmp(program, taken_of) != 0)
        return vd_fail(d, "%s: the checkpoints of another program (%s, not %s, which the regions ran)", path, taken_of,
                       program);
    if (interval != (json_int_t)s->interval)
        return vd_fail(d, "%s: checkpoints for intervals of %lld instructions, not the %llu given with --interval", path,
                       (long long)interval, (unsigned long long)s->interval);
    return checkpoint_regions_match(root, s, path, d);
}

bool vd_read_checkpoints(const char *path, const vd_sampling *s, const char *program, double *seconds, vd_diag *d)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        return vd_fail(d, "%s:%d: %s", path, je.line, je.text);
    json_t *ff = json_object_get(json_object_get(root, "fast_forward"), "seconds");
    json_t *wr = json_object_get(json_object_get(root, "writing"), "seconds");
    bool ok = json_is_number(ff) && json_is_number(wr) && json_number_value(ff) >= 0 && json_number_value(wr) >= 0;
    if (!ok)
        vd_fail(d, "%s: not a checkpoints.json (no fast_forward.seconds and writing.seconds)", path);
    else if ((ok = checkpoints_match(root, s, program, path, d)))
        *seconds = json_number_value(ff) + json_number_value(wr);
    json_decref(root);
    return ok;
}

/* Does the profile in root have intervals of `interval` instructions? */
static bool profile_interval_matches(json_t *root, uint64_t total, uint64_t interval, const char *path, vd_diag *d)
{
    json_t *sizes = json_object_get(root, "intervals"), *input = json_object_get(root, "input"), *e;
    size_t i;
    if (json_is_array(sizes)) { /* bbv --summary: the sizes it wrote */
        char list[256] = "";
        json_array_foreach(sizes, i, e) {
            json_int_t n = json_integer_value(json_object_get(e, "interval"));
            if ((uint64_t)n == interval)
                return true;
            size_t at = strlen(list);
            snprintf(list + at, sizeof list - at, "%s%lld", at ? ", " : "", (long long)n);
        }
        return vd_fail(d, "%s: the profile was cut into intervals of %s instructions, not the %llu given with "
                          "--interval", path, list, (unsigned long long)interval);
    }
    json_t *count = json_object_get(input, "intervals");
    if (!json_is_integer(count) || interval == 0)
        return true; /* nothing to check against */
    uint64_t n = (uint64_t)json_integer_value(count), full = total / interval, partial = total % interval != 0;
    if (n == full + partial || n == full) /* with or without the last, partial interval */
        return true;
    return vd_fail(d, "%s: %llu intervals over %llu instructions are intervals of about %llu instructions, not the "
                      "%llu given with --interval", path, (unsigned long long)n, (unsigned long long)total,
                   (unsigned long long)(n ? (total + n - 1) / n : 0), (unsigned long long)interval);
}

bool vd_read_profile_total(const char *path, uint64_t interval, uint64_t *out, double *seconds, vd_diag *d)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        return vd_fail(d, "%s:%d: %s", path, je.line, je.text);
    json_t *v = json_object_get(root, "instructions");
    json_t *input = json_object_get(root, "input");
    if (!v && input)
        v = json_object_get(input, "instructions");
    bool ok = true;
    double x = v ? json_number_value(v) : -1;
    if (!json_is_number(v) || x < 0 || x != floor(x) || x > 9007199254740992.0)
        ok = vd_fail(d, "%s: no instruction count (\"instructions\" of bbv --summary or \"input.instructions\" "
                        "of simpoint --json)", path);
    else
        *out = json_is_integer(v) ? (uint64_t)json_integer_value(v) : (uint64_t)x;
    ok = ok && (!interval || profile_interval_matches(root, *out, interval, path, d));
    json_t *wall = json_object_get(root, "wall_seconds");
    if (seconds)
        *seconds = json_is_number(wall) && json_number_value(wall) >= 0 ? json_number_value(wall) : NAN;
    json_decref(root);
    return ok;
}
