/* Paths: the guest's cwd and the host directory behind RV_GUEST_CWD, write
 * confinement, and paths naming the program itself. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys_internal.h"

#define GUEST_AT_FDCWD (-100)

int sys_dirfd(rv_proc *p, int64_t guest_dirfd)
{
    if (guest_dirfd == GUEST_AT_FDCWD)
        return p->os.cwd_fd;
    rv_file *f = sys_file(p, (uint64_t)guest_dirfd);
    return f ? f->host_fd : -1;
}

/* The rest of path below dir: "" for dir itself, "/..." below it; NULL
 * when path is neither. */
static const char *path_below(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/') /* every absolute path */
        return path[0] != '/' ? NULL : path[1] ? path : "";
    if (strncmp(path, dir, n) != 0 || (path[n] != '\0' && path[n] != '/'))
        return NULL;
    return path + n;
}

/* out = path with its leading `from` replaced by `to`; path itself when it
 * is not below from (or from or to is NULL). 0, or -ENAMETOOLONG. */
static int rebase(const char *path, const char *from, const char *to, char *out, size_t size)
{
    const char *rest = from && to ? path_below(path, from) : NULL;
    if (!rest)
        to = "", rest = path;
    else if (strcmp(to, "/") == 0 && *rest) /* not "//x" */
        to = "";
    int n = snprintf(out, size, "%s%s", to, rest);
    return n >= 0 && (size_t)n < size ? 0 : -ENAMETOOLONG;
}

int sys_host_path(const char *root, const char *path, char *out, size_t size)
{
    return rebase(path, RV_GUEST_CWD, root, out, size);
}

int sys_guest_path(const char *root, const char *path, char *out, size_t size)
{
    return rebase(path, root, RV_GUEST_CWD, out, size);
}

bool sys_path_in(rv_proc *p, uint64_t addr, char *buf, size_t size, int64_t *err)
{
    if (!mem_read_string(&p->mem, addr, buf, size)) {
        *err = mem_ok(&p->mem, addr, 1, GP_R) ? -ENAMETOOLONG : -EFAULT;
        return false;
    }
    if (!p->os.cwd_root || !path_below(buf, RV_GUEST_CWD))
        return true;
    char guest[PATH_MAX]; /* size <= PATH_MAX: every caller's buffer */
    snprintf(guest, sizeof guest, "%s", buf);
    *err = sys_host_path(p->os.cwd_root, guest, buf, size);
    return *err == 0;
}

bool sys_guest_dir(const char *path)
{
    return path_below(RV_GUEST_CWD, path) || path_below(RV_GUEST_BIN, path);
}

bool sys_fd_path(int host_fd, char *buf, size_t size)
{
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", host_fd);
    ssize_t n = readlink(link, buf, size - 1);
    if (n < 0 || (size_t)n >= size - 1)
        return false;
    buf[n] = '\0';
    return true;
}

int sys_reopen_fd(int host_fd, int flags)
{
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", host_fd);
    return open(self, flags | O_CLOEXEC);
}

int sys_close_then(int fd, int result)
{
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

/* The part after "/proc/self/" or "/proc/<guest pid>/", or NULL. */
static const char *self_proc_entry(const char *path)
{
    static const char *const prefixes[] = {"/proc/self/", "/proc/thread-self/", "/proc/1000/", "/proc/1000/task/1000/"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) == 0)
            return path + n;
    }
    return NULL;
}

const char *sys_self_path(rv_proc *p, const char *path)
{
    const char *entry = self_proc_entry(path);
    if ((entry && strcmp(entry, "exe") == 0) || (p->os.guest_exe && strcmp(path, p->os.guest_exe) == 0))
        return p->os.exe_path;
    return path;
}

bool sys_self_link(rv_proc *p, const char *path, char *out, size_t size)
{
    const char *entry = self_proc_entry(path);
    const char *target = NULL;
    char fdpath[PATH_MAX];
    if (!entry)
        return false;
    if (strcmp(entry, "exe") == 0)
        target = p->os.guest_exe;
    else if (strcmp(entry, "cwd") == 0)
        target = p->os.cwd;
    else if (strncmp(entry, "fd/", 3) == 0) {
        char *end;
        long fd = strtol(entry + 3, &end, 10);
        rv_file *f = *end ? NULL : sys_file(p, (uint64_t)fd);
        if (!f)
            return false;
        if (f->path) /* a host path: the guest's name for it */
            return sys_guest_path(p->os.cwd_root, f->path, out, size) == 0;
        target = (snprintf(fdpath, sizeof fdpath, "pipe:[%ld]", fd), fdpath);
    }
    if (!target || strlen(target) >= size)
        return false;
    strcpy(out, target);
    return true;
}

static void append_maps(rv_proc *p, FILE *f)
{
    for (size_t i = 0; i < p->mem.nvmas; i++) {
        const rv_vma *v = &p->mem.vmas[i];
        char seen[PATH_MAX]; /* a mapped file's path as the guest knows it */
        const char *name = v->label                                 ? v->label
                           : v->path && !strcmp(v->path, p->os.exe_path) ? p->os.guest_exe
                           : v->path && !sys_guest_path(p->os.cwd_root, v->path, seen, sizeof seen) ? seen
                           : v->path                                  ? v->path
                                                                      : "";
        fprintf(f, "%08llx-%08llx %c%c%c%c %08llx 00:00 0", (unsigned long long)v->start, (unsigned long long)v->end,
                v->prot & GP_R ? 'r' : '-', v->prot & GP_W ? 'w' : '-', v->prot & GP_X ? 'x' : '-',
                v->kind == VMA_FILE_SHARED ? 's' : 'p', (unsigned long long)v->file_offset);
        fprintf(f, "%s%s\n", *name ? "                          " : "", name);
    }
}

int sys_memory_file(const char *name, const void *data, size_t len)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < len;) {
        ssize_t n = write(fd, (const char *)data + done, len - done);
        if (n <= 0) {
            close(fd);
            errno = EIO;
            return -1;
        }
        done += (size_t)n;
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

int sys_open_self(rv_proc *p, const char *path)
{
    const char *entry = self_proc_entry(path);
    if (!entry || (strcmp(entry, "cmdline") && strcmp(entry, "environ") && strcmp(entry, "maps")))
        return -1;
    int fd = memfd_create("rvsim-proc", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(dup(fd), "w");
    if (!f) {
        close(fd);
        return -1;
    }
    if (strcmp(entry, "cmdline") == 0)
        fwrite(p->os.cmdline, 1, p->os.cmdline_len, f);
    else if (strcmp(entry, "environ") == 0)
        fwrite(p->os.environ, 1, p->os.environ_len, f);
    else
        append_maps(p, f);
    fclose(f);
    lseek(fd, 0, SEEK_SET);
    return fd;
}

int sys_canonical_target(int dirfd, const char *path, char *out, size_t size)
{
    char parent[PATH_MAX], base[NAME_MAX + 1];
    const char *slash = strrchr(path, '/');
    if (slash) {
        size_t plen = (size_t)(slash - path);
        if (plen >= sizeof parent || strlen(slash + 1) > NAME_MAX)
            return -ENAMETOOLONG;
        memcpy(parent, path, plen);
        parent[plen] = '\0';
        if (plen == 0)
            strcpy(parent, "/");
        strcpy(base, slash + 1);
    } else {
        if (strlen(path) > NAME_MAX)
            return -ENAMETOOLONG;
        strcpy(parent, ".");
        strcpy(base, path);
    }
    struct stat st;
    bool link = fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
    bool named = *base && strcmp(base, ".") && strcmp(base, "..");
    if (link || !named) {
        int existing = openat(dirfd, path, O_PATH | O_CLOEXEC);
        if (existing >= 0) { /* symlinks followed: the target's own canonical path */
            bool ok = sys_fd_path(existing, out, size);
            close(existing);
            return ok ? 0 : -EACCES;
        }
        return link ? -EACCES : -ENOENT; /* a dangling symlink would create its target elsewhere */
    }
    /* A name: its directory's canonical path and the name, whether or not
     * it exists. Not the file's own path: a file renamed over or removed
     * meanwhile (by a chunked run's functional pass, beside its chunks)
     * would read back as "PATH (deleted)". */
    int pfd = openat(dirfd, parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (pfd < 0)
        return -errno;
    char dir[PATH_MAX];
    bool ok = sys_fd_path(pfd, dir, sizeof dir);
    close(pfd);
    if (!ok || strlen(dir) + strlen(base) + 2 > size)
        return -ENAMETOOLONG;
    size_t dlen = strlen(dir);
    memcpy(out, dir, dlen);
    if (strcmp(dir, "/") != 0)
        out[dlen++] = '/';
    strcpy(out + dlen, base);
    return 0;
}

int64_t sys_check_writable(rv_proc *p, int dirfd, const char *path)
{
    static const char *const always[] = {"/dev/null", "/dev/zero"};
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
        if (strcmp(path, always[i]) == 0)
            return 0;
    char target[PATH_MAX];
    int r = sys_canonical_target(dirfd, path, target, sizeof target);
    if (r)
        return r;
    for (int i = 0; i < p->os.nwrite_roots; i++)
        if (path_below(target, p->os.write_roots[i]))
            return 0;
    return -EACCES;
}

int64_t sys_alloc_fd(rv_proc *p, int64_t from)
{
    for (int64_t fd = from < 0 ? 0 : from; fd < RV_MAX_FDS; fd++)
        if (p->os.files[fd].host_fd < 0)
            return fd;
    return -EMFILE;
}
