#include "run.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "exec/exec.h"
#include "outfile.h"
#include "progress.h"
#include "util.h"

const char *const warmup_mode_names[WARMUP_MODES] = {"none", "detailed", "functional", "checkpoint", "checkpoint+detailed"};

static bool detailed_warmup(enum warmup_mode m) { return m == WARMUP_DETAILED || m == WARMUP_CHECKPOINT_DETAILED; }

void sim_result_free(sim_result *r)
{
    free(r->program);
    free(r->message);
    free(r->pcs);
    free(r->blocks);
    for (int i = 0; i < r->nsampled; i++) sampled_run_free(&r->sampled[i]);
    free(r->sampled);
    free(r->pics);
    free(r->no_event_stalls);
    call_profile_free(r->calls);
    free(r->calls);
    if (r->profileme) profileme_result_free(r->profileme);
    free(r->profileme);
    free(r->graph);
    free(r->log.rows);
    *r = (sim_result){0};
}

/* The measured part of a run ends: copy out totals and attribution. */
static void collect(sim_result *r, sim_core *c, const counters *begin, const rv_proc *p)
{
    counters_sub(&r->c, &c->ctr, begin);
    r->pcs = cost_sorted(&c->by_pc, &r->npcs);
    r->blocks = cost_sorted(&c->by_block, &r->nblocks);
    r->units = c->units;
    r->program = strdup(p->os.exe_path);
    r->exit_status = p->exit_status;
    if (p->stop == RV_STOP_EXIT) r->stopped_by = "exit";
    else if (p->stop == RV_STOP_SIGNAL) r->stopped_by = "fault", r->message = strdup(p->message);
    else r->stopped_by = "limit";
}

void interval_log_header(outfile *o)
{
    outfile_printf(o, "interval,start,instructions,cycles");
    for (int i = 0; i < STK_COUNT; i++) outfile_printf(o, ",%s", stack_key_names[i]);
    for (int i = 0; i < EV_COUNT; i++) outfile_printf(o, ",%s", event_key_names[i]);
    outfile_printf(o, "\n");
}

void interval_log_row(outfile *o, uint64_t index, uint64_t start, const counters *d)
{
    outfile_printf(o, "%llu,%llu,%llu,%llu", (unsigned long long)index, (unsigned long long)start,
                   (unsigned long long)d->instructions, (unsigned long long)d->cycles);
    for (int i = 0; i < STK_COUNT; i++) outfile_printf(o, ",%llu", (unsigned long long)d->stack[i]);
    for (int i = 0; i < EV_COUNT; i++) outfile_printf(o, ",%llu", (unsigned long long)d->events[i]);
    outfile_printf(o, "\n");
}

void interval_rows_append(interval_rows *l, const counters *row)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        if (!(l->rows = realloc(l->rows, l->cap * sizeof *l->rows))) die("out of memory");
    }
    l->rows[l->n++] = *row;
}

/* Where the rows of a logged run go: written as they come (--full), or kept
 * (a chunk's, stitched later). */
typedef struct log_sink {
    outfile *csv;
    interval_rows *keep;
    uint64_t index, start;
} log_sink;

static void sink_row(log_sink *s, const counters *d)
{
    if (s->csv) interval_log_row(s->csv, s->index, s->start, d);
    if (s->keep) interval_rows_append(s->keep, d);
    s->index++;
    s->start += d->instructions;
}

/* Simulate until instruction `end` commits or the program ends, pausing
 * at every multiple of G for a log row (pauses never change the run). */
static void run_logged(sim_core *c, uint64_t end, uint64_t G, log_sink *sink, progress *prog)
{
    counters last = c->ctr;
    while (!core_done(c) && core_committed(c) < end) {
        uint64_t target = (core_committed(c) / G + 1) * G;
        if (target > end) target = end;
        core_run(c, target);
        if (core_committed(c) == target || core_done(c)) {
            counters d;
            counters_sub(&d, &c->ctr, &last);
            if (d.instructions) sink_row(sink, &d);
            last = c->ctr;
        }
        if (prog) progress_update(prog, core_committed(c));
    }
}

void sim_full(const sim_options *o, int argc, char **argv, sim_result *r)
{
    rv_proc p;
    rv_elf_info info;
    guest_cli_start(&p, &info, &o->guest, argc, argv);
    int out_fd = guest_cli_redirect_output(&p, o->guest_output);
    uarch ua;
    uarch_init(&ua, &o->cfg);
    sim_core *c = core_new(&o->cfg, &ua, &p);
    uint64_t end = o->max_insts ? p.cpu.icount + o->max_insts : UINT64_MAX;
    core_set_fetch_limit(c, end);
    core_set_ideal_loads(c, o->ideal_loads, o->nideal_loads);
    outfile *log = o->interval_log ? outfile_open(o->interval_log) : NULL;
    if (log) interval_log_header(log);
    profiling prof;
    profiling_attach(&prof, &o->sampling, c);
    profiling_begin(&prof, c->now);

    progress prog;
    progress_init(&prog, "sim --full", o->progress, o->max_insts ? o->max_insts : o->total_insts);
    counters begin = c->ctr;
    r->origin = c->now;
    log_sink sink = {.csv = log};
    double t0 = now_seconds();
    run_logged(c, end, o->log_interval, &sink, &prog);
    r->seconds = now_seconds() - t0;
    core_close_cycle(c);
    progress_finish(&prog, core_committed(c));
    profiling_finish(&prof, r);
    if (log) outfile_commit(log);
    collect(r, c, &begin, &p);
    r->start = 0;
    r->warmup = WARMUP_NONE;
    guest_cli_report_stop(&p);
    core_free(c);
    uarch_destroy(&ua);
    rv_proc_destroy(&p);
    if (out_fd >= 0) close(out_fd);
}

/* Warm state stored by checkpoint --warm. */
static int restore_warm_state(const char *path, uarch *ua, char *err, size_t errlen)
{
    ustate s = {0};
    if (ckpt_read_warm(path, (void **)&s.data, &s.len, err, errlen)) return -1;
    char why[256];
    bool ok = uarch_restore(ua, &s, why, sizeof why);
    if (!ok) snprintf(err, errlen, "%s: %s", path, why);
    ustate_free(&s);
    return ok ? 0 : -1;
}

/* Where region job j's guest output goes: 'none' (the default), the file
 * given when there is one job, or FILE.j when several run at once. */
static char *region_output(const sim_options *o, size_t j, size_t njobs)
{
    const char *target = o->guest_output ? o->guest_output : "none";
    char *path;
    if (strcmp(target, "none") == 0 || njobs == 1) path = strdup(target);
    else if (asprintf(&path, "%s.%zu", target, j) < 0) path = NULL;
    if (!path) die("out of memory");
    return path;
}

/* The measured region of checkpoint region `region` (meta's, or the whole
 * checkpoint): [begin, end) in instruction counts, from icount on. */
static void region_bounds(const sim_options *o, const ckpt_region *rg, uint64_t icount, uint64_t *begin, uint64_t *end)
{
    *begin = icount + (rg ? rg->warmup : 0);
    *end = rg && rg->interval ? *begin + rg->interval : (o->max_insts ? *begin + o->max_insts : UINT64_MAX);
    if (o->max_insts && *end > *begin + o->max_insts) *end = *begin + o->max_insts;
    if (o->region_to_end) *end = UINT64_MAX;
}

/* Bring p to `begin` with ua warmed as o says (the detailed warm-up is the
 * core's own): from shared warm state already at begin, from the
 * checkpoint's warm state and then functionally, functionally, or cold. */
static int warm_up(const sim_options *o, const char *path, rv_proc *p, uarch *ua, uint64_t begin, sim_result *r,
                   char *err, size_t errlen)
{
    if (o->warm_state) {
        ustate s = {.data = o->warm_state->data, .len = o->warm_state->len}; /* a read cursor of its own */
        char why[256];
        if (!uarch_restore(ua, &s, why, sizeof why)) {
            snprintf(err, errlen, "%s: shared warm state: %s", path, why);
            return -1;
        }
        r->warmup_insts = begin > p->cpu.icount ? begin - p->cpu.icount : 0;
        rv_run(p, begin, NULL, NULL);
        return 0;
    }
    bool stored = o->warmup == WARMUP_CHECKPOINT || o->warmup == WARMUP_CHECKPOINT_DETAILED;
    if (stored && restore_warm_state(path, ua, err, errlen)) return -1;
    if (o->warmup == WARMUP_FUNCTIONAL || o->warmup == WARMUP_CHECKPOINT) r->warmup_insts = uarch_warm_run(ua, p, begin);
    else if (o->warmup == WARMUP_NONE) rv_run(p, begin, NULL, NULL);
    return 0;
}

bool sim_region_warm(const sim_options *o, const char *path, int region, ustate *out)
{
    rv_proc p;
    ckpt_meta meta;
    rv_proc_options po = guest_cli_proc_options(&o->guest);
    po.exe = o->program;
    char err[512];
    uarch ua = {0};
    sim_options cold = *o;
    cold.warm_state = NULL;
    bool ok = !ckpt_restore(&p, path, &po, &meta, err, sizeof err);
    int out_fd = ok ? guest_cli_redirect_output(&p, "none") : -1;
    if (ok) {
        uarch_init(&ua, &o->cfg);
        uint64_t begin, end;
        region_bounds(o, meta.nregions ? &meta.regions[region] : NULL, p.cpu.icount, &begin, &end);
        sim_result scratch = {0};
        ok = !warm_up(&cold, path, &p, &ua, begin, &scratch, err, sizeof err);
        if (ok) uarch_save(&ua, out);
        uarch_destroy(&ua);
    }
    rv_proc_destroy(&p);
    if (out_fd >= 0) close(out_fd);
    ckpt_meta_free(&meta);
    return ok;
}

bool sim_region(const sim_options *o, const char *path, int region, const char *output, sim_result *r)
{
    rv_proc p;
    ckpt_meta meta;
    rv_proc_options po = guest_cli_proc_options(&o->guest);
    po.exe = o->program;
    char err[512];
    r->checkpoint = path;
    r->warmup = o->warmup;
    uarch ua = {0};
    bool ok = false;
    int out_fd = -1;
    if (ckpt_restore(&p, path, &po, &meta, err, sizeof err)) goto out;
    out_fd = guest_cli_redirect_output(&p, output);
    uarch_init(&ua, &o->cfg);
    const ckpt_region *rg = meta.nregions ? &meta.regions[region] : NULL;
    r->has_region = rg != NULL;
    if (rg) r->region = *rg;
    uint64_t begin, end;
    region_bounds(o, rg, p.cpu.icount, &begin, &end);
    if (warm_up(o, path, &p, &ua, begin, r, err, sizeof err)) goto out;
    sim_core *c = core_new(&o->cfg, &ua, &p);
    core_set_fetch_limit(c, end);
    core_set_ideal_loads(c, o->ideal_loads, o->nideal_loads);
    profiling prof;
    profiling_attach(&prof, &o->sampling, c);
    if (detailed_warmup(o->warmup)) {
        r->warmup_insts = begin - p.cpu.icount;
        core_run(c, begin);
        core_close_cycle(c);
        r->warmup_cycles = c->ctr.cycles;
        core_reset_attribution(c);
    }
    if (core_committed(c) < begin) {
        snprintf(err, sizeof err, "the program ended at instruction %llu, before the region starts at %llu",
                 (unsigned long long)core_committed(c), (unsigned long long)begin);
        profiling_finish(&prof, r);
        core_free(c);
        goto out;
    }
    counters start = c->ctr;
    r->origin = c->now;
    profiling_begin(&prof, c->now);
    double t0 = now_seconds();
    log_sink sink = {.keep = o->region_log ? &r->log : NULL};
    if (sink.keep) run_logged(c, end, o->log_interval, &sink, NULL);
    else core_run(c, end);
    core_close_cycle(c);
    r->seconds = now_seconds() - t0;
    profiling_finish(&prof, r);
    collect(r, c, &start, &p);
    r->start = begin;
    r->end_pc = p.cpu.pc; /* the functional model stops at the run's end (core_set_fetch_limit) */
    r->end_digest = rv_cpu_digest(&p.cpu);
    core_free(c);
    ok = true;
out:
    if (!ok) r->message = strdup(err), r->stopped_by = "error";
    if (ua.mem) uarch_destroy(&ua);
    rv_proc_destroy(&p);
    if (out_fd >= 0) close(out_fd);
    ckpt_meta_free(&meta);
    return ok;
}

size_t sim_region_jobs(char **paths, int npaths, region_job **out)
{
    /* A checkpoint shared by regions whose warm-up was clamped carries several. */
    size_t njobs = 0, cap = (size_t)npaths;
    region_job *jobs = malloc((cap ? cap : 1) * sizeof *jobs);
    if (!jobs) die("out of memory");
    for (int i = 0; i < npaths; i++) {
        ckpt_meta meta;
        char err[512];
        if (ckpt_read_meta(paths[i], &meta, err, sizeof err)) die("%s", err);
        int n = meta.nregions ? meta.nregions : 1;
        for (int k = 0; k < n; k++) {
            if (njobs == cap && !(jobs = realloc(jobs, (cap *= 2) * sizeof *jobs))) die("out of memory");
            jobs[njobs++] = (region_job){.path = paths[i], .region = k};
        }
        ckpt_meta_free(&meta);
    }
    *out = jobs;
    return njobs;
}

bool sim_run_job(const sim_options *o, const region_job *job, const char *output, sim_result *r)
{
    sim_options jo = *o;
    jo.region_to_end = job->to_end;
    if (job->commit_trace) jo.sampling.commit_trace = job->commit_trace;
    if (job->records) jo.sampling.records = job->records;
    if (job->pm_records) jo.sampling.pm_records = job->pm_records;
    return sim_region(&jo, job->path, job->region, output, r);
}

void sim_run_jobs(const sim_options *o, const region_job *jobs, size_t n, const char *what, sim_result *res)
{
    progress prog;
    progress_init(&prog, what, o->progress, n);
    uint64_t finished = 0;
    /* No more threads than jobs: each thread holds a whole guest and core. */
    int threads = omp_get_max_threads() < (int)n ? omp_get_max_threads() : (int)n;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : 1)
    for (size_t j = 0; j < n; j++) {
        char *output = region_output(o, j, n);
        sim_run_job(o, &jobs[j], output, &res[j]);
        free(output);
#pragma omp atomic
        finished++;
        if (omp_get_thread_num() == 0) progress_update(&prog, finished);
    }
    progress_finish(&prog, finished);
}

size_t sim_regions(const sim_options *o, char **paths, int npaths, sim_result **out)
{
    region_job *jobs;
    size_t njobs = sim_region_jobs(paths, npaths, &jobs);
    if (njobs > 1 && (o->sampling.records || o->sampling.commit_trace || o->sampling.pm_records))
        die("--samples, --commit-trace and --profileme-samples need --full or a single region (%zu regions given)", njobs);
    sim_result *res = calloc(njobs, sizeof *res);
    if (!res) die("out of memory");
    sim_run_jobs(o, jobs, njobs, "sim regions", res);
    free(jobs);
    *out = res;
    return njobs;
}
