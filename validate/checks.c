#include "checks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Weights in region metadata went through %g and JSON: equal to ~1e-6. */
#define WEIGHT_EQUAL 1e-5

bool vd_check_profile(const vd_full *f, const vd_params *p, vd_diag *d)
{
    if (!p->has_profile || p->profile_insts == f->insts)
        return true;
    double diff = (double)f->insts - (double)p->profile_insts;
    const char *fmt = "%s: the profile has %llu instructions but the full run %s has %llu (%+.0f, %+.4g%%)%s";
    if (!p->allow_mismatch)
        return vd_fail(d, fmt, p->profile_path, (unsigned long long)p->profile_insts, f->res.path,
                       (unsigned long long)f->insts, diff, 100 * diff / (double)p->profile_insts,
                       "; they must agree exactly: the two runs saw something different (arguments, --env, "
                       "standard input, the files they read, or another build of the program; not its path nor the "
                       "directory it ran in, which the guest never sees) (--allow-mismatch to go on)");
    vd_warn(d, fmt, p->profile_path, (unsigned long long)p->profile_insts, f->res.path, (unsigned long long)f->insts,
            diff, 100 * diff / (double)p->profile_insts, "");
    return true;
}

bool vd_check_sampling(const vd_sampling *s, const vd_ivals *iv, vd_diag *d)
{
    double last = vd_ival_len(iv, iv->n - 1);
    bool partial = last < (double)s->interval;
    for (size_t i = 0; i < s->npts; i++) {
        const vd_point *pt = &s->pts[i];
        if (pt->index >= iv->n)
            return vd_fail(d, "%s:%zu: interval %llu is past the end of the full run (%zu intervals of %llu)",
                           s->simpoints, pt->sp_line, (unsigned long long)pt->index, iv->n,
                           (unsigned long long)s->interval);
        if (partial && pt->index == iv->n - 1)
            vd_warn(d, "%s:%zu: the simulation point of cluster %ld is the last, partial interval (%.0f instructions)",
                    s->simpoints, pt->sp_line, pt->cluster, last);
    }
    if (!s->labels || s->nlabels == iv->n)
        return true;
    if (partial && s->nlabels == iv->n - 1) {
        vd_warn(d, "%s: no label for the last, partial interval (%.0f instructions; profiled with --drop-partial?): "
                   "it belongs to no cluster",
                s->labels, last);
        return true;
    }
    return vd_fail(d, "%s: %zu labels, but the full run has %zu intervals of %llu instructions", s->labels, s->nlabels,
                   iv->n, (unsigned long long)s->interval);
}

static long point_of(const vd_sampling *s, long long index)
{
    for (size_t i = 0; i < s->npts; i++)
        if ((long long)s->pts[i].index == index)
            return (long)i;
    return -1;
}

/* A mismatch that --allow-mismatch turns into a warning. */
static bool mismatch(const vd_params *p, vd_diag *d, const char *what)
{
    if (!p->allow_mismatch)
        return vd_fail(d, "%s (--allow-mismatch to go on)", what);
    vd_warn(d, "%s", what);
    return true;
}

static bool check_run(const vd_full *f, const vd_sampling *s, const vd_ivals *iv, const vd_result *file,
                      const vd_run *run, const vd_point *pt, bool reweighted, vd_diag *d)
{
    const char *path = file->path;
    size_t i = run->index;
    const vd_region_meta *m = &run->region;
    uint64_t begin = pt->index * s->interval;
    double len = vd_ival_len(iv, pt->index);
    const vd_value *insts = vd_run_find(run, "instructions");
    if (m->cluster != pt->cluster)
        return vd_fail(d, "%s: results[%zu]: simulation point %llu is of cluster %ld, but %s says %ld", path, i,
                       (unsigned long long)pt->index, m->cluster, s->simpoints, pt->cluster);
    if (!reweighted && fabs(m->weight - pt->raw_weight) > WEIGHT_EQUAL)
        return vd_fail(d, "%s: results[%zu]: cluster %ld has weight %g, but %s says %g", path, i, m->cluster,
                       m->weight, s->weights, pt->raw_weight);
    if (m->interval != s->interval)
        return vd_fail(d, "%s: results[%zu]: regions of %llu instructions, but the interval size is %llu", path, i,
                       (unsigned long long)m->interval, (unsigned long long)s->interval);
    if (run->start != begin)
        return vd_fail(d, "%s: results[%zu]: measured from instruction %llu, but interval %llu begins at %llu", path,
                       i, (unsigned long long)run->start, (unsigned long long)pt->index, (unsigned long long)begin);
    if (run->stopped_by && strcmp(run->stopped_by, "fault") == 0)
        return vd_fail(d, "%s: results[%zu]: the region stopped on a fault", path, i);
    if (insts->value != len)
        return vd_fail(d, "%s: results[%zu]: ran %.0f instructions, but interval %llu has %.0f (stopped by %s)", path,
                       i, insts->value, (unsigned long long)pt->index, len, run->stopped_by ? run->stopped_by : "?");
    for (size_t c = 0; c < f->log.ncounters; c++)
        if (!vd_run_find(run, f->log.names[c]))
            return vd_fail(d, "%s: results[%zu]: no counter '%s' (the full run's log has it)", path, i,
                           f->log.names[c]);
    const char *ws = run->warmup_strategy;
    if (ws && (strcmp(ws, "detailed") == 0 || strcmp(ws, "functional") == 0) && run->warmup_insts != m->warmup)
        vd_warn(d, "%s: results[%zu]: %llu warm-up instructions planned, %llu run", path, i,
                (unsigned long long)m->warmup, (unsigned long long)run->warmup_insts);
    return true;
}

static bool check_file(const vd_full *f, const vd_result *file, const vd_params *p, vd_diag *d)
{
    if (!file->mode || strcmp(file->mode, "regions") != 0)
        return vd_fail(d, "%s: not region results (expected \"mode\": \"regions\")", file->path);
    if (f->res.digest && file->digest && strcmp(f->res.digest, file->digest) != 0) {
        char *what = vd_format("%s: core configuration %s, but the full run %s used %s", file->path, file->digest,
                               f->res.path, f->res.digest);
        bool ok = mismatch(p, d, what);
        free(what);
        if (!ok)
            return false;
    }
    const char *prog = f->run->program;
    for (size_t i = 0; i < file->n; i++) {
        const char *rp = file->runs[i].program;
        if (prog && rp && strcmp(prog, rp) != 0) {
            vd_warn(d, "%s: results[%zu]: program %s, but the full run ran %s", file->path, i, rp, prog);
            break;
        }
    }
    return true;
}

bool vd_match_regions(const vd_full *f, const vd_sampling *s, const vd_ivals *iv, const vd_result *files,
                      size_t nfiles, const vd_params *p, const vd_run **match, vd_diag *d)
{
    memset(match, 0, s->npts * sizeof *match);
    for (size_t k = 0; k < nfiles; k++) {
        const vd_result *file = &files[k];
        if (!check_file(f, file, p, d))
            return false;
        for (size_t i = 0; i < file->n; i++) {
            const vd_run *run = &file->runs[i];
            if (!run->has_region)
                return vd_fail(d, "%s: results[%zu]: no \"region\" (not a simulation point)", file->path, i);
            if (run->region.extra)
                continue; /* it measured its cluster's spread; the representative stands for the cluster */
            long pt = point_of(s, run->region.simpoint);
            if (pt < 0)
                return vd_fail(d, "%s: results[%zu]: interval %lld is not a simulation point of %s", file->path, i,
                               run->region.simpoint, s->simpoints);
            if (match[pt])
                return vd_fail(d, "%s: results[%zu]: a second result for simulation point %lld", file->path, i,
                               run->region.simpoint);
            if (!check_run(f, s, iv, file, run, &s->pts[pt], p->reweighted, d))
                return false;
            match[pt] = run;
        }
    }
    for (size_t i = 0; i < s->npts; i++)
        if (!match[i])
            return vd_fail(d, "%s:%zu: simulation point %llu (cluster %ld) has no region result", s->simpoints,
                           s->pts[i].sp_line, (unsigned long long)s->pts[i].index, s->pts[i].cluster);
    return true;
}
