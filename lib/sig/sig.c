/* Signal generation, the pending queue, timers and the delivery policy
 * (which signal, which action, system-call restarts). The frame itself is
 * sig_frame.c. */
#include "sig/sig.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "proc.h"

/* The host's numbers are the guest's (asm-generic numbering). */
_Static_assert(SIGBUS == 7 && SIGUSR1 == 10 && SIGCHLD == 17 && SIGSTOP == 19 && SIGSYS == 31, "signal numbers");

enum { SIGRTMIN_ = 32 };

static const uint64_t unblockable = UINT64_C(1) << (SIGKILL - 1) | UINT64_C(1) << (SIGSTOP - 1);
/* Faults: delivered before any other pending signal, as Linux does. */
static const uint64_t synchronous = UINT64_C(1) << (SIGSEGV - 1) | UINT64_C(1) << (SIGBUS - 1) |
                                    UINT64_C(1) << (SIGILL - 1) | UINT64_C(1) << (SIGTRAP - 1) |
                                    UINT64_C(1) << (SIGFPE - 1) | UINT64_C(1) << (SIGSYS - 1);

enum default_action { DFL_TERM, DFL_CORE, DFL_IGN, DFL_STOP };

static enum default_action default_action(int sig)
{
    switch (sig) {
    case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH:
        return DFL_IGN;
    case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
        return DFL_STOP;
    case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS: case SIGFPE: case SIGSEGV: case SIGXCPU:
    case SIGXFSZ: case SIGSYS:
        return DFL_CORE;
    default:
        return DFL_TERM;
    }
}

void sig_init(rv_sigstate *s)
{
    memset(s, 0, sizeof *s);
    s->ss_flags = G_SS_DISABLE;
    for (int i = 0; i < RV_NITIMERS; i++)
        s->timer[i].used = true;
    s->timer[0].sig = SIGALRM, s->timer[1].sig = SIGVTALRM, s->timer[2].sig = SIGPROF;
    s->timer[1].clock = s->timer[2].clock = RV_CLOCK_CPU;
    s->next_event = UINT64_MAX;
}

uint64_t sig_clock_now(const rv_proc *p, enum rv_timer_clock clock)
{
    return p->cpu.icount + (clock == RV_CLOCK_REAL ? p->os.slept_ns : 0);
}

static bool is_ignored(const rv_sigstate *s, int sig)
{
    if (s->blocked & sig_bit(sig))
        return false; /* it may be unblocked after its action changed */
    uint64_t h = s->action[sig].handler;
    return h == G_SIG_IGN || (h == G_SIG_DFL && default_action(sig) == DFL_IGN);
}

uint64_t sig_pending(const rv_sigstate *s)
{
    uint64_t set = 0;
    for (uint32_t i = 0; i < s->nqueued; i++)
        set |= sig_bit(s->queue[i].sig);
    return set;
}

static rv_siginfo info_new(int sig, int code)
{
    rv_siginfo info;
    memset(&info, 0, sizeof info);
    uint32_t w0[2] = {(uint32_t)sig, 0};
    memcpy(&info.w[0], w0, 8);
    info.w[1] = (uint32_t)code;
    return info;
}

rv_siginfo sig_info_self(int sig, int code)
{
    rv_siginfo info = info_new(sig, code);
    info.w[2] = (uint64_t)GUEST_UID << 32 | GUEST_PID; /* si_pid, si_uid */
    return info;
}

static void remove_at(rv_sigstate *s, uint32_t i)
{
    memmove(&s->queue[i], &s->queue[i + 1], (s->nqueued - i - 1) * sizeof s->queue[0]);
    s->nqueued--;
}

void sig_discard(rv_sigstate *s, int sig)
{
    for (uint32_t i = s->nqueued; i-- > 0;)
        if (s->queue[i].sig == sig) {
            if (s->queue[i].timer >= 0)
                s->timer[s->queue[i].timer].queued = false;
            remove_at(s, i);
        }
}

void sig_forget_timer(rv_sigstate *s, int idx)
{
    for (uint32_t i = s->nqueued; i-- > 0;)
        if (s->queue[i].timer == idx)
            remove_at(s, i);
    s->timer[idx].queued = false;
}

/* Queue one instance; -1 when merged or ignored, -EAGAIN when full, else its slot. */
static int enqueue(rv_proc *p, int sig, const rv_siginfo *info, int timer)
{
    rv_sigstate *s = &p->os.sig;
    if (is_ignored(s, sig))
        return -1;
    if (sig < SIGRTMIN_ && (sig_pending(s) & sig_bit(sig)))
        return -1;
    if (s->nqueued == RV_SIGQUEUE_MAX)
        return -EAGAIN;
    s->queue[s->nqueued] = (rv_pending){sig, timer, *info};
    if (!(s->blocked & sig_bit(sig)))
        s->next_event = 0; /* deliverable: before the next instruction */
    return (int)s->nqueued++;
}

int sig_send(rv_proc *p, int sig, const rv_siginfo *info)
{
    rv_siginfo own = sig_info_self(sig, G_SI_USER);
    int r = enqueue(p, sig, info ? info : &own, -1);
    return r == -EAGAIN ? r : 0;
}

bool sig_take_fault(rv_proc *p, int sig, int code, uint64_t addr)
{
    rv_sigstate *s = &p->os.sig;
    uint64_t h = s->action[sig].handler;
    /* A blocked or ignored fault kills, as the kernel's force_sig does. */
    if (h == G_SIG_DFL || h == G_SIG_IGN || (s->blocked & sig_bit(sig)))
        return false;
    sig_discard(s, sig); /* the fault's own siginfo (si_addr) wins */
    rv_siginfo info = info_new(sig, code);
    info.w[2] = addr;
    return enqueue(p, sig, &info, -1) >= 0;
}

/* ------------------------------------------------------------ timers */

static void raise_timer(rv_proc *p, int idx, uint32_t missed)
{
    rv_timer *t = &p->os.sig.timer[idx];
    if (t->queued) {
        t->overrun += 1 + missed;
        return;
    }
    rv_siginfo info;
    if (idx < RV_NITIMERS) {
        info = info_new(t->sig, G_SI_KERNEL);
    } else {
        info = info_new(t->sig, G_SI_TIMER);
        info.w[2] = (uint32_t)(idx - RV_NITIMERS); /* si_tid; si_overrun is set at delivery */
        info.w[3] = t->value;
    }
    t->overrun = missed;
    if (enqueue(p, t->sig, &info, idx) >= 0)
        t->queued = true;
}

/* Fire every timer whose expiry has passed; periodic ones re-arm. */
static void fire_timers(rv_proc *p)
{
    for (int i = 0; i < RV_NTIMERS; i++) {
        rv_timer *t = &p->os.sig.timer[i];
        if (!t->expiry)
            continue;
        uint64_t now = sig_clock_now(p, t->clock);
        if (t->expiry > now)
            continue;
        uint32_t missed = 0;
        if (t->interval) {
            uint64_t late = (now - t->expiry) / t->interval;
            missed = late > UINT32_MAX ? UINT32_MAX : (uint32_t)late;
            t->expiry += (late + 1) * t->interval;
        } else {
            t->expiry = 0;
        }
        if (t->notify == G_SIGEV_SIGNAL)
            raise_timer(p, i, missed);
    }
}

void sig_update_event(rv_proc *p)
{
    rv_sigstate *s = &p->os.sig;
    uint64_t next = UINT64_MAX;
    if (sig_pending(s) & ~s->blocked)
        next = 0;
    for (int i = 0; i < RV_NTIMERS; i++) {
        const rv_timer *t = &s->timer[i];
        if (!t->expiry)
            continue;
        uint64_t at = t->expiry;
        if (t->clock == RV_CLOCK_REAL)
            at = at > p->os.slept_ns ? at - p->os.slept_ns : 0;
        if (at < next)
            next = at;
    }
    s->next_event = next;
}

/* ---------------------------------------------------------- delivery */

int sig_dequeue(rv_proc *p, uint64_t mask, rv_siginfo *info)
{
    rv_sigstate *s = &p->os.sig;
    uint64_t set = sig_pending(s) & mask;
    if (!set)
        return 0;
    if (set & synchronous)
        set &= synchronous;
    int sig = __builtin_ctzll(set) + 1;
    for (uint32_t i = 0; i < s->nqueued; i++) {
        rv_pending *q = &s->queue[i];
        if (q->sig != sig)
            continue;
        *info = q->info;
        if (q->timer >= 0) {
            rv_timer *t = &s->timer[q->timer];
            t->queued = false;
            t->last_overrun = t->overrun;
            if (q->timer >= RV_NITIMERS)
                info->w[2] = (uint64_t)t->overrun << 32 | (uint32_t)info->w[2]; /* si_overrun */
            t->overrun = 0;
        }
        remove_at(s, i);
        break;
    }
    return sig;
}

static void terminate(rv_proc *p, int sig)
{
    if (default_action(sig) == DFL_STOP)
        rv_kill(p, sig, "stopped by signal %d (%s), which ends the process here", sig, strsignal(sig));
    else
        rv_kill(p, sig, "terminated by signal %d (%s)", sig, strsignal(sig));
}

/* The frame could not be written: SIGSEGV, with its default action if it was
 * SIGSEGV's own frame (the kernel's force_sigsegv). */
static void force_segv(rv_proc *p, int sig)
{
    rv_sigstate *s = &p->os.sig;
    if (sig == SIGSEGV || s->action[SIGSEGV].handler == G_SIG_IGN)
        s->action[SIGSEGV].handler = G_SIG_DFL;
    s->blocked &= ~sig_bit(SIGSEGV);
    sig_discard(s, SIGSEGV);
    if (s->nqueued == RV_SIGQUEUE_MAX)
        s->nqueued--; /* it must be queued: it replaces the newest */
    s->queue[s->nqueued++] = (rv_pending){SIGSEGV, -1, info_new(SIGSEGV, G_SI_KERNEL)};
}

/* How an interrupted system call resumes (the kernel's handle_signal and
 * arch_do_signal_or_restart for riscv): a0 holds its result; the ecall is
 * the 4 bytes before pc. */
static void restart_syscall(rv_proc *p, uint64_t orig_a0, bool handler, uint64_t sa_flags)
{
    int64_t r = (int64_t)p->cpu.x[10];
    bool restart = false;
    switch (r) {
    case -RV_ERESTART_RESTARTBLOCK: case -RV_ERESTARTNOHAND:
        restart = !handler;
        break;
    case -RV_ERESTARTSYS:
        restart = !handler || (sa_flags & G_SA_RESTART);
        break;
    case -RV_ERESTARTNOINTR:
        restart = true;
        break;
    default:
        return;
    }
    if (restart) {
        p->cpu.x[10] = orig_a0;
        p->cpu.pc -= 4;
    } else {
        p->cpu.x[10] = (uint64_t)-EINTR;
    }
}

static void deliver(rv_proc *p, bool at_syscall, uint64_t orig_a0)
{
    rv_sigstate *s = &p->os.sig;
    bool handled = false;
    fire_timers(p);
    for (;;) {
        rv_siginfo info;
        int sig = sig_dequeue(p, ~s->blocked, &info);
        if (!sig)
            break;
        rv_sigaction act = s->action[sig];
        if (act.handler == G_SIG_IGN || (act.handler == G_SIG_DFL && default_action(sig) == DFL_IGN))
            continue;
        if (act.handler == G_SIG_DFL) {
            terminate(p, sig);
            return;
        }
        if (at_syscall && !handled)
            restart_syscall(p, orig_a0, true, act.flags);
        handled = true;
        if (!sig_frame_push(p, sig, &info, s->restore_mask ? s->saved_mask : s->blocked)) {
            force_segv(p, sig);
            continue;
        }
        s->restore_mask = false;
        s->blocked |= (act.mask | ((act.flags & G_SA_NODEFER) ? 0 : sig_bit(sig))) & ~unblockable;
        if (act.flags & G_SA_RESETHAND)
            s->action[sig].handler = G_SIG_DFL;
    }
    if (at_syscall && !handled)
        restart_syscall(p, orig_a0, false, 0);
    if (s->restore_mask) {
        s->blocked = s->saved_mask;
        s->restore_mask = false;
    }
    sig_update_event(p);
}

void sig_deliver(rv_proc *p)
{
    deliver(p, false, 0);
}

void sig_deliver_at_syscall(rv_proc *p, uint64_t orig_a0)
{
    deliver(p, true, orig_a0);
}

/* --------------------------------------------------------------- waits */

/* Could a timer's signal end a wait for ~blocked | also? */
static bool can_wake(const rv_sigstate *s, const rv_timer *t, uint64_t also)
{
    return t->notify == G_SIGEV_SIGNAL && !is_ignored(s, t->sig) && ((~s->blocked | also) & sig_bit(t->sig));
}

/* The wall-clock time at which the next timer that can end a wait expires
 * (UINT64_MAX: none). Sleeping uses no CPU time: only wall-clock timers run. */
static uint64_t next_wake(const rv_sigstate *s, uint64_t also)
{
    uint64_t next = UINT64_MAX;
    for (int i = 0; i < RV_NTIMERS; i++) {
        const rv_timer *t = &s->timer[i];
        if (t->expiry && t->clock == RV_CLOCK_REAL && can_wake(s, t, also) && t->expiry < next)
            next = t->expiry;
    }
    return next;
}

bool sig_may_arrive(const rv_proc *p, uint64_t also)
{
    const rv_sigstate *s = &p->os.sig;
    return (sig_pending(s) & (~s->blocked | also)) || next_wake(s, also) != UINT64_MAX;
}

enum sig_wait_result sig_wait(rv_proc *p, uint64_t also, uint64_t deadline, const char *call)
{
    rv_sigstate *s = &p->os.sig;
    for (;;) {
        fire_timers(p);
        uint64_t now = sig_clock_now(p, RV_CLOCK_REAL);
        if (now >= deadline)
            return SIG_WAIT_TIMEOUT;
        if (sig_pending(s) & (~s->blocked | also))
            return SIG_WAIT_SIGNAL;
        uint64_t next = next_wake(s, also);
        if (next > deadline)
            next = deadline;
        if (next == UINT64_MAX) {
            rv_kill(p, SIGSYS,
                    "%s at pc 0x%llx would wait forever: no timer is armed to raise a signal it waits for, and no "
                    "other process exists",
                    call, (unsigned long long)(p->cpu.pc - 4));
            return SIG_WAIT_FOREVER;
        }
        p->os.slept_ns += next - now;
    }
}

/* --------------------------------------------------------- alt stack */

uint32_t sig_altstack_flags(const rv_sigstate *s, uint64_t sp)
{
    if (!s->ss_size)
        return G_SS_DISABLE;
    if (s->ss_flags & G_SS_AUTODISARM)
        return 0;
    return sp > s->ss_sp && sp - s->ss_sp <= s->ss_size ? G_SS_ONSTACK : 0;
}

int sig_altstack_set(rv_sigstate *s, uint64_t sp, uint64_t ss_sp, uint32_t ss_flags, uint64_t ss_size)
{
    if (sig_altstack_flags(s, sp) == G_SS_ONSTACK)
        return -EPERM;
    uint32_t mode = ss_flags & ~(uint32_t)G_SS_AUTODISARM;
    if (mode != G_SS_DISABLE && mode != G_SS_ONSTACK && mode != 0)
        return -EINVAL;
    if (mode == G_SS_DISABLE) {
        ss_sp = ss_size = 0;
    } else if (ss_size < G_MINSIGSTKSZ) {
        return -ENOMEM;
    }
    s->ss_sp = ss_sp, s->ss_size = ss_size, s->ss_flags = ss_flags;
    return 0;
}
