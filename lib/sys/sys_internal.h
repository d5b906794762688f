/* Shared by the system-call handlers (lib/sys/). Each handler gets the
 * process and the six argument registers and returns the value for a0
 * (-errno on failure), like the kernel's own calling convention. */
#ifndef RV_SYS_INTERNAL_H
#define RV_SYS_INTERNAL_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "proc.h"
#include "loader.h"
#include "syscall.h"

typedef int64_t (*sys_handler)(rv_proc *p, const uint64_t *a);

/* Guest fd -> its entry, or NULL when not open. */
static inline rv_file *sys_file(rv_proc *p, uint64_t fd)
{
    if (fd >= RV_MAX_FDS || p->os.files[fd].host_fd < 0)
        return NULL;
    return &p->os.files[fd];
}

/* -errno of the last failed host call. */
static inline int64_t sys_err(void) { return -(int64_t)errno; }
/* A host call's result as a guest result. */
static inline int64_t sys_ret(int64_t r) { return r < 0 ? sys_err() : r; }

/* Host directory fd for a guest dirfd (AT_FDCWD -> the guest's cwd); -1 if bad. */
int sys_dirfd(rv_proc *p, int64_t guest_dirfd);
/* Copy a guest path in (size <= PATH_MAX), as the host path it leads to (see
 * sys_host_path); false (EFAULT or ENAMETOOLONG set in *err) on failure. */
bool sys_path_in(rv_proc *p, uint64_t addr, char *buf, size_t size, int64_t *err);
/* The guest sees the host directory root (its cwd_root) as RV_GUEST_CWD:
 * a path the guest names at or below RV_GUEST_CWD leads to the same place
 * at or below root, and a host path at or below root reads as the same
 * place below RV_GUEST_CWD. Other paths, and every path when root is NULL,
 * stay as they are. 0, or -ENAMETOOLONG when out cannot hold the result. */
int sys_host_path(const char *root, const char *path, char *out, size_t size);
int sys_guest_path(const char *root, const char *path, char *out, size_t size);
/* Whether path is one of the directories that hold RV_GUEST_CWD and
 * RV_GUEST_BIN ("/guest"...): they exist for the guest (stat, access and
 * readlink say so) though the host may lack them. */
bool sys_guest_dir(const char *path);
/* 0 if the guest may create or modify PATH (relative to host dirfd), else -EACCES. */
int64_t sys_check_writable(rv_proc *p, int dirfd, const char *path);
/* Canonical absolute path that PATH (relative to host dirfd) names or would
 * name once created (parent directory and a final symlink resolved): 0 or -errno. */
int sys_canonical_target(int dirfd, const char *path, char *out, size_t size);

/* A run whose files are kept apart from the host's (p->os.apart, sys_apart.c):
 * the guest's openat of real (relative to host dirfd) is answered here when
 * it is to be (true, *result a guest fd or -errno), or left to the host
 * (false: a read of a file the run has no copy of, a directory, a device;
 * *opened: the host's file when it opened it already, else -1). */
bool sys_apart_openat(rv_proc *p, int dirfd, const char *real, int flags, mode_t mode, int64_t *result, int *opened);
/* Such a run closes guest fd: when it is the last one on a copy, the copy
 * is kept (in a free slot at the top of the table, which the guest does not
 * use) for later opens of its path; true when fd's entry went there. */
bool sys_apart_keep(rv_proc *p, int fd);
/* stat by path in such a run: a copy's (true, *result 0, st filled), or
 * -ENOENT for a host file born since the checkpoint (true); false: the host's. */
bool sys_apart_stat(rv_proc *p, int dirfd, const char *path, struct stat *st, int64_t *result);
/* Is the entry one of such a run's copies (else a host file it does not write)? */
bool sys_apart_is_copy(const rv_file *f);
/* unlinkat and renameat2 in such a run: on the run's copies, never the host's files. */
int64_t sys_apart_unlink(rv_proc *p, int dirfd, const char *path);
/* mkdir in such a run: answers as the host would, and the directory is
 * there for the run from then on (made by the pass, which is further on). */
int64_t sys_apart_mkdir(rv_proc *p, int dirfd, const char *path);
int64_t sys_apart_rename(rv_proc *p, int from_dirfd, const char *from, int to_dirfd, const char *to);
/* The calls that would only create or change a host path (mkdirat, linkat,
 * symlinkat, fchmodat, utimensat) in such a run: answered as the host would
 * at the checkpoint, the host left alone (created: the path must not be there). */
int64_t sys_apart_pretend(rv_proc *p, int dirfd, const char *path, bool created);
/* A private copy holding len bytes, readable and writable as flags' access
 * mode and O_APPEND say, at offset 0: what a kept-apart run writes (and
 * reopens by path while it is open). Its host fd, or -1 with errno. */
int sys_apart_file(const void *data, size_t len, int flags);
/* The same holding what host_fd holds (a host file, copied whole): -1 with errno. */
int sys_apart_copy(int host_fd, int flags);
/* In a run kept apart with the pass's file history, the file at path
 * (relative to dirfd) as it was at the checkpoint: host_fd (the host's,
 * opened first: the pass records a change before it makes it), or the
 * history's copy opened with flags (read-only: such a run writes copies)
 * when the pass has changed the path since. */
int sys_apart_as_then(rv_proc *p, int dirfd, const char *path, int flags, int host_fd);
/* Copy what in holds, from its start, into out. 0, or -1 with errno. */
int sys_copy_whole(int in, int out);
/* Paths by which a program asks about itself describe the guest, not the
 * emulator: /proc/self/exe (and /proc/1000/...) names the guest program; */
const char *sys_self_path(rv_proc *p, const char *path);
/* exe, cwd and fd/N read as links to the guest's own (false: not such a link); */
bool sys_self_link(rv_proc *p, const char *path, char *out, size_t size);
/* cmdline, environ and maps open as generated files (host fd, -1 if not such a path). */
int sys_open_self(rv_proc *p, const char *path);
/* A private file holding len bytes, at offset 0: its host fd, or -1 (errno set). */
int sys_memory_file(const char *name, const void *data, size_t len);

/* The guest's random stream (sys_random.c): len bytes of it, whole 8-byte
 * draws each, the last one's extra bytes dropped (as getrandom takes them). */
void sys_random_fill(rv_os *os, void *dst, uint64_t len);
/* Whether a descriptor the guest opened with flags reads /dev/random,
 * /dev/urandom or /dev/hwrng (then reads come from the stream: sys_random_read). */
bool sys_random_device(int host_fd, int flags);
/* A read of len bytes from such a device, into host memory dst: the count. */
int64_t sys_random_read(rv_proc *p, void *dst, uint64_t len);
/* The kernel's files of random values (/proc/sys/kernel/random/uuid,
 * boot_id...) read from the stream or as fixed text: host_fd, just opened at
 * host_path, replaced by a private file holding what the guest reads (or
 * closed, -1 and errno on failure); any other file's host_fd unchanged. */
int sys_random_file(rv_proc *p, int host_fd, const char *host_path);
/* fcntl's record-lock commands (F_GETLK... and F_OFD_*) on f; a[2] = addr. */
int64_t sys_fcntl_lock(rv_proc *p, rv_file *f, int cmd, uint64_t addr);
/* Hold one more lock (no merging: the caller made it whole). */
void sys_lock_add(rv_os *os, const rv_lock *l);
/* Guest fd is about to close: the locks that go with it are released. */
void sys_locks_close(rv_proc *p, int fd);
/* Install a host fd as the lowest free guest fd >= from, in open file
 * description ofd (0: a new one); the guest fd, or -EMFILE (host fd closed). */
int64_t sys_install_fd(rv_proc *p, int host_fd, int flags, const char *path, int64_t from, uint64_t ofd);
/* Lowest free guest fd, or -EMFILE. */
int64_t sys_alloc_fd(rv_proc *p, int64_t from);
/* Absolute path of a host fd (through /proc/self/fd); false on failure. */
bool sys_fd_path(int host_fd, char *buf, size_t size);
/* The file host_fd names opened again with flags of its own (O_CLOEXEC
 * added), through /proc/self/fd: the same file, whatever its path names
 * now, with an offset of its own; -1 with errno. */
int sys_reopen_fd(int host_fd, int flags);
/* close(fd), errno left as it was before; returns result. */
int sys_close_then(int fd, int result);

/* The deterministic clock, in nanoseconds since boot. */
static inline uint64_t sys_now_ns(const rv_proc *p) { return p->cpu.icount + p->os.slept_ns; }

/* A guest struct timespec as nanoseconds: 0, -EFAULT or -EINVAL. */
int64_t sys_timespec_in(rv_proc *p, uint64_t addr, uint64_t *ns);
/* Write nanoseconds as a struct timespec: 0 or -EFAULT. */
int64_t sys_timespec_out(rv_proc *p, uint64_t addr, uint64_t ns);
/* The wall-clock deadline a relative timeout at addr sets: 0 or -errno. */
int64_t sys_deadline(rv_proc *p, uint64_t addr, uint64_t *deadline);
/* Wait until a signal arrives or the deadline, under mask (NULL: the
 * current one) for the wait and its handlers: 0 at the deadline, or
 * -RV_ERESTARTNOHAND when a signal ended it. */
int64_t sys_wait_with_mask(rv_proc *p, const uint64_t *mask, uint64_t deadline, const char *call);
/* Before a read (POLLIN) or write (POLLOUT) on a pipe the program created:
 * when it would block, only a signal can end the wait (nobody else holds the
 * pipe). 0 to go ahead, or the call's result (-RV_ERESTARTSYS). */
int64_t sys_wait_ready(rv_proc *p, rv_file *f, short events, const char *call);
/* A host call that may write to a pipe or socket: EPIPE raises SIGPIPE in
 * the guest, never in the emulator. */
void sys_pipe_guard_begin(sigset_t *old);
int64_t sys_pipe_guard_end(rv_proc *p, const sigset_t *old, int64_t result);

#define SYS(name) int64_t sys_##name(rv_proc *p, const uint64_t *a)

#endif
