#include "path_history.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "sys_internal.h"
#include "util.h"

#define JOURNAL "journal"

/* A journal record, followed by the path's len bytes (no NUL), in the host's
 * byte order: the pass and its chunks run on one kind of machine. */
typedef struct record {
    uint64_t at;    /* the system call's instruction */
    uint32_t kept;  /* PATH_FILE: the history's file number */
    uint16_t then;  /* enum path_then */
    uint16_t len;
} record;
_Static_assert(sizeof(record) == 16, "a record's header is 16 bytes");

/* ---------------------------------------------------- a set of paths */

/* Paths with what they were, open addressing (linear probing): a run may
 * change thousands of paths between two checkpoints. */
typedef struct entry {
    char *path;
    uint32_t kept;
    uint16_t then;
} entry;

typedef struct path_set {
    entry *e;
    size_t n, cap; /* cap a power of two, 0 or at least twice n */
} path_set;

static size_t hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3u;
    return (size_t)h;
}

static entry *slot(const path_set *s, const char *path)
{
    for (size_t i = hash(path) & (s->cap - 1);; i = (i + 1) & (s->cap - 1))
        if (!s->e[i].path || !strcmp(s->e[i].path, path)) return &s->e[i];
}

static const entry *set_find(const path_set *s, const char *path)
{
    if (!s->cap) return NULL;
    const entry *e = slot(s, path);
    return e->path ? e : NULL;
}

/* Add path (not in s yet). */
static void set_add(path_set *s, const char *path, uint16_t then, uint32_t kept)
{
    if (2 * (s->n + 1) > s->cap) {
        path_set grown = {.cap = s->cap ? 2 * s->cap : 64};
        if (!(grown.e = calloc(grown.cap, sizeof *grown.e))) die("out of memory");
        for (size_t i = 0; i < s->cap; i++)
            if (s->e[i].path) *slot(&grown, s->e[i].path) = s->e[i];
        grown.n = s->n;
        free(s->e);
        *s = grown;
    }
    char *copy = strdup(path);
    if (!copy) die("out of memory");
    *slot(s, path) = (entry){copy, kept, then};
    s->n++;
}

static void set_clear(path_set *s)
{
    for (size_t i = 0; i < s->cap; i++) free(s->e[i].path);
    free(s->e);
    *s = (path_set){0};
}

/* ------------------------------------------------ the pass: recording */

struct path_recorder {
    char *dir;
    bool temporary;
    int dir_fd, journal;
    uint32_t kept;     /* files kept so far */
    path_set recorded; /* the paths recorded since the last checkpoint */
    path_set origin;   /* every path's first record: what it was when the pass began */
    const char **order; /* origin's paths (its strings) in the order of their first records */
    size_t norder;
};

/* DIR/name among the outputs a failure removes, if the history is temporary. */
static void track(const path_recorder *r, const char *name)
{
    if (!r->temporary) return;
    char *path;
    if (asprintf(&path, "%s/%s", r->dir, name) < 0) die("out of memory");
    outfile_track(path);
    free(path);
}

path_recorder *path_history_create(const char *dir, bool temporary)
{
    path_recorder *r = calloc(1, sizeof *r);
    if (!r || !(r->dir = strdup(dir))) die("out of memory");
    r->temporary = temporary;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) die("cannot create the file history %s: %s", dir, strerror(errno));
    if (temporary) outfile_track(dir);
    track(r, JOURNAL);
    r->dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    r->journal = r->dir_fd < 0 ? -1 : openat(r->dir_fd, JOURNAL, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    if (r->journal < 0) die("cannot create the file history %s/" JOURNAL ": %s", dir, strerror(errno));
    return r;
}

const char *path_recorder_dir(const path_recorder *r) { return r->dir; }

void path_history_mark(path_recorder *r) { set_clear(&r->recorded); }

/* The name of the history's file number `kept`: the number, in decimal. */
static void kept_name(uint32_t kept, char name[16]) { snprintf(name, 16, "%u", kept); }

/* Copy the file open as `in` into a new file at (dirfd, name), with its
 * mode. 0, or -1 with errno. */
static int copy_file(int in, int dirfd, const char *name)
{
    struct stat st;
    if (fstat(in, &st) != 0) return -1;
    int out = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777);
    if (out < 0) return -1;
    int rc = sys_copy_whole(in, out) == 0 && fchmod(out, st.st_mode & 07777) == 0 ? 0 : -1;
    return sys_close_then(out, rc);
}

/* Keep the file at (dirfd, path) as the history's file number r->kept: a
 * hard link, or a copy when the change is to its bytes (or the history is
 * on another file system). */
static void keep(path_recorder *r, int dirfd, const char *path, bool copy)
{
    char name[16];
    kept_name(r->kept, name);
    track(r, name);
    if (!copy && linkat(dirfd, path, r->dir_fd, name, 0) == 0) return;
    int in = openat(dirfd, path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (in < 0 || copy_file(in, r->dir_fd, name) != 0)
        die("cannot keep %s in the file history %s: %s", path, r->dir, strerror(errno));
    close(in);
}

void path_history_before(path_recorder *r, uint64_t at, int dirfd, const char *path, enum path_change how)
{
    char target[PATH_MAX];
    if (sys_canonical_target(dirfd, path, target, sizeof target) || set_find(&r->recorded, target))
        return; /* the call fails; or its first change since the checkpoint is recorded */
    struct stat st;
    record rec = {.at = at, .then = PATH_ABSENT, .len = (uint16_t)strlen(target)};
    if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (how == PATH_CREATE) return; /* it stays what it is */
        rec.then = S_ISREG(st.st_mode) ? PATH_FILE : PATH_OTHER;
        if (rec.then == PATH_FILE) {
            keep(r, dirfd, path, how == PATH_TRUNCATE);
            rec.kept = r->kept++;
        }
    }
    char buf[sizeof rec + PATH_MAX];
    memcpy(buf, &rec, sizeof rec);
    memcpy(buf + sizeof rec, target, rec.len);
    /* One write: a chunk reading the journal meanwhile sees whole records or none. */
    if (write(r->journal, buf, sizeof rec + rec.len) != (ssize_t)(sizeof rec + rec.len))
        die("cannot write the file history %s: %s", r->dir, strerror(errno));
    set_add(&r->recorded, target, rec.then, rec.kept);
    if (!set_find(&r->origin, target)) {
        set_add(&r->origin, target, rec.then, rec.kept);
        if (!(r->order = realloc(r->order, (r->norder + 1) * sizeof *r->order))) die("out of memory");
        r->order[r->norder++] = set_find(&r->origin, target)->path; /* a string that stays where it is */
    }
}

/* A copy of the history's file number `kept` at target (nothing there now):
 * a copy, so that what later runs write there does not change the
 * history's. 0, or -1 with errno. */
static int copy_out(int dir_fd, uint32_t kept, const char *target)
{
    char name[16];
    kept_name(kept, name);
    int in = openat(dir_fd, name, O_RDONLY | O_CLOEXEC);
    return in < 0 ? -1 : sys_close_then(in, copy_file(in, AT_FDCWD, target));
}

void path_history_undo(path_recorder *r, uint64_t at)
{
    path_history_mark(r); /* the undoing is recorded too, for the runs restored before it */
    for (size_t i = r->norder; i-- > 0;) { /* the newest first: a file before the directory made for it */
        const char *target = r->order[i];
        const entry *was = set_find(&r->origin, target);
        if (was->then == PATH_OTHER) continue; /* a directory or a link: left as it is */
        struct stat st;
        bool there = lstat(target, &st) == 0;
        if (there && S_ISDIR(st.st_mode)) continue; /* a checkpoint's working directory may be in it */
        if (!there && was->then == PATH_ABSENT) continue;
        path_history_before(r, at, AT_FDCWD, target, PATH_REMOVE); /* what it is now, nothing included */
        if (there && unlink(target) != 0) continue;
        if (was->then == PATH_FILE && copy_out(r->dir_fd, was->kept, target) != 0)
            die("cannot put %s back from the file history %s: %s", target, r->dir, strerror(errno));
    }
}

void path_recorder_close(path_recorder *r)
{
    if (!r) return;
    close(r->journal);
    close(r->dir_fd);
    set_clear(&r->recorded);
    set_clear(&r->origin);
    free(r->order);
    free(r->dir);
    free(r);
}

void path_history_sync(const char *dir)
{
    char *path;
    if (asprintf(&path, "%s/" JOURNAL, dir) < 0) die("out of memory");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0) die("cannot flush %s: %s", path, strerror(errno));
    close(fd);
    free(path);
}

void path_history_remove(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
    rmdir(dir);
}

/* ------------------------------------------------- a chunk: consulting */

struct path_view {
    char *dir;
    int dir_fd, journal;
    uint64_t since;
    off_t read;   /* the journal's bytes parsed so far: whole records */
    path_set then; /* each path's first record at or after since */
};

path_view *path_history_open(const char *dir, uint64_t since, char *err, size_t errlen)
{
    int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    int journal = fd < 0 ? -1 : openat(fd, JOURNAL, O_RDONLY | O_CLOEXEC);
    if (journal < 0) {
        snprintf(err, errlen, "cannot read the file history %s: %s", dir, strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    path_view *v = calloc(1, sizeof *v);
    if (!v || !(v->dir = strdup(dir))) die("out of memory");
    v->dir_fd = fd, v->journal = journal, v->since = since;
    return v;
}

/* Parse what the pass has added to the journal since the last time. */
static void catch_up(path_view *v)
{
    for (;;) {
        record rec;
        char path[PATH_MAX];
        if (pread(v->journal, &rec, sizeof rec, v->read) != (ssize_t)sizeof rec) return;
        if (rec.len >= sizeof path || rec.then > PATH_OTHER) die("%s/" JOURNAL ": corrupted", v->dir);
        if (pread(v->journal, path, rec.len, v->read + (off_t)sizeof rec) != rec.len) return;
        path[rec.len] = '\0';
        v->read += (off_t)(sizeof rec + rec.len);
        if (rec.at >= v->since && !set_find(&v->then, path)) set_add(&v->then, path, rec.then, rec.kept);
    }
}

enum path_then path_history_then(path_view *v, const char *target, char *kept)
{
    catch_up(v);
    const entry *e = set_find(&v->then, target);
    if (!e) return PATH_AS_NOW;
    if (e->then == PATH_FILE) snprintf(kept, PATH_MAX, "%s/%u", v->dir, e->kept);
    return (enum path_then)e->then;
}

int path_history_put_back(path_view *v, bool (*allowed)(void *ctx, const char *path), void *ctx, char *err,
                          size_t errlen)
{
    catch_up(v);
    for (size_t i = 0; i < v->then.cap; i++) {
        const entry *e = &v->then.e[i];
        if (!e->path || e->then == PATH_OTHER) continue; /* a directory or a link: left as it is */
        if (!allowed(ctx, e->path)) {
            snprintf(err, errlen, "the file history %s names %s, outside the directories the guest may write (see "
                     "--allow-write)", v->dir, e->path);
            return -1;
        }
        struct stat st;
        if (lstat(e->path, &st) == 0 && !S_ISDIR(st.st_mode) && unlink(e->path) != 0) {
            snprintf(err, errlen, "cannot put %s back as it was: %s", e->path, strerror(errno));
            return -1;
        }
        if (e->then == PATH_FILE && copy_out(v->dir_fd, e->kept, e->path) != 0) {
            snprintf(err, errlen, "cannot put %s back as it was from the file history %s: %s", e->path, v->dir,
                     strerror(errno));
            return -1;
        }
    }
    return 0;
}

void path_view_close(path_view *v)
{
    if (!v) return;
    close(v->journal);
    close(v->dir_fd);
    set_clear(&v->then);
    free(v->dir);
    free(v);
}
