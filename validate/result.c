#include "result.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whole numbers are exact in a double up to 2^53. */
#define EXACT_LIMIT 9007199254740992.0

typedef struct ctx {
    const char *path;
    size_t index;
    vd_diag *d;
} ctx;

static bool bad(const ctx *c, const char *what, const char *problem)
{
    return vd_fail(c->d, "%s: results[%zu].%s: %s", c->path, c->index, what, problem);
}

static bool get_number(const ctx *c, json_t *obj, const char *key, bool whole, double *out)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_number(v))
        return bad(c, key, v ? "not a number" : "missing");
    double x = json_number_value(v);
    if (x < 0 || !isfinite(x) || x > EXACT_LIMIT || (whole && x != floor(x)))
        return bad(c, key, whole ? "expected a whole non-negative number" : "expected a non-negative number");
    *out = x;
    return true;
}

static bool get_count(const ctx *c, json_t *obj, const char *key, uint64_t *out)
{
    double x;
    if (!get_number(c, obj, key, true, &x))
        return false;
    *out = (uint64_t)x;
    return true;
}

static char *get_string(json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? vd_strdup(s) : NULL;
}

static void add_value(vd_run *run, const char *name, double v, vd_group g)
{
    run->vals = vd_realloc(run->vals, (run->nvals + 1) * sizeof *run->vals);
    run->vals[run->nvals++] = (vd_value){vd_strdup(name), v, g};
}

/* Every member of OBJECT (stack, states or events) as a counter; returns
 * their sum in *sum. Cycle-valued groups may be fractional. */
static bool read_group(const ctx *c, vd_run *run, json_t *parent, const char *key, vd_group g, double *sum)
{
    json_t *obj = json_object_get(parent, key);
    if (!json_is_object(obj))
        return bad(c, key, obj ? "not an object" : "missing");
    *sum = 0;
    const char *name;
    json_t *v;
    json_object_foreach(obj, name, v) {
        double x;
        char what[256];
        snprintf(what, sizeof what, "%s.%s", key, name);
        if (!json_is_number(v) || (x = json_number_value(v)) < 0 || x > EXACT_LIMIT ||
            (g == VD_EVENT && x != floor(x)))
            return bad(c, what, "expected a non-negative number");
        /* The states repeat the name "computing" of the stack: keep them apart. */
        const char *stored = g == VD_STATE ? what : name;
        if (vd_run_find(run, stored))
            return bad(c, what, "the same name appears twice in the result");
        add_value(run, stored, x, g);
        *sum += x;
    }
    return true;
}

/* Sums of cycle-stack entries are compared with a relative tolerance only
 * to absorb fractional cycles printed in decimal. */
static bool same_cycles(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

static bool read_region(const ctx *c, json_t *j, vd_run *run)
{
    json_t *reg = json_object_get(j, "region");
    if (json_is_null(reg) || !reg)
        return true;
    if (!json_is_object(reg))
        return bad(c, "region", "not an object or null");
    double sp, cluster, w;
    ctx rc = *c;
    vd_region_meta *m = &run->region;
    if (!get_number(&rc, reg, "simpoint", true, &sp) || !get_number(&rc, reg, "cluster", true, &cluster) ||
        !get_number(&rc, reg, "weight", false, &w) || !get_count(&rc, reg, "interval", &m->interval) ||
        !get_count(&rc, reg, "warmup", &m->warmup) || !get_count(&rc, reg, "start", &m->start))
        return false;
    m->simpoint = (long long)sp;
    m->cluster = (long)cluster;
    m->weight = w;
    m->extra = json_is_true(json_object_get(reg, "extra"));
    run->has_region = true;
    return true;
}

static bool read_run(const ctx *c, json_t *j, vd_run *run)
{
    if (!json_is_object(j))
        return vd_fail(c->d, "%s: results[%zu]: not an object", c->path, c->index);
    run->index = c->index;
    run->program = get_string(j, "program");
    run->checkpoint = get_string(j, "checkpoint");
    run->stopped_by = get_string(j, "stopped_by");
    double insts, cycles, stack_sum, state_sum, events_sum;
    if (!get_number(c, j, "instructions", true, &insts) || !get_number(c, j, "cycles", false, &cycles) ||
        !get_count(c, j, "start", &run->start) || !read_region(c, j, run))
        return false;
    add_value(run, "instructions", insts, VD_TOP);
    add_value(run, "cycles", cycles, VD_TOP);
    json_t *secs = json_object_get(j, "seconds");
    run->seconds = json_is_number(secs) && json_number_value(secs) >= 0 ? json_number_value(secs) : NAN;
    if (!read_group(c, run, j, "stack", VD_STACK, &stack_sum) || !read_group(c, run, j, "states", VD_STATE, &state_sum) ||
        !read_group(c, run, j, "events", VD_EVENT, &events_sum))
        return false;
    if (!same_cycles(stack_sum, cycles))
        return vd_fail(c->d, "%s: results[%zu]: the cycle stack sums to %.17g cycles, not %.17g", c->path, c->index,
                       stack_sum, cycles);
    if (!same_cycles(state_sum, cycles))
        return vd_fail(c->d, "%s: results[%zu]: the states sum to %.17g cycles, not %.17g", c->path, c->index,
                       state_sum, cycles);
    json_t *warm = json_object_get(j, "warmup");
    if (json_is_object(warm)) {
        ctx wc = *c;
        run->warmup_strategy = get_string(warm, "strategy");
        if (!get_count(&wc, warm, "instructions", &run->warmup_insts))
            return false;
    }
    json_t *chunked = json_object_get(j, "chunked");
    if (json_is_object(chunked) &&
        (!get_count(c, chunked, "chunks", &run->chunked.chunks) ||
         !get_count(c, chunked, "instructions_per_chunk", &run->chunked.insts) ||
         !get_count(c, chunked, "warmup", &run->chunked.warmup)))
        return false;
    json_t *log = json_object_get(j, "interval_log");
    if (json_is_object(log)) {
        run->log_path = get_string(log, "path");
        if (!get_count(c, log, "interval", &run->log_interval))
            return false;
    }
    return true;
}

bool vd_result_load(vd_result *r, const char *path, vd_diag *d)
{
    memset(r, 0, sizeof *r);
    r->path = vd_strdup(path);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        return vd_fail(d, "%s:%d: %s", path, je.line, je.text);
    bool ok = true;
    json_t *results = json_object_get(root, "results");
    const char *tool = json_string_value(json_object_get(root, "tool"));
    if (!json_is_object(root) || !tool || strcmp(tool, "sim") != 0)
        ok = vd_fail(d, "%s: not a sim result (no \"tool\": \"sim\")", path);
    else if (!json_is_array(results) || json_array_size(results) == 0)
        ok = vd_fail(d, "%s: no \"results\"", path);
    if (ok) {
        r->mode = get_string(root, "mode");
        json_t *config = json_object_get(root, "config");
        r->digest = get_string(config, "digest");
        r->config_source = get_string(config, "source");
        r->n = json_array_size(results);
        r->runs = vd_calloc(r->n, sizeof *r->runs);
        for (size_t i = 0; ok && i < r->n; i++) {
            ctx c = {path, i, d};
            ok = read_run(&c, json_array_get(results, i), &r->runs[i]);
        }
    }
    json_decref(root);
    return ok;
}

static void run_free(vd_run *run)
{
    free(run->program);
    free(run->checkpoint);
    free(run->stopped_by);
    free(run->warmup_strategy);
    free(run->log_path);
    for (size_t i = 0; i < run->nvals; i++)
        free(run->vals[i].name);
    free(run->vals);
}

void vd_result_free(vd_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        run_free(&r->runs[i]);
    free(r->runs);
    free(r->path);
    free(r->mode);
    free(r->digest);
    free(r->config_source);
    memset(r, 0, sizeof *r);
}

const vd_value *vd_run_find(const vd_run *run, const char *name)
{
    for (size_t i = 0; i < run->nvals; i++)
        if (strcmp(run->vals[i].name, name) == 0)
            return &run->vals[i];
    return NULL;
}
