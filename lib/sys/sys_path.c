/* Paths: the guest's cwd, write confinement, and paths naming the program itself. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
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

bool sys_path_in(rv_proc *p, uint64_t addr, char *buf, size_t size, int64_t *err)
{
    if (mem_read_string(&p->mem, addr, buf, size))
        return true;
    *err = mem_ok(&p->mem, addr, 1, GP_R) ? -ENAMETOOLONG : -EFAULT;
    return false;
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

const char *sys_self_path(rv_proc *p, const char *path)
{
    if (strcmp(path, "/proc/self/exe") == 0)
        return p->os.exe_path;
    return path;
}

static bool under_root(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (strncmp(path, root, n) != 0)
        return false;
    return path[n] == '\0' || path[n] == '/' || (n == 1 && root[0] == '/');
}

/* Canonical absolute path that PATH (relative to dirfd) names or would name
 * once created: the parent directory and an existing final symlink resolved.
 * Returns 0 or a negative errno. */
static int canonical_target(int dirfd, const char *path, char *out, size_t size)
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
    int existing = openat(dirfd, path, O_PATH | O_CLOEXEC);
    if (existing >= 0) { /* exists (symlinks followed): its own canonical path */
        bool ok = sys_fd_path(existing, out, size);
        close(existing);
        return ok ? 0 : -EACCES;
    }
    struct stat st; /* a dangling symlink would create its target elsewhere */
    if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        return -EACCES;
    if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
        return -ENOENT;
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
    int r = canonical_target(dirfd, path, target, sizeof target);
    if (r)
        return r;
    for (int i = 0; i < p->os.nwrite_roots; i++)
        if (under_root(target, p->os.write_roots[i]))
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
