/* Shared by the system-call handlers (lib/sys/). Each handler gets the
 * process and the six argument registers and returns the value for a0
 * (-errno on failure), like the kernel's own calling convention. */
#ifndef RV_SYS_INTERNAL_H
#define RV_SYS_INTERNAL_H

#include <errno.h>
#include <stdint.h>

#include "../proc.h"
#include "../loader.h"
#include "../syscall.h"

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
/* Copy a guest path in; false (EFAULT or ENAMETOOLONG set in *err) on failure. */
bool sys_path_in(rv_proc *p, uint64_t addr, char *buf, size_t size, int64_t *err);
/* 0 if the guest may create or modify PATH (relative to host dirfd), else -EACCES. */
int64_t sys_check_writable(rv_proc *p, int dirfd, const char *path);
/* Paths by which a program asks about itself describe the guest, not the
 * emulator: /proc/self/exe (and /proc/1000/...) names the guest program; */
const char *sys_self_path(rv_proc *p, const char *path);
/* exe, cwd and fd/N read as links to the guest's own (false: not such a link); */
bool sys_self_link(rv_proc *p, const char *path, char *out, size_t size);
/* cmdline, environ and maps open as generated files (host fd, -1 if not such a path). */
int sys_open_self(rv_proc *p, const char *path);
/* Lowest free guest fd, or -EMFILE. */
int64_t sys_alloc_fd(rv_proc *p, int64_t from);
/* Absolute path of a host fd (through /proc/self/fd); false on failure. */
bool sys_fd_path(int host_fd, char *buf, size_t size);

/* The deterministic clock, in nanoseconds since boot. */
static inline uint64_t sys_now_ns(const rv_proc *p) { return p->cpu.icount + p->os.slept_ns; }

#define SYS(name) int64_t sys_##name(rv_proc *p, const uint64_t *a)

#endif
