/* File locks and the descriptor calls compressors and databases make,
 * compared with qemu-riscv64 (tests/e2e/qemu_diff_programs.sh): fcntl
 * record locks (the process's own never conflict; OFD locks of another
 * open file description do), lock splitting and F_GETLK answers, flock
 * between two descriptions, locks released on close, a MAP_SHARED mapping
 * seen through a second descriptor under a lock (SQLite's WAL index),
 * and preadv/pwritev, sendfile, copy_file_range, fallocate, fadvise,
 * memfd_create, FIONREAD on a pipe, poll on a pipe, fchown to oneself. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <unistd.h>

static int lock(int fd, int cmd, short type, off_t start, off_t len)
{
    struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
    return fcntl(fd, cmd, &fl) == 0 ? 0 : errno;
}

/* What F_OFD_GETLK says about a lock of `type` over [start, start+len). */
static void show(const char *what, int fd, short type, off_t start, off_t len)
{
    struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
    if (fcntl(fd, F_OFD_GETLK, &fl) != 0) {
        printf("%s: F_OFD_GETLK errno %d\n", what, errno);
        return;
    }
    if (fl.l_type == F_UNLCK)
        printf("%s: free\n", what);
    else
        printf("%s: held %s [%lld, +%lld) by %s\n", what, fl.l_type == F_WRLCK ? "write" : "read",
               (long long)fl.l_start, (long long)fl.l_len, fl.l_pid == getpid() ? "this process" : "?");
}

int main(void)
{
    int a = open("db", O_RDWR | O_CREAT | O_TRUNC, 0644);
    int b = open("db", O_RDWR);
    ftruncate(a, 8192);

    /* The process's own record locks: never in its own way; split and merged. */
    printf("posix write 0-100: %d\n", lock(a, F_SETLK, F_WRLCK, 0, 100));
    printf("posix write 50-150 on b: %d\n", lock(b, F_SETLK, F_WRLCK, 50, 100));
    printf("posix unlock 20-30: %d\n", lock(a, F_SETLK, F_UNLCK, 20, 10));
    show("ofd on b asks 0-200", b, F_WRLCK, 0, 200);
    show("ofd on b asks 20-30", b, F_WRLCK, 20, 10);
    show("ofd on b reads 200-", b, F_RDLCK, 200, 0);

    /* OFD locks: each open file description its own owner. */
    printf("ofd read 1000-1100 on a: %d\n", lock(a, F_OFD_SETLK, F_RDLCK, 1000, 100));
    printf("ofd read 1050-1060 on b: %d\n", lock(b, F_OFD_SETLK, F_RDLCK, 1050, 10));
    printf("ofd write 1050-1060 on b: %d\n", lock(b, F_OFD_SETLK, F_WRLCK, 1050, 10) == EAGAIN);
    int c = dup(a); /* the same description as a: no conflict with a's locks */
    printf("ofd write 1000-1010 on a dup of a: %d\n", lock(c, F_OFD_SETLK, F_WRLCK, 1000, 10) == EAGAIN);
    printf("ofd with a pid: %d\n", lock(a, F_OFD_SETLK, F_RDLCK, 0, 1) == 0);

    /* flock: apart from record locks, between descriptions. */
    printf("flock ex a: %d\n", flock(a, LOCK_EX | LOCK_NB) == 0 ? 0 : errno);
    printf("flock sh b: %s\n", flock(b, LOCK_SH | LOCK_NB) == 0 ? "granted" : errno == EWOULDBLOCK ? "would block" : "?");
    flock(a, LOCK_UN);
    printf("flock sh b after unlock: %d\n", flock(b, LOCK_SH | LOCK_NB) == 0 ? 0 : errno);
    printf("flock bad op: %d\n", flock(a, 77) == 0 ? 0 : errno);

    /* Closing any descriptor of the file drops the process's record locks. */
    int d = open("db", O_RDONLY);
    close(d);
    show("after closing another fd, 0-100", b, F_WRLCK, 0, 100);

    /* A shared mapping of the file, written under a lock, read through b. */
    char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, a, 0);
    printf("ofd write 4096- on a: %d\n", lock(a, F_OFD_SETLK, F_WRLCK, 4096, 0));
    strcpy(m + 4096, "wal index header");
    char buf[64] = {0};
    pread(b, buf, 16, 4096);
    printf("through b: %s\n", buf);
    printf("ofd write 4096- on b: %d\n", lock(b, F_OFD_SETLK, F_WRLCK, 4096, 0) == EAGAIN);
    munmap(m, 8192);

    /* Vectored and copying calls. */
    struct iovec iv[2] = {{"hello ", 6}, {"vectors\n", 8}};
    printf("pwritev: %zd\n", pwritev(a, iv, 2, 100));
    char x[6], y[8];
    struct iovec ov[2] = {{x, sizeof x}, {y, sizeof y}};
    printf("preadv2: %zd %.6s%.8s", preadv2(b, ov, 2, 100, 0), x, y);
    int out = open("copy", O_RDWR | O_CREAT | O_TRUNC, 0644);
    off_t off = 100;
    printf("sendfile: %zd, offset now %lld\n", sendfile(out, a, &off, 14), (long long)off);
    loff_t in_off = 100, out_off = 14;
    printf("copy_file_range: %zd\n", copy_file_range(a, &in_off, out, &out_off, 14, 0));
    printf("fallocate: %d, fadvise: %d\n", fallocate(out, 0, 0, 65536) == 0 ? 0 : errno,
           posix_fadvise(out, 0, 0, POSIX_FADV_SEQUENTIAL));
    printf("size after fallocate: %lld\n", (long long)lseek(out, 0, SEEK_END));
    printf("fchown to self: %d\n", fchown(out, getuid(), getgid()) == 0 ? 0 : errno);

    /* memfd, pipes. */
    int mf = memfd_create("scratch", MFD_CLOEXEC);
    write(mf, "in memory", 9);
    pread(mf, buf, 9, 0);
    printf("memfd: %.9s\n", buf);
    int p[2];
    pipe(p);
    struct pollfd pf = {p[0], POLLIN, 0};
    printf("poll empty pipe: %d\n", poll(&pf, 1, 0));
    write(p[1], "0123456789", 10);
    int avail = -1;
    ioctl(p[0], FIONREAD, &avail);
    printf("poll: %d revents %d, FIONREAD %d\n", poll(&pf, 1, 0), pf.revents, avail);
    printf("TCGETS on a pipe: %d\n", ioctl(p[0], TCGETS, buf) == 0 ? 0 : errno);
    return 0;
}
