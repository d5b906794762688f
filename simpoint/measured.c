#include "measured.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "sp_alloc.h"
#include "util.h"

static double number(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void load_one(const char *path, double *cpi, size_t n)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root && je.line < 1)
        die("%s: %s", path, je.text);
    if (!root)
        die("%s:%d: %s", path, je.line, je.text);
    json_t *mode = json_object_get(root, "mode"), *results = json_object_get(root, "results"), *r;
    if (!json_is_string(mode) || strcmp(json_string_value(mode), "regions") != 0 || !json_is_array(results))
        die("%s: not sim's results on checkpoints (\"mode\": \"regions\" and \"results\")", path);
    size_t i;
    json_array_foreach(results, i, r) {
        json_t *region = json_object_get(r, "region");
        double at = number(region, "simpoint"), insts = number(r, "instructions"), cycles = number(r, "cycles");
        if (!json_is_object(region) || !(at >= 0) || at != floor(at))
            die("%s: results[%zu]: no \"region\" with its simulation point", path, i);
        if (!(insts > 0) || !(cycles >= 0))
            die("%s: results[%zu]: no instructions and cycles (a region that ran nothing)", path, i);
        if (at >= (double)n)
            die("%s: results[%zu]: interval %.0f, but the profile has %zu intervals", path, i, at, n);
        size_t k = (size_t)at;
        double x = cycles / insts;
        if (!isnan(cpi[k]) && cpi[k] != x)
            die("%s: results[%zu]: interval %zu measured twice, CPI %g and %g (one warm-up length per point)", path,
                i, k, cpi[k], x);
        cpi[k] = x;
    }
    json_decref(root);
}

double *measured_load(const char *const *paths, size_t npaths, size_t n)
{
    double *cpi = sp_malloc((n ? n : 1) * sizeof *cpi);
    for (size_t i = 0; i < n; i++)
        cpi[i] = NAN;
    for (size_t f = 0; f < npaths; f++)
        load_one(paths[f], cpi, n);
    return cpi;
}
