/* A run whose files are kept apart from the host's (issue 38). The chunks of
 * a chunked full run are simulated from the functional pass's checkpoints
 * while the pass goes on: a chunk must not change the files the pass reads
 * and writes, nor see what the pass has done to them since its checkpoint.
 * In such a run (p->os.apart.on, set when a chunk's checkpoint is restored)
 * a regular file the guest opens for writing is a private copy in memory (a
 * memfd named APART_NAME) of the host file (empty with O_TRUNC or when the
 * guest creates it), which later opens of the same path share, also once
 * the guest has closed it; unlink and rename act on the copies only, and the calls
 * that would only create or change a path answer without touching the host.
 * A host file born after the checkpoint was taken (statx's birth time, from
 * the clock tick the checkpoint recorded) was not there then: the run does
 * not see it. Files read without a copy are the host's (as at the
 * checkpoint unless the pass changed them since: then the chunk ends
 * elsewhere than the pass, and sim says so). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys_internal.h"

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

/* Copy what in holds, from its start, into out. 0, or -1 with errno. */
static int copy_whole(int in, int out)
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
    if (memfd >= 0 && copy_whole(host_fd, memfd))
        return sys_close_then(memfd, -1);
    return as_opened(memfd, flags);
}

/* Was the host file sx describes created after the checkpoint? (Unknown
 * birth, on a file system without it: no.) */
static bool born_since(const rv_proc *p, const struct statx *sx)
{
    if (!p->os.apart.since_ns || !(sx->stx_mask & STATX_BTIME))
        return false;
    int64_t born = (int64_t)sx->stx_btime.tv_sec * 1000000000 + sx->stx_btime.tv_nsec;
    return born >= p->os.apart.since_ns;
}

/* Did path name a host file at the checkpoint (and *sx describes it)? */
static bool on_host_then(const rv_proc *p, int dirfd, const char *path, int at_flags, struct statx *sx)
{
    return statx(dirfd, path, at_flags, STATX_TYPE | STATX_MODE | STATX_BTIME, sx) == 0 && !born_since(p, sx);
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

/* The same for the file path names (relative to dirfd). */
static int copy_at(rv_proc *p, int dirfd, const char *path)
{
    char target[PATH_MAX];
    return sys_canonical_target(dirfd, path, target, sizeof target) ? -1 : copy_named(p, target);
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

bool sys_apart_openat(rv_proc *p, int dirfd, const char *real, int flags, mode_t mode, int64_t *result)
{
    char target[PATH_MAX];
    if (sys_canonical_target(dirfd, real, target, sizeof target))
        return false; /* the host's open fails as it would have */
    int first = copy_named(p, target);
    if (first >= 0) {
        *result = open_copy(p, first, flags, target);
        return true;
    }
    struct statx sx;
    bool exists = statx(dirfd, real, 0, STATX_TYPE | STATX_MODE | STATX_BTIME, &sx) == 0;
    bool there = exists && !born_since(p, &sx);
    if (there && !S_ISREG(sx.stx_mode))
        return false;
    if (!writes(flags)) {
        *result = -ENOENT;
        return exists && !there;
    }
    if (there && (flags & O_CREAT) && (flags & O_EXCL)) {
        *result = -EEXIST;
        return true;
    }
    if (!there && !(flags & O_CREAT)) {
        *result = -ENOENT;
        return true;
    }
    int host = new_copy(dirfd, real, there && !(flags & O_TRUNC), flags);
    if (host < 0) {
        *result = sys_err();
        return true;
    }
    fchmod(host, there ? sx.stx_mode & 07777 : mode); /* as fstat would show the host's */
    *result = sys_install_fd(p, host, flags, target, 0, 0);
    return true;
}

bool sys_apart_stat(rv_proc *p, int dirfd, const char *path, struct stat *st, int64_t *result)
{
    int first = copy_at(p, dirfd, path);
    if (first >= 0) {
        *result = fstat(p->os.files[first].host_fd, st) == 0 ? 0 : sys_err();
        return true;
    }
    struct statx sx;
    *result = -ENOENT;
    return statx(dirfd, path, 0, STATX_BTIME, &sx) == 0 && born_since(p, &sx);
}

/* Is path there for the run: a copy of its own, or a host path that was
 * there at the checkpoint? */
static bool there_for_run(rv_proc *p, int dirfd, const char *path)
{
    struct statx sx;
    return copy_at(p, dirfd, path) >= 0 || on_host_then(p, dirfd, path, AT_SYMLINK_NOFOLLOW, &sx);
}

int64_t sys_apart_pretend(rv_proc *p, int dirfd, const char *path, bool created)
{
    bool there = there_for_run(p, dirfd, path);
    if (created)
        return there ? -EEXIST : 0;
    return there ? 0 : -ENOENT;
}

int64_t sys_apart_unlink(rv_proc *p, int dirfd, const char *path)
{
    char target[PATH_MAX];
    int r = sys_canonical_target(dirfd, path, target, sizeof target);
    if (r)
        return r;
    return rename_copies(p, target, NULL) ? 0 : sys_apart_pretend(p, dirfd, path, false);
}

int64_t sys_apart_rename(rv_proc *p, int from_dirfd, const char *from, int to_dirfd, const char *to)
{
    char source[PATH_MAX], dest[PATH_MAX];
    int r = sys_canonical_target(from_dirfd, from, source, sizeof source);
    if (!r)
        r = sys_canonical_target(to_dirfd, to, dest, sizeof dest);
    if (r)
        return r;
    if (copy_named(p, source) < 0)
        return sys_apart_pretend(p, from_dirfd, from, false);
    rename_copies(p, dest, NULL); /* replaced */
    rename_copies(p, source, dest);
    return 0;
}
