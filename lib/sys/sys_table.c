/* System-call dispatch: number -> handler, like QEMU's linux-user. The
 * numbers and names come from the RISC-V <asm/unistd.h> (generated). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "sys_internal.h"

enum {
#define SYSCALL_NAME(nr, name) RV_NR_##name = nr,
#include "syscall_names.h"
#undef SYSCALL_NAME
};

static const char *const names[] = {
#define SYSCALL_NAME(nr, name) [nr] = #name,
#include "syscall_names.h"
#undef SYSCALL_NAME
};
enum { NAMES = sizeof names / sizeof names[0] };

#define IMPLEMENTED(X)                                                                                        \
    /* files */ X(openat) X(close) X(read) X(write) X(pread64) X(pwrite64) X(readv) X(writev) X(lseek)        \
    X(fstat) X(newfstatat) X(statx) X(faccessat) X(faccessat2) X(readlinkat) X(getdents64) X(ioctl) X(dup)   \
    X(dup3) X(fcntl) X(ftruncate) X(fsync) X(fdatasync) X(fchmod) X(umask) X(pipe2) X(mkdirat) X(unlinkat)    \
    X(renameat2) X(linkat) X(symlinkat) X(fchmodat) X(utimensat) X(getcwd) X(chdir) X(fchdir)                 \
    X(preadv) X(pwritev) X(preadv2) X(pwritev2) X(sendfile) X(copy_file_range) X(fadvise64) X(readahead)     \
    X(fallocate) X(sync_file_range) X(sync) X(syncfs) X(ppoll) X(pselect6) X(flock) X(fchown) X(fchownat)   \
    X(statfs) X(fstatfs) X(memfd_create)                                                                      \
    /* sockets */ X(socket) X(connect)                                                                        \
    /* memory */ X(brk) X(mmap) X(munmap) X(mprotect) X(mremap) X(madvise) X(msync)                          \
    /* time */ X(clock_gettime) X(clock_getres) X(gettimeofday) X(nanosleep) X(clock_nanosleep) X(times)     \
    X(getrusage)                                                                                              \
    /* process */ X(exit) X(exit_group) X(getpid) X(gettid) X(getppid) X(getuid) X(geteuid) X(getgid)        \
    X(getegid) X(sched_yield) X(set_robust_list) X(set_tid_address) X(getrandom) X(uname) X(sysinfo)         \
    X(sched_getaffinity) X(futex) X(clone) X(clone3) X(execve) X(execveat) X(riscv_flush_icache) X(rseq)     \
    X(membarrier)                                                                                             \
    /* attributes */ X(getpgid) X(getsid) X(setpgid) X(setsid) X(getgroups) X(setgroups) X(getresuid)       \
    X(getresgid) X(setuid) X(setgid) X(setreuid) X(setregid) X(setresuid) X(setresgid) X(setfsuid)           \
    X(setfsgid) X(capget) X(capset) X(prlimit64) X(getrlimit) X(setrlimit) X(getpriority) X(setpriority)     \
    X(sched_getscheduler) X(sched_getparam) X(sched_setscheduler) X(sched_setparam)                          \
    X(sched_get_priority_max) X(sched_get_priority_min) X(sched_rr_get_interval) X(sched_setaffinity)        \
    X(getcpu) X(prctl) X(personality) X(wait4) X(waitid)                                                      \
    /* signals */ X(rt_sigaction) X(rt_sigprocmask) X(rt_sigpending) X(rt_sigsuspend) X(rt_sigtimedwait)     \
    X(rt_sigqueueinfo) X(rt_tgsigqueueinfo) X(rt_sigreturn) X(sigaltstack) X(kill) X(tkill) X(tgkill)        \
    /* timers */ X(getitimer) X(setitimer) X(timer_create) X(timer_settime) X(timer_gettime)                  \
    X(timer_getoverrun) X(timer_delete)

#define DECLARE(name) SYS(name);
IMPLEMENTED(DECLARE)
#undef DECLARE

static const sys_handler handlers[NAMES] = {
#define REGISTER(name) [RV_NR_##name] = sys_##name,
    IMPLEMENTED(REGISTER)
#undef REGISTER
};

const char *rv_syscall_name(uint64_t nr)
{
    return nr < NAMES ? names[nr] : NULL;
}

/* One line per call, as qemu-user's -strace: the instruction count, the
 * call, its six argument registers in hex and the result (-errno named). */
static void trace_call(const rv_proc *p, uint64_t nr, const uint64_t *a, int64_t r)
{
    fprintf(stderr, "[%llu] %s(0x%llx, 0x%llx, 0x%llx, 0x%llx, 0x%llx, 0x%llx) = ", (unsigned long long)p->cpu.icount,
            names[nr] ? names[nr] : "?", (unsigned long long)a[0], (unsigned long long)a[1],
            (unsigned long long)a[2], (unsigned long long)a[3], (unsigned long long)a[4], (unsigned long long)a[5]);
    if (r < 0 && r >= -4095)
        fprintf(stderr, "-1 %s (%s)\n", strerrorname_np((int)-r) ? strerrorname_np((int)-r) : "?", strerror((int)-r));
    else
        fprintf(stderr, "%lld (0x%llx)\n", (long long)r, (unsigned long long)r);
}

void rv_syscall(rv_proc *p)
{
    uint64_t *x = p->cpu.x;
    uint64_t nr = x[17], args[6] = {x[10], x[11], x[12], x[13], x[14], x[15]};
    if (nr < NAMES && handlers[nr]) {
        x[10] = (uint64_t)handlers[nr](p, args);
        mem_follow_files(&p->mem); /* a file mapped shared may have shrunk or grown */
        if (p->os.strace)
            trace_call(p, nr, args, (int64_t)x[10]);
    } else if (p->os.syscall_enosys) {
        x[10] = (uint64_t)-ENOSYS;
    } else {
        const char *name = rv_syscall_name(nr);
        rv_kill(p, SIGSYS,
                "unsupported system call %llu (%s) at pc 0x%llx; --syscall-enosys makes it fail with ENOSYS instead",
                (unsigned long long)nr, name ? name : "unknown", (unsigned long long)(p->cpu.pc - 4));
    }
    if (p->stop != RV_RUNNING)
        return;
    /* Signals raised, unblocked or due by now arrive as the call returns;
     * rt_sigreturn's a0 is the interrupted code's, never a call to restart. */
    if (nr == RV_NR_rt_sigreturn)
        sig_deliver(p);
    else
        sig_deliver_at_syscall(p, args[0]);
}
