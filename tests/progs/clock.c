/* clock: clock_gettime, gettimeofday, time and nanosleep.
 * Prints only sanity checks, never the times themselves. */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

static double ts(struct timespec t)
{
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static const char *yes(int c)
{
    return c ? "yes" : "no";
}

int main(void)
{
    struct timespec r0, m0, m1, m2, r1, res;
    struct timeval tv;
    int ok = 1;
    ok &= clock_gettime(CLOCK_REALTIME, &r0) == 0;
    ok &= clock_gettime(CLOCK_MONOTONIC, &m0) == 0;
    printf("clock_gettime returns 0: %s\n", yes(ok));
    printf("tv_nsec in range: %s\n",
           yes(r0.tv_nsec >= 0 && r0.tv_nsec < 1000000000 && m0.tv_nsec >= 0 &&
               m0.tv_nsec < 1000000000));
    printf("clock_getres monotonic ok: %s\n",
           yes(clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_sec == 0 &&
               res.tv_nsec > 0 && res.tv_nsec <= 1000000));

    int mono = 1;
    struct timespec prev = m0;
    for (int i = 0; i < 1000; i++) {
        clock_gettime(CLOCK_MONOTONIC, &m1);
        if (ts(m1) < ts(prev))
            mono = 0;
        prev = m1;
    }
    printf("monotonic never decreases: %s\n", yes(mono));

    gettimeofday(&tv, NULL);
    time_t t = time(NULL);
    clock_gettime(CLOCK_REALTIME, &r1);
    double g = tv.tv_sec + tv.tv_usec * 1e-6;
    printf("tv_usec in range: %s\n", yes(tv.tv_usec >= 0 && tv.tv_usec < 1000000));
    printf("gettimeofday agrees with realtime: %s\n", yes(g >= ts(r0) - 1e-6 && g <= ts(r1) + 1e-6));
    /* time() may read the kernel's coarse clock (the vDSO's), up to a tick
     * behind the fine one: just after a second begins it can still say the
     * last (seen once in about a hundred runs under qemu) */
    printf("time() agrees with realtime: %s\n", yes(t >= r0.tv_sec - 1 && t <= r1.tv_sec));

    struct timespec d = {0, 20 * 1000 * 1000}; /* 20 ms */
    clock_gettime(CLOCK_MONOTONIC, &m1);
    int rc = nanosleep(&d, NULL);
    clock_gettime(CLOCK_MONOTONIC, &m2);
    printf("nanosleep returns 0: %s\n", yes(rc == 0));
    printf("nanosleep 20ms: monotonic advanced >= 20ms: %s\n", yes(ts(m2) - ts(m1) >= 0.0199));

    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    volatile double x = 0;
    for (int i = 0; i < 100000; i++)
        x += i * 0.5;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    printf("process cputime never decreases: %s\n", yes(ts(c1) >= ts(c0)));
    return 0;
}
