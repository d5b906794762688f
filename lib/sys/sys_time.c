/* Time, from the deterministic clock: one retired instruction = 1 ns. */
#include "sys_internal.h"

enum { G_CLOCK_REALTIME = 0, G_CLOCK_REALTIME_COARSE = 5, G_CLOCK_REALTIME_ALARM = 8, G_CLOCK_TAI = 11 };

static bool is_wall_clock(uint64_t clk)
{
    return clk == G_CLOCK_REALTIME || clk == G_CLOCK_REALTIME_COARSE || clk == G_CLOCK_REALTIME_ALARM ||
           clk == G_CLOCK_TAI;
}

static int64_t write_timespec(rv_proc *p, uint64_t addr, int64_t sec, int64_t nsec)
{
    int64_t ts[2] = {sec, nsec};
    return mem_write(&p->mem, addr, ts, sizeof ts) ? 0 : -EFAULT;
}

SYS(clock_gettime)
{
    if (a[0] > 11)
        return -EINVAL;
    uint64_t ns = sys_now_ns(p);
    int64_t sec = (int64_t)(ns / 1000000000) + (is_wall_clock(a[0]) ? RV_CLOCK_EPOCH_SEC : 0);
    return write_timespec(p, a[1], sec, (int64_t)(ns % 1000000000));
}

SYS(clock_getres)
{
    if (a[0] > 11)
        return -EINVAL;
    return a[1] ? write_timespec(p, a[1], 0, 1) : 0;
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
 * asked for, so the program sees it pass and the run stays deterministic. */
static int64_t sleep_for(rv_proc *p, uint64_t ts_addr, bool absolute, uint64_t clk)
{
    int64_t ts[2];
    if (!mem_read(&p->mem, ts, ts_addr, sizeof ts))
        return -EFAULT;
    if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
        return -EINVAL;
    int64_t ns = ts[0] * 1000000000 + ts[1];
    if (absolute) /* until a point on that clock */
        ns -= (int64_t)sys_now_ns(p) + (is_wall_clock(clk) ? RV_CLOCK_EPOCH_SEC * 1000000000 : 0);
    if (ns > 0)
        p->os.slept_ns += (uint64_t)ns;
    return 0;
}

SYS(nanosleep)
{
    return sleep_for(p, a[0], false, 1);
}

SYS(clock_nanosleep)
{
    enum { TIMER_ABSTIME_ = 1 };
    return sleep_for(p, a[2], (a[1] & TIMER_ABSTIME_) != 0, a[0]);
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
