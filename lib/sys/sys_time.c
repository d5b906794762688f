/* Time, from the deterministic clock: one retired instruction = 1 ns. */
#include "sys_internal.h"

enum {
    G_CLOCK_REALTIME = 0, G_CLOCK_PROCESS_CPUTIME_ID = 2, G_CLOCK_THREAD_CPUTIME_ID = 3, G_CLOCK_REALTIME_COARSE = 5,
    G_CLOCK_REALTIME_ALARM = 8, G_CLOCK_TAI = 11,
};

static bool is_wall_clock(uint64_t clk)
{
    return clk == G_CLOCK_REALTIME || clk == G_CLOCK_REALTIME_COARSE || clk == G_CLOCK_REALTIME_ALARM ||
           clk == G_CLOCK_TAI;
}

/* CPU-time clocks, the process's own included (negative ids name a
 * process's or thread's CPU clock: there is only this one). */
static bool is_cpu_clock(uint64_t clk)
{
    return clk == G_CLOCK_PROCESS_CPUTIME_ID || clk == G_CLOCK_THREAD_CPUTIME_ID || (int64_t)clk < 0;
}

/* The value of a clock in nanoseconds: CPU time counts instructions only,
 * the others the sleeps too; wall clocks start at the epoch. */
static bool clock_value(const rv_proc *p, uint64_t clk, uint64_t *ns)
{
    if (is_cpu_clock(clk)) {
        *ns = sig_clock_now(p, RV_CLOCK_CPU);
        return true;
    }
    if (clk > 11)
        return false;
    *ns = sys_now_ns(p) + (is_wall_clock(clk) ? (uint64_t)RV_CLOCK_EPOCH_SEC * 1000000000 : 0);
    return true;
}

int64_t sys_timespec_out(rv_proc *p, uint64_t addr, uint64_t ns)
{
    int64_t ts[2] = {(int64_t)(ns / 1000000000), (int64_t)(ns % 1000000000)};
    return mem_write(&p->mem, addr, ts, sizeof ts) ? 0 : -EFAULT;
}

int64_t sys_timespec_in(rv_proc *p, uint64_t addr, uint64_t *ns)
{
    int64_t ts[2];
    if (!mem_read(&p->mem, ts, addr, sizeof ts))
        return -EFAULT;
    if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
        return -EINVAL;
    *ns = ts[0] > INT64_MAX / 1000000000 - 1 ? UINT64_MAX / 2 : (uint64_t)ts[0] * 1000000000 + (uint64_t)ts[1];
    return 0;
}

int64_t sys_deadline(rv_proc *p, uint64_t addr, uint64_t *deadline)
{
    uint64_t ns = 0;
    int64_t r = sys_timespec_in(p, addr, &ns);
    *deadline = sys_now_ns(p) + ns;
    return r;
}

SYS(clock_gettime)
{
    uint64_t ns;
    return clock_value(p, a[0], &ns) ? sys_timespec_out(p, a[1], ns) : -EINVAL;
}

SYS(clock_getres)
{
    uint64_t ns;
    if (!clock_value(p, a[0], &ns))
        return -EINVAL;
    return a[1] ? sys_timespec_out(p, a[1], 1) : 0;
}

SYS(gettimeofday)
{
    uint64_t ns = sys_now_ns(p);
    int64_t tv[2] = {RV_CLOCK_EPOCH_SEC + (int64_t)(ns / 1000000000), (int64_t)(ns % 1000000000) / 1000};
    if (a[0] && !mem_write(&p->mem, a[0], tv, sizeof tv))
        return -EFAULT;
    int32_t tz[2] = {0, 0};
    if (a[1] && !mem_write(&p->mem, a[1], tz, sizeof tz))
        return -EFAULT;
    return 0;
}

/* Sleeping returns at once and moves the guest's clock forward by the time
 * asked for, so the program sees it pass and the run stays deterministic; a
 * timer whose signal has a handler cuts it short, as on Linux. */
static int64_t sleep_until(rv_proc *p, uint64_t deadline, uint64_t rem_addr, const char *call)
{
    if (sig_wait(p, 0, deadline, call) != SIG_WAIT_SIGNAL)
        return 0;
    if (rem_addr && sys_timespec_out(p, rem_addr, deadline - sys_now_ns(p)))
        return -EFAULT;
    return -RV_ERESTART_RESTARTBLOCK;
}

SYS(nanosleep)
{
    uint64_t deadline;
    int64_t r = sys_deadline(p, a[0], &deadline);
    return r ? r : sleep_until(p, deadline, a[1], "nanosleep");
}

SYS(clock_nanosleep)
{
    enum { TIMER_ABSTIME_ = 1 };
    uint64_t ns, now;
    if (!clock_value(p, a[0], &now) || is_cpu_clock(a[0]))
        return -EINVAL; /* a sleeping process uses no CPU time: it would never wake */
    int64_t r = sys_timespec_in(p, a[2], &ns);
    if (r)
        return r;
    if (!(a[1] & TIMER_ABSTIME_))
        return sleep_until(p, sys_now_ns(p) + ns, a[3], "clock_nanosleep");
    /* Until a point on that clock; interrupted, it leaves rem alone. */
    return sleep_until(p, ns > now ? sys_now_ns(p) + (ns - now) : sys_now_ns(p), 0, "clock_nanosleep");
}

SYS(times)
{
    /* Clock ticks at 100 Hz of user time: all time is the guest's. */
    int64_t ticks = (int64_t)(sys_now_ns(p) / 10000000);
    int64_t tms[4] = {ticks, 0, 0, 0};
    if (a[0] && !mem_write(&p->mem, a[0], tms, sizeof tms))
        return -EFAULT;
    return ticks;
}

SYS(getrusage)
{
    int64_t ru[18] = {0}; /* struct rusage: two timevals then 14 longs */
    uint64_t ns = sys_now_ns(p);
    ru[0] = (int64_t)(ns / 1000000000), ru[1] = (int64_t)(ns % 1000000000) / 1000;
    return mem_write(&p->mem, a[1], ru, sizeof ru) ? 0 : -EFAULT;
}
