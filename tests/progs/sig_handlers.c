/* sig_handlers: signal handlers as Linux runs them for one thread: delivery
 * at raise/kill, siginfo, nested signals, SA_NODEFER, SA_RESETHAND, blocked
 * and pending signals, sigsuspend, sigtimedwait, sigqueue, ignored and
 * default-ignored signals, a handler that edits its ucontext, and
 * rt_sigreturn restoring every integer and FP register and fcsr. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static char order[64];
static volatile int norder;

static void reset(void)
{
    norder = 0;
    order[0] = '\0';
}

static void note(char c)
{
    order[norder++] = c;
    order[norder] = '\0';
}

/* (sa_mask stays empty: qemu-riscv64 7.2 does not apply it; the e2e test
 * signals_linux.sh checks it against Linux's documented behaviour.) */
static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static volatile int last_code, last_pid_ok, last_value;

static void record(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    note(sig == SIGUSR1 ? '1' : sig == SIGUSR2 ? '2' : 'r');
    last_code = si->si_code;
    last_pid_ok = si->si_code <= 0 && si->si_pid == getpid();
    last_value = si->si_value.sival_int;
}

/* USR1 raises USR2 inside its handler: USR2 runs nested, before USR1 ends. */
static void outer(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    note('(');
    raise(SIGUSR2);
    note(')');
}

static volatile int depth;

/* Raises itself: with SA_NODEFER it nests, without it runs again after. */
static void self_raiser(int sig, siginfo_t *si, void *uc)
{
    (void)si, (void)uc;
    note('<');
    if (++depth < 3)
        raise(sig);
    note('>');
}

static void test_basic(void)
{
    install(SIGUSR1, record, 0);
    raise(SIGUSR1);
    printf("raise: order %s, si_code %s, si_pid is ours %d\n", order, last_code == SI_TKILL ? "SI_TKILL" : "?",
           last_pid_ok);
    reset();
    kill(getpid(), SIGUSR1);
    printf("kill: order %s, si_code %s, si_pid is ours %d\n", order, last_code == SI_USER ? "SI_USER" : "?",
           last_pid_ok);
    reset();
    union sigval v = {.sival_int = 4242};
    sigqueue(getpid(), SIGUSR1, v);
    printf("sigqueue: order %s, si_code %s, value %d\n", order, last_code == SI_QUEUE ? "SI_QUEUE" : "?",
           last_value);
}

static void test_nesting(void)
{
    install(SIGUSR1, outer, 0);
    install(SIGUSR2, record, 0);
    reset();
    raise(SIGUSR1);
    printf("nested: %s\n", order);

    install(SIGUSR1, self_raiser, 0);
    reset(), depth = 0;
    raise(SIGUSR1);
    printf("self without SA_NODEFER: %s\n", order);
    install(SIGUSR1, self_raiser, SA_NODEFER);
    reset(), depth = 0;
    raise(SIGUSR1);
    printf("self with SA_NODEFER: %s\n", order);
}

static void test_masks(void)
{
    install(SIGUSR1, record, 0);
    install(SIGUSR2, record, 0);
    sigset_t block, old, pending;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigaddset(&block, SIGUSR2);
    sigprocmask(SIG_BLOCK, &block, &old);
    reset();
    raise(SIGUSR2);
    raise(SIGUSR1);
    raise(SIGUSR1); /* a standard signal is pending once */
    sigpending(&pending);
    printf("blocked: ran '%s', pending USR1 %d USR2 %d\n", order, sigismember(&pending, SIGUSR1),
           sigismember(&pending, SIGUSR2));
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("unblocked: ran '%s' (both frames pushed at once, the later runs first)\n", order);

    /* A real-time signal queues every instance, with its value. */
    sigprocmask(SIG_BLOCK, &block, &old);
    sigaddset(&block, SIGRTMIN + 2);
    sigprocmask(SIG_BLOCK, &block, NULL);
    install(SIGRTMIN + 2, record, 0);
    for (int i = 1; i <= 3; i++)
        sigqueue(getpid(), SIGRTMIN + 2, (union sigval){.sival_int = i});
    reset();
    int values = 0;
    for (int i = 0; i < 3; i++) {
        siginfo_t si;
        struct timespec zero = {0, 0};
        int s = sigtimedwait(&block, &si, &zero);
        values = values * 10 + (s == SIGRTMIN + 2 ? si.si_value.sival_int : 0);
    }
    struct timespec shortly = {0, 1000};
    printf("sigtimedwait: values %d, then %d (EAGAIN)\n", values, sigtimedwait(&block, NULL, &shortly));
    sigprocmask(SIG_SETMASK, &old, NULL);

    /* sigsuspend: the signal arrives under the temporary mask, then the old one is back. */
    sigprocmask(SIG_BLOCK, &block, &old);
    raise(SIGUSR2);
    sigset_t wait_mask = old;
    sigdelset(&wait_mask, SIGUSR2);
    reset();
    int r = sigsuspend(&wait_mask);
    sigset_t now;
    sigprocmask(SIG_SETMASK, NULL, &now);
    printf("sigsuspend: %d, ran '%s', USR2 blocked again %d\n", r, order, sigismember(&now, SIGUSR2));
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static void test_dispositions(void)
{
    install(SIGCHLD, record, SA_RESETHAND);
    reset();
    raise(SIGCHLD);
    raise(SIGCHLD); /* back to SIG_DFL: ignored */
    struct sigaction cur;
    sigaction(SIGCHLD, NULL, &cur);
    printf("SA_RESETHAND: ran '%s', handler now default %d\n", order, cur.sa_handler == SIG_DFL);

    signal(SIGUSR1, SIG_IGN);
    raise(SIGUSR1);
    signal(SIGURG, SIG_DFL);
    raise(SIGURG);
    raise(SIGWINCH);
    printf("ignored signals: still here\n");

    /* A blocked signal that becomes ignored is discarded. */
    sigset_t b, pend;
    sigemptyset(&b);
    sigaddset(&b, SIGUSR2);
    sigprocmask(SIG_BLOCK, &b, NULL);
    raise(SIGUSR2);
    signal(SIGUSR2, SIG_IGN);
    sigpending(&pend);
    printf("ignoring a pending signal drops it: %d\n", !sigismember(&pend, SIGUSR2));
    sigprocmask(SIG_UNBLOCK, &b, NULL);
}

/* The handler edits the interrupted context: a0 of the interrupted code. */
static void edit_context(int sig, siginfo_t *si, void *ucv)
{
    (void)sig, (void)si;
    ucontext_t *uc = ucv;
    uc->uc_mcontext.__gregs[REG_A0] = 777; /* the value tgkill appears to return */
}

/* Clobbers every caller-saved integer register and every FP register, and
 * changes fcsr, before returning through rt_sigreturn. */
static void clobber(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    note('c');
    __asm__ volatile("li t0, -1\n li t1, -1\n li t2, -1\n li t3, -1\n li t4, -1\n li t5, -1\n li t6, -1\n"
                     "fmv.d.x f0, t0\n fmv.d.x f1, t0\n fmv.d.x f2, t0\n fmv.d.x f3, t0\n fmv.d.x f4, t0\n"
                     "fmv.d.x f5, t0\n fmv.d.x f6, t0\n fmv.d.x f7, t0\n fmv.d.x f8, t0\n fmv.d.x f9, t0\n"
                     "fmv.d.x f10, t0\n fmv.d.x f11, t0\n fmv.d.x f12, t0\n fmv.d.x f13, t0\n fmv.d.x f14, t0\n"
                     "fmv.d.x f15, t0\n fmv.d.x f16, t0\n fmv.d.x f17, t0\n fmv.d.x f18, t0\n fmv.d.x f19, t0\n"
                     "fmv.d.x f20, t0\n fmv.d.x f21, t0\n fmv.d.x f22, t0\n fmv.d.x f23, t0\n fmv.d.x f24, t0\n"
                     "fmv.d.x f25, t0\n fmv.d.x f26, t0\n fmv.d.x f27, t0\n fmv.d.x f28, t0\n fmv.d.x f29, t0\n"
                     "fmv.d.x f30, t0\n fmv.d.x f31, t0\n csrwi fcsr, 0x1f\n" ::
                         : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "memory");
}

static void test_context(void)
{
    install(SIGUSR1, edit_context, 0);
    long r = syscall(SYS_tgkill, getpid(), getpid(), SIGUSR1);
    printf("handler edits a0: tgkill returned %ld\n", r);

    install(SIGUSR2, clobber, 0);
    static uint64_t fin[32], fout[32];
    uint64_t tin[7], tout[7], fcsr_out;
    for (int i = 0; i < 32; i++)
        fin[i] = UINT64_C(0x4000000000000000) + (uint64_t)i * 0x0101010101;
    for (int i = 0; i < 7; i++)
        tin[i] = UINT64_C(0x1111) * (uint64_t)(i + 1);
    reset();
    register long a0 __asm__("a0") = getpid();
    register long a1 __asm__("a1") = getpid();
    register long a2 __asm__("a2") = SIGUSR2;
    register long a7 __asm__("a7") = SYS_tgkill;
    /* Load every FP register and t0-t6, set rm=RUP and fflags=NX, raise the
     * signal with a raw ecall (the handler runs as it returns), and store
     * them all again. */
    __asm__ volatile("fld f0, 0(%[fi])\n fld f1, 8(%[fi])\n fld f2, 16(%[fi])\n fld f3, 24(%[fi])\n"
                     "fld f4, 32(%[fi])\n fld f5, 40(%[fi])\n fld f6, 48(%[fi])\n fld f7, 56(%[fi])\n"
                     "fld f8, 64(%[fi])\n fld f9, 72(%[fi])\n fld f10, 80(%[fi])\n fld f11, 88(%[fi])\n"
                     "fld f12, 96(%[fi])\n fld f13, 104(%[fi])\n fld f14, 112(%[fi])\n fld f15, 120(%[fi])\n"
                     "fld f16, 128(%[fi])\n fld f17, 136(%[fi])\n fld f18, 144(%[fi])\n fld f19, 152(%[fi])\n"
                     "fld f20, 160(%[fi])\n fld f21, 168(%[fi])\n fld f22, 176(%[fi])\n fld f23, 184(%[fi])\n"
                     "fld f24, 192(%[fi])\n fld f25, 200(%[fi])\n fld f26, 208(%[fi])\n fld f27, 216(%[fi])\n"
                     "fld f28, 224(%[fi])\n fld f29, 232(%[fi])\n fld f30, 240(%[fi])\n fld f31, 248(%[fi])\n"
                     "ld t0, 0(%[ti])\n ld t1, 8(%[ti])\n ld t2, 16(%[ti])\n ld t3, 24(%[ti])\n"
                     "ld t4, 32(%[ti])\n ld t5, 40(%[ti])\n ld t6, 48(%[ti])\n"
                     "csrwi frm, 3\n csrwi fflags, 1\n"
                     "ecall\n"
                     "sd t0, 0(%[to])\n sd t1, 8(%[to])\n sd t2, 16(%[to])\n sd t3, 24(%[to])\n"
                     "sd t4, 32(%[to])\n sd t5, 40(%[to])\n sd t6, 48(%[to])\n"
                     "fsd f0, 0(%[fo])\n fsd f1, 8(%[fo])\n fsd f2, 16(%[fo])\n fsd f3, 24(%[fo])\n"
                     "fsd f4, 32(%[fo])\n fsd f5, 40(%[fo])\n fsd f6, 48(%[fo])\n fsd f7, 56(%[fo])\n"
                     "fsd f8, 64(%[fo])\n fsd f9, 72(%[fo])\n fsd f10, 80(%[fo])\n fsd f11, 88(%[fo])\n"
                     "fsd f12, 96(%[fo])\n fsd f13, 104(%[fo])\n fsd f14, 112(%[fo])\n fsd f15, 120(%[fo])\n"
                     "fsd f16, 128(%[fo])\n fsd f17, 136(%[fo])\n fsd f18, 144(%[fo])\n fsd f19, 152(%[fo])\n"
                     "fsd f20, 160(%[fo])\n fsd f21, 168(%[fo])\n fsd f22, 176(%[fo])\n fsd f23, 184(%[fo])\n"
                     "fsd f24, 192(%[fo])\n fsd f25, 200(%[fo])\n fsd f26, 208(%[fo])\n fsd f27, 216(%[fo])\n"
                     "fsd f28, 224(%[fo])\n fsd f29, 232(%[fo])\n fsd f30, 240(%[fo])\n fsd f31, 248(%[fo])\n"
                     "frcsr %[fcsr]\n csrwi fcsr, 0\n"
                     : [fcsr] "=r"(fcsr_out), "+r"(a0)
                     : [fi] "r"(fin), [fo] "r"(fout), [ti] "r"(tin), [to] "r"(tout), "r"(a1), "r"(a2), "r"(a7)
                     : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "memory", "f0", "f1", "f2", "f3", "f4", "f5", "f6",
                       "f7", "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f20",
                       "f21", "f22", "f23", "f24", "f25", "f26", "f27", "f28", "f29", "f30", "f31");
    int f_same = memcmp(fin, fout, sizeof fin) == 0, t_same = memcmp(tin, tout, sizeof tin) == 0;
    printf("rt_sigreturn: handler ran '%s', tgkill %ld, FP registers restored %d, t0-t6 restored %d, "
           "fcsr 0x%llx\n", order, (long)a0, f_same, t_same, (unsigned long long)fcsr_out);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_basic();
    test_nesting();
    test_masks();
    test_dispositions();
    test_context();
    return 0;
}
