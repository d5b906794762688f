/* Process identity, limits, signals (recorded, never delivered), randomness,
 * exit. Everything a guest can observe is a fixed value. */
#include <signal.h>
#include <string.h>

#include "sys_internal.h"

uint64_t rv_random_u64(rv_os *os)
{
    /* splitmix64: a fixed stream for getrandom and AT_RANDOM */
    uint64_t z = (os->rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

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
SYS(getpgid) { (void)p, (void)a; return GUEST_PID; }
SYS(getsid) { (void)p, (void)a; return GUEST_PID; }
SYS(sched_yield) { (void)p, (void)a; return 0; }
SYS(set_robust_list) { (void)p, (void)a; return 0; }

SYS(set_tid_address)
{
    p->os.tid_address = a[0];
    return GUEST_PID;
}

SYS(getrandom)
{
    uint64_t len = a[1];
    if (len && !mem_ok(&p->mem, a[0], len, GP_W))
        return -EFAULT;
    uint8_t *dst = mem_host(&p->mem, a[0]);
    for (uint64_t i = 0; i < len; i += 8) {
        uint64_t r = rv_random_u64(&p->os);
        memcpy(dst + i, &r, len - i < 8 ? len - i : 8);
    }
    return (int64_t)len;
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

SYS(prlimit64)
{
    enum { RLIMIT_STACK_ = 3, RLIMIT_NOFILE_ = 7 };
    if (a[0] != 0 && a[0] != GUEST_PID)
        return -ESRCH;
    if (a[3]) {
        uint64_t lim[2] = {UINT64_MAX, UINT64_MAX};
        if (a[1] == RLIMIT_STACK_)
            lim[0] = RV_STACK_SIZE_LIMIT;
        else if (a[1] == RLIMIT_NOFILE_)
            lim[0] = lim[1] = RV_MAX_FDS;
        if (!mem_write(&p->mem, a[3], lim, sizeof lim))
            return -EFAULT;
    }
    return 0; /* new limits are accepted and ignored */
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

SYS(clone)
{
    (void)a;
    rv_kill(p, SIGSYS, "threads and child processes are not supported (clone)");
    return -ENOSYS;
}

SYS(clone3)
{
    return sys_clone(p, a);
}

SYS(execve)
{
    (void)a;
    rv_kill(p, SIGSYS, "running another program is not supported (execve)");
    return -ENOSYS;
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
