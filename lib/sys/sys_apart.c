/* A run whose files are kept apart from the host's (issue 38). The chunks of
 * a chunked full run are simulated from the functional pass's checkpoints
 * while the pass goes on: a chunk must not change the files the pass reads
 * and writes, nor see what the pass has done to them since its checkpoint.
 * In such a run (p->os.apart.on, set when a chunk's checkpoint is restored)
 * a regular file the guest opens for writing is a private copy in memory (a
 * memfd named APART_NAME) of the file (empty with O_TRUNC or when the guest
 * creates it), which later opens of the same path share, also once the guest
 * has closed it; unlink and rename act on the copies only, and the calls
 * that would only create or change a path answer without touching the host.
 * A path the pass has changed since the checkpoint is what the pass's file
 * history (path_history.c) says it was then: not there, or a file the
 * history kept. Files read without a copy are the host's (as at the
 * checkpoint unless the pass wrote into them since: then the chunk ends
 * elsewhere than the pass, and sim says so). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path_history.h"
#include "sys_internal.h"
#include "util.h"

#define APART_NAME "rvsample-apart"

/* The flags of a kept copy's entry: a file the guest has closed but the run
 * still knows (sys_apart_keep); no open(2) flags the host accepts. */
enum { KEPT = -1 };

/* A new open file description of host_fd's file, with flags' access mode
 * and O_APPEND (the same file, another offset). */
static int reopen_as(int host_fd, int flags) { return sys_reopen_fd(host_fd, flags & (O_ACCMODE | O_APPEND)); }

/* The copy memfd as the guest opened it; the memfd itself closed. */
static int as_opened(int memfd, int flags)
{
    return memfd < 0 ? -1 : sys_close_then(memfd, reopen_as(memfd, flags));
}

int sys_apart_file(const void *data, size_t len, int flags)
{
    return as_opened(sys_memory_file(APART_NAME, data, len), flags);
}

int sys_copy_whole(int in, int out)
{
    char buf[1 << 16];
    for (off_t at = 0;;) {
        ssize_t n = pread(in, buf, sizeof buf, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return (int)n;
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(out, buf + done, (size_t)(n - done));
            if (w <= 0)
                return -1;
            done += w;
        }
        at += n;
    }
}

int sys_apart_copy(int host_fd, int flags)
{
    int memfd = memfd_create(APART_NAME, MFD_CLOEXEC);
    if (memfd >= 0 && sys_copy_whole(host_fd, memfd))
        return sys_close_then(memfd, -1);
    return as_opened(memfd, flags);
}

#define STATX_WHAT (STATX_TYPE | STATX_MODE)

/* Where target is in l, or l->n. */
static size_t path_at(const rv_paths *l, const char *target)
{
    size_t i = 0;
    while (i < l->n && strcmp(l->v[i], target)) i++;
    return i;
}

static bool listed(const rv_paths *l, const char *target) { return path_at(l, target) < l->n; }

/* Put target in l, or take it out. */
static void list_path(rv_paths *l, const char *target, bool in)
{
    size_t i = path_at(l, target);
    if (in && i == l->n) {
        char **grown = realloc(l->v, (i + 1) * sizeof *grown);
        if (!grown || !(grown[i] = strdup(target))) die("out of memory");
        l->v = grown;
        l->n++;
    } else if (!in && i < l->n) {
        free(l->v[i]);
        l->v[i] = l->v[--l->n];
    }
}

/* The run has removed the path at target, or made it again: whether it is
 * there is no longer the host's or the history's to say. */
static void set_gone(rv_proc *p, const char *target, bool gone)
{
    list_path(&p->os.apart.gone, target, gone);
    if (gone) list_path(&p->os.apart.made, target, false);
}

/* path's canonical target (sys_canonical_target) in buf (PATH_MAX bytes),
 * or NULL when it has none (the host's calls fail as they would have). */
static const char *canonical(int dirfd, const char *path, char *buf)
{
    return sys_canonical_target(dirfd, path, buf, PATH_MAX) ? NULL : buf;
}

/* Was there something at path (relative to dirfd; target: its canonical
 * target, or NULL) at the checkpoint? *sx describes it, and *from is where
 * its bytes are now: path itself, or the file the pass's history kept (in
 * kept, PATH_MAX bytes). *now: is there something at path on the host. */
static bool there_then(const rv_proc *p, int dirfd, const char *path, const char *target, int at_flags,
                       struct statx *sx, const char **from, char *kept, bool *now)
{
    *from = path;
    /* The host first: the pass records a change before it makes it. */
    *now = statx(dirfd, path, at_flags, STATX_WHAT, sx) == 0;
    if (!target)
        return *now;
    if (listed(&p->os.apart.gone, target))
        return false;
    if (listed(&p->os.apart.made, target)) {
        if (!*now) sx->stx_mode = S_IFDIR;
        return true;
    }
    if (!p->os.apart.history)
        return *now;
    switch (path_history_then(p->os.apart.history, target, kept)) {
    case PATH_AS_NOW:
        return *now;
    case PATH_ABSENT:
        return false;
    case PATH_FILE:
        *from = kept;
        return statx(AT_FDCWD, kept, 0, STATX_WHAT, sx) == 0;
    case PATH_OTHER:
        if (!*now) sx->stx_mode = S_IFDIR; /* not a regular file: the host's calls answer */
        return true;
    }
    return *now;
}

int sys_apart_as_then(rv_proc *p, int dirfd, const char *path, int flags, int host_fd)
{
    char target[PATH_MAX], kept[PATH_MAX];
    if (!p->os.apart.history || sys_canonical_target(dirfd, path, target, sizeof target) ||
        path_history_then(p->os.apart.history, target, kept) != PATH_FILE)
        return host_fd;
    if (host_fd >= 0)
        close(host_fd);
    return open(kept, flags);
}

bool sys_apart_is_copy(const rv_file *f)
{
    static const char prefix[] = "/memfd:" APART_NAME;
    char link[PATH_MAX];
    return f->host_fd >= 0 && f->path && sys_fd_path(f->host_fd, link, sizeof link) &&
           strncmp(link, prefix, sizeof prefix - 1) == 0;
}

/* Is f the run's copy of the file at target? */
static bool copy_of(const rv_file *f, const char *target)
{
    return f->path && strcmp(f->path, target) == 0 && sys_apart_is_copy(f);
}

/* The lowest guest fd on the run's copy of the file at target, or -1. */
static int copy_named(rv_proc *p, const char *target)
{
    for (int fd = 0; fd < RV_MAX_FDS; fd++)
        if (copy_of(&p->os.files[fd], target))
            return fd;
    return -1;
}

static void forget(rv_file *f)
{
    close(f->host_fd);
    free(f->path);
    *f = (rv_file){.host_fd = -1};
}

/* The copies at target now go by `to` (NULL: by no name, unlinked: a kept
 * one is forgotten); false when there are none. */
static bool rename_copies(rv_proc *p, const char *target, const char *to)
{
    bool any = false;
    for (int fd = 0; fd < RV_MAX_FDS; fd++) {
        rv_file *f = &p->os.files[fd];
        if (!copy_of(f, target))
            continue;
        any = true;
        free(f->path);
        f->path = to ? strdup(to) : NULL;
        if (!to && f->flags == KEPT)
            forget(f);
    }
    return any;
}

bool sys_apart_keep(rv_proc *p, int fd)
{
    rv_file *f = &p->os.files[fd];
    if (!sys_apart_is_copy(f))
        return false;
    for (int other = 0; other < RV_MAX_FDS; other++)
        if (other != fd && copy_of(&p->os.files[other], f->path))
            return false; /* another one stays */
    for (int slot = RV_MAX_FDS - 1; slot > fd; slot--)
        if (p->os.files[slot].host_fd < 0) {
            p->os.files[slot] = (rv_file){.host_fd = f->host_fd, .flags = KEPT, .path = f->path};
            *f = (rv_file){.host_fd = -1};
            return true;
        }
    return false;
}

static bool writes(int flags)
{
    return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
}

/* Another open of a file the run has a copy of (guest fd `first`). */
static int64_t open_copy(rv_proc *p, int first, int flags, const char *target)
{
    if ((flags & O_CREAT) && (flags & O_EXCL))
        return -EEXIST;
    int host = reopen_as(p->os.files[first].host_fd, flags);
    if (host < 0)
        return sys_err();
    if ((flags & O_TRUNC) && writes(flags) && ftruncate(host, 0) != 0) {
        close(host);
        return sys_err();
    }
    return sys_install_fd(p, host, flags, target, 0, 0);
}

/* A new copy of the host file at (dirfd, real), or an empty one. */
static int new_copy(int dirfd, const char *real, bool from_host, int flags)
{
    if (!from_host)
        return sys_apart_file(NULL, 0, flags);
    int in = openat(dirfd, real, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    return in < 0 ? -1 : sys_close_then(in, sys_apart_copy(in, flags));
}

bool sys_apart_openat(rv_proc *p, int dirfd, const char *real, int flags, mode_t mode, int64_t *result, int *opened)
{
    *opened = -1;
    char target[PATH_MAX];
    if (sys_canonical_target(dirfd, real, target, sizeof target))
        return false; /* the host's open fails as it would have */
    int first = copy_named(p, target);
    if (first >= 0) {
        *result = open_copy(p, first, flags, target);
        return true;
    }
    /* A read opens the host's file before the history is read: the pass
     * records a change before it makes it, so a file opened with no record
     * yet is the file as it was. */
    int host = writes(flags) ? -1 : openat(dirfd, real, flags | O_CLOEXEC);
    struct statx sx;
    char kept[PATH_MAX];
    const char *from;
    bool now, there = there_then(p, dirfd, real, target, 0, &sx, &from, kept, &now);
    if (there && !S_ISREG(sx.stx_mode)) {
        *opened = host;
        return false;
    }
    if (!writes(flags)) {
        if (there && from == real) {
            *opened = host;
            return false;
        }
        if (host >= 0)
            close(host);
        if (there) { /* the file as the history kept it */
            host = openat(AT_FDCWD, from, flags | O_CLOEXEC);
            *result = host < 0 ? sys_err() : sys_install_fd(p, host, flags, target, 0, 0);
            return true;
        }
        *result = -ENOENT;
        return now;
    }
    if (there && (flags & O_CREAT) && (flags & O_EXCL)) {
        *result = -EEXIST;
        return true;
    }
    if (!there && !(flags & O_CREAT)) {
        *result = -ENOENT;
        return true;
    }
    host = new_copy(dirfd, from, there && !(flags & O_TRUNC), flags);
    if (host < 0) {
        *result = sys_err();
        return true;
    }
    fchmod(host, there ? sx.stx_mode & 07777 : mode); /* as fstat would show the host's */
    *result = sys_install_fd(p, host, flags, target, 0, 0);
    set_gone(p, target, false);
    return true;
}

bool sys_apart_stat(rv_proc *p, int dirfd, const char *path, struct stat *st, int64_t *result)
{
    char buf[PATH_MAX];
    const char *target = canonical(dirfd, path, buf);
    int first = target ? copy_named(p, target) : -1;
    if (first >= 0) {
        *result = fstat(p->os.files[first].host_fd, st) == 0 ? 0 : sys_err();
        return true;
    }
    struct statx sx;
    char kept[PATH_MAX];
    const char *from;
    bool now, there = there_then(p, dirfd, path, target, 0, &sx, &from, kept, &now);
    if (there && from != path) {
        *result = stat(from, st) == 0 ? 0 : sys_err();
        return true;
    }
    *result = -ENOENT;
    return now && !there;
}

/* Is path there for the run: a copy of its own, or a host path that was
 * there at the checkpoint? */
static bool there_for_run(rv_proc *p, int dirfd, const char *path)
{
    char buf[PATH_MAX];
    const char *target = canonical(dirfd, path, buf);
    if (target && copy_named(p, target) >= 0)
        return true;
    struct statx sx;
    char kept[PATH_MAX];
    const char *from;
    bool now;
    return there_then(p, dirfd, path, target, AT_SYMLINK_NOFOLLOW, &sx, &from, kept, &now);
}

int64_t sys_apart_pretend(rv_proc *p, int dirfd, const char *path, bool created)
{
    bool there = there_for_run(p, dirfd, path);
    if (created)
        return there ? -EEXIST : 0;
    return there ? 0 : -ENOENT;
}

int64_t sys_apart_mkdir(rv_proc *p, int dirfd, const char *path)
{
    char target[PATH_MAX];
    int64_t r = sys_apart_pretend(p, dirfd, path, true);
    if (!r && !sys_canonical_target(dirfd, path, target, sizeof target)) {
        set_gone(p, target, false);
        list_path(&p->os.apart.made, target, true);
    }
    return r;
}

int64_t sys_apart_unlink(rv_proc *p, int dirfd, const char *path)
{
    char target[PATH_MAX];
    int r = sys_canonical_target(dirfd, path, target, sizeof target);
    if (r)
        return r;
    r = rename_copies(p, target, NULL) ? 0 : (int)sys_apart_pretend(p, dirfd, path, false);
    if (!r)
        set_gone(p, target, true);
    return r;
}

/* The run renames a file it has no copy of: a copy of it, closed (kept), for
 * the rename to move. 0, or -errno. */
static int64_t copy_to_move(rv_proc *p, int dirfd, const char *path, const char *target)
{
    struct statx sx;
    char kept[PATH_MAX];
    const char *from;
    bool now;
    if (!there_then(p, dirfd, path, target, AT_SYMLINK_NOFOLLOW, &sx, &from, kept, &now))
        return -ENOENT;
    if (!S_ISREG(sx.stx_mode))
        return 0; /* a directory or a link: the rename only pretends */
    int host = new_copy(dirfd, from, true, O_RDWR);
    if (host < 0)
        return sys_err();
    fchmod(host, sx.stx_mode & 07777);
    int64_t fd = sys_install_fd(p, host, O_RDWR, target, 0, 0);
    if (fd < 0)
        return fd;
    if (!sys_apart_keep(p, (int)fd)) { /* no free descriptor to keep it in */
        forget(&p->os.files[fd]);
        return -EMFILE;
    }
    return 0;
}

int64_t sys_apart_rename(rv_proc *p, int from_dirfd, const char *from, int to_dirfd, const char *to)
{
    char source[PATH_MAX], dest[PATH_MAX];
    int r = sys_canonical_target(from_dirfd, from, source, sizeof source);
    if (!r)
        r = sys_canonical_target(to_dirfd, to, dest, sizeof dest);
    if (r)
        return r;
    if (copy_named(p, source) < 0 && (r = (int)copy_to_move(p, from_dirfd, from, source)))
        return r;
    rename_copies(p, dest, NULL); /* replaced */
    rename_copies(p, source, dest);
    set_gone(p, source, true);
    set_gone(p, dest, false);
    return 0;
}
