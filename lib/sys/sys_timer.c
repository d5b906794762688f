/* Interval timers (setitimer, getitimer; alarm() is setitimer in glibc)
 * and POSIX timers (timer_create and friends), on the deterministic clock:
 * they expire at an exact instruction count (lib/sig/sig.c). */
#include <signal.h>
#include <string.h>

#include "sys_internal.h"

enum {
    G_CLOCK_REALTIME = 0, G_CLOCK_MONOTONIC = 1, G_CLOCK_PROCESS_CPUTIME_ID = 2, G_CLOCK_THREAD_CPUTIME_ID = 3,
    G_CLOCK_BOOTTIME = 7, G_CLOCK_TAI = 11, G_TIMER_ABSTIME = 1,
};

static const uint64_t NS = 1000000000;

/* Remaining time of an armed timer (never 0 while armed, as Linux). */
static uint64_t remaining(const rv_proc *p, const rv_timer *t, uint64_t floor)
{
    if (!t->expiry)
        return 0;
    uint64_t now = sig_clock_now(p, t->clock);
    return t->expiry > now ? t->expiry - now : floor;
}

static void arm(rv_proc *p, rv_timer *t, uint64_t expiry, uint64_t interval)
{
    t->expiry = expiry;
    t->interval = expiry ? interval : 0;
    sig_update_event(p);
}

/* ------------------------------------------------------------ itimers */

/* struct itimerval: {interval, value}, each {tv_sec, tv_usec}. */
static int64_t itimerval_out(rv_proc *p, uint64_t addr, const rv_timer *t)
{
    uint64_t value = remaining(p, t, 1000), v[4] = {t->interval / NS, t->interval % NS / 1000, value / NS,
                                                    value % NS / 1000};
    return mem_write(&p->mem, addr, v, sizeof v) ? 0 : -EFAULT;
}

static int64_t itimerval_in(rv_proc *p, uint64_t addr, uint64_t *interval, uint64_t *value)
{
    int64_t v[4] = {0, 0, 0, 0};
    if (addr && !mem_read(&p->mem, v, addr, sizeof v))
        return -EFAULT;
    for (int i = 0; i < 4; i += 2)
        if (v[i] < 0 || v[i + 1] < 0 || v[i + 1] >= 1000000)
            return -EINVAL;
    *interval = (uint64_t)v[0] * NS + (uint64_t)v[1] * 1000;
    *value = (uint64_t)v[2] * NS + (uint64_t)v[3] * 1000;
    return 0;
}

SYS(getitimer)
{
    if (a[0] >= RV_NITIMERS)
        return -EINVAL;
    return itimerval_out(p, a[1], &p->os.sig.timer[a[0]]);
}

SYS(setitimer)
{
    if (a[0] >= RV_NITIMERS)
        return -EINVAL;
    rv_timer *t = &p->os.sig.timer[a[0]];
    uint64_t interval, value;
    int64_t r = itimerval_in(p, a[1], &interval, &value); /* NULL: disarm, as Linux allows */
    if (r)
        return r;
    if (a[2] && (r = itimerval_out(p, a[2], t)))
        return r;
    arm(p, t, value ? sig_clock_now(p, t->clock) + value : 0, interval);
    return 0;
}

/* -------------------------------------------------------- POSIX timers */

/* The timer behind a timer_t, or NULL. */
static rv_timer *posix_timer(rv_proc *p, uint64_t id)
{
    if (id >= RV_NPOSIX_TIMERS || !p->os.sig.timer[RV_NITIMERS + id].used)
        return NULL;
    return &p->os.sig.timer[RV_NITIMERS + id];
}

SYS(timer_create)
{
    enum rv_timer_clock clock;
    switch ((int64_t)a[0]) {
    case G_CLOCK_REALTIME: case G_CLOCK_MONOTONIC: case G_CLOCK_BOOTTIME: case G_CLOCK_TAI:
        clock = RV_CLOCK_REAL;
        break;
    case G_CLOCK_PROCESS_CPUTIME_ID: case G_CLOCK_THREAD_CPUTIME_ID:
        clock = RV_CLOCK_CPU;
        break;
    default:
        if ((int64_t)a[0] >= 0)
            return -EINVAL;
        clock = RV_CLOCK_CPU; /* our own CPU clock by its pid */
    }
    int id = 0;
    while (id < RV_NPOSIX_TIMERS && p->os.sig.timer[RV_NITIMERS + id].used)
        id++;
    if (id == RV_NPOSIX_TIMERS)
        return -EAGAIN;
    rv_timer t = {.used = true, .clock = (uint8_t)clock, .notify = G_SIGEV_SIGNAL, .sig = SIGALRM,
                  .value = (uint64_t)id, .wall = a[0] == G_CLOCK_REALTIME || a[0] == G_CLOCK_TAI};
    if (a[1]) { /* struct sigevent: value, signo, notify, thread id */
        uint64_t value;
        int32_t ev[3];
        if (!mem_read(&p->mem, &value, a[1], 8) || !mem_read(&p->mem, ev, a[1] + 8, sizeof ev))
            return -EFAULT;
        if (ev[1] == G_SIGEV_THREAD_ID && ev[2] != GUEST_PID)
            return -EINVAL;
        if (ev[1] != G_SIGEV_SIGNAL && ev[1] != G_SIGEV_THREAD_ID && ev[1] != G_SIGEV_NONE)
            return -EINVAL;
        if (ev[1] != G_SIGEV_NONE && (ev[0] < 1 || ev[0] > RV_NSIG))
            return -EINVAL;
        t.notify = ev[1] == G_SIGEV_NONE ? G_SIGEV_NONE : G_SIGEV_SIGNAL;
        t.sig = (uint8_t)ev[0];
        t.value = value;
    }
    int32_t out = id;
    if (!mem_write(&p->mem, a[2], &out, sizeof out))
        return -EFAULT;
    p->os.sig.timer[RV_NITIMERS + id] = t;
    return 0;
}

/* struct itimerspec: {interval, value}, each a timespec. */
static int64_t itimerspec_out(rv_proc *p, uint64_t addr, const rv_timer *t)
{
    uint64_t value = remaining(p, t, t->notify == G_SIGEV_NONE ? 0 : 1);
    int64_t r = sys_timespec_out(p, addr, t->interval);
    return r ? r : sys_timespec_out(p, addr + 16, value);
}

SYS(timer_settime)
{
    rv_timer *t = posix_timer(p, a[0]);
    if (!t)
        return -EINVAL;
    uint64_t interval, value;
    int64_t r = sys_timespec_in(p, a[2], &interval);
    if (r || (r = sys_timespec_in(p, a[2] + 16, &value)))
        return r;
    if (a[3] && (r = itimerspec_out(p, a[3], t)))
        return r;
    uint64_t now = sig_clock_now(p, t->clock), expiry = 0;
    if (value && (a[1] & G_TIMER_ABSTIME)) {
        /* An absolute time on the timer's clock: the wall clocks count from the epoch. */
        uint64_t epoch = t->wall ? (uint64_t)RV_CLOCK_EPOCH_SEC * NS : 0;
        expiry = value > epoch + now ? value - epoch : now;
    } else if (value) {
        expiry = now + value;
    }
    arm(p, t, expiry, interval);
    return 0;
}

SYS(timer_gettime)
{
    rv_timer *t = posix_timer(p, a[0]);
    return t ? itimerspec_out(p, a[1], t) : -EINVAL;
}

SYS(timer_getoverrun)
{
    rv_timer *t = posix_timer(p, a[0]);
    return t ? (t->last_overrun > INT32_MAX ? INT32_MAX : (int64_t)t->last_overrun) : -EINVAL;
}

SYS(timer_delete)
{
    rv_timer *t = posix_timer(p, a[0]);
    if (!t)
        return -EINVAL;
    sig_forget_timer(&p->os.sig, RV_NITIMERS + (int)a[0]); /* its pending signal goes with it */
    memset(t, 0, sizeof *t);
    sig_update_event(p);
    return 0;
}
