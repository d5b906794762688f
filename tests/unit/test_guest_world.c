/* The guest's world is the same for every stage and every user: its working
 * directory is RV_GUEST_CWD wherever the tool runs (paths it names there
 * lead to the host directory behind it, writes stay confined), and
 * /dev/urandom and /dev/random read the fixed stream getrandom reads, which
 * a checkpoint continues. The system calls are made as the guest makes them
 * (rv_syscall), on the loop_simple program's process. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt/ckpt.h"
#include "host_files.h"
#include "quiet_guest.h"
#include "syscall.h"
#include "sys/sys_internal.h"

enum {
#define SYSCALL_NAME(nr, name) NR_##name = nr,
#include "syscall_names.h"
#undef SYSCALL_NAME
};
enum { G_AT_FDCWD = -100, G_O_RDONLY = 0, G_O_WRONLY = 1, G_O_CREAT = 0100, G_O_PATH = 010000000 };

/* ------------------------------------------------------ path mapping */

static void expect_path(int (*map)(const char *, const char *, char *, size_t), const char *root, const char *path,
                        const char *want)
{
    char out[PATH_MAX];
    cr_assert_eq(map(root, path, out, sizeof out), 0, "%s under %s", path, root ? root : "(none)");
    cr_assert_str_eq(out, want, "%s under %s", path, root ? root : "(none)");
}

Test(guest_paths, guest_names_lead_below_the_root)
{
    expect_path(sys_host_path, "/tmp/run", RV_GUEST_CWD, "/tmp/run");
    expect_path(sys_host_path, "/tmp/run", RV_GUEST_CWD "/a/b.txt", "/tmp/run/a/b.txt");
    expect_path(sys_host_path, "/tmp/run", RV_GUEST_CWD "x/a", RV_GUEST_CWD "x/a"); /* not below it */
    expect_path(sys_host_path, "/tmp/run", "a/b.txt", "a/b.txt");
    expect_path(sys_host_path, "/tmp/run", "/etc/passwd", "/etc/passwd");
    expect_path(sys_host_path, "/", RV_GUEST_CWD, "/");
    expect_path(sys_host_path, "/", RV_GUEST_CWD "/etc", "/etc");
    expect_path(sys_host_path, NULL, RV_GUEST_CWD "/a", RV_GUEST_CWD "/a"); /* an older checkpoint's guest */
}

Test(guest_paths, host_paths_below_the_root_read_as_the_guests)
{
    expect_path(sys_guest_path, "/tmp/run", "/tmp/run", RV_GUEST_CWD);
    expect_path(sys_guest_path, "/tmp/run", "/tmp/run/sub/f", RV_GUEST_CWD "/sub/f");
    expect_path(sys_guest_path, "/tmp/run", "/tmp/running", "/tmp/running");
    expect_path(sys_guest_path, "/tmp/run", "/tmp", "/tmp");
    expect_path(sys_guest_path, "/tmp/run", "../x", "../x");
    expect_path(sys_guest_path, "/", "/", RV_GUEST_CWD);
    expect_path(sys_guest_path, "/", "/usr/lib", RV_GUEST_CWD "/usr/lib");
    expect_path(sys_guest_path, NULL, "/tmp/run", "/tmp/run");
}

Test(guest_paths, round_trip_and_length)
{
    const char *roots[] = {"/tmp/run", "/", "/a/much/longer/directory/name/than/the/guest/sees"};
    const char *paths[] = {"", "/x", "/x/y.txt"};
    for (size_t r = 0; r < 3; r++)
        for (size_t i = 0; i < 3; i++) {
            char host[PATH_MAX], guest[PATH_MAX], back[PATH_MAX];
            snprintf(guest, sizeof guest, "%s%s", RV_GUEST_CWD, paths[i]);
            cr_assert_eq(sys_host_path(roots[r], guest, host, sizeof host), 0);
            cr_assert_eq(sys_guest_path(roots[r], host, back, sizeof back), 0);
            cr_assert_str_eq(back, guest, "root %s, %s -> %s", roots[r], guest, host);
        }
    char small[12];
    cr_assert_eq(sys_host_path("/tmp/a/long/root", RV_GUEST_CWD "/f", small, sizeof small), -ENAMETOOLONG);
    cr_assert_eq(sys_guest_path("/tmp/r", "/tmp/r/a/long/name", small, sizeof small), -ENAMETOOLONG);
}

Test(guest_paths, the_guests_own_directories)
{
    cr_assert(sys_guest_dir("/"));
    cr_assert(sys_guest_dir("/guest"));
    cr_assert(sys_guest_dir(RV_GUEST_BIN));
    cr_assert(sys_guest_dir(RV_GUEST_CWD));
    cr_assert_not(sys_guest_dir("/guestx"));
    cr_assert_not(sys_guest_dir("/guest/other"));
    cr_assert_not(sys_guest_dir(RV_GUEST_BIN "/prog"));
}

/* ------------------------------------------- a process, from a directory */

static char top[64], program[PATH_MAX]; /* top: a mkdtemp name */

/* A scratch directory made and entered (tests run in processes of their own). */
static void enter_scratch(void)
{
    cr_assert_not_null(realpath("build/rv/asm/loop_simple", program));
    scratch_enter(top, "test_guest_world");
}

static void leave_scratch(void) { scratch_leave(top); }

TestSuite(guest_cwd, .init = enter_scratch, .fini = leave_scratch);
TestSuite(guest_random, .init = enter_scratch, .fini = leave_scratch);

/* A system call as the guest makes it. */
static int64_t sys(rv_proc *p, uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    p->cpu.x[17] = nr;
    p->cpu.x[10] = a0, p->cpu.x[11] = a1, p->cpu.x[12] = a2, p->cpu.x[13] = a3;
    rv_syscall(p);
    return (int64_t)p->cpu.x[10];
}

/* Guest memory for arguments: below the stack pointer. */
static uint64_t scratch(rv_proc *p, unsigned slot) { return p->cpu.x[2] - 0x10000 + slot * 0x1000; }

/* A string in guest memory (slot 0 or 1). */
static uint64_t str(rv_proc *p, unsigned slot, const char *s)
{
    cr_assert(mem_write(&p->mem, scratch(p, slot), s, strlen(s) + 1));
    return scratch(p, slot);
}

/* getcwd as the guest sees it (in a static buffer). */
static const char *guest_cwd(rv_proc *p)
{
    static char buf[PATH_MAX];
    int64_t n = sys(p, NR_getcwd, scratch(p, 2), sizeof buf, 0, 0);
    cr_assert_gt(n, 0);
    cr_assert(mem_read(&p->mem, buf, scratch(p, 2), (size_t)n));
    return buf;
}

static int64_t open_at(rv_proc *p, const char *path, int flags)
{
    return sys(p, NR_openat, (uint64_t)G_AT_FDCWD, str(p, 0, path), (uint64_t)flags, 0644);
}

/* The guest's process, started from a directory below the scratch one. */
static void start_in(rv_proc *p, const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", top, dir);
    mkdir(path, 0755);
    cr_assert_eq(chdir(path), 0);
    start_quiet_guest(p, program, NULL, RV_EXEC_INTERPRET);
    /* The test runner's stdin may be a pipe, which only `checkpoint` reads ahead. */
    p->os.files[0].host_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

Test(guest_cwd, the_same_from_any_directory)
{
    rv_proc a, b;
    start_in(&a, "a");
    start_in(&b, "a_much_longer_directory_name");
    cr_assert_str_eq(guest_cwd(&a), RV_GUEST_CWD);
    cr_assert_str_eq(guest_cwd(&b), RV_GUEST_CWD);
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

Test(guest_cwd, chdir_and_paths_below_it)
{
    rv_proc p;
    start_in(&p, "run");
    cr_assert_eq(sys(&p, NR_mkdirat, (uint64_t)G_AT_FDCWD, str(&p, 0, "sub"), 0755, 0), 0);
    cr_assert_eq(sys(&p, NR_chdir, str(&p, 0, "sub"), 0, 0, 0), 0);
    cr_assert_str_eq(guest_cwd(&p), RV_GUEST_CWD "/sub");
    /* A file created by getcwd's absolute path is in the host directory. */
    int64_t fd = open_at(&p, RV_GUEST_CWD "/sub/made.txt", G_O_WRONLY | G_O_CREAT);
    cr_assert_geq(fd, 3);
    char host[PATH_MAX + 32];
    snprintf(host, sizeof host, "%s/run/sub/made.txt", top);
    cr_assert_eq(access(host, F_OK), 0, "%s", host);
    /* Its /proc/self/fd link reads as the guest's path. */
    char link[64], target[PATH_MAX] = {0};
    snprintf(link, sizeof link, "/proc/self/fd/%d", (int)fd);
    int64_t n = sys(&p, NR_readlinkat, (uint64_t)G_AT_FDCWD, str(&p, 0, link), scratch(&p, 2), 256);
    cr_assert_gt(n, 0);
    cr_assert(mem_read(&p.mem, target, scratch(&p, 2), (size_t)n));
    cr_assert_str_eq(target, RV_GUEST_CWD "/sub/made.txt");
    /* Back by the absolute path; up past the root: the host's parent. */
    cr_assert_eq(sys(&p, NR_chdir, str(&p, 0, RV_GUEST_CWD), 0, 0, 0), 0);
    cr_assert_str_eq(guest_cwd(&p), RV_GUEST_CWD);
    cr_assert_eq(sys(&p, NR_chdir, str(&p, 0, ".."), 0, 0, 0), 0);
    cr_assert_str_eq(guest_cwd(&p), top);
    rv_proc_destroy(&p);
}

Test(guest_cwd, writes_stay_confined)
{
    rv_proc p;
    start_in(&p, "run");
    cr_assert_eq(open_at(&p, RV_GUEST_CWD "/../escape.txt", G_O_WRONLY | G_O_CREAT), -EACCES);
    cr_assert_eq(sys(&p, NR_mkdirat, (uint64_t)G_AT_FDCWD, str(&p, 0, RV_GUEST_CWD "/../escape"), 0755, 0), -EACCES);
    cr_assert_eq(sys(&p, NR_symlinkat, str(&p, 0, "/etc/passwd"), (uint64_t)G_AT_FDCWD,
                     str(&p, 1, RV_GUEST_CWD "/../escape_link"), 0), -EACCES);
    char host[PATH_MAX + 32];
    snprintf(host, sizeof host, "%s/escape.txt", top);
    cr_assert_neq(access(host, F_OK), 0);
    rv_proc_destroy(&p);
}

/* "/guest" and RV_GUEST_BIN are directories to stat, access and readlink,
 * as bash's check of PWD=/guest/work (component by component) and realpath
 * need; the host has neither. */
Test(guest_cwd, its_parents_are_directories)
{
    rv_proc p;
    start_in(&p, "run");
    const char *dirs[] = {"/guest", RV_GUEST_BIN, RV_GUEST_CWD};
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(sys(&p, NR_newfstatat, (uint64_t)G_AT_FDCWD, str(&p, 0, dirs[i]), scratch(&p, 2), 0), 0, "%s",
                     dirs[i]);
        uint32_t mode;
        cr_assert(mem_read(&p.mem, &mode, scratch(&p, 2) + 16, 4)); /* st_mode */
        cr_assert(S_ISDIR(mode), "%s", dirs[i]);
        cr_assert_eq(sys(&p, NR_faccessat, (uint64_t)G_AT_FDCWD, str(&p, 0, dirs[i]), X_OK, 0), 0, "%s", dirs[i]);
        cr_assert_eq(sys(&p, NR_readlinkat, (uint64_t)G_AT_FDCWD, str(&p, 0, dirs[i]), scratch(&p, 2), 64), -EINVAL,
                     "%s", dirs[i]);
    }
    cr_assert_eq(sys(&p, NR_newfstatat, (uint64_t)G_AT_FDCWD, str(&p, 0, "/guest/other"), scratch(&p, 2), 0), -ENOENT);
    rv_proc_destroy(&p);
}

/* ------------------------------------------------------- randomness */

/* n bytes read from guest fd (or by getrandom when fd < 0). */
static void draw(rv_proc *p, int64_t fd, unsigned char *out, size_t n)
{
    int64_t got = fd < 0 ? sys(p, NR_getrandom, scratch(p, 2), n, 0, 0) : sys(p, NR_read, (uint64_t)fd, scratch(p, 2), n, 0);
    cr_assert_eq(got, (int64_t)n);
    cr_assert(mem_read(&p->mem, out, scratch(p, 2), n));
}

Test(guest_random, both_devices_read_the_getrandom_stream)
{
    rv_proc a, b;
    start_in(&a, "a");
    start_in(&b, "b");
    int64_t u = open_at(&a, "/dev/urandom", G_O_RDONLY), r = open_at(&a, "/dev/random", G_O_RDONLY);
    cr_assert_geq(u, 3);
    cr_assert_geq(r, 3);
    int64_t copy = sys(&a, NR_dup, (uint64_t)u, 0, 0, 0);
    unsigned char x[4][24], y[4][24];
    draw(&a, u, x[0], 24), draw(&a, r, x[1], 24), draw(&a, copy, x[2], 24), draw(&a, -1, x[3], 24);
    for (int i = 0; i < 4; i++)
        draw(&b, -1, y[i], 24);
    cr_assert_eq(memcmp(x, y, sizeof x), 0, "the devices and getrandom read one stream");
    /* An O_PATH descriptor reads nothing, as on Linux. */
    int64_t path_only = open_at(&a, "/dev/urandom", G_O_PATH);
    cr_assert_eq(sys(&a, NR_read, (uint64_t)path_only, scratch(&a, 2), 8, 0), -EBADF);
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

Test(guest_random, the_kernels_uuid_files)
{
    rv_proc a, b;
    start_in(&a, "a");
    start_in(&b, "b");
    char ua[40] = {0}, ub[40] = {0}, boot[40] = {0};
    int64_t fa = open_at(&a, "/proc/sys/kernel/random/uuid", G_O_RDONLY);
    int64_t fb = open_at(&b, "/proc/sys/../sys/kernel/random/uuid", G_O_RDONLY); /* any spelling */
    cr_assert_eq(sys(&a, NR_read, (uint64_t)fa, scratch(&a, 2), 39, 0), 37);
    cr_assert_eq(sys(&b, NR_read, (uint64_t)fb, scratch(&b, 2), 39, 0), 37);
    cr_assert(mem_read(&a.mem, ua, scratch(&a, 2), 37) && mem_read(&b.mem, ub, scratch(&b, 2), 37));
    cr_assert_str_eq(ua, ub);
    cr_assert(ua[14] == '4' && ua[36] == '\n', "a version 4 UUID: %s", ua);
    int64_t fboot = open_at(&a, "/proc/sys/kernel/random/boot_id", G_O_RDONLY);
    cr_assert_eq(sys(&a, NR_read, (uint64_t)fboot, scratch(&a, 2), 39, 0), 37);
    cr_assert(mem_read(&a.mem, boot, scratch(&a, 2), 37));
    cr_assert_str_neq(boot, ua);
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

/* A checkpoint keeps the stream's state and the guest's cwd: restored from
 * another directory, the process reads the bytes the original reads next,
 * from the same guest cwd, and its relative paths lead to the same files. */
Test(guest_random, checkpoint_continues_stream_and_cwd)
{
    rv_proc a, b;
    start_in(&a, "run");
    cr_assert_eq(sys(&a, NR_mkdirat, (uint64_t)G_AT_FDCWD, str(&a, 0, "sub"), 0755, 0), 0);
    cr_assert_eq(sys(&a, NR_chdir, str(&a, 0, "sub"), 0, 0, 0), 0);
    int64_t u = open_at(&a, "/dev/urandom", G_O_RDONLY);
    unsigned char first[13], next_a[13], next_b[13];
    draw(&a, u, first, sizeof first);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/p.ckpt", top);
    ckpt_save(&a, path, NULL, 0);

    char cmd[2 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "touch %s/run/sub/marker.txt && mkdir -p %s/elsewhere/deeper", top, top);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/elsewhere/deeper", top);
    cr_assert_eq(chdir(cmd), 0);
    rv_proc_options o = {0};
    ckpt_meta m;
    char err[256];
    cr_assert_eq(ckpt_restore(&b, path, &o, &m, err, sizeof err), 0, "%s", err);
    cr_assert(b.os.files[u].random);
    cr_assert_str_eq(guest_cwd(&b), RV_GUEST_CWD "/sub");
    draw(&a, u, next_a, sizeof next_a);
    draw(&b, u, next_b, sizeof next_b);
    cr_assert_eq(memcmp(next_a, next_b, sizeof next_a), 0);
    cr_assert_geq(open_at(&b, "marker.txt", G_O_RDONLY), 3); /* in run/sub, not in elsewhere/deeper */
    cr_assert_eq(sys(&b, NR_chdir, str(&b, 0, RV_GUEST_CWD), 0, 0, 0), 0);
    snprintf(path, sizeof path, "%s/run", top);
    cr_assert_str_eq(b.os.cwd_root, path);
    ckpt_meta_free(&m);
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}
