/* Shared by validate's unit tests: fake sim outputs, .simpoints/.weights/
 * .labels files and the validation of them, in a per-test temporary directory. */
#ifndef TEST_VALIDATE_H
#define TEST_VALIDATE_H

#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../validate/analysis.h"
#include "../../validate/diag.h"
#include "../../validate/full.h"
#include "../../validate/sampling.h"

static char vt_dir[64];

static inline void vt_setup(void)
{
    strcpy(vt_dir, "/tmp/vd_unit_XXXXXX");
    cr_assert_not_null(mkdtemp(vt_dir));
}

static inline void vt_teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", vt_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", vt_dir);
}

/* DIR/NAME in a rotating buffer. */
static inline const char *vt_path(const char *name)
{
    static char ring[8][256];
    static unsigned next;
    char *p = ring[next++ % 8];
    snprintf(p, 256, "%s/%s", vt_dir, name);
    return p;
}

static inline void vt_write(const char *name, const char *text)
{
    FILE *f = fopen(vt_path(name), "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* A sim result: instructions, cycles (half computing, the rest stalled on
 * DRAM) and branch mispredicts; REGION may be NULL. */
static inline json_t *vt_result(double insts, double cycles, double mispredicts, uint64_t start, json_t *region)
{
    double computing = floor(insts / 2), stalled = cycles - computing;
    return json_pack("{s:s,s:o,s:o,s:{s:s,s:i,s:i},s:I,s:f,s:f,s:{s:f,s:f},s:{s:f,s:f,s:i,s:i},s:{s:f},s:s}",
                     "program", "/prog", "checkpoint", json_null(), "region", region ? region : json_null(), "warmup",
                     "strategy", "detailed", "instructions", 0, "cycles", 0, "start", (json_int_t)start,
                     "instructions", insts, "cycles", cycles, "stack", "computing", computing, "stalled_load_dram",
                     stalled, "states", "computing", computing, "stalled", stalled, "flushed", 0, "drained", 0,
                     "events", "branch_mispredicts", mispredicts, "stopped_by", region ? "limit" : "exit");
}

static inline void vt_dump(const char *name, const char *mode, json_t *results)
{
    json_t *root = json_pack("{s:s,s:i,s:s,s:{s:s,s:s},s:o}", "tool", "sim", "version", 1, "mode", mode, "config",
                             "source", "test.ini", "digest", "0123456789abcdef", "results", results);
    cr_assert_eq(json_dump_file(root, vt_path(name), JSON_INDENT(1)), 0);
    json_decref(root);
}

/* STEM.csv and STEM.json: a full run of N rows of G instructions (the last
 * one LAST, or G when 0) with the given cycles and mispredicts. */
static inline void vt_full_named(const char *stem, uint64_t G, size_t n, uint64_t last, const double *cycles,
                                 const double *mispredicts)
{
    char csv[128], json[128];
    snprintf(csv, sizeof csv, "%s.csv", stem);
    snprintf(json, sizeof json, "%s.json", stem);
    FILE *f = fopen(vt_path(csv), "w");
    cr_assert_not_null(f);
    fprintf(f, "interval,start,instructions,cycles,computing,stalled_load_dram,branch_mispredicts\n");
    double insts = 0, cyc = 0, mis = 0;
    for (size_t i = 0; i < n; i++) {
        double len = i == n - 1 && last ? (double)last : (double)G, computing = floor(len / 2);
        fprintf(f, "%zu,%.0f,%.0f,%.17g,%.0f,%.17g,%.0f\n", i, insts, len, cycles[i], computing, cycles[i] - computing,
                mispredicts ? mispredicts[i] : 0);
        insts += len;
        cyc += cycles[i];
        mis += mispredicts ? mispredicts[i] : 0;
    }
    fclose(f);
    json_t *r = vt_result(insts, cyc, mis, 0, NULL);
    json_object_set_new(r, "interval_log", json_pack("{s:s,s:I}", "path", csv, "interval", (json_int_t)G));
    json_t *results = json_array();
    json_array_append_new(results, r);
    vt_dump(json, "full", results);
}

static inline void vt_full(uint64_t G, size_t n, uint64_t last, const double *cycles, const double *mispredicts)
{
    vt_full_named("full", G, n, last, cycles, mispredicts);
}

/* One region result of simulation point INDEX. */
static inline json_t *vt_region(uint64_t index, long cluster, double weight, uint64_t interval, double insts, double cycles,
                         double mispredicts)
{
    json_t *region = json_pack("{s:I,s:i,s:f,s:I,s:i,s:I}", "simpoint", (json_int_t)index, "cluster", (int)cluster,
                               "weight", weight, "interval", (json_int_t)interval, "warmup", 0, "start",
                               (json_int_t)(index * interval));
    return vt_result(insts, cycles, mispredicts, index * interval, region);
}

/* A full-run log of equal intervals with these CPIs (G = 1000), labels
 * CLUSTERS, and simulation points REPS[k] of cluster k, weighted by count. */
static inline void vt_program(size_t n, const double *cpi, const long *clusters, size_t k, const uint64_t *reps)
{
    double *cycles = malloc(n * sizeof *cycles);
    for (size_t i = 0; i < n; i++)
        cycles[i] = 1000 * cpi[i];
    vt_full(1000, n, 0, cycles, NULL);
    free(cycles);
    FILE *sp = fopen(vt_path("p.simpoints"), "w"), *w = fopen(vt_path("p.weights"), "w"),
         *l = fopen(vt_path("p.labels"), "w");
    for (size_t c = 0; c < k; c++) {
        size_t members = 0;
        for (size_t i = 0; i < n; i++)
            members += clusters[i] == (long)c;
        fprintf(sp, "%llu %zu\n", (unsigned long long)reps[c], c);
        fprintf(w, "%.17g %zu\n", (double)members / (double)n, c);
    }
    for (size_t i = 0; i < n; i++)
        fprintf(l, "%ld 0.5\n", clusters[i]);
    fclose(sp);
    fclose(w);
    fclose(l);
}

/* Everything loaded and analysed; the error, if any, in D. */
typedef struct vt_run {
    vd_full full;
    vd_sampling s;
    vd_result regions;
    vd_analysis a;
    vd_diag d;
    bool ok;
} vt_run;

static inline void vt_analyze(vt_run *r, const char *labels, uint64_t interval, const char *regions, const vd_params *p)
{
    memset(r, 0, sizeof *r);
    vd_params defaults;
    vd_params_defaults(&defaults);
    r->ok = vd_full_load(&r->full, vt_path("full.json"), NULL, &r->d) &&
            vd_sampling_load(&r->s, vt_path("p.simpoints"), vt_path("p.weights"), labels ? vt_path(labels) : NULL,
                             interval, &r->d) &&
            (!regions || vd_result_load(&r->regions, vt_path(regions), &r->d)) &&
            vd_analyze(&r->a, &r->full, &r->s, &r->regions, regions ? 1 : 0, p ? p : &defaults, &r->d);
}

static inline void vt_free(vt_run *r)
{
    vd_analysis_free(&r->a);
    vd_result_free(&r->regions);
    vd_sampling_free(&r->s);
    vd_full_free(&r->full);
    vd_diag_free(&r->d);
}

/* The error recorded in D contains WHAT. */
#define vt_assert_error(d, what)                                                                                       \
    do {                                                                                                               \
        cr_assert_not_null((d)->error, "expected an error containing '%s'", what);                                    \
        cr_assert(strstr((d)->error, what), "error '%s' lacks '%s'", (d)->error, what);                              \
    } while (0)

static inline bool vt_warned(const vd_diag *d, const char *what)
{
    for (size_t i = 0; i < d->nwarnings; i++)
        if (strstr(d->warnings[i], what))
            return true;
    return false;
}

#endif
