/* Process identity, limits, signals (recorded, never delivered), exit
 * (randomness: sys_random.c). Everything a guest can observe is a fixed value. */
#include <signal.h>
#include <string.h>

#include "sys_internal.h"

SYS(exit_group)
{
    rv_exit(p, (int)a[0]);
    return 0;
}

SYS(exit)
{
    return sys_exit_group(p, a); /* one thread: the process ends */
}

SYS(getpid) { (void)p, (void)a; return GUEST_PID; }
SYS(gettid) { (void)p, (void)a; return GUEST_PID; }
SYS(getppid) { (void)p, (void)a; return GUEST_PPID; }
SYS(getuid) { (void)p, (void)a; return GUEST_UID; }
SYS(geteuid) { (void)p, (void)a; return GUEST_UID; }
SYS(getgid) { (void)p, (void)a; return GUEST_UID; }
SYS(getegid) { (void)p, (void)a; return GUEST_UID; }
SYS(sched_yield) { (void)p, (void)a; return 0; }
SYS(set_robust_list) { (void)p, (void)a; return 0; }

SYS(set_tid_address)
{
    p->os.tid_address = a[0];
    return GUEST_PID;
}

SYS(uname)
{
    char u[6][65];
    memset(u, 0, sizeof u);
    strcpy(u[0], "Linux");
    strcpy(u[1], "rvsim");
    strcpy(u[2], "6.1.0");
    strcpy(u[3], "#1 SMP");
    strcpy(u[4], "riscv64");
    strcpy(u[5], "(none)");
    return mem_write(&p->mem, a[0], u, sizeof u) ? 0 : -EFAULT;
}

SYS(sysinfo)
{
    uint64_t info[14] = {0}; /* struct sysinfo on LP64: 112 bytes */
    info[0] = sys_now_ns(p) / 1000000000;                    /* uptime */
    info[4] = UINT64_C(8) << 30, info[5] = UINT64_C(4) << 30; /* totalram, freeram */
    memcpy((char *)info + 80, &(uint16_t){1}, 2);            /* procs */
    uint32_t mem_unit = 1;
    memcpy((char *)info + 104, &mem_unit, 4);
    return mem_write(&p->mem, a[0], info, sizeof info) ? 0 : -EFAULT;
}

SYS(sched_getaffinity)
{
    if (a[1] < 8)
        return -EINVAL;
    uint64_t mask = 1; /* one CPU */
    return mem_write(&p->mem, a[2], &mask, sizeof mask) ? 8 : -EFAULT;
}

SYS(futex)
{
    enum { FUTEX_WAIT_ = 0, FUTEX_WAKE_ = 1, FUTEX_CMD_MASK = 0x7f & ~0x80 };
    switch (a[1] & 0x7f) {
    case FUTEX_WAKE_: return 0; /* nobody else to wake */
    case FUTEX_WAIT_: {
        uint32_t v;
        if (!mem_read(&p->mem, &v, a[0], 4))
            return -EFAULT;
        return v != (uint32_t)a[2] ? -EAGAIN : -EDEADLK; /* waiting would never end */
    }
    default: return -ENOSYS;
    }
}

/* Threads, child processes and other programs are out of scope: the call
 * stops the run at once, naming itself and where it was made. */
static int64_t refuse(rv_proc *p, const char *call, const char *what)
{
    rv_kill(p, SIGSYS, "%s (%s) at pc 0x%llx: threads, child processes and running other programs are not supported",
            call, what, (unsigned long long)(p->cpu.pc - 4));
    return -ENOSYS;
}

/* What a clone with these flags makes. */
static const char *clone_kind(uint64_t flags)
{
    enum { CLONE_VM_ = 0x100, CLONE_VFORK_ = 0x4000, CLONE_THREAD_ = 0x10000 };
    if (flags & CLONE_THREAD_)
        return "a thread";
    if (flags & CLONE_VFORK_)
        return "vfork";
    return flags & CLONE_VM_ ? "a child sharing memory" : "fork";
}

SYS(clone)
{
    return refuse(p, "clone", clone_kind(a[0]));
}

SYS(clone3)
{
    uint64_t flags = 0;
    mem_read(&p->mem, &flags, a[0], sizeof flags);
    return refuse(p, "clone3", clone_kind(flags));
}

SYS(execve)
{
    char path[256];
    if (!mem_read_string(&p->mem, a[0], path, sizeof path))
        strcpy(path, "?");
    return refuse(p, "execve", path);
}

SYS(execveat)
{
    char path[256];
    if (!mem_read_string(&p->mem, a[1], path, sizeof path))
        strcpy(path, "?");
    return refuse(p, "execveat", path);
}

SYS(riscv_flush_icache)
{
    (void)a;
    p->flush_code = true;
    return 0;
}

SYS(rseq)
{
    (void)p, (void)a;
    return -ENOSYS; /* glibc then manages without restartable sequences */
}
