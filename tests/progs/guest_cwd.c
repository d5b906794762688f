/* guest_cwd: the working directory as a program sees it: getcwd (whose
 * length steers some work, as hashing a path would), chdir into a
 * subdirectory and fchdir back, relative paths and absolute ones built from
 * getcwd, /proc/self/cwd and /proc/self/fd links, realpath, a symbolic link
 * to an absolute path. It cleans up after itself. With no argument it prints
 * only what holds on any system (qemu compares it); "show" prints the paths
 * too; "escape" also tries to create a file beside the working directory
 * (tests/e2e/guest_determinism.sh: the emulator refuses it). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", what, ok ? "yes" : "no");
    failures += !ok;
}

/* Does path hold exactly the text? */
static int holds(const char *path, const char *text)
{
    char buf[64] = {0};
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    return n == (ssize_t)strlen(text) && strcmp(buf, text) == 0;
}

/* Is link a symbolic link (or /proc link) to exactly want? */
static int links_to(const char *link, const char *want)
{
    char buf[PATH_MAX];
    ssize_t n = readlink(link, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    return n > 0 && strcmp(buf, want) == 0;
}

static void work(size_t n)
{
    volatile unsigned long x = n;
    for (size_t i = 0; i < n * 2000; i++)
        x = x * 31 + i;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    char top[PATH_MAX], cwd[PATH_MAX], want[PATH_MAX + 32], real[PATH_MAX];
    check(getcwd(top, sizeof top) != NULL && top[0] == '/', "getcwd is absolute");
    work(strlen(top));
    if (strcmp(mode, "show") == 0 || strcmp(mode, "escape") == 0)
        printf("cwd %s\n", top);

    check(mkdir("gc_dir", 0755) == 0, "mkdir gc_dir");
    int fd = open("gc_dir/data.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    check(fd >= 0 && write(fd, "guest data", 10) == 10, "create gc_dir/data.txt");
    close(fd);
    int up = open(".", O_RDONLY | O_DIRECTORY);

    check(chdir("gc_dir") == 0, "chdir gc_dir");
    snprintf(want, sizeof want, "%s/gc_dir", top);
    check(getcwd(cwd, sizeof cwd) && strcmp(cwd, want) == 0, "getcwd is the old one and /gc_dir");
    if (strcmp(mode, "show") == 0)
        printf("cwd %s\n", cwd);
    check(links_to("/proc/self/cwd", cwd), "/proc/self/cwd is getcwd");
    check(holds("data.txt", "guest data"), "data.txt read by its relative path");
    check(holds("../gc_dir/data.txt", "guest data"), "../gc_dir/data.txt read");
    snprintf(want, sizeof want, "%s/data.txt", cwd);
    check(holds(want, "guest data"), "data.txt read by getcwd's absolute path");
    check(realpath("data.txt", real) && strcmp(real, want) == 0, "realpath of the relative path");
    check(realpath(want, real) && strcmp(real, want) == 0, "realpath of the absolute path");
    fd = open("data.txt", O_RDONLY);
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    check(fd >= 0 && links_to(link, want), "/proc/self/fd link names it by getcwd's path");
    close(fd);
    check(symlink(want, "abs_link") == 0 && links_to("abs_link", want), "a symlink to the absolute path reads back");
    check(holds("abs_link", "guest data"), "data.txt read through the symlink");

    check(fchdir(up) == 0 && getcwd(cwd, sizeof cwd) && strcmp(cwd, top) == 0, "fchdir back: getcwd as at start");
    check(chdir(want) != 0 && errno == ENOTDIR, "chdir to a file: ENOTDIR");
    snprintf(want, sizeof want, "%s/gc_dir", top);
    check(chdir(want) == 0 && chdir(top) == 0 && getcwd(cwd, sizeof cwd) && strcmp(cwd, top) == 0,
          "chdir by absolute paths and back");
    close(up);

    if (strcmp(mode, "escape") == 0) {
        snprintf(want, sizeof want, "%s/../gc_escape.txt", top);
        fd = open(want, O_CREAT | O_WRONLY, 0644);
        printf("create %s: %s\n", want, fd >= 0 ? "created" : strerror(errno));
        snprintf(want, sizeof want, "%s/gc_dir/../../gc_escape_dir", top);
        printf("mkdir %s: %s\n", want, mkdir(want, 0755) == 0 ? "made" : strerror(errno));
    }
    check(unlink("gc_dir/abs_link") == 0 && unlink("gc_dir/data.txt") == 0 && rmdir("gc_dir") == 0, "clean up");
    return failures;
}
