#include "chunks.h"

#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <sys/stat.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ckpt/ckpt_chunks.h"
#include "ckpt/ckpt_fds.h"
#include "ckpt/ckpt_pages.h"
#include "chunk_calls.h"
#include "chunk_files.h"
#include "chunk_part.h"
#include "chunk_pass.h"
#include "outfile.h"
#include "progress.h"
#include "uarch/uarch.h"
#include "util.h"

/* ------------------------------------------------------ running the chunks */

/* The options every chunk runs with: from its checkpoint's warm state,
 * after a detailed warm-up, logged every G. */
static sim_options chunk_run_options(const sim_options *o)
{
    sim_options co = *o;
    co.warmup = WARMUP_CHECKPOINT_DETAILED;
    co.region_log = true;
    co.guest_output = "none"; /* the functional pass's is the program's output */
    /* The samplers' periods go on across chunks, at the serial run's period:
     * no chunk samples faster for being short. */
    co.sampling.cfg.continued = true;
    co.sampling.cfg.min_samples = 0;
    co.sampling.chunk = true;
    /* each chunk its own trace and records, joined after (sim/chunk_files.h) */
    co.sampling.commit_trace = co.sampling.records = co.sampling.pm_records = NULL;
    return co;
}

/* Chunk k's job: its checkpoint, to the program's end if `to_end`, into
 * its own files (chunk_job_free frees their names). */
static region_job chunk_job(const chunk_files *f, const char *path, size_t k, bool to_end)
{
    return (region_job){path, 0, to_end, chunk_files_path(f, "trace", k), chunk_files_path(f, "records", k),
                        chunk_files_path(f, "pm", k)};
}

static void chunk_job_free(region_job *j)
{
    free((char *)j->commit_trace), free((char *)j->records), free((char *)j->pm_records);
}

/* Every chunk, the last to the program's end when it is the run's last
 * (`last`). In parallel, as regions. */
static void run_chunks(const sim_options *o, const chunk *chunks, size_t n, bool last, const chunk_files *f,
                       sim_result *res)
{
    region_job *jobs = calloc(n ? n : 1, sizeof *jobs);
    if (!jobs) die("out of memory");
    for (size_t k = 0; k < n; k++) jobs[k] = chunk_job(f, chunks[k].path, k, last && k == n - 1);
    sim_options co = chunk_run_options(o);
    sim_run_jobs(&co, jobs, n, "sim --full: chunks", res);
    for (size_t k = 0; k < n; k++) chunk_job_free(&jobs[k]);
    free(jobs);
}

/* Results by chunk, grown as the pass goes (each its own allocation: a
 * thread fills its chunk's while another grows the array). */
typedef struct result_slots {
    sim_result **r;
    size_t cap;
} result_slots;

static sim_result *slot_for(result_slots *s, size_t k)
{
    if (k >= s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        while (cap <= k) cap *= 2;
        if (!(s->r = realloc(s->r, cap * sizeof *s->r))) die("out of memory");
        memset(s->r + s->cap, 0, (cap - s->cap) * sizeof *s->r);
        s->cap = cap;
    }
    if (!(s->r[k] = calloc(1, sizeof *s->r[k]))) die("out of memory");
    return s->r[k];
}

/* A worker: the next chunk as soon as it is ready, until there are none. */
static void chunk_worker(const sim_options *co, chunk_pass *p, const chunk_files *f, size_t *next,
                         result_slots *slots)
{
    for (;;) {
        pthread_mutex_lock(&p->mu);
        size_t k = (*next)++;
        pthread_mutex_unlock(&p->mu);
        chunk c;
        bool last;
        if (!chunk_pass_wait(p, k, &c, &last)) return;
        pthread_mutex_lock(&p->mu);
        sim_result *r = slot_for(slots, k);
        pthread_mutex_unlock(&p->mu);
        region_job job = chunk_job(f, c.path, k, last);
        sim_run_job(co, &job, "none", r);
        chunk_job_free(&job);
        chunk_pass_finished(p);
    }
}

/* The pass on one of OpenMP's threads and the chunks on all of them, each
 * chunk from the moment the pass makes it ready (sim/chunk_pass.h); the
 * results in chunk order into *res. */
static void pass_and_chunks(const sim_options *o, chunk_pass *p, uint64_t C, uint64_t W, int argc, char **argv,
                            const chunk_files *f, sim_result **res)
{
    sim_options co = chunk_run_options(o);
    result_slots slots = {0};
    size_t next = 0;
    /* The pass's thread simulates chunks too once it is done (with one
     * thread, then all of them: the pass first, as before the overlap). */
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) chunk_pass_run(p, o, C, W, argc, argv);
        chunk_worker(&co, p, f, &next, &slots);
    }
    if (!(*res = calloc(p->n, sizeof **res))) die("out of memory");
    for (size_t k = 0; k < p->n; k++) {
        (*res)[k] = *slots.r[k];
        free(slots.r[k]);
    }
    free(slots.r);
}

/* ------------------------------------------------------------- stitching */

/* One profile summed over the chunks (exact: unit counts stay below 2^53). */
typedef const cost *(*profile_of)(const sim_result *r, size_t *n);
static const cost *pcs_of(const sim_result *r, size_t *n) { return *n = r->npcs, r->pcs; }
static const cost *blocks_of(const sim_result *r, size_t *n) { return *n = r->nblocks, r->blocks; }
static const cost *pics_of(const sim_result *r, size_t *n) { return *n = r->npics, r->pics; }

static cost *sum_profiles(const sim_result *res, size_t nres, profile_of of, size_t *n)
{
    cost_table t = {0};
    for (size_t k = 0; k < nres; k++) {
        size_t len;
        const cost *c = of(&res[k], &len);
        cost_accumulate(&t, c, len, 1.0);
    }
    cost *out = cost_sorted(&t, n);
    cost_table_free(&t);
    return out;
}

/* Chunk k measured exactly its instructions, logged them all, and ended
 * where the next one begins (when the pass told where that is, `next`):
 * a chunk whose run is not the program's (it rewrites a file it reads, and
 * the chunks wrote it too) cannot be stitched. */
static void check_chunk(const chunk *ch, const chunk *next, const sim_result *res, size_t k, size_t n)
{
    if (!res->pcs) die("chunk %zu of %zu (%s): %s", k + 1, n, ch->path, res->message ? res->message : "failed");
    if (res->start != ckpt_region_begin(&ch->region))
        die("chunk %zu of %zu began at instruction %llu, not %llu", k + 1, n, (unsigned long long)res->start,
            (unsigned long long)ckpt_region_begin(&ch->region));
    if (k + 1 < n && res->c.instructions != ch->region.interval)
        die("the program ended in chunk %zu of %zu, after %llu of its %llu instructions", k + 1, n,
            (unsigned long long)res->c.instructions, (unsigned long long)ch->region.interval);
    counters logged = {0};
    for (size_t i = 0; i < res->log.n; i++) counters_add(&logged, &res->log.rows[i]);
    if (memcmp(&logged, &res->c, sizeof logged) != 0)
        die("chunk %zu of %zu: its interval log does not add up to its totals", k + 1, n);
    if (next && next->begin_pc && (res->end_pc != next->begin_pc || res->end_digest != next->begin_digest))
        die("chunk %zu of %zu ended at pc 0x%llx with other registers than the functional pass had there (pc 0x%llx): "
            "its run is not the program's (a file it reads changed under it?): simulate it whole, without chunks",
            k + 1, n, (unsigned long long)res->end_pc, (unsigned long long)next->begin_pc);
    if (!next && ch->end && res->start + res->c.instructions != ch->end)
        die("the last chunk (%zu of %zu) ended the program after %llu instructions, the functional pass after %llu: "
            "its run is not the program's (a file it reads changed under it?): simulate it whole, without chunks",
            k + 1, n, (unsigned long long)(res->start + res->c.instructions), (unsigned long long)ch->end);
}

/* Each sampler's runs over the chunks, stitched (sampled_runs_stitch). */
static void stitch_sampled(const sim_result *res, size_t n, sim_result *r)
{
    const sampled_run **runs = malloc(n * sizeof *runs);
    uint64_t *cycles = malloc(n * sizeof *cycles);
    if (!runs || !cycles || !(r->sampled = calloc((size_t)res[0].nsampled, sizeof *r->sampled))) die("out of memory");
    for (size_t k = 0; k < n; k++) cycles[k] = res[k].c.cycles;
    for (int i = 0; i < res[0].nsampled; i++) {
        for (size_t k = 0; k < n; k++) runs[k] = &res[k].sampled[i];
        sampled_runs_stitch(runs, cycles, n, &r->sampled[i]);
    }
    r->nsampled = res[0].nsampled;
    free(runs);
    free(cycles);
}

/* ProfileMe: every chunk's per-pc figures summed (profileme_results_stitch). */
static void stitch_profileme(const sim_result *res, size_t n, sim_result *r)
{
    const profileme_result **pm = malloc(n * sizeof *pm);
    if (!pm || !(r->profileme = malloc(sizeof *r->profileme))) die("out of memory");
    for (size_t k = 0; k < n; k++)
        if (!(pm[k] = res[k].profileme)) die("chunk %zu of %zu has no ProfileMe samples, unlike the first", k + 1, n);
    profileme_results_stitch(pm, n, r->profileme);
    free(pm);
}

/* Inclusive time: the chunks' calling contexts re-rooted (sim/chunk_calls.h). */
static void stitch_calls(const sim_result *res, size_t n, sim_result *r)
{
    const call_profile **calls = malloc(n * sizeof *calls);
    if (!calls) die("out of memory");
    bool all = true;
    for (size_t k = 0; k < n; k++) all &= (calls[k] = res[k].calls) != NULL;
    if (all) r->calls = call_profiles_stitch(calls, n);
    free(calls);
}

static void write_interval_log(const char *path, const sim_result *res, size_t n)
{
    outfile *log = outfile_open(path);
    interval_log_header(log);
    uint64_t index = 0, start = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < res[k].log.n; i++) {
            interval_log_row(log, index++, start, &res[k].log.rows[i]);
            start += res[k].log.rows[i].instructions;
        }
    outfile_commit(log);
}

/* The chunks' results into the one a serial --full run writes. */
static void stitch(const sim_options *o, const chunk *chunks, sim_result *res, size_t n, chunk_files *f,
                   sim_result *r)
{
    for (size_t k = 0; k < n; k++) check_chunk(&chunks[k], k + 1 < n ? &chunks[k + 1] : NULL, &res[k], k, n);
    sim_result *last = &res[n - 1];
    *r = (sim_result){.program = last->program, .stopped_by = last->stopped_by, .exit_status = last->exit_status,
                      .message = last->message, .units = res[0].units, .elf_bias = res[0].elf_bias,
                      .warmup = WARMUP_NONE};
    last->program = last->message = NULL;
    for (size_t k = 0; k < n; k++) counters_add(&r->c, &res[k].c);
    r->pcs = sum_profiles(res, n, pcs_of, &r->npcs);
    r->blocks = sum_profiles(res, n, blocks_of, &r->nblocks);
    if (res[0].pics) {
        r->pics = sum_profiles(res, n, pics_of, &r->npics);
        if (!(r->no_event_stalls = calloc(PICS_STALL_BUCKETS + 1, sizeof *r->no_event_stalls))) die("out of memory");
        for (size_t k = 0; k < n; k++)
            for (int b = 0; b <= PICS_STALL_BUCKETS; b++) r->no_event_stalls[b] += res[k].no_event_stalls[b];
    }
    if (res[0].nsampled) stitch_sampled(res, n, r);
    stitch_calls(res, n, r);
    if (res[0].profileme) stitch_profileme(res, n, r);
    if (o->interval_log) write_interval_log(o->interval_log, res, n);
    if (f) chunk_files_stitch(f, res, n);
}

/* The chunks' results stitched into r, and freed; the summary's times. */
static void finish(const sim_options *o, const chunk *chunks, sim_result *res, size_t n, chunk_files *f,
                   sim_result *r, chunk_summary *s, double t0)
{
    stitch(o, chunks, res, n, f, r);
    s->wall_seconds += now_seconds() - t0;
    for (size_t k = 0; k < n; k++) s->chunk_seconds += res[k].seconds;
    r->seconds = s->wall_seconds;
    for (size_t k = 0; k < n; k++) sim_result_free(&res[k]);
    free(res);
}

/* Simulate the chunks and stitch them into r. */
static void simulate_chunks(const sim_options *o, const chunk *chunks, size_t n, sim_result *r, chunk_summary *s)
{
    sim_result *res = calloc(n, sizeof *res);
    if (!res) die("out of memory");
    double t0 = now_seconds();
    chunk_files f;
    chunk_files_init(&f, &o->sampling);
    run_chunks(o, chunks, n, true, &f, res);
    finish(o, chunks, res, n, &f, r, s, t0);
}

uint64_t chunk_insts(const chunk_options *co, uint64_t total_insts, uint64_t G)
{
    if (co->insts) return co->insts;
    uint64_t per = (total_insts + co->count - 1) / co->count;
    return (per + G - 1) / G * G;
}

uint64_t chunk_size(const chunk_options *co, uint64_t total_insts, uint64_t G, char *err, size_t errlen)
{
    uint64_t C = chunk_insts(co, total_insts, G);
    if (C % G) {
        snprintf(err, errlen, "--chunk-insts %llu: must be a multiple of the log interval (-G %llu), so that no log row "
                 "spans two chunks", (unsigned long long)C, (unsigned long long)G);
        return 0;
    }
    if (ckpt_chunks_check(C, co->warmup, err, errlen)) return 0;
    return C;
}

void sim_full_chunked(const sim_options *o, const chunk_options *co, int argc, char **argv, sim_result *r,
                      chunk_summary *s)
{
    char err[256];
    uint64_t C = chunk_size(co, o->total_insts, o->log_interval, err, sizeof err);
    if (!C) die("%s", err);
    *s = (chunk_summary){.insts = C, .warmup = co->warmup};
    double t0 = now_seconds();
    chunk_pass p;
    chunk_pass_init(&p, NULL);
    sim_result *res;
    chunk_files f;
    chunk_files_init(&f, &o->sampling);
    pass_and_chunks(o, &p, C, co->warmup, argc, argv, &f, &res);
    s->chunks = p.n;
    s->pass_seconds = p.seconds;
    finish(o, p.chunks, res, p.n, &f, r, s, t0);
    chunk_pass_destroy(&p);
}

void sim_chunk_pass(const sim_options *o, const chunk_options *co, int argc, char **argv)
{
    char err[256];
    uint64_t C = chunk_size(co, o->total_insts, o->log_interval, err, sizeof err);
    if (!C) die("%s", err);
    if (mkdir(co->pass_dir, 0777) != 0 && errno != EEXIST)
        die("--chunk-pass %s: %s", co->pass_dir, strerror(errno));
    chunk_pass p;
    chunk_pass_init(&p, co->pass_dir);
    chunk_pass_run(&p, o, C, co->warmup, argc, argv);
    if (o->progress || isatty(2))
        fprintf(stderr, "sim: %zu chunks of %llu instructions in %s, %.2f s\n", p.n, (unsigned long long)C,
                co->pass_dir, p.seconds);
    chunk_pass_destroy(&p);
}

static int by_begin(const void *a, const void *b)
{
    uint64_t x = ckpt_region_begin(&((const chunk *)a)->region), y = ckpt_region_begin(&((const chunk *)b)->region);
    return (x > y) - (x < y);
}

/* The chunks of checkpoint --chunk-insts: one region each, chunk k's
 * beginning at k x C for every k from 0 on. */
static size_t read_chunks(char **paths, int npaths, chunk **out, uint64_t first)
{
    chunk *chunks = NULL;
    size_t n = 0;
    for (int i = 0; i < npaths; i++) {
        ckpt_meta meta;
        char err[512];
        if (ckpt_read_meta(paths[i], &meta, err, sizeof err)) die("%s", err);
        if (meta.nregions != 1 || !meta.regions[0].interval)
            die("%s: not a chunk of checkpoint --chunk-insts (one region of known length)", paths[i]);
        char *path = strdup(paths[i]);
        if (!path) die("out of memory");
        chunks_append(&chunks, &n, path, &meta.regions[0], meta.elf_crc);
        ckpt_meta_free(&meta);
    }
    qsort(chunks, n, sizeof *chunks, by_begin);
    uint64_t C = chunks[0].region.interval;
    for (size_t k = 0; k < n; k++)
        if (chunks[k].region.interval != C || ckpt_region_begin(&chunks[k].region) != (first + k) * C)
            die("%s: chunk %llu should begin at instruction %llu and last %llu (%s)", chunks[k].path,
                (unsigned long long)(first + k), (unsigned long long)((first + k) * C), (unsigned long long)C,
                k ? "a chunk is missing or of another run" : first ? "not this chunk" : "the first chunk is missing");
    *out = chunks;
    return n;
}

/* ------------------------------------------------- chunks as separate parts */

/* The sampling a part's result carries is the one o asks for. */
static void check_part_sampling(const sim_options *o, const sim_result *res, const char *path)
{
    const sampling_options *so = &o->sampling;
    int want = so->nprofilers ? 1 + 2 * so->nsweep : 0;
    bool same = res->nsampled == want;
    for (int i = 0; same && i < want; i++) {
        const sampled_run *sr = &res->sampled[i];
        same = sr->nprofs == so->nprofilers && (i ? 1 : sr->cfg.period == so->cfg.period || so->cfg.min_samples);
        for (int j = 0; same && j < sr->nprofs; j++) same = !strcmp(sr->profs[j].name, so->profilers[j]);
    }
    if (!same) die("%s: its chunk was sampled otherwise than this command asks (give sim --stitch the parts' --sample options)", path);
    bool pics = so->pics;
    for (int i = 0; i < so->nprofilers; i++) pics |= profiler_policy_find(so->profilers[i])->events != 0;
    if (pics != (res->pics != NULL)) die("%s: its chunk has %s golden PICS, unlike this command", path, res->pics ? "a" : "no");
    if (so->profileme != (res->profileme != NULL))
        die("%s: its chunk was %s with ProfileMe, unlike this command", path, res->profileme ? "sampled" : "not sampled");
}

/* A part read, with its file. */
typedef struct part {
    chunk_part m;
    sim_result r;
    char *path;
} part;

static int by_part_index(const void *a, const void *b)
{
    uint64_t x = ((const part *)a)->m.index, y = ((const part *)b)->m.index;
    return (x > y) - (x < y);
}

/* The run's number of chunks: the count the parts know (the last one
 * does; one simulated while the pass ran knows none). */
static uint64_t parts_count(const part *p, size_t n)
{
    uint64_t count = 0;
    for (size_t k = 0; k < n; k++) {
        if (p[k].m.count && count && p[k].m.count != count)
            die("%s and %s: parts of two runs (chunks, their size or the program differ)", p[0].path, p[k].path);
        if (p[k].m.count) count = p[k].m.count;
    }
    if (!count) die("the last chunk's part is missing (%s is chunk %llu of more)", p[n - 1].path,
                    (unsigned long long)p[n - 1].m.index + 1);
    return count;
}

/* The parts are chunks 0 to n-1 of one run, on o's core, sampled as o says. */
static void check_parts(const sim_options *o, const part *p, size_t n)
{
    uint64_t digest = uarch_config_digest(&o->cfg), count = parts_count(p, n);
    for (size_t k = 0; k < n; k++) {
        const chunk_part *m = &p[k].m;
        if (m->region.interval != p[0].m.region.interval || m->elf_crc != p[0].m.elf_crc)
            die("%s and %s: parts of two runs (chunks, their size or the program differ)", p[0].path, p[k].path);
        if (m->index != k)
            die("%s: chunk %llu of %llu %s", p[k].path, (unsigned long long)m->index + 1, (unsigned long long)count,
                m->index < k ? "is given twice" : "follows a missing one");
        if (m->config_digest != digest)
            die("%s: its chunk ran on another core configuration than this command's (--config, --set)", p[k].path);
        check_part_sampling(o, &p[k].r, p[k].path);
    }
    if (n != count) die("%zu parts of %llu chunks: chunk %zu is missing", n, (unsigned long long)count, n + 1);
}

/* sim --stitch PART...: the parts of one run, every chunk once, stitched. */
static void stitch_parts(const sim_options *o, char **paths, int npaths, sim_result *r, chunk_summary *s)
{
    double t0 = now_seconds();
    size_t n = (size_t)npaths;
    part *p = calloc(n, sizeof *p);
    sim_result *res = calloc(n, sizeof *res);
    chunk *chunks = calloc(n, sizeof *chunks);
    if (!p || !res || !chunks) die("out of memory");
    for (size_t i = 0; i < n; i++) {
        char err[512];
        if (chunk_part_read(paths[i], &p[i].m, &p[i].r, err, sizeof err)) die("%s", err);
        p[i].path = paths[i];
    }
    qsort(p, n, sizeof *p, by_part_index);
    check_parts(o, p, n);
    *s = (chunk_summary){.chunks = n, .insts = p[0].m.region.interval, .warmup = n > 1 ? p[1].m.region.warmup : 0};
    /* The chunks ran in processes of their own, perhaps on several nodes:
     * the wall time is from the first one's start to the last one's end. */
    double first = p[0].m.started, last = p[0].m.ended;
    for (size_t k = 0; k < n; k++) {
        res[k] = p[k].r;
        chunks[k] = (chunk){.path = p[k].path, .region = p[k].m.region, .elf_crc = p[k].m.elf_crc};
        if (p[k].m.started < first) first = p[k].m.started;
        if (p[k].m.ended > last) last = p[k].m.ended;
    }
    s->wall_seconds = last - first;
    free(p);
    finish(o, chunks, res, n, NULL, r, s, t0);
    free(chunks);
}

/* Wall-clock time in epoch seconds (comparable between nodes). */
static double epoch_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Chunk index's checkpoint among paths, how many there are and whether it
 * is the last: of checkpoint --chunk-insts's checkpoints (all of them), or
 * of a --chunk-pass directory (count 0 while the pass runs). */
static chunk find_chunk(char **paths, int npaths, uint64_t index, uint64_t *count, bool *last)
{
    struct stat st;
    if (npaths == 1 && stat(paths[0], &st) == 0 && S_ISDIR(st.st_mode)) {
        char *path, err[512];
        int rc = chunk_pass_dir_chunk(paths[0], index, &path, last, count, err, sizeof err);
        if (rc < 0) die("%s", err);
        if (!rc) die("--part %llu: the run has %llu chunks (0 to %llu)", (unsigned long long)index,
                     (unsigned long long)*count, (unsigned long long)*count - 1);
        chunk *one;
        size_t n = read_chunks(&path, 1, &one, index);
        (void)n;
        free(path);
        chunk c = one[0];
        free(one);
        return c;
    }
    chunk *chunks;
    size_t n = read_chunks(paths, npaths, &chunks, 0);
    if (index >= n) die("--part %llu: the run has %zu chunks (0 to %zu)", (unsigned long long)index, n, n - 1);
    chunk c = chunks[index];
    chunks[index].path = NULL;
    chunks_free(chunks, n);
    *count = n;
    *last = index == n - 1;
    return c;
}

void sim_chunk_part(const sim_options *o, char **paths, int npaths, uint64_t index, const char *out)
{
    uint64_t count;
    bool last;
    chunk c = find_chunk(paths, npaths, index, &count, &last);
    if (c.region.interval % o->log_interval)
        die("the chunks' %llu instructions are not a multiple of the log interval (-G %llu)",
            (unsigned long long)c.region.interval, (unsigned long long)o->log_interval);
    sim_result res = {0};
    /* A chunk of a pass still running is not the last: its part does not know the count. */
    chunk_part m = {.index = index, .count = count, .region = c.region, .elf_crc = c.elf_crc,
                    .config_digest = uarch_config_digest(&o->cfg), .started = epoch_seconds()};
    run_chunks(o, &c, 1, last, NULL, &res);
    m.ended = epoch_seconds();
    check_chunk(&c, NULL, &res, index, last ? index + 1 : index + 2); /* where the next begins: another process's pass knows */
    chunk_part_write(out, &m, &res);
    sim_result_free(&res);
    free(c.path);
}

void sim_stitch(const sim_options *o, char **paths, int npaths, sim_result *r, chunk_summary *s)
{
    if (chunk_part_is(paths[0])) {
        stitch_parts(o, paths, npaths, r, s);
        return;
    }
    chunk *chunks;
    size_t n = read_chunks(paths, npaths, &chunks, 0);
    uint64_t C = chunks[0].region.interval;
    if (C % o->log_interval)
        die("the chunks' %llu instructions are not a multiple of the log interval (-G %llu)", (unsigned long long)C,
            (unsigned long long)o->log_interval);
    *s = (chunk_summary){.chunks = n, .insts = C, .warmup = n > 1 ? chunks[1].region.warmup : 0};
    simulate_chunks(o, chunks, n, r, s);
    chunks_free(chunks, n);
}

json_t *chunk_summary_json(const chunk_summary *s)
{
    return json_pack("{s:I, s:I, s:I, s:s, s:f, s:f, s:f}", "chunks", (json_int_t)s->chunks, "instructions_per_chunk",
                     (json_int_t)s->insts, "warmup", (json_int_t)s->warmup, "warmup_strategy",
                     warmup_mode_names[WARMUP_CHECKPOINT_DETAILED], "functional_pass_seconds", s->pass_seconds,
                     "chunk_seconds", s->chunk_seconds, "wall_seconds", s->wall_seconds);
}
