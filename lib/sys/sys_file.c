/* File and directory system calls. Guest descriptors map to host ones; paths
 * are resolved against the guest's cwd; anything that creates or modifies a
 * file is confined to the allowed directories. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "path_history.h"
#include "progress.h"
#include "sys_internal.h"

enum { GUEST_AT_REMOVEDIR = 0x200, GUEST_AT_EMPTY_PATH = 0x1000, GUEST_AT_SYMLINK_NOFOLLOW = 0x100 };

/* Copy the path at a[idx] and find its host dirfd from a[idx-1]. */
#define PATH_ARG(var, dirfd_var, idx)                                            \
    char var[PATH_MAX];                                                          \
    int64_t var##_err;                                                           \
    if (!sys_path_in(p, a[idx], var, sizeof var, &var##_err))                    \
        return var##_err;                                                        \
    int dirfd_var = sys_dirfd(p, (int64_t)a[(idx) - 1]);                         \
    if (dirfd_var < 0 && var[0] != '/')                                          \
        return -EBADF;

#define REQUIRE_WRITABLE(dirfd, path)                                            \
    do {                                                                         \
        int64_t w_ = sys_check_writable(p, (dirfd), (path));                     \
        if (w_)                                                                  \
            return w_;                                                           \
    } while (0)

/* In a run kept apart from the host's files (sys_apart.c), what the call
 * does instead. */
#define UNLESS_APART(instead)                                                    \
    do {                                                                         \
        if (p->os.apart.on)                                                      \
            return (instead);                                                    \
    } while (0)

/* In a chunked run's functional pass, what the path was before the call
 * changes it, for the chunks restored before (path_history.c); the system
 * call's instruction is the one before icount. */
#define RECORD_BEFORE(dirfd, path, how)                                          \
    do {                                                                         \
        if (p->os.history)                                                       \
            path_history_before(p->os.history, p->cpu.icount - 1, (dirfd), (path), (how)); \
    } while (0)

static bool modifies(int flags)
{
    return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC | O_APPEND));
}

int64_t sys_install_fd(rv_proc *p, int host_fd, int flags, const char *path, int64_t from, uint64_t ofd)
{
    int64_t fd = sys_alloc_fd(p, from);
    if (fd < 0) {
        close(host_fd);
        return fd;
    }
    p->os.files[fd] = (rv_file){.host_fd = host_fd, .flags = flags, .path = path ? strdup(path) : NULL,
                                .ofd = ofd ? ofd : ++p->os.last_ofd};
    return fd;
}

SYS(openat)
{
    PATH_ARG(path, dirfd, 1);
    const char *real = sys_self_path(p, path);
    int flags = (int)a[2];
    if (modifies(flags))
        REQUIRE_WRITABLE(dirfd, real);
    int host = sys_open_self(p, path);
    if (host >= 0)
        return sys_install_fd(p, host, flags, path, 0, 0);
    mode_t mode = (mode_t)(a[3] & ~p->os.umask & 07777);
    int64_t apart;
    if (p->os.apart.on && sys_apart_openat(p, dirfd, real, flags, mode, &apart, &host))
        return apart;
    if (flags & (O_CREAT | O_TRUNC))
        RECORD_BEFORE(dirfd, real, (flags & O_TRUNC) ? PATH_TRUNCATE : PATH_CREATE);
    if (host < 0) /* else the host's file, which a run kept apart opened first */
        host = openat(dirfd, real, flags | O_CLOEXEC, mode);
    if (host < 0)
        return sys_err();
    char abs[PATH_MAX];
    const char *named = sys_fd_path(host, abs, sizeof abs) ? abs : real;
    if ((host = sys_random_file(p, host, named)) < 0)
        return sys_err();
    int64_t fd = sys_install_fd(p, host, flags, named, 0, 0);
    if (fd >= 0)
        p->os.files[fd].random = sys_random_device(host, flags);
    return fd;
}

SYS(close)
{
    rv_file *f = sys_file(p, a[0]);
    if (!f)
        return -EBADF;
    sys_locks_close(p, (int)a[0]);
    if (p->os.apart.on && sys_apart_keep(p, (int)a[0]))
        return 0;
    if (!f->is_std || f->owned)
        close(f->host_fd);
    free(f->path);
    *f = (rv_file){.host_fd = -1};
    return 0;
}

/* Check that a guest buffer is accessible as a whole before handing it to the host. */
static bool buffer_ok(rv_proc *p, uint64_t addr, uint64_t len, unsigned prot)
{
    return len == 0 || mem_ok(&p->mem, addr, len, prot);
}

/* The data calls differ only in direction and offset: one path for all four. */
typedef ssize_t (*data_io)(int fd, void *buf, size_t len, off_t offset);
static ssize_t io_read(int fd, void *buf, size_t len, off_t off) { (void)off; return read(fd, buf, len); }
static ssize_t io_write(int fd, void *buf, size_t len, off_t off) { (void)off; return write(fd, buf, len); }
static ssize_t io_pread(int fd, void *buf, size_t len, off_t off) { return pread(fd, buf, len, off); }
static ssize_t io_pwrite(int fd, void *buf, size_t len, off_t off) { return pwrite(fd, buf, len, off); }

/* What a data call does besides the transfer: block on the program's own
 * pipe (wait: POLLIN or POLLOUT; 0 for the positional calls, which pipes
 * refuse), and raise SIGPIPE when it writes to a pipe nobody reads. */
typedef struct io_kind {
    unsigned prot; /* the guest buffer is read (GP_R) or written (GP_W) */
    short wait;
    const char *name;
} io_kind;

static int64_t transfer(rv_proc *p, rv_file *f, const io_kind *k, ssize_t (*io)(void *ctx), void *ctx)
{
    int64_t r = k->wait ? sys_wait_ready(p, f, k->wait, k->name) : 0;
    if (r)
        return r;
    if (k->prot == GP_W)
        return sys_ret(io(ctx));
    if (f->is_std)
        progress_clear(); /* the guest's output starts on a line of its own */
    sigset_t old;
    sys_pipe_guard_begin(&old);
    return sys_pipe_guard_end(p, &old, sys_ret(io(ctx)));
}

typedef struct data_args {
    data_io io;
    int fd;
    void *buf;
    size_t len;
    off_t off;
} data_args;

static ssize_t do_data(void *ctx)
{
    data_args *d = ctx;
    return d->io(d->fd, d->buf, d->len, d->off);
}

/* fd = a[0], buffer (a[1], a[2]), offset a[3] for the positional calls; the
 * guest buffer must be accessible as a whole. */
static int64_t data_call(rv_proc *p, const uint64_t *a, const io_kind *k, data_io io)
{
    rv_file *f = sys_file(p, a[0]);
    if (!f)
        return -EBADF;
    if (!buffer_ok(p, a[1], a[2], k->prot))
        return -EFAULT;
    if (f->random && k->prot == GP_W)
        return sys_random_read(p, mem_host(&p->mem, a[1]), a[2]);
    data_args d = {io, f->host_fd, mem_host(&p->mem, a[1]), a[2], (off_t)a[3]};
    return transfer(p, f, k, do_data, &d);
}

static const io_kind reading = {GP_W, POLLIN, "read"}, writing = {GP_R, POLLOUT, "write"},
                     preading = {GP_W, 0, "pread64"}, pwriting = {GP_R, 0, "pwrite64"};

SYS(read) { return data_call(p, a, &reading, io_read); }
SYS(write) { return data_call(p, a, &writing, io_write); }
SYS(pread64) { return data_call(p, a, &preading, io_pread); }
SYS(pwrite64) { return data_call(p, a, &pwriting, io_pwrite); }

/* Translate a guest iovec array to host iovecs; count or -errno. */
static int64_t iovecs_in(rv_proc *p, uint64_t addr, uint64_t count, unsigned prot, struct iovec *out)
{
    if (count > IOV_MAX)
        return -EINVAL;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t v[2];
        if (!mem_read(&p->mem, v, addr + 16 * i, 16) || !buffer_ok(p, v[0], v[1], prot))
            return -EFAULT;
        out[i].iov_base = mem_host(&p->mem, v[0]);
        out[i].iov_len = v[1];
    }
    return (int64_t)count;
}

typedef struct vector_args {
    int fd, count, flags;
    struct iovec *iov;
    off_t off; /* -1: the file position */
    bool out;
} vector_args;

static ssize_t do_vector(void *ctx)
{
    vector_args *v = ctx;
    if (v->out)
        return pwritev2(v->fd, v->iov, v->count, v->off, v->flags);
    return preadv2(v->fd, v->iov, v->count, v->off, v->flags);
}

/* A vector read of /dev/(u)random: each buffer filled from the stream. */
static int64_t random_readv(rv_proc *p, const struct iovec *iov, int count)
{
    int64_t total = 0;
    for (int i = 0; i < count; i++)
        total += sys_random_read(p, iov[i].iov_base, iov[i].iov_len);
    return total;
}

/* readv/writev and the positional preadv/pwritev(2): fd a[0], iovecs (a[1],
 * a[2]), checked as a whole first like data_call. */
static int64_t vector_call(rv_proc *p, const uint64_t *a, const io_kind *k, off_t off, int flags)
{
    rv_file *f = sys_file(p, a[0]);
    struct iovec iov[IOV_MAX];
    if (!f)
        return -EBADF;
    int64_t n = iovecs_in(p, a[1], a[2], k->prot, iov);
    if (n < 0)
        return n;
    if (f->random && k->prot == GP_W)
        return random_readv(p, iov, (int)n);
    vector_args v = {f->host_fd, (int)n, flags, iov, off, k->prot == GP_R};
    return transfer(p, f, k, do_vector, &v);
}

static const io_kind vreading = {GP_W, POLLIN, "readv"}, vwriting = {GP_R, POLLOUT, "writev"},
                     pvreading = {GP_W, 0, "preadv"}, pvwriting = {GP_R, 0, "pwritev"};

SYS(readv) { return vector_call(p, a, &vreading, -1, 0); }
SYS(writev) { return vector_call(p, a, &vwriting, -1, 0); }
SYS(preadv) { return (int64_t)a[3] < 0 ? -EINVAL : vector_call(p, a, &pvreading, (off_t)a[3], 0); }
SYS(pwritev) { return (int64_t)a[3] < 0 ? -EINVAL : vector_call(p, a, &pvwriting, (off_t)a[3], 0); }
/* Offset -1: at the file position, blocking on a pipe as readv/writev do. */
SYS(preadv2) { return vector_call(p, a, (int64_t)a[3] == -1 ? &vreading : &pvreading, (off_t)a[3], (int)a[5]); }
SYS(pwritev2) { return vector_call(p, a, (int64_t)a[3] == -1 ? &vwriting : &pvwriting, (off_t)a[3], (int)a[5]); }

SYS(lseek)
{
    rv_file *f = sys_file(p, a[0]);
    if (f && f->spooled) /* a pipe to the program, whatever holds its bytes */
        return -ESPIPE;
    return f ? sys_ret(lseek(f->host_fd, (off_t)a[1], (int)a[2])) : -EBADF;
}

/* ------------------------------------------------------------------ stat */

/* struct stat of the asm-generic ABI (riscv64), 128 bytes. */
struct guest_stat {
    uint64_t dev, ino;
    uint32_t mode, nlink, uid, gid;
    uint64_t rdev, pad1;
    int64_t size;
    int32_t blksize, pad2;
    int64_t blocks;
    int64_t atime, atime_nsec, mtime, mtime_nsec, ctime, ctime_nsec;
    uint32_t unused[2];
};

/* What the guest sees of a host stat: host-specific fields are made
 * deterministic (device, owner, block size, times, directory sizes), and the emulator's own
 * standard streams look like pipes whatever they really are, so that stdio
 * buffering, and so the instruction stream, never depends on a terminal. */
static struct guest_stat to_guest_stat(const struct stat *st, bool is_std)
{
    struct guest_stat g;
    memset(&g, 0, sizeof g);
    g.dev = 1, g.ino = st->st_ino, g.nlink = (uint32_t)st->st_nlink;
    g.uid = g.gid = 1000;
    g.blksize = 4096;
    g.atime = g.mtime = g.ctime = RV_CLOCK_EPOCH_SEC;
    if (is_std) {
        g.mode = S_IFIFO | 0600;
        g.ino = 1;
        return g;
    }
    g.mode = st->st_mode, g.rdev = st->st_rdev, g.size = st->st_size, g.blocks = st->st_blocks;
    if (S_ISDIR(st->st_mode)) {
        /* A directory's size and link count follow what other processes
         * create in it (in /tmp, every test's scratch directory): fixed,
         * with nlink 1 meaning "not counted", as btrfs reports it. */
        g.size = 4096, g.blocks = 8, g.nlink = 1;
    }
    return g;
}

/* The guest's view of an open descriptor: 0 or -errno. */
static int64_t stat_fd(rv_proc *p, uint64_t fd, struct guest_stat *g)
{
    rv_file *f = sys_file(p, fd);
    struct stat st;
    if (!f)
        return -EBADF;
    if (fstat(f->host_fd, &st) < 0)
        return sys_err();
    *g = to_guest_stat(&st, f->is_std);
    return 0;
}

/* After a host call on path failed: is it one of the guest's own directories
 * the host lacks ("/guest", RV_GUEST_BIN)? They exist for the guest, as a
 * shell checking $PWD component by component, or realpath, needs. */
static bool missing_guest_dir(const char *path)
{
    return errno == ENOENT && sys_guest_dir(path);
}

/* The *at form shared by newfstatat and statx: (dirfd, path) with
 * AT_EMPTY_PATH meaning dirfd itself. */
static int64_t stat_at(rv_proc *p, uint64_t guest_dirfd, uint64_t path_addr, int flags, struct guest_stat *g)
{
    char path[PATH_MAX];
    int64_t err;
    if (!sys_path_in(p, path_addr, path, sizeof path, &err))
        return err;
    if (!path[0] && (flags & GUEST_AT_EMPTY_PATH))
        return stat_fd(p, guest_dirfd, g);
    int dirfd = sys_dirfd(p, (int64_t)guest_dirfd);
    if (dirfd < 0 && path[0] != '/')
        return -EBADF;
    struct stat st;
    int64_t apart = 0;
    if (p->os.apart.on && sys_apart_stat(p, dirfd, sys_self_path(p, path), &st, &apart)) {
        if (apart)
            return apart;
    } else if (fstatat(dirfd, sys_self_path(p, path), &st, flags & GUEST_AT_SYMLINK_NOFOLLOW) < 0) {
        if (!missing_guest_dir(path))
            return sys_err();
        st = (struct stat){.st_mode = S_IFDIR | 0755, .st_nlink = 2, .st_ino = 2};
    }
    *g = to_guest_stat(&st, false);
    return 0;
}

SYS(fstat)
{
    struct guest_stat g;
    int64_t r = stat_fd(p, a[0], &g);
    if (r)
        return r;
    return mem_write(&p->mem, a[1], &g, sizeof g) ? 0 : -EFAULT;
}

SYS(newfstatat)
{
    struct guest_stat g;
    int64_t r = stat_at(p, a[0], a[1], (int)a[3], &g);
    if (r)
        return r;
    return mem_write(&p->mem, a[2], &g, sizeof g) ? 0 : -EFAULT;
}

SYS(statx)
{
    /* Answer from newfstatat's view so both agree (struct statx layout is
     * the same on every architecture). */
    struct guest_stat g;
    int64_t r = stat_at(p, a[0], a[1], (int)a[2], &g);
    if (r)
        return r;
    struct statx sx;
    memset(&sx, 0, sizeof sx);
    sx.stx_mask = STATX_BASIC_STATS;
    sx.stx_blksize = (uint32_t)g.blksize, sx.stx_nlink = g.nlink, sx.stx_uid = g.uid, sx.stx_gid = g.gid;
    sx.stx_mode = (uint16_t)g.mode, sx.stx_ino = g.ino, sx.stx_size = (uint64_t)g.size;
    sx.stx_blocks = (uint64_t)g.blocks;
    sx.stx_atime.tv_sec = sx.stx_mtime.tv_sec = sx.stx_ctime.tv_sec = sx.stx_btime.tv_sec = g.mtime;
    sx.stx_rdev_major = major(g.rdev), sx.stx_rdev_minor = minor(g.rdev);
    sx.stx_dev_major = 0, sx.stx_dev_minor = 1;
    return mem_write(&p->mem, a[4], &sx, sizeof sx) ? 0 : -EFAULT;
}

SYS(faccessat)
{
    PATH_ARG(path, dirfd, 1);
    const char *real = sys_self_path(p, path);
    if (a[2] & W_OK)
        REQUIRE_WRITABLE(dirfd, real);
    struct stat st;
    int64_t apart;
    if (p->os.apart.on && sys_apart_stat(p, dirfd, real, &st, &apart))
        return apart;
    if (faccessat(dirfd, real, (int)a[2], 0) == 0)
        return 0;
    return missing_guest_dir(path) ? 0 : sys_err();
}

SYS(faccessat2)
{
    return sys_faccessat(p, a);
}

/* A symbolic link's target as the guest reads it (absolute host paths under
 * the guest's cwd root: below RV_GUEST_CWD): 0 or -errno. The guest's own
 * directories are no links (EINVAL). */
static int64_t read_link(rv_proc *p, int dirfd, const char *path, char *target, size_t size)
{
    char raw[PATH_MAX];
    ssize_t n = readlinkat(dirfd, sys_self_path(p, path), raw, sizeof raw - 1);
    if (n < 0)
        return missing_guest_dir(path) ? -EINVAL : sys_err();
    raw[n] = '\0';
    return sys_guest_path(p->os.cwd_root, raw, target, size);
}

SYS(readlinkat)
{
    char path[PATH_MAX], target[PATH_MAX];
    int64_t err;
    if (!sys_path_in(p, a[1], path, sizeof path, &err))
        return err;
    if (!sys_self_link(p, path, target, sizeof target)) {
        int dirfd = sys_dirfd(p, (int64_t)a[0]);
        if (dirfd < 0 && path[0] != '/')
            return -EBADF;
        if ((err = read_link(p, dirfd, path, target, sizeof target)))
            return err;
    }
    uint64_t n = strlen(target), len = n < a[3] ? n : a[3];
    return mem_write(&p->mem, a[2], target, len) ? (int64_t)len : -EFAULT;
}

SYS(getdents64)
{
    rv_file *f = sys_file(p, a[0]);
    if (!f)
        return -EBADF;
    if (!buffer_ok(p, a[1], a[2], GP_W))
        return -EFAULT;
    /* struct linux_dirent64 is the same on every architecture. */
    return sys_ret(syscall(SYS_getdents64, f->host_fd, mem_host(&p->mem, a[1]), a[2]));
}

SYS(ioctl)
{
    enum { G_FIONREAD = 0x541b, G_FIONBIO = 0x5421, G_FIOCLEX = 0x5451, G_FIONCLEX = 0x5450 };
    rv_file *f = sys_file(p, a[0]);
    if (!f)
        return -EBADF;
    int v = 0;
    switch (a[1]) {
    case G_FIONREAD: /* bytes ready to read: pipes and FIFOs; files: what is left */
        if (ioctl(f->host_fd, FIONREAD, &v) < 0)
            return sys_err();
        return mem_write(&p->mem, a[2], &v, sizeof v) ? 0 : -EFAULT;
    case G_FIONBIO:
        if (!mem_read(&p->mem, &v, a[2], sizeof v))
            return -EFAULT;
        return sys_ret(ioctl(f->host_fd, FIONBIO, &v));
    case G_FIOCLEX: f->flags |= O_CLOEXEC; return 0;
    case G_FIONCLEX: f->flags &= ~O_CLOEXEC; return 0;
    default: return -ENOTTY; /* TCGETS, TIOCGWINSZ...: the guest never sees a terminal (see to_guest_stat) */
    }
}

/* ------------------------------------------------------ descriptors */

static int64_t dup_into(rv_proc *p, rv_file *f, int64_t from, int64_t exact, bool cloexec)
{
    int host = fcntl(f->host_fd, F_DUPFD_CLOEXEC, 3);
    if (host < 0)
        return sys_err();
    int flags = (f->flags & ~O_CLOEXEC) | (cloexec ? O_CLOEXEC : 0);
    if (exact >= 0) {
        if (exact >= RV_MAX_FDS) {
            close(host);
            return -EBADF;
        }
        if (p->os.files[exact].host_fd >= 0) {
            uint64_t args[1] = {(uint64_t)exact};
            sys_close(p, args);
        }
        p->os.files[exact] = (rv_file){.host_fd = host, .flags = flags, .path = f->path ? strdup(f->path) : NULL,
                                       .random = f->random, .ofd = f->ofd};
        return exact;
    }
    int64_t fd = sys_install_fd(p, host, flags, f->path, from, f->ofd);
    if (fd >= 0)
        p->os.files[fd].random = f->random;
    return fd;
}

SYS(dup)
{
    rv_file *f = sys_file(p, a[0]);
    return f ? dup_into(p, f, 0, -1, false) : -EBADF;
}

SYS(dup3)
{
    rv_file *f = sys_file(p, a[0]);
    if (!f)
        return -EBADF;
    if (a[0] == a[1])
        return -EINVAL;
    return dup_into(p, f, 0, (int64_t)a[1], (a[2] & O_CLOEXEC) != 0);
}

SYS(fcntl)
{
    rv_file *f = sys_file(p, a[0]);
    if (!f)
        return -EBADF;
    switch ((int)a[1]) {
    case F_DUPFD: return dup_into(p, f, (int64_t)a[2], -1, false);
    case F_DUPFD_CLOEXEC: return dup_into(p, f, (int64_t)a[2], -1, true);
    case F_GETFD: return (f->flags & O_CLOEXEC) ? FD_CLOEXEC : 0;
    case F_SETFD: f->flags = (f->flags & ~O_CLOEXEC) | ((a[2] & FD_CLOEXEC) ? O_CLOEXEC : 0); return 0;
    case F_GETFL: return sys_ret(fcntl(f->host_fd, F_GETFL));
    case F_SETFL: return sys_ret(fcntl(f->host_fd, F_SETFL, (int)a[2]));
    case F_GETLK: case F_SETLK: case F_SETLKW: case F_OFD_GETLK: case F_OFD_SETLK: case F_OFD_SETLKW:
        return sys_fcntl_lock(p, f, (int)a[1], a[2]);
    case F_GETPIPE_SZ: return sys_ret(fcntl(f->host_fd, F_GETPIPE_SZ));
    case F_SETPIPE_SZ: return sys_ret(fcntl(f->host_fd, F_SETPIPE_SZ, (int)a[2]));
    default: return -EINVAL;
    }
}

SYS(ftruncate)
{
    rv_file *f = sys_file(p, a[0]);
    return f ? sys_ret(ftruncate(f->host_fd, (off_t)a[1])) : -EBADF;
}

SYS(fsync)
{
    rv_file *f = sys_file(p, a[0]);
    return f ? sys_ret(fsync(f->host_fd)) : -EBADF;
}

SYS(fdatasync)
{
    return sys_fsync(p, a);
}

SYS(fchmod)
{
    rv_file *f = sys_file(p, a[0]);
    if (f && p->os.apart.on && !sys_apart_is_copy(f))
        return 0; /* a host file such a run only reads: left alone */
    return f ? sys_ret(fchmod(f->host_fd, (mode_t)a[1])) : -EBADF;
}

SYS(umask)
{
    unsigned old = p->os.umask;
    p->os.umask = (unsigned)a[0] & 0777;
    return old;
}

SYS(pipe2)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | ((int)a[1] & O_NONBLOCK)) < 0)
        return sys_err();
    int64_t r = sys_install_fd(p, fds[0], O_RDONLY, NULL, 0, 0);
    if (r < 0) {
        close(fds[1]);
        return r;
    }
    int64_t w = sys_install_fd(p, fds[1], O_WRONLY, NULL, 0, 0);
    if (w < 0) {
        uint64_t args[1] = {(uint64_t)r};
        sys_close(p, args);
        return w;
    }
    int32_t out[2] = {(int32_t)r, (int32_t)w};
    return mem_write(&p->mem, a[0], out, sizeof out) ? 0 : -EFAULT;
}

/* --------------------------------------------------- path operations */

SYS(mkdirat)
{
    PATH_ARG(path, dirfd, 1);
    REQUIRE_WRITABLE(dirfd, path);
    UNLESS_APART(sys_apart_mkdir(p, dirfd, path));
    RECORD_BEFORE(dirfd, path, PATH_CREATE);
    return sys_ret(mkdirat(dirfd, path, (mode_t)(a[2] & ~p->os.umask & 07777)));
}

SYS(unlinkat)
{
    PATH_ARG(path, dirfd, 1);
    REQUIRE_WRITABLE(dirfd, path);
    UNLESS_APART(sys_apart_unlink(p, dirfd, path));
    RECORD_BEFORE(dirfd, path, PATH_REMOVE);
    return sys_ret(unlinkat(dirfd, path, (a[2] & GUEST_AT_REMOVEDIR) ? AT_REMOVEDIR : 0));
}

SYS(renameat2)
{
    PATH_ARG(from, from_dirfd, 1);
    PATH_ARG(to, to_dirfd, 3);
    REQUIRE_WRITABLE(from_dirfd, from);
    REQUIRE_WRITABLE(to_dirfd, to);
    UNLESS_APART(sys_apart_rename(p, from_dirfd, from, to_dirfd, to));
    RECORD_BEFORE(from_dirfd, from, PATH_REMOVE);
    RECORD_BEFORE(to_dirfd, to, PATH_REMOVE);
    return sys_ret(renameat2(from_dirfd, from, to_dirfd, to, (unsigned)a[4]));
}

SYS(linkat)
{
    PATH_ARG(from, from_dirfd, 1);
    PATH_ARG(to, to_dirfd, 3);
    REQUIRE_WRITABLE(to_dirfd, to);
    UNLESS_APART(sys_apart_pretend(p, to_dirfd, to, true));
    RECORD_BEFORE(to_dirfd, to, PATH_CREATE);
    return sys_ret(linkat(from_dirfd, from, to_dirfd, to, (int)a[4]));
}

SYS(symlinkat)
{
    char target[PATH_MAX];
    int64_t err;
    if (!sys_path_in(p, a[0], target, sizeof target, &err))
        return err;
    PATH_ARG(path, dirfd, 2);
    REQUIRE_WRITABLE(dirfd, path);
    UNLESS_APART(sys_apart_pretend(p, dirfd, path, true));
    RECORD_BEFORE(dirfd, path, PATH_CREATE);
    return sys_ret(symlinkat(target, dirfd, path));
}

SYS(fchmodat)
{
    PATH_ARG(path, dirfd, 1);
    REQUIRE_WRITABLE(dirfd, path);
    UNLESS_APART(sys_apart_pretend(p, dirfd, path, false));
    return sys_ret(fchmodat(dirfd, path, (mode_t)a[2], 0));
}

SYS(utimensat)
{
    struct timespec ts[2];
    if (a[2] && !mem_read(&p->mem, ts, a[2], sizeof ts))
        return -EFAULT;
    if (!a[1]) { /* futimens(fd, ...) */
        rv_file *f = sys_file(p, a[0]);
        if (f && p->os.apart.on && !sys_apart_is_copy(f))
            return 0; /* a host file such a run only reads: left alone */
        return f ? sys_ret(futimens(f->host_fd, a[2] ? ts : NULL)) : -EBADF;
    }
    PATH_ARG(path, dirfd, 1);
    REQUIRE_WRITABLE(dirfd, path);
    UNLESS_APART(sys_apart_pretend(p, dirfd, path, false));
    return sys_ret(utimensat(dirfd, path, a[2] ? ts : NULL, (int)a[3]));
}

SYS(getcwd)
{
    size_t len = strlen(p->os.cwd) + 1;
    if (a[1] < len)
        return -ERANGE;
    return mem_write(&p->mem, a[0], p->os.cwd, len) ? (int64_t)len : -EFAULT;
}

/* The guest's cwd is now host_dirfd, named as the guest sees it (below
 * RV_GUEST_CWD while under the directory the run started in). */
static int64_t change_cwd(rv_proc *p, int host_dirfd)
{
    char path[PATH_MAX], seen[PATH_MAX];
    int64_t r = sys_fd_path(host_dirfd, path, sizeof path) ? sys_guest_path(p->os.cwd_root, path, seen, sizeof seen)
                                                            : -ENOENT;
    if (r) {
        close(host_dirfd);
        return r;
    }
    close(p->os.cwd_fd);
    free(p->os.cwd);
    p->os.cwd_fd = host_dirfd;
    p->os.cwd = strdup(seen);
    return 0;
}

SYS(chdir)
{
    char path[PATH_MAX];
    int64_t err;
    if (!sys_path_in(p, a[0], path, sizeof path, &err))
        return err;
    int fd = openat(p->os.cwd_fd, path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    return fd < 0 ? sys_err() : change_cwd(p, fd);
}

SYS(fchdir)
{
    rv_file *f = sys_file(p, a[0]);
    if (!f)
        return -EBADF;
    int fd = openat(f->host_fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    return fd < 0 ? sys_err() : change_cwd(p, fd);
}
