/* sig_timers: signals from timers: alarm() and setitimer (real, virtual,
 * periodic), POSIX timers with their siginfo, timers that cut pause(),
 * nanosleep and sigsuspend short, sigwaitinfo on a timer, and SA_RESTART
 * restarting a read on a pipe that the handler fills (without it, the read
 * fails with EINTR). Prints only what any timing gives. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile int fired, last_code, last_value, last_sig;

static void on_timer(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    fired++;
    last_sig = sig, last_code = si->si_code, last_value = si->si_value.sival_int;
}

static void install(int sig, int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_timer;
    sa.sa_flags = SA_SIGINFO | flags;
    sigaction(sig, &sa, NULL);
}

static void spin_until(int n)
{
    while (fired < n)
        ;
}

static void test_itimers(void)
{
    install(SIGALRM, 0);
    printf("alarm(100) then alarm(0) returns %u\n", (alarm(100), alarm(0)));
    struct itimerval it = {{0, 0}, {0, 2000}}, cur;
    fired = 0;
    setitimer(ITIMER_REAL, &it, NULL);
    spin_until(1);
    getitimer(ITIMER_REAL, &cur);
    printf("one-shot ITIMER_REAL: fired %d, si_code SI_KERNEL %d, disarmed %d\n", fired, last_code == SI_KERNEL,
           cur.it_value.tv_sec == 0 && cur.it_value.tv_usec == 0);

    it = (struct itimerval){{0, 1000}, {0, 1000}};
    fired = 0;
    setitimer(ITIMER_REAL, &it, NULL);
    spin_until(4);
    it = (struct itimerval){{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &it, &cur);
    printf("periodic ITIMER_REAL: at least 4 ticks %d, interval kept %d\n", fired >= 4, cur.it_interval.tv_usec == 1000);

    install(SIGVTALRM, 0);
    it = (struct itimerval){{0, 0}, {0, 3000}};
    fired = 0;
    setitimer(ITIMER_VIRTUAL, &it, NULL);
    spin_until(1);
    printf("ITIMER_VIRTUAL: SIGVTALRM %d\n", last_sig == SIGVTALRM);
}

static void test_posix_timers(void)
{
    install(SIGRTMIN + 1, 0);
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGRTMIN + 1;
    ev.sigev_value.sival_int = 42;
    timer_t t;
    printf("timer_create: %d\n", timer_create(CLOCK_MONOTONIC, &ev, &t));
    struct itimerspec its = {{0, 0}, {0, 2000000}}, cur;
    fired = 0;
    timer_settime(t, 0, &its, NULL);
    timer_gettime(t, &cur);
    printf("armed: remaining in (0, 2 ms] %d\n", cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0 &&
                                                   cur.it_value.tv_nsec <= 2000000);
    spin_until(1);
    printf("expired: SI_TIMER %d, value %d, overrun %d\n", last_code == SI_TIMER, last_value, timer_getoverrun(t));

    printf("timer_delete: %d, again: %d (EINVAL %d)\n", timer_delete(t), timer_delete(t), errno == EINVAL);

    /* Absolute expiries on CLOCK_REALTIME (from the epoch): 1 ms ahead, and
     * in the past (at once). */
    timer_create(CLOCK_REALTIME, &ev, &t);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    its.it_value = now;
    its.it_value.tv_nsec += 1000000;
    if (its.it_value.tv_nsec >= 1000000000)
        its.it_value.tv_sec++, its.it_value.tv_nsec -= 1000000000;
    fired = 0;
    timer_settime(t, TIMER_ABSTIME, &its, NULL);
    spin_until(1);
    its.it_value = now;
    timer_settime(t, TIMER_ABSTIME, &its, NULL);
    spin_until(2);
    printf("absolute times on CLOCK_REALTIME: fired %d\n", fired);
    timer_delete(t);

    /* A CPU-time timer, and SIGEV_NONE (nothing is sent, the time runs). */
    ev.sigev_value.sival_int = 7;
    timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &t);
    its = (struct itimerspec){{0, 0}, {0, 1000000}};
    fired = 0;
    timer_settime(t, 0, &its, NULL);
    spin_until(1);
    printf("CPU-time timer: value %d\n", last_value);
    timer_delete(t);
    ev.sigev_notify = SIGEV_NONE;
    timer_create(CLOCK_MONOTONIC, &ev, &t);
    its = (struct itimerspec){{0, 0}, {5, 0}};
    timer_settime(t, 0, &its, NULL);
    timer_gettime(t, &cur);
    printf("SIGEV_NONE: remaining in (4, 5] s %d\n", cur.it_value.tv_sec == 4 || (cur.it_value.tv_sec == 5 &&
                                                                                cur.it_value.tv_nsec == 0));
    timer_delete(t);
}

static void arm_ms(int ms)
{
    struct itimerval it = {{0, 0}, {0, ms * 1000}};
    setitimer(ITIMER_REAL, &it, NULL);
}

static void test_waits(void)
{
    install(SIGALRM, 0);
    fired = 0;
    arm_ms(3);
    int r = pause();
    printf("pause: %d, EINTR %d, handler ran %d\n", r, errno == EINTR, fired);

    arm_ms(5);
    struct timespec req = {1, 0}, rem = {0, 0};
    r = nanosleep(&req, &rem);
    printf("nanosleep(1 s) cut short: %d, EINTR %d, remaining in (0.9, 1) s %d\n", r, errno == EINTR,
           rem.tv_sec == 0 && rem.tv_nsec > 900000000);

    req = (struct timespec){0, 2000000};
    printf("nanosleep(2 ms) with no timer: %d\n", nanosleep(&req, NULL));

    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &old);
    fired = 0;
    arm_ms(2);
    r = sigsuspend(&old);
    printf("sigsuspend woken by the alarm: %d, handler ran %d\n", r, fired);

    arm_ms(2);
    siginfo_t si;
    r = sigwaitinfo(&block, &si);
    printf("sigwaitinfo: SIGALRM %d, SI_KERNEL %d, no handler ran %d\n", r == SIGALRM, si.si_code == SI_KERNEL,
           fired == 1);
    sigprocmask(SIG_SETMASK, &old, NULL);

    struct timespec shortly = {0, 1000000};
    printf("sigtimedwait(1 ms) with nothing coming: %d, EAGAIN %d\n", sigtimedwait(&block, &si, &shortly),
           errno == EAGAIN);
}

static int pipe_fds[2];

static void fill_pipe(int sig)
{
    (void)sig;
    fired++;
    write(pipe_fds[1], "x", 1);
}

static void test_restart(void)
{
    pipe(pipe_fds);
    for (int restart = 0; restart <= 1; restart++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = fill_pipe;
        sa.sa_flags = restart ? SA_RESTART : 0;
        sigaction(SIGALRM, &sa, NULL);
        fired = 0;
        arm_ms(3);
        char c = 0;
        errno = 0;
        ssize_t n = read(pipe_fds[0], &c, 1);
        printf("read on an empty pipe, %s: returned %zd, errno %s, handler ran %d\n",
               restart ? "SA_RESTART" : "no SA_RESTART", n, errno == EINTR ? "EINTR" : errno ? "other" : "0", fired);
        if (n < 0)
            n = read(pipe_fds[0], &c, 1);
        printf("  then the byte: %zd '%c'\n", n, c);
    }
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_itimers();
    test_posix_timers();
    test_waits();
    test_restart();
    return 0;
}
