#include "chunk_files.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outfile.h"
#include "util.h"

void chunk_files_init(chunk_files *f, const sampling_options *o)
{
    *f = (chunk_files){.trace = o->commit_trace, .records = o->nprofilers ? o->records : NULL,
                       .pm = o->profileme ? o->pm_records : NULL};
    if (!f->trace && !f->records && !f->pm) return;
    if (asprintf(&f->dir, "%s/sim-chunk-files-XXXXXX", temp_dir()) < 0) die("out of memory");
    if (!mkdtemp(f->dir)) die("cannot create a directory in %s: %s", temp_dir(), strerror(errno));
}

char *chunk_files_path(const chunk_files *f, const char *what, size_t k)
{
    if (!f || !f->dir) return NULL;
    const char *out = !strcmp(what, "trace") ? f->trace : !strcmp(what, "records") ? f->records : f->pm;
    if (!out) return NULL;
    char *path;
    if (asprintf(&path, "%s/%s-%zu.csv", f->dir, what, k) < 0) die("out of memory");
    return path;
}

/* Where chunk k's cycles go in the stitched run: add delta (mod 2^64). */
static uint64_t *cycle_deltas(const sim_result *res, size_t n)
{
    uint64_t *d = malloc(n * sizeof *d), at = res[0].origin;
    if (!d) die("out of memory");
    for (size_t k = 0; k < n; k++) {
        d[k] = at - res[k].origin;
        at += res[k].c.cycles;
    }
    return d;
}

/* A line of chunk k's file: fields 0..nf-1 of it, split at commas; the rest
 * after them in *rest. False when it has fewer. */
static bool split(char *line, char **fields, int nf, char **rest)
{
    char *p = line;
    for (int i = 0; i < nf; i++) {
        fields[i] = p;
        char *comma = strchr(p, ',');
        if (!comma) return false;
        *comma = 0;
        p = comma + 1;
    }
    *rest = p;
    return true;
}

/* Chunk files read a record at a time (one line buffer for them all). */
typedef struct chunk_reader {
    char *path;
    FILE *in;
    char *line;
    size_t cap;
    int lineno;
} chunk_reader;

static void reader_open(chunk_reader *r, const chunk_files *f, const char *what, size_t k)
{
    r->path = chunk_files_path(f, what, k);
    r->in = fopen(r->path, "r");
    if (!r->in) die("%s: %s", r->path, strerror(errno));
    r->lineno = 0;
}

/* The next record of the open file, split into nf fields and the rest: its
 * first `header` lines are no records, and go to o when copy_header (the
 * first chunk's). False at its end, which closes it. */
static bool next_record(chunk_reader *r, int header, outfile *o, bool copy_header, char **fields, int nf,
                        char **rest, const char *what)
{
    while (getline(&r->line, &r->cap, r->in) > 0) {
        if (r->lineno++ < header) {
            if (copy_header) outfile_printf(o, "%s", r->line);
            continue;
        }
        if (!split(r->line, fields, nf, rest)) die("%s: line %d is not %s", r->path, r->lineno, what);
        return true;
    }
    fclose(r->in);
    free(r->path);
    r->in = NULL, r->path = NULL;
    return false;
}

/* cycle,run,...: the header lines once, each cycle moved. */
static void stitch_trace(const chunk_files *f, size_t n, const uint64_t *delta)
{
    outfile *o = outfile_open(f->trace);
    chunk_reader r = {0};
    for (size_t k = 0; k < n; k++) {
        char *fields[1], *rest;
        reader_open(&r, f, "trace", k);
        /* two header lines: the comment and the column names */
        while (next_record(&r, 2, o, !k, fields, 1, &rest, "a commit trace's"))
            outfile_printf(o, "%" PRIu64 ",%s", (uint64_t)strtoull(fields[0], NULL, 10) + delta[k], rest);
    }
    free(r.line);
    outfile_commit(o);
}

/* profiler,cycle,weight,...: the header once, each cycle moved, the first
 * record of each profiler in a chunk weighing also what the chunk before
 * left (stitch_profile's `left`, sim/profilers/sampler.c). */
static void stitch_records(const chunk_files *f, const sim_result *res, size_t n, const uint64_t *delta)
{
    const sampled_run *main0 = &res[0].sampled[0];
    uint64_t *left = calloc((size_t)main0->nprofs + 1, sizeof *left);
    bool *seen = calloc((size_t)main0->nprofs + 1, sizeof *seen);
    if (!left || !seen) die("out of memory");
    outfile *o = outfile_open(f->records);
    chunk_reader r = {0};
    for (size_t k = 0; k < n; k++) {
        const sampled_run *s = &res[k].sampled[0];
        memset(seen, 0, (size_t)main0->nprofs * sizeof *seen);
        char *fl[3], *rest;
        reader_open(&r, f, "records", k);
        while (next_record(&r, 1, o, !k, fl, 3, &rest, "a sample record")) {
            int p = 0;
            while (p < s->nprofs && strcmp(s->profs[p].name, fl[0])) p++;
            if (p == s->nprofs) die("%s: line %d: no profiler %s", r.path, r.lineno, fl[0]);
            uint64_t weight = (uint64_t)strtoull(fl[2], NULL, 10);
            if (!seen[p]) weight += left[p], left[p] = 0, seen[p] = true;
            outfile_printf(o, "%s,%" PRIu64 ",%" PRIu64 ",%s", fl[0], (uint64_t)strtoull(fl[1], NULL, 10) + delta[k], weight, rest);
        }
        for (int p = 0; p < s->nprofs; p++) left[p] += res[k].c.cycles - s->spanned + s->profs[p].carry;
    }
    free(r.line);
    free(left);
    free(seen);
    outfile_commit(o);
}

/* sample,member,instance,...: the header once, samples and instances
 * numbered on from the chunks before. */
static void stitch_pm(const chunk_files *f, const sim_result *res, size_t n)
{
    outfile *o = outfile_open(f->pm);
    chunk_reader r = {0};
    uint64_t samples = 0, instance = res[0].profileme->first_instance;
    for (size_t k = 0; k < n; k++) {
        const profileme_result *pm = res[k].profileme;
        char *fl[3], *rest;
        reader_open(&r, f, "pm", k);
        while (next_record(&r, 1, o, !k, fl, 3, &rest, "a ProfileMe sample"))
            outfile_printf(o, "%" PRIu64 ",%s,%" PRIu64 ",%s", (uint64_t)strtoull(fl[0], NULL, 10) + samples, fl[1],
                           (uint64_t)strtoull(fl[2], NULL, 10) - pm->first_instance + instance, rest);
        samples += pm->samples;
        instance += pm->instances;
    }
    free(r.line);
    outfile_commit(o);
}

void chunk_files_stitch(chunk_files *f, const sim_result *res, size_t n)
{
    if (!f->dir) return;
    uint64_t *delta = cycle_deltas(res, n);
    if (f->trace) stitch_trace(f, n, delta);
    if (f->records && res[0].nsampled) stitch_records(f, res, n, delta);
    if (f->pm && res[0].profileme) stitch_pm(f, res, n);
    free(delta);
    chunk_files_remove(f, n);
}

void chunk_files_remove(chunk_files *f, size_t n)
{
    if (!f->dir) return;
    const char *what[] = {"trace", "records", "pm"};
    for (size_t k = 0; k < n; k++)
        for (int w = 0; w < 3; w++) {
            char *path = chunk_files_path(f, what[w], k);
            if (path) unlink(path);
            free(path);
        }
    rmdir(f->dir);
    free(f->dir);
    f->dir = NULL;
}
