/* Ownership, file-system statistics, memory files, memory barriers and
 * local sockets: the calls compressors, text tools and glibc's own start-up
 * (the nscd probe of getpwuid) make besides reading and writing.
 *
 * The guest is an unprivileged user (uid and gid 1000, see to_guest_stat)
 * on one file system whose statistics do not depend on the host's disk. */
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sys_internal.h"

/* ---------------------------------------------------------- ownership */

/* An unprivileged chown: only to its own uid and gid (or -1, unchanged),
 * which every file it sees already has, so nothing changes on the host. */
static int64_t chown_to(uint64_t uid, uint64_t gid)
{
    bool uid_ok = (int32_t)uid == -1 || (int32_t)uid == GUEST_UID;
    bool gid_ok = (int32_t)gid == -1 || (int32_t)gid == GUEST_UID;
    return uid_ok && gid_ok ? 0 : -EPERM;
}

SYS(fchown)
{
    return sys_file(p, a[0]) ? chown_to(a[1], a[2]) : -EBADF;
}

SYS(fchownat)
{
    enum { G_AT_SYMLINK_NOFOLLOW = 0x100, G_AT_EMPTY_PATH = 0x1000 };
    char path[PATH_MAX];
    int64_t err;
    if (a[4] & ~(uint64_t)(G_AT_SYMLINK_NOFOLLOW | G_AT_EMPTY_PATH))
        return -EINVAL;
    if (!sys_path_in(p, a[1], path, sizeof path, &err))
        return err;
    if (!path[0] && (a[4] & G_AT_EMPTY_PATH)) /* fchown through fchownat */
        return (int32_t)a[0] == -100 || sys_file(p, a[0]) ? chown_to(a[2], a[3]) : -EBADF;
    int dirfd = sys_dirfd(p, (int64_t)a[0]);
    if (dirfd < 0 && path[0] != '/')
        return -EBADF;
    if (faccessat(dirfd, path, F_OK, (a[4] & G_AT_SYMLINK_NOFOLLOW) ? AT_SYMLINK_NOFOLLOW : 0) != 0)
        return sys_err();
    return chown_to(a[2], a[3]);
}

/* ------------------------------------------------ file-system statistics */

/* struct statfs on riscv64 (asm-generic, 64-bit longs). */
struct guest_statfs {
    int64_t type, bsize;
    uint64_t blocks, bfree, bavail, files, ffree;
    int32_t fsid[2];
    int64_t namelen, frsize, flags, spare[4];
};

/* The same answer on every host: an ext4 file system of 256 GiB, half free. */
static int64_t statfs_out(rv_proc *p, uint64_t addr)
{
    struct guest_statfs s;
    memset(&s, 0, sizeof s);
    s.type = 0xef53, s.bsize = s.frsize = 4096;
    s.blocks = UINT64_C(1) << 26, s.bfree = s.bavail = UINT64_C(1) << 25;
    s.files = UINT64_C(1) << 24, s.ffree = UINT64_C(1) << 23;
    s.fsid[0] = 1, s.namelen = 255;
    s.flags = 0x20 | 0x400; /* ST_VALID-like bits Linux sets: relatime, valid */
    return mem_write(&p->mem, addr, &s, sizeof s) ? 0 : -EFAULT;
}

SYS(statfs)
{
    char path[PATH_MAX];
    int64_t err;
    if (!sys_path_in(p, a[0], path, sizeof path, &err))
        return err;
    if (faccessat(p->os.cwd_fd, path, F_OK, 0) != 0)
        return sys_err();
    return statfs_out(p, a[1]);
}

SYS(fstatfs)
{
    return sys_file(p, a[0]) ? statfs_out(p, a[1]) : -EBADF;
}

/* ------------------------------------------------------ memory files */

SYS(memfd_create)
{
    enum { G_MFD_CLOEXEC = 1, G_MFD_ALLOW_SEALING = 2 };
    char name[256];
    if (!mem_read_string(&p->mem, a[0], name, sizeof name))
        return -EFAULT;
    if (a[1] & ~(uint64_t)(G_MFD_CLOEXEC | G_MFD_ALLOW_SEALING))
        return -EINVAL;
    int host = memfd_create(name, MFD_CLOEXEC | ((a[1] & G_MFD_ALLOW_SEALING) ? MFD_ALLOW_SEALING : 0));
    if (host < 0)
        return sys_err();
    /* No path: a checkpoint carries its contents (lib/ckpt/ckpt_fds.c). */
    return sys_install_fd(p, host, O_RDWR | ((a[1] & G_MFD_CLOEXEC) ? O_CLOEXEC : 0), NULL, 0, 0);
}

/* One thread: every barrier is already complete. */
SYS(membarrier)
{
    enum { QUERY = 0, GLOBAL = 1, PRIVATE_EXPEDITED = 8, REGISTER_PRIVATE_EXPEDITED = 16 };
    (void)p;
    if (a[1] != 0)
        return -EINVAL;
    switch (a[0]) {
    case QUERY: return GLOBAL | PRIVATE_EXPEDITED | REGISTER_PRIVATE_EXPEDITED;
    case GLOBAL: case PRIVATE_EXPEDITED: case REGISTER_PRIVATE_EXPEDITED: return 0;
    default: return -EINVAL;
    }
}

/* ------------------------------------------------------------ sockets */

/* Local sockets exist, but the emulated machine runs no services: a
 * connection to any of them finds nobody (ENOENT), on every host alike.
 * glibc's getpwuid asks nscd this way first, then reads /etc/passwd.
 * Network sockets are out of scope and stop the run, naming the call. */
SYS(socket)
{
    enum { G_AF_UNIX = 1, G_SOCK_NONBLOCK = 04000, G_SOCK_CLOEXEC = 02000000 };
    if (a[0] != G_AF_UNIX) {
        rv_kill(p, SIGSYS, "socket (address family %llu) at pc 0x%llx: network sockets are not supported",
                (unsigned long long)a[0], (unsigned long long)(p->cpu.pc - 4));
        return -EAFNOSUPPORT;
    }
    int host = socket(AF_UNIX, (int)(a[1] & ~(uint64_t)(G_SOCK_NONBLOCK | G_SOCK_CLOEXEC)) | SOCK_CLOEXEC |
                                   ((a[1] & G_SOCK_NONBLOCK) ? SOCK_NONBLOCK : 0), (int)a[2]);
    if (host < 0)
        return sys_err();
    return sys_install_fd(p, host, O_RDWR | ((a[1] & G_SOCK_CLOEXEC) ? O_CLOEXEC : 0), NULL, 0, 0);
}

SYS(connect)
{
    return sys_file(p, a[0]) ? -ENOENT : -EBADF;
}
