/* Signal system calls: actions, masks, pending signals, waiting for one,
 * sending one to ourselves, the alternate stack and rt_sigreturn. The
 * semantics of delivery live in lib/sig/sig.c. */
#include <signal.h>
#include <string.h>

#include "sys_internal.h"

static const uint64_t unblockable = UINT64_C(1) << (SIGKILL - 1) | UINT64_C(1) << (SIGSTOP - 1);

enum { G_SIG_BLOCK = 0, G_SIG_UNBLOCK = 1, G_SIG_SETMASK = 2, SIGSET_SIZE = 8 };

static bool valid_signal(uint64_t sig)
{
    return sig >= 1 && sig <= RV_NSIG;
}

/* Would sig be discarded with this handler, blocked or not? */
static bool handler_ignores(uint64_t handler, int sig)
{
    return handler == G_SIG_IGN ||
           (handler == G_SIG_DFL && (sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH));
}

SYS(rt_sigaction)
{
    int sig = (int)a[0];
    if (a[3] != SIGSET_SIZE || !valid_signal(a[0]) || (a[1] && (sig == SIGKILL || sig == SIGSTOP)))
        return -EINVAL;
    rv_sigstate *s = &p->os.sig;
    rv_sigaction old = s->action[sig];
    if (a[1]) {
        uint64_t v[3];
        if (!mem_read(&p->mem, v, a[1], sizeof v))
            return -EFAULT;
        s->action[sig] = (rv_sigaction){v[0], v[1], v[2] & ~unblockable};
        if (handler_ignores(v[0], sig))
            sig_discard(s, sig);
    }
    uint64_t out[3] = {old.handler, old.flags, old.mask};
    return a[2] && !mem_write(&p->mem, a[2], out, sizeof out) ? -EFAULT : 0;
}

SYS(rt_sigprocmask)
{
    if (a[3] != SIGSET_SIZE)
        return -EINVAL;
    rv_sigstate *s = &p->os.sig;
    uint64_t old = s->blocked, set;
    if (a[1]) {
        if (!mem_read(&p->mem, &set, a[1], sizeof set))
            return -EFAULT;
        switch (a[0]) {
        case G_SIG_BLOCK: s->blocked |= set; break;
        case G_SIG_UNBLOCK: s->blocked &= ~set; break;
        case G_SIG_SETMASK: s->blocked = set; break;
        default: return -EINVAL;
        }
        s->blocked &= ~unblockable;
    }
    return a[2] && !mem_write(&p->mem, a[2], &old, sizeof old) ? -EFAULT : 0;
}

SYS(rt_sigpending)
{
    if (a[1] > SIGSET_SIZE)
        return -EINVAL;
    uint64_t set = sig_pending(&p->os.sig) & p->os.sig.blocked;
    return mem_write(&p->mem, a[0], &set, a[1]) ? 0 : -EFAULT;
}

/* Read a guest sigset_t argument of the given size. */
static int64_t read_sigset(rv_proc *p, uint64_t addr, uint64_t size, uint64_t *set)
{
    if (size != SIGSET_SIZE)
        return -EINVAL;
    return mem_read(&p->mem, set, addr, SIGSET_SIZE) ? 0 : -EFAULT;
}

int64_t sys_wait_with_mask(rv_proc *p, const uint64_t *mask, uint64_t deadline, const char *call)
{
    rv_sigstate *s = &p->os.sig;
    if (mask) {
        s->saved_mask = s->blocked;
        s->restore_mask = true;
        s->blocked = *mask & ~unblockable;
    }
    enum sig_wait_result r = sig_wait(p, 0, deadline, call);
    if (r == SIG_WAIT_SIGNAL)
        return -RV_ERESTARTNOHAND; /* the handler runs under the mask; the frame restores the old one */
    if (mask) {
        s->blocked = s->saved_mask;
        s->restore_mask = false;
    }
    return 0;
}

SYS(rt_sigsuspend)
{
    uint64_t mask;
    int64_t r = read_sigset(p, a[0], a[1], &mask);
    if (r)
        return r;
    r = sys_wait_with_mask(p, &mask, UINT64_MAX, "rt_sigsuspend");
    return r ? r : -RV_ERESTARTNOHAND; /* only a signal ends it */
}

SYS(rt_sigtimedwait)
{
    uint64_t set, deadline = UINT64_MAX;
    int64_t r = read_sigset(p, a[0], a[3], &set);
    if (r)
        return r;
    set &= ~unblockable;
    if (a[2]) {
        r = sys_deadline(p, a[2], &deadline);
        if (r)
            return r;
    }
    rv_siginfo info;
    int sig = sig_dequeue(p, set, &info);
    if (!sig) {
        enum sig_wait_result w = sig_wait(p, set, deadline, "rt_sigtimedwait");
        if (w == SIG_WAIT_FOREVER)
            return -EINTR;
        sig = sig_dequeue(p, set, &info);
        if (!sig)
            return w == SIG_WAIT_TIMEOUT ? -EAGAIN : -EINTR;
    }
    return a[1] && !mem_write(&p->mem, a[1], &info, sizeof info) ? -EFAULT : sig;
}

/* A signal the process sends itself, with the pid and uid of the sender. */
static int64_t send_self(rv_proc *p, uint64_t sig, int code)
{
    if (sig > RV_NSIG)
        return -EINVAL;
    if (sig == 0)
        return 0; /* only asks whether the target exists */
    rv_siginfo info = sig_info_self((int)sig, code);
    return sig_send(p, (int)sig, &info);
}

SYS(kill)
{
    int64_t pid = (int32_t)a[0];
    if (pid == GUEST_PID || pid == 0 || pid == -(int64_t)p->os.task.pgid)
        return send_self(p, a[1], G_SI_USER);
    if (a[1] > RV_NSIG)
        return -EINVAL;
    return -ESRCH; /* kill(-1, ...) reaches every process but the caller: none */
}

SYS(tkill)
{
    return (int32_t)a[0] == GUEST_PID ? send_self(p, a[1], G_SI_TKILL) : a[1] > RV_NSIG ? -EINVAL : -ESRCH;
}

SYS(tgkill)
{
    if ((int32_t)a[0] <= 0 || (int32_t)a[1] <= 0 || a[2] > RV_NSIG)
        return -EINVAL;
    return (int32_t)a[0] == GUEST_PID && (int32_t)a[1] == GUEST_PID ? send_self(p, a[2], G_SI_TKILL) : -ESRCH;
}

/* rt_sigqueueinfo and rt_tgsigqueueinfo: the caller's own siginfo. */
static int64_t queue_info(rv_proc *p, uint64_t sig, uint64_t info_addr)
{
    if (!valid_signal(sig))
        return -EINVAL;
    rv_siginfo info;
    if (!mem_read(&p->mem, &info, info_addr, sizeof info))
        return -EFAULT;
    info.w[0] = (info.w[0] & ~UINT64_C(0xffffffff)) | sig; /* si_signo is the call's */
    return sig_send(p, (int)sig, &info);
}

SYS(rt_sigqueueinfo)
{
    return (int32_t)a[0] == GUEST_PID ? queue_info(p, a[1], a[2]) : -ESRCH;
}

SYS(rt_tgsigqueueinfo)
{
    return (int32_t)a[0] == GUEST_PID && (int32_t)a[1] == GUEST_PID ? queue_info(p, a[2], a[3]) : -ESRCH;
}

SYS(rt_sigreturn)
{
    (void)a;
    uint64_t a0;
    if (!sig_frame_pop(p, &a0)) {
        rv_kill(p, SIGSEGV, "segmentation fault: rt_sigreturn found no readable signal frame at sp 0x%llx",
                (unsigned long long)p->cpu.x[2]);
        return 0;
    }
    return (int64_t)a0;
}

SYS(sigaltstack)
{
    rv_sigstate *s = &p->os.sig;
    uint64_t sp = p->cpu.x[2];
    uint32_t flags = sig_altstack_flags(s, sp) | (s->ss_flags & (uint32_t)G_SS_AUTODISARM);
    uint64_t old[3] = {s->ss_sp, flags, s->ss_size};
    if (a[0]) {
        uint64_t ss[3];
        if (!mem_read(&p->mem, ss, a[0], sizeof ss))
            return -EFAULT;
        int r = sig_altstack_set(s, sp, ss[0], (uint32_t)ss[1], ss[2]);
        if (r)
            return r;
    }
    return a[1] && !mem_write(&p->mem, a[1], old, sizeof old) ? -EFAULT : 0;
}
