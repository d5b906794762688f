/* shared_past_eof MODE: touch a MAP_SHARED mapping past the end of its file,
 * which Linux (and qemu-riscv64) answer with SIGBUS:
 *   beyond   map 4 pages of a 1-page file, touch the third;
 *   shrink   map 4 pages of a 4-page file, truncate it to 0, touch the third;
 *   grow     map 4 pages of a 1-page file, grow the file to 4 pages, touch
 *            the third (no signal: the file covers it again), read it back;
 *   syscall  write(2) from the past-the-end page: EFAULT, no signal;
 *   handled  shrink, with a SIGBUS handler that reports si_code and si_addr
 *            offset and leaves. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { PAGE = 4096 };

static char *map;
static sigjmp_buf out;

static void on_bus(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    printf("signal %d code %d at page offset %ld\n", sig, si->si_code, (long)((char *)si->si_addr - map));
    siglongjmp(out, 1);
}

static char *map_file(int *fd, off_t size)
{
    *fd = open("past_eof.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (*fd < 0 || ftruncate(*fd, size) != 0)
        return NULL;
    char *m = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    return m == MAP_FAILED ? NULL : m;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int fd;
    bool shrinks = !strcmp(mode, "shrink") || !strcmp(mode, "handled");
    map = map_file(&fd, shrinks ? 4 * PAGE : PAGE);
    if (!map) {
        perror("past_eof.bin");
        return 2;
    }
    map[0] = 'a';
    if (shrinks)
        map[2 * PAGE] = 'b';
    if (!strcmp(mode, "handled")) {
        struct sigaction sa = {.sa_sigaction = on_bus, .sa_flags = SA_SIGINFO};
        sigaction(SIGBUS, &sa, NULL);
        if (sigsetjmp(out, 1)) {
            printf("recovered\n");
            return 0;
        }
    }
    if (shrinks)
        ftruncate(fd, 0);
    if (!strcmp(mode, "grow"))
        ftruncate(fd, 4 * PAGE);
    if (!strcmp(mode, "syscall")) {
        errno = 0;
        ssize_t n = write(1, map + 2 * PAGE, 16);
        printf("write from past the end: %zd %s\n", n, strerror(errno));
        return 0;
    }
    printf("before\n");
    fflush(stdout);
    map[2 * PAGE + 8] = 'c';
    char back = 0;
    pread(fd, &back, 1, 2 * PAGE + 8);
    printf("after: the file holds '%c'\n", back);
    return 0;
}
