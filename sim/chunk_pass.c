#include "chunk_pass.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt/ckpt_fds.h"
#include "ckpt/ckpt_pages.h"
#include "json_out.h"
#include "outfile.h"
#include "progress.h"
#include "sys/path_history.h"
#include "uarch/uarch.h"
#include "util.h"

void chunks_free(chunk *chunks, size_t n)
{
    for (size_t k = 0; k < n; k++) free(chunks[k].path);
    free(chunks);
}

void chunks_append(chunk **chunks, size_t *n, char *path, const ckpt_region *rg, uint32_t elf_crc)
{
    if (!(*chunks = realloc(*chunks, (*n + 1) * sizeof **chunks))) die("out of memory");
    (*chunks)[(*n)++] = (chunk){.path = path, .region = *rg, .elf_crc = elf_crc};
}

void chunk_pass_init(chunk_pass *p, const char *dir)
{
    *p = (chunk_pass){.dir = dir};
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
}

/* A new file in $TMPDIR for a chunk's checkpoint or their page store. A
 * failure or a signal removes it (a checkpoint is an outfile, the store is
 * tracked as one), chunk_pass_destroy on success. */
static char *temp_file(const char *what)
{
    char *path;
    if (asprintf(&path, "%s/sim-%s-XXXXXX", temp_dir(), what) < 0) die("out of memory");
    int fd = mkstemp(path);
    if (fd < 0) die("cannot create a chunk %s in %s: %s", what, temp_dir(), strerror(errno));
    close(fd);
    outfile_track(path);
    return path;
}

/* DIR/NAME, or DIR/.NAME while it is not ready (hidden: a task's glob and
 * wait do not see it). */
static char *dir_path(const char *dir, uint64_t k, bool hidden)
{
    char *path;
    if (asprintf(&path, "%s/%schunk-%06" PRIu64 ".ckpt", dir, hidden ? "." : "", k) < 0) die("out of memory");
    return path;
}

static void flush_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0) die("cannot flush %s: %s", path, strerror(errno));
    close(fd);
}

/* Chunks [p->ready, upto) are ready: published into the directory, or
 * woken in this process. Called with p->mu held. */
static void make_ready(chunk_pass *p, size_t upto)
{
    /* A task on another node opens the checkpoint once it appears, and then
     * the store: both are on the server first (NFS flushes on fsync or close). */
    if (p->dir && upto > p->ready) {
        flush_file(p->store);
        path_history_sync(p->history);
    }
    for (size_t k = p->ready; p->dir && k < upto; k++) {
        flush_file(p->chunks[k].path);
        char *to = dir_path(p->dir, k, false);
        if (rename(p->chunks[k].path, to) != 0) die("cannot publish %s: %s", to, strerror(errno));
        free(p->chunks[k].path);
        p->chunks[k].path = to;
    }
    if (upto > p->ready) p->ready = upto;
    pthread_cond_broadcast(&p->cv);
}

static void drop_last(chunk_pass *p)
{
    pthread_mutex_lock(&p->mu);
    unlink(p->chunks[p->n - 1].path);
    free(p->chunks[--p->n].path);
    pthread_mutex_unlock(&p->mu);
}

/* The pass has ended after `insts` instructions: in a directory,
 * chunks.json before the last chunks appear (a task that sees its
 * checkpoint and then no chunks.json is not the last). */
static void finish_pass(chunk_pass *p, uint64_t C, uint64_t W, uint64_t insts)
{
    pthread_mutex_lock(&p->mu);
    p->insts = insts;
    if (p->dir) {
        char *path;
        if (asprintf(&path, "%s/chunks.json", p->dir) < 0) die("out of memory");
        json_t *m = json_pack("{s:I, s:I, s:I, s:I}", "count", (json_int_t)p->n, "instructions_per_chunk",
                              (json_int_t)C, "warmup", (json_int_t)W, "program_instructions", (json_int_t)insts);
        json_write_file(path, m);
        json_decref(m);
        free(path);
    }
    if (p->n) p->chunks[p->n - 1].end = insts; /* where the last chunk must end (chunks.c) */
    make_ready(p, p->n);
    p->done = true;
    progress_init(&p->chunks_progress, "sim --full: chunks", p->show_progress, p->n);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void chunk_pass_run(chunk_pass *p, const sim_options *o, uint64_t C, uint64_t W, int argc, char **argv)
{
    double t0 = now_seconds();
    rv_proc proc;
    rv_elf_info info;
    guest_cli_start(&proc, &info, &o->guest, argc, argv);
    char err[512];
    /* A piped stdin is read ahead so that every checkpoint carries what is left of it. */
    if (ckpt_fds_spool_stdin(&proc, err, sizeof err)) die("%s", err);
    int out_fd = guest_cli_redirect_output(&proc, o->guest_output);
    uarch ua;
    uarch_init(&ua, &o->cfg);
    if (p->dir) {
        if (asprintf(&p->store, "%s/pages.store", p->dir) < 0) die("out of memory");
    } else {
        p->store = temp_file("pages");
    }
    ckpt_page_store *store = ckpt_page_store_create(p->store);
    /* Beside the checkpoints, as the page store. */
    if (p->dir) {
        if (asprintf(&p->history, "%s/files", p->dir) < 0) die("out of memory");
    } else {
        if (asprintf(&p->history, "%s/sim-files-XXXXXX", temp_dir()) < 0) die("out of memory");
        if (!mkdtemp(p->history)) die("cannot create a directory in %s: %s", temp_dir(), strerror(errno));
    }
    proc.os.history = path_history_create(p->history, !p->dir);
    p->show_progress = o->progress;
    progress prog;
    progress_init(&prog, "sim --full: functional pass", o->progress, o->total_insts);
    for (uint64_t k = 0;; k++) {
        ckpt_region rg = ckpt_chunk_region(k, C, W);
        uarch_warm_run(&ua, &proc, rg.start);
        progress_update(&prog, proc.cpu.icount);
        if (proc.cpu.icount != rg.start) break;
        ustate s = {0};
        uarch_save(&ua, &s);
        char *path = p->dir ? dir_path(p->dir, k, true) : temp_file("chunk");
        ckpt_save_shared(&proc, path, &rg, 1, s.data, s.len, store);
        ustate_free(&s);
        pthread_mutex_lock(&p->mu);
        chunks_append(&p->chunks, &p->n, path, &rg, 0);
        pthread_mutex_unlock(&p->mu);
        if (!k) continue;
        /* Past chunk k's first instruction, chunk k - 1 is not the last.
         * Warming stopped anywhere warms as it would in one run
         * (uarch_warm_run), so the checkpoints are the same. */
        uint64_t begin = ckpt_region_begin(&rg), past = begin + 1;
        uarch_warm_run(&ua, &proc, begin);
        uint64_t begin_pc = proc.cpu.pc, digest = rv_cpu_digest(&proc.cpu); /* where chunk k - 1 must end (chunks.c) */
        uarch_warm_run(&ua, &proc, past);
        if (proc.cpu.icount != past) break;
        pthread_mutex_lock(&p->mu);
        p->chunks[k].begin_pc = begin_pc, p->chunks[k].begin_digest = digest;
        make_ready(p, (size_t)k);
        pthread_mutex_unlock(&p->mu);
    }
    progress_finish(&prog, proc.cpu.icount);
    ckpt_page_store_close(store);
    /* The last checkpoint's chunk may begin at the end (W < C: no earlier one). */
    if (p->n > 1 && ckpt_region_begin(&p->chunks[p->n - 1].region) >= proc.cpu.icount) drop_last(p);
    guest_cli_report_stop(&proc);
    uint64_t insts = proc.cpu.icount;
    uarch_destroy(&ua);
    rv_proc_destroy(&proc);
    if (out_fd >= 0) close(out_fd);
    p->seconds = now_seconds() - t0;
    finish_pass(p, C, W, insts);
}

bool chunk_pass_wait(chunk_pass *p, size_t k, chunk *c, bool *last)
{
    pthread_mutex_lock(&p->mu);
    while (!p->done && p->ready <= k) pthread_cond_wait(&p->cv, &p->mu);
    bool there = k < p->ready;
    if (there) {
        *c = p->chunks[k];
        *last = p->done && k == p->n - 1;
    }
    pthread_mutex_unlock(&p->mu);
    return there;
}

void chunk_pass_finished(chunk_pass *p)
{
    pthread_mutex_lock(&p->mu);
    p->finished++;
    if (p->done) {
        progress_update(&p->chunks_progress, p->finished);
        if (p->finished == p->n) progress_finish(&p->chunks_progress, p->finished);
    }
    pthread_mutex_unlock(&p->mu);
}

void chunk_pass_destroy(chunk_pass *p)
{
    if (!p->dir) {
        for (size_t k = 0; k < p->n; k++) unlink(p->chunks[k].path);
        if (p->store) unlink(p->store);
        if (p->history) path_history_remove(p->history);
    }
    chunks_free(p->chunks, p->n);
    free(p->store);
    free(p->history);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
}

/* chunks.json's count: 1 and *count, 0 when there is none yet, -1 with the reason. */
static int dir_count(const char *dir, uint64_t *count, char *err, size_t errlen)
{
    char *path;
    if (asprintf(&path, "%s/chunks.json", dir) < 0) die("out of memory");
    struct stat st;
    int rc = 0;
    if (stat(path, &st) == 0) {
        json_error_t je;
        json_t *m = json_load_file(path, 0, &je);
        json_t *c = m ? json_object_get(m, "count") : NULL;
        if (!json_is_integer(c) || json_integer_value(c) < 1) {
            snprintf(err, errlen, "%s: not a chunked run's pass (no count)", path);
            rc = -1;
        } else {
            *count = (uint64_t)json_integer_value(c);
            rc = 1;
        }
        json_decref(m);
    }
    free(path);
    return rc;
}

int chunk_pass_dir_chunk(const char *dir, uint64_t k, char **path, bool *last, uint64_t *count, char *err,
                         size_t errlen)
{
    *path = dir_path(dir, k, false);
    struct stat st;
    bool there = stat(*path, &st) == 0;
    /* After the checkpoint: chunks.json, when there is one, came first. */
    int has_count = dir_count(dir, count, err, errlen);
    if (has_count < 0) there = false;
    else if (!there && has_count && *count <= k) {
        free(*path);
        *path = NULL;
        return 0;
    } else if (!there) snprintf(err, errlen, "%s: not written yet (is the pass running?)", *path);
    if (!there) {
        free(*path);
        *path = NULL;
        return -1;
    }
    *last = has_count && *count == k + 1;
    if (!has_count) *count = 0;
    return 1;
}
