#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libgen.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt/ckpt.h"
#include "ckpt/ckpt_chunks.h"
#include "ckpt/ckpt_pages.h"
#include "ckpt/ckpt_fds.h"
#include "uarch/uarch.h"
#include "exec/exec.h"
#include "json_out.h"
#include "modes.h"
#include "outfile.h"
#include "progress.h"
#include "proxy.h"
#include "sys/path_history.h"
#include "util.h"

static int digits(unsigned n)
{
    int d = 1;
    while (n >= 10)
        n /= 10, d++;
    return d;
}

/* The checkpoints are written to a hidden directory beside the output one
 * (.NAME.tmpXXXXXX) and moved into it together at the end, so that a run that
 * fails (the program ends before a checkpoint, a descriptor cannot be saved,
 * the disk fills) leaves nothing that looks like a result. A failure removes
 * the directory (atexit), and so do SIGINT, SIGTERM and SIGHUP (Ctrl-C, a
 * script stopping its stages), which would otherwise end the process without
 * its atexit handlers. The run holds an flock on the directory while it lives:
 * one of the same output that nobody holds was left by a run killed outright
 * (SIGKILL, a crash, a lost node), and the next run removes it. */
static char staging[2048];
static int staging_fd = -1;

/* Who owns the staging directory now: a signal handler (on any thread: the
 * warming and OpenMP threads take signals too) must not empty it once it has
 * been renamed into the output directory. */
enum { STAGING_OPEN, STAGING_REMOVING, STAGING_PUBLISHING };
static atomic_int staging_state = STAGING_OPEN;

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction chained[sizeof stop_signals / sizeof stop_signals[0]];

static bool is_dot(const char *name)
{
    return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* Remove every file in the directory open as FD, and its directories (a
 * chunk plan's file history) with theirs. System calls only, as the signal
 * handler calls it; unlinking while reading may skip entries, so the
 * reading starts over until a pass removes nothing. */
static void empty_dir(int fd)
{
    _Alignas(8) char buf[4096];
    for (bool removed = true; removed;) {
        removed = false;
        lseek(fd, 0, SEEK_SET);
        ssize_t n;
        while ((n = getdents64(fd, buf, sizeof buf)) > 0)
            for (ssize_t off = 0; off < n;) {
                const struct dirent64 *e = (const struct dirent64 *)(buf + off);
                off += e->d_reclen;
                if (is_dot(e->d_name)) continue;
                if (unlinkat(fd, e->d_name, 0) != 0 && errno == EISDIR) {
                    int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                    if (sub >= 0) {
                        empty_dir(sub);
                        close(sub);
                    }
                    if (unlinkat(fd, e->d_name, AT_REMOVEDIR) == 0) removed = true;
                } else {
                    removed = true;
                }
            }
    }
}

/* Remove the staging directory unless it is being published (or removed). */
static void remove_staging(void)
{
    int open_state = STAGING_OPEN;
    if (staging_fd < 0 || !atomic_compare_exchange_strong(&staging_state, &open_state, STAGING_REMOVING))
        return;
    empty_dir(staging_fd);
    rmdir(staging);
}

/* SIGINT, SIGTERM, SIGHUP: remove the staging directory, then let the signal
 * do what it did before (outfile's handler, or the default: the process ends). */
static void on_stop_signal(int sig)
{
    remove_staging();
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        if (stop_signals[i] == sig)
            sigaction(sig, &chained[i], NULL);
    raise(sig); /* delivered once this handler returns */
}

/* After outfile's handlers (outfile_probe installs them), so that they cannot
 * replace this one; a signal ignored on purpose (nohup) stays ignored. */
static void catch_stop_signals(void)
{
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++) {
        if (sigaction(stop_signals[i], NULL, &chained[i]) != 0 || chained[i].sa_handler == SIG_IGN)
            continue;
        struct sigaction sa = {.sa_handler = on_stop_signal};
        sigemptyset(&sa.sa_mask);
        sigaction(stop_signals[i], &sa, NULL);
    }
}

/* Remove the staging directories of OUT_DIR (.BASE.tmpXXXXXX in PARENT) that
 * no living run holds. */
static void remove_stale_staging(const char *parent, const char *base)
{
    DIR *d = opendir(parent);
    if (!d)
        return;
    char prefix[4096];
    int plen = snprintf(prefix, sizeof prefix, ".%s.tmp", base);
    for (struct dirent *e; (e = readdir(d));) {
        if (plen <= 0 || (size_t)plen >= sizeof prefix || strncmp(e->d_name, prefix, (size_t)plen) != 0 ||
            strlen(e->d_name) != (size_t)plen + 6)
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            empty_dir(fd);
            if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == 0)
                fprintf(stderr, "checkpoint: removed %s/%s, left by a run that was killed\n", parent, e->d_name);
        }
        close(fd);
    }
    closedir(d);
}

static void open_staging(const char *out_dir)
{
    struct stat st;
    if (stat(out_dir, &st) == 0 && (!S_ISDIR(st.st_mode) || access(out_dir, W_OK) != 0))
        die("cannot create or write the output directory %s", out_dir);
    char copy[4096], base[4096], parent[4096];
    snprintf(copy, sizeof copy, "%s", out_dir);
    snprintf(base, sizeof base, "%s", basename(copy));
    snprintf(copy, sizeof copy, "%s", out_dir);
    snprintf(parent, sizeof parent, "%s", dirname(copy));
    remove_stale_staging(parent, base);
    /* A stop signal that came between creating the directory and catching
     * the signals would end the process and leave the directory: they wait
     * until the handler is in place (no other thread runs yet). */
    sigset_t stops, before;
    sigemptyset(&stops);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++) sigaddset(&stops, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &stops, &before);
    if (snprintf(staging, sizeof staging, "%s/.%s.tmpXXXXXX", parent, base) >= (int)sizeof staging ||
        !mkdtemp(staging)) {
        *staging = 0;
        die("cannot create or write the output directory %s", out_dir);
    }
    staging_fd = open(staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (staging_fd < 0 || flock(staging_fd, LOCK_EX) != 0) {
        rmdir(staging);
        die("cannot lock %s: %s", staging, strerror(errno));
    }
    atexit(remove_staging);
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/checkpoints.json", staging);
    outfile_probe(probe);
    catch_stop_signals();
    sigprocmask(SIG_SETMASK, &before, NULL); /* one that came meanwhile is handled now */
}

/* Move everything staged into out_dir, checkpoints.json last. */
static void publish_staging(const char *out_dir)
{
    int open_state = STAGING_OPEN;
    if (!atomic_compare_exchange_strong(&staging_state, &open_state, STAGING_PUBLISHING))
        for (;;)
            pause(); /* a signal handler is removing it: the process ends with the signal */
    if (rename(staging, out_dir) == 0) /* out_dir did not exist, or was empty */
        return;
    DIR *d = opendir(staging);
    if (!d)
        die("cannot read %s: %s", staging, strerror(errno));
    char from[8192], to[8192];
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "checkpoints.json") == 0)
            continue;
        snprintf(from, sizeof from, "%s/%s", staging, e->d_name);
        snprintf(to, sizeof to, "%s/%s", out_dir, e->d_name);
        int rc = rename(from, to);
        if (rc != 0 && (errno == ENOTEMPTY || errno == EEXIST)) { /* an earlier run's file history */
            path_history_remove(to);
            rc = rename(from, to);
        }
        if (rc != 0)
            die("cannot move %s into %s: %s", e->d_name, out_dir, strerror(errno));
    }
    closedir(d);
    snprintf(from, sizeof from, "%s/checkpoints.json", staging);
    snprintf(to, sizeof to, "%s/checkpoints.json", out_dir);
    if (rename(from, to) != 0)
        die("cannot move checkpoints.json into %s: %s", out_dir, strerror(errno));
    rmdir(staging);
}

/* What --warm's model met over the prefix it warmed (icount instructions):
 * the accesses that cost warming its time and the misses that say how warm
 * the state is, as `bbv --proxy` counts them per interval. */
static json_t *warming_json(const uarch *u, uint64_t icount)
{
    proxy_counts c; /* the misses, walks and mispredictions */
    proxy_counts_read(u, icount, NULL, &c);
    const memsys_stats *m = memsys_get_stats(u->mem);
    const tlb_stats *t = tlbs_get_stats(u->tlb);
    const bpred_stats *b = bpred_get_stats(u->bp);
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
                     "instructions", (json_int_t)c.insts, "l1i_accesses", (json_int_t)m->l1i_accesses,
                     "l1i_misses", (json_int_t)c.l1i_misses, "l1d_accesses", (json_int_t)(m->l1d_loads + m->l1d_stores),
                     "l1d_misses", (json_int_t)c.l1d_misses, "prefetches", (json_int_t)m->prefetches,
                     "l2_accesses", (json_int_t)m->l2_accesses, "l2_misses", (json_int_t)c.l2_misses,
                     "llc_accesses", (json_int_t)m->llc_accesses, "llc_misses", (json_int_t)c.llc_misses,
                     "itlb_accesses", (json_int_t)t->itlb_accesses, "itlb_misses", (json_int_t)c.itlb_misses,
                     "dtlb_accesses", (json_int_t)t->dtlb_accesses, "dtlb_misses", (json_int_t)c.dtlb_misses,
                     "walks", (json_int_t)c.walks, "branches", (json_int_t)b->branches,
                     "conditional_branches", (json_int_t)b->cond, "mispredicts", (json_int_t)c.mispredicts);
}

/* Run the program to instruction `stop` (or its end): with warm, the
 * caches, TLBs and predictors follow the whole prefix. */
static void fast_forward(uarch *warm, rv_proc *p, uint64_t stop, progress *prog)
{
    /* In steps, for progress: a run stopped anywhere resumes exactly. */
    while (p->cpu.icount < stop) {
        uint64_t step = p->cpu.icount + (UINT64_C(1) << 26);
        uint64_t to = step < stop ? step : stop;
        if (warm ? (uarch_warm_run(warm, p, to), p->cpu.icount != to) : rv_run(p, to, NULL, NULL) != RV_RUN_LIMIT)
            return;
        progress_update(prog, p->cpu.icount);
    }
}

/* The checkpoints of a run share one page store, unless there is one
 * checkpoint or each must stand alone. */
#define PAGE_STORE "pages.store"
/* The pass keeps its file history (lib/sys/path_history.h) here. */
#define FILE_HISTORY "files"

/* STAGING/name, in a static buffer. */
static const char *staged(const char *name)
{
    static char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", staging, name) >= (int)sizeof path)
        die("output directory name too long");
    return path;
}

static ckpt_page_store *open_page_store(const ckpt_options *o, const ckpt_plan *plan)
{
    if (o->self_contained || (!plan->chunk && plan->n < 2)) return NULL;
    return ckpt_page_store_create(staged(PAGE_STORE));
}

/* A chunk plan's pass has run to the program's end (`end` instructions),
 * short of point i: point i is not a chunk, and neither is the one before
 * when it would begin at or after the end (its checkpoint, last_path, is
 * removed; a warm-up is shorter than a chunk, so no earlier one can). */
static void drop_empty_chunk(ckpt_plan *plan, int i, uint64_t end, const char *last_path, json_t *files)
{
    int keep = i;
    if (i > 0 && ckpt_region_begin(&plan->points[i - 1].regions[0]) >= end) {
        if (unlink(last_path) != 0) die("cannot remove %s: %s", last_path, strerror(errno));
        json_array_remove(files, json_array_size(files) - 1);
        keep = i - 1;
    }
    for (int j = keep; j < plan->n; j++) free(plan->points[j].regions);
    plan->n = keep;
}

int take_checkpoints(const ckpt_options *o, ckpt_plan *plan, int argc, char **argv)
{
    rv_proc proc;
    rv_elf_info info;
    guest_cli_start(&proc, &info, &o->guest, argc, argv);
    char err[512];
    /* A piped stdin is read ahead so that every checkpoint can carry what is left of it. */
    if (ckpt_fds_spool_stdin(&proc, err, sizeof err))
        die("%s", err);
    open_staging(o->out_dir);
    int out_fd = guest_cli_redirect_output(&proc, o->guest_output);
    plan_sort(plan);
    progress prog;
    progress_init(&prog, "checkpoint", o->progress, plan->chunk ? 0 : plan->points[plan->n - 1].start);

    json_t *files = json_array();
    /* A chunk plan's length is known at the end only: room for a million chunks. */
    int width = plan->chunk ? 6 : digits((unsigned)plan->n) < 4 ? 4 : digits((unsigned)plan->n);
    double t0 = now_seconds(), ff_seconds = 0, write_seconds = 0;
    uarch warm;
    if (o->warm) uarch_init(&warm, o->warm);
    ckpt_page_store *store = open_page_store(o, plan);
    /* The pass keeps its file history beside the checkpoints (lib/sys/path_history.h):
     * the runs restored from them see the program's files as they were, and
     * a pass that stops before the program's end puts them back as it found
     * them. Not with --self-contained: a checkpoint then needs nothing beside it. */
    if (plan->chunk || !o->self_contained) proc.os.history = path_history_create(staged(FILE_HISTORY), false);
    ckpt_point *pt;
    char last_path[4096] = "";
    for (int i = 0; (pt = plan_point(plan, i)); i++) {
        double t = now_seconds();
        fast_forward(o->warm ? &warm : NULL, &proc, pt->start, &prog);
        ff_seconds += now_seconds() - t;
        if (proc.cpu.icount != pt->start && plan->chunk) {
            drop_empty_chunk(plan, i, proc.cpu.icount, last_path, files);
            guest_cli_report_stop(&proc);
            break;
        }
        if (proc.cpu.icount != pt->start) {
            guest_cli_report_stop(&proc);
            die("the program ended after %llu instructions, before checkpoint %d at %llu (%d of %d written)",
                (unsigned long long)proc.cpu.icount, i + 1, (unsigned long long)pt->start, i, plan->n);
        }
        char name[64], path[4096];
        if (snprintf(name, sizeof name, "%0*d-at-%llu.ckpt", width & 15, i + 1, (unsigned long long)pt->start) < 0 ||
            snprintf(path, sizeof path, "%s/%s", staging, name) >= (int)sizeof path)
            die("output directory name too long");
        t = now_seconds();
        ustate s = {0};
        if (o->warm) uarch_save(&warm, &s);
        ckpt_save_shared(&proc, path, pt->regions, pt->nregions, s.data, s.len, store);
        ustate_free(&s);
        write_seconds += now_seconds() - t;
        json_array_append_new(files, json_pack("{s:s, s:I, s:o}", "file", name, "start", (json_int_t)pt->start,
                                               "regions", ckpt_regions_json(pt->regions, pt->nregions)));
        progress_update(&prog, proc.cpu.icount);
        snprintf(last_path, sizeof last_path, "%s", path);
    }
    /* A chunk plan's pass has run the program to its end; any other stops at its last point. */
    if (proc.os.history && !plan->chunk) path_history_undo(proc.os.history, proc.cpu.icount);
    double total = now_seconds() - t0;
    progress_finish(&prog, proc.cpu.icount);
    json_t *manifest = json_pack(
        "{s:s, s:I, s:o, s:{s:I, s:f, s:f}, s:{s:i, s:f}}", "program", proc.os.exe_path, "interval",
        (json_int_t)o->interval, "checkpoints", files, "fast_forward", "instructions", (json_int_t)proc.cpu.icount,
        "seconds", ff_seconds, "mips", ff_seconds > 0 ? (double)proc.cpu.icount / ff_seconds / 1e6 : 0.0, "writing",
        "checkpoints", plan->n, "seconds", write_seconds);
    if (plan->chunk)
        json_object_set_new(manifest, "chunks", json_pack("{s:I, s:I, s:i, s:I}", "instructions", (json_int_t)plan->chunk,
                                                          "warmup", (json_int_t)plan->chunk_warmup, "count", plan->n,
                                                          "program_instructions", (json_int_t)proc.cpu.icount));
    if (proc.os.history) json_object_set_new(manifest, "file_history", json_string(FILE_HISTORY));
    if (store) {
        json_object_set_new(manifest, "page_store", json_pack("{s:s, s:I, s:I}", "file", PAGE_STORE, "bytes",
                                                              (json_int_t)ckpt_page_store_bytes(store), "pages",
                                                              (json_int_t)ckpt_page_store_pages(store)));
        ckpt_page_store_close(store);
    }
    if (o->warm) {
        json_object_set_new(manifest, "warming", warming_json(&warm, proc.cpu.icount));
        uarch_destroy(&warm);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/checkpoints.json", staging);
    json_write_file(path, manifest);
    publish_staging(o->out_dir);
    if (o->summary)
        json_write_file(o->summary, manifest);
    if (o->verbose || prog.tty)
        fprintf(stderr, "checkpoint: %d checkpoints in %s, %.2f s (fast-forward %.0f MIPS, writing %.2f s)\n",
                plan->n, o->out_dir, total, ff_seconds > 0 ? (double)proc.cpu.icount / ff_seconds / 1e6 : 0.0,
                write_seconds);
    json_decref(manifest);
    if (out_fd >= 0)
        close(out_fd);
    rv_proc_destroy(&proc);
    return 0;
}
