/* sig_default MODE: default signal actions end the process, as the exit
 * status shows (128 + signal):
 *   alarm          an interval timer expires in a busy loop (SIGALRM, 142)
 *   raise SIG      raise(SIG) with the default action (a number)
 *   pipe           a write to a pipe nobody reads (SIGPIPE, 141)
 *   pipe-ignored   the same with SIGPIPE ignored: EPIPE, exit 0
 *   blocked-segv   a fault while SIGSEGV is blocked, with a handler: 139
 * Prints a line first, so the output before the end is compared too. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static void never(int sig)
{
    printf("handler %d ran\n", sig);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "alarm";
    printf("mode %s\n", mode);
    if (!strcmp(mode, "alarm")) {
        struct itimerval it = {{0, 0}, {0, 5000}};
        setitimer(ITIMER_REAL, &it, NULL);
        for (volatile unsigned long i = 0;; i++)
            ;
    } else if (!strcmp(mode, "raise") && argc > 2) {
        raise(atoi(argv[2]));
        printf("still running after signal %s\n", argv[2]);
    } else if (!strcmp(mode, "pipe") || !strcmp(mode, "pipe-ignored")) {
        if (!strcmp(mode, "pipe-ignored"))
            signal(SIGPIPE, SIG_IGN);
        int fds[2];
        pipe(fds);
        close(fds[0]);
        ssize_t n = write(fds[1], "x", 1);
        printf("write returned %zd, EPIPE %d\n", n, errno == EPIPE);
    } else if (!strcmp(mode, "blocked-segv")) {
        signal(SIGSEGV, never);
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, SIGSEGV);
        sigprocmask(SIG_BLOCK, &s, NULL);
        *(volatile int *)16 = 1;
        printf("survived\n");
    }
    return 0;
}
