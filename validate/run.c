#include "run.h"

#include "profiles.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_out.h"
#include "plots.h"
#include "report.h"
#include "sweep_report.h"
#include "util.h"

/* The directories this run created, removed at exit when they are empty: a
 * failed run (whose outputs die() removed) leaves no directory behind. */
static char **created;
static size_t ncreated;

static void remove_empty_created(void)
{
    while (ncreated > 0) /* the deepest first */
        rmdir(created[--ncreated]);
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) == 0) {
        if (!ncreated)
            atexit(remove_empty_created);
        created = realloc(created, (ncreated + 1) * sizeof *created);
        if (!created)
            die("out of memory");
        created[ncreated++] = vd_strdup(path);
    } else if (errno != EEXIST) {
        die("cannot create %s: %s", path, strerror(errno));
    }
}

void vd_mkdirs(const char *path)
{
    char *p = vd_strdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        make_dir(p);
        *s = '/';
    }
    make_dir(p);
    free(p);
}

static char *dup_or_null(const char *s)
{
    return s ? vd_strdup(s) : NULL;
}

void vd_outputs_plan(vd_outputs *out, const vd_options *o, const char *stem)
{
    out->markdown = dup_or_null(o->markdown);
    out->json = dup_or_null(o->json);
    out->csv = dup_or_null(o->csv);
    out->plots = dup_or_null(o->plots);
    if (o->out) {
        if (!out->markdown)
            out->markdown = vd_format("%s/%s.md", o->out, stem);
        if (!out->json)
            out->json = vd_format("%s/%s.json", o->out, stem);
        if (!out->csv)
            out->csv = strcmp(stem, "report") == 0 ? vd_format("%s/", o->out) : vd_format("%s/%s", o->out, stem);
        if (!out->plots)
            out->plots = vd_format("%s/plots", o->out);
    }
    if (!out->markdown && !out->json && !out->csv && !out->plots)
        out->markdown = vd_strdup("-");
}

void vd_outputs_free(vd_outputs *out)
{
    free(out->markdown);
    free(out->json);
    free(out->csv);
    free(out->plots);
}

/* Directories for every output, before anything is written. */
static void make_dirs(const vd_options *o, const vd_outputs *out)
{
    if (o->out)
        vd_mkdirs(o->out);
    if (out->plots)
        vd_mkdirs(out->plots);
}

/* Warnings go to stderr, unless the report that lists them is on stdout. */
static bool echo_warnings(const vd_options *o, const vd_outputs *out)
{
    return !o->quiet && !(out->markdown && strcmp(out->markdown, "-") == 0);
}

int vd_run_single(const vd_options *o)
{
    vd_outputs out;
    vd_outputs_plan(&out, o, "report");
    vd_diag d = {.echo = echo_warnings(o, &out)};
    vd_full full;
    vd_sampling s;
    vd_result *regions = vd_calloc(o->nregions, sizeof *regions);
    vd_params p = o->p;
    bool ok = vd_full_load(&full, o->full, o->log, &d) &&
              vd_sampling_load(&s, o->simpoints, o->weights, o->labels, o->interval, &d);
    for (size_t i = 0; ok && i < o->nregions; i++)
        ok = vd_result_load(&regions[i], o->regions[i], &d);
    if (ok && o->profile_summary) {
        ok = vd_read_profile_total(o->profile_summary, o->interval, &p.profile_insts, &p.profile_seconds, &d);
        p.has_profile = true;
        p.profile_path = o->profile_summary;
    }
    if (ok && o->checkpoints)
        ok = vd_read_checkpoints(o->checkpoints, &s, o->nregions && regions[0].n ? regions[0].runs[0].program : NULL,
                                 &p.ckpt_seconds, &d);
    vd_analysis a;
    if (!ok || !vd_analyze(&a, &full, &s, regions, o->nregions, &p, &d))
        die("%s", d.error);
    vd_profiles prof = {0};
    if (o->nregions && !vd_profiles_compare(&prof, o->full, o->regions, o->nregions, &d))
        die("%s", d.error);
    a.profiles = &prof;

    make_dirs(o, &out);
    if (out.plots) {
        vd_gnuplot g = {0};
        vd_plots(&a, &g, out.plots, &d);
    }
    if (out.json) {
        json_t *j = vd_report_json(&a, &d);
        json_write_file(out.json, j);
        json_decref(j);
    }
    if (out.csv)
        vd_report_csv(&a, out.csv);
    if (out.markdown)
        vd_report_md(&a, &d, out.markdown);

    int status = !isnan(o->max_error) && !(fabs(vd_err(&a, 0)) <= o->max_error) ? 2 : 0;
    if (o->out) /* the reports are in files: their gist on the terminal */
        printf("%s: CPI %.6g %s against %.6g in the full run: error %s (sampling %s, warm-up %s); reports in %s/\n",
               a.name, a.predicted[0], a.has_regions ? "estimated" : "from the representatives",
               full.values[0], vd_pct(vd_err(&a, 0)), vd_pct(vd_err_sampling(&a, 0)),
               a.has_regions ? vd_pct(vd_err_warmup(&a, 0)) : "not measured", o->out);
    if (o->out && full.run->chunked.chunks)
        printf("%s: the full run was chunked (%llu chunks): its CPI is known to %s\n", a.name,
               (unsigned long long)full.run->chunked.chunks, vd_upct(vd_full_chunked_uncertainty(&full)));
    vd_outputs_free(&out);
    vd_profiles_free(&prof);
    vd_analysis_free(&a);
    for (size_t i = 0; i < o->nregions; i++)
        vd_result_free(&regions[i]);
    free(regions);
    vd_sampling_free(&s);
    vd_full_free(&full);
    vd_diag_free(&d);
    return status;
}

int vd_run_sweep(const vd_options *o)
{
    vd_outputs out;
    vd_outputs_plan(&out, o, "sweep");
    vd_diag d = {.echo = echo_warnings(o, &out)};
    vd_manifest m;
    vd_sweep sw;
    if (!vd_manifest_load(&m, o->sweep, o->full, &d) ||
        !vd_sweep_run(&sw, &m, &o->p, o->target, o->baseline_maxk, o->baseline_bic, &d))
        die("%s", d.error);
    if (sw.notes.nwarnings && d.echo)
        warn("%zu warnings over the configurations (listed in the reports)", sw.notes.nwarnings);
    make_dirs(o, &out);
    if (out.plots) {
        vd_gnuplot g = {0};
        vd_sweep_plots(&sw, &g, out.plots, &d);
        for (size_t i = 0; i < d.nwarnings; i++)
            vd_warn(&sw.notes, "%s", d.warnings[i]);
    }
    if (out.json) {
        json_t *j = vd_sweep_json(&sw);
        json_write_file(out.json, j);
        json_decref(j);
    }
    if (out.csv)
        vd_sweep_csv(&sw, out.csv);
    if (out.markdown)
        vd_sweep_md(&sw, out.markdown);

    int status = !isnan(o->max_error) && !(sw.most_accurate >= 0 && sw.cfgs[sw.most_accurate].mean_abs <= o->max_error)
                     ? 2 : 0;
    vd_outputs_free(&out);
    vd_sweep_free(&sw);
    vd_manifest_free(&m);
    vd_diag_free(&d);
    return status;
}
