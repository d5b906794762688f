#include "full.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text.h"

/* The log as named in the result: relative names are tried as given (sim's
 * working directory) and then beside the result file. */
static char *find_log(const vd_full *f, const char *json)
{
    const char *given = f->run->log_path;
    if (given[0] == '/' || access(given, R_OK) == 0)
        return vd_strdup(given);
    char *dir = vd_dirname(json);
    char *beside = vd_resolve(dir, given);
    if (access(beside, R_OK) != 0) {
        free(beside);
        beside = vd_resolve(dir, vd_basename(given));
    }
    free(dir);
    return beside;
}

static bool same(double a, double b, bool exact)
{
    return exact ? a == b : fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

/* Every column adds up to the result's total; stack columns to the cycles of each row. */
static bool check_sums(vd_full *f, vd_diag *d)
{
    const vd_log *log = &f->log;
    f->groups = vd_calloc(log->ncounters, sizeof *f->groups);
    for (size_t c = 0; c < log->ncounters; c++) {
        const vd_value *v = vd_run_find(f->run, log->names[c]);
        if (!v || v->group == VD_STATE)
            return vd_fail(d, "%s:1: column '%s' is not a counter of the full run's result %s", log->path,
                           log->names[c], f->res.path);
        f->groups[c] = v->group;
    }
    for (size_t c = 0; c < log->ncounters; c++) {
        const vd_value *v = vd_run_find(f->run, log->names[c]);
        if (!same(log->totals[c], v->value, c == 0))
            return vd_fail(d, "%s: %s adds up to %.17g over the log but the full run's result says %.17g",
                           log->path, log->names[c], log->totals[c], v->value);
    }
    for (size_t r = 0; r < log->nrows; r++) {
        const double *row = vd_log_row(log, r);
        double stack = 0;
        for (size_t c = 0; c < log->ncounters; c++)
            stack += f->groups[c] == VD_STACK ? row[c] : 0;
        if (!same(stack, row[1], false))
            return vd_fail(d, "%s:%zu: the cycle stack sums to %.17g cycles, not %.17g", log->path, r + 2, stack,
                           row[1]);
    }
    return true;
}

bool vd_full_load(vd_full *f, const char *json, const char *log_path, vd_diag *d)
{
    memset(f, 0, sizeof *f);
    if (!vd_result_load(&f->res, json, d))
        return false;
    if (!f->res.mode || strcmp(f->res.mode, "full") != 0 || f->res.n != 1)
        return vd_fail(d, "%s: not a full run (expected \"mode\": \"full\" and one result)", json);
    f->run = &f->res.runs[0];
    if (!log_path && !f->run->log_path)
        return vd_fail(d, "%s: no interval_log (run sim --full with --interval-log, or give --log)", json);
    char *path = log_path ? vd_strdup(log_path) : find_log(f, json);
    bool ok = vd_log_load(&f->log, path, f->run->log_interval, d);
    free(path);
    if (!ok || !check_sums(f, d))
        return false;
    if (!f->run->stopped_by || strcmp(f->run->stopped_by, "exit") != 0)
        vd_warn(d, "%s: the full run stopped by '%s', not at the program's exit: it is not the whole program",
                json, f->run->stopped_by ? f->run->stopped_by : "?");
    f->insts = (uint64_t)f->log.totals[0];
    f->cycles = f->log.totals[1];
    vd_metrics_init(&f->ms, f->log.names, f->groups, f->log.ncounters);
    f->values = vd_malloc(f->ms.n * sizeof *f->values);
    double one = 1;
    const double *totals = f->log.totals;
    vd_extrapolate(&f->ms, 1, &one, &totals, f->values);
    return true;
}

void vd_full_free(vd_full *f)
{
    vd_result_free(&f->res);
    vd_log_free(&f->log);
    vd_metrics_free(&f->ms);
    free(f->groups);
    free(f->values);
    memset(f, 0, sizeof *f);
}

double vd_full_chunked_uncertainty(const vd_full *f)
{
    uint64_t chunks = f->run->chunked.chunks;
    return chunks > 1 && f->insts ? (double)(chunks - 1) * VD_CHUNK_BOUNDARY_INSTS / (double)f->insts : 0;
}
