/* A chunk's checkpoint is restored apart from the host's files (issue 38):
 * the files the program writes travel in it and come back as they were
 * then, what the restored run writes stays in private copies, and what the
 * functional pass did to a path after the checkpoint (created, truncated,
 * removed or renamed it: its file history) is undone for it. An ordinary
 * checkpoint leaves the files to the host, as before. The system calls are
 * made as the guest makes them (rv_syscall), on loop_simple's process: the
 * pass's at instruction 0 before its first checkpoint, at CKPT_AT. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt/ckpt.h"
#include "ckpt/ckpt_chunks.h"
#include "ckpt/ckpt_fds.h"
#include "host_files.h"
#include "quiet_guest.h"
#include "sys/path_history.h"
#include "syscall.h"

enum {
#define SYSCALL_NAME(nr, name) NR_##name = nr,
#include "syscall_names.h"
#undef SYSCALL_NAME
};
/* The guest's (asm-generic) open flags. */
enum { G_AT_FDCWD = -100, G_RDONLY = 0, G_WRONLY = 1, G_RDWR = 2, G_CREAT = 0100, G_EXCL = 0200, G_TRUNC = 01000 };

static char top[64], program[PATH_MAX];

static void enter_scratch(void)
{
    cr_assert_not_null(realpath("build/rv/asm/loop_simple", program));
    scratch_enter(top, "test_ckpt_apart");
}

static void leave_scratch(void) { scratch_leave(top); }

TestSuite(ckpt_apart, .init = enter_scratch, .fini = leave_scratch);

/* A system call as the guest makes it, its arguments in a0-a3. */
static int64_t guest_call(rv_proc *p, uint64_t nr, const uint64_t args[4])
{
    memcpy(&p->cpu.x[10], args, 4 * sizeof *args);
    p->cpu.x[17] = nr;
    rv_syscall(p);
    return (int64_t)p->cpu.x[10];
}
#define CALL(p, nr, ...) guest_call(p, nr, (const uint64_t[4]){__VA_ARGS__})

/* Guest memory for arguments below the stack pointer, slot 0-3: holding s if given. */
static uint64_t slot(rv_proc *p, unsigned n, const char *s)
{
    uint64_t at = p->cpu.x[2] - 0x10000 + n * 0x1000;
    cr_assert(!s || mem_write(&p->mem, at, s, strlen(s) + 1));
    return at;
}

static int64_t open_at(rv_proc *p, const char *path, int flags)
{
    return CALL(p, NR_openat, (uint64_t)G_AT_FDCWD, slot(p, 0, path), (uint64_t)flags, 0644);
}

static void guest_write(rv_proc *p, int64_t fd, const char *s, uint64_t at)
{
    cr_assert_eq(CALL(p, NR_pwrite64, (uint64_t)fd, slot(p, 1, s), strlen(s), at), (int64_t)strlen(s));
}

/* What guest fd holds from its start (a string). */
static const char *guest_read(rv_proc *p, int64_t fd)
{
    static char buf[256];
    int64_t n = CALL(p, NR_pread64, (uint64_t)fd, slot(p, 2, NULL), sizeof buf - 1, 0);
    cr_assert_geq(n, 0);
    cr_assert(mem_read(&p->mem, buf, slot(p, 2, NULL), (size_t)n));
    buf[n] = '\0';
    return buf;
}

/* The size stat gives the guest for path (newfstatat), or -errno. */
static int64_t guest_size(rv_proc *p, const char *path)
{
    int64_t r = CALL(p, NR_newfstatat, (uint64_t)G_AT_FDCWD, slot(p, 0, path), slot(p, 3, NULL), 0);
    int64_t size;
    cr_assert(mem_read(&p->mem, &size, slot(p, 3, NULL) + 48, sizeof size)); /* riscv64's struct stat */
    return r ? r : size;
}

enum { CKPT_AT = 1000 };

/* The functional pass's process, keeping its file history beside the checkpoint. */
static void start(rv_proc *p)
{
    start_quiet_guest(p, program, NULL, RV_EXEC_INTERPRET);
    p->cpu.icount = 1; /* its system calls at instruction 0 */
    p->os.history = path_history_create("files", false);
    /* The test runner's stdin may be a pipe, which only `checkpoint` reads ahead. */
    p->os.files[0].host_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* a checkpointed as chunk 1's (chunk) or a SimPoint region's, restored into b. */
static void save_and_restore(rv_proc *a, bool chunk, rv_proc *b);

/* A process that wrote "before" into db.dat, which it keeps open (its
 * guest fd returned), checkpointed and restored into b. */
static int64_t wrote_db(rv_proc *a, bool chunk, rv_proc *b)
{
    start(a);
    int64_t fd = open_at(a, "db.dat", G_RDWR | G_CREAT);
    guest_write(a, fd, "before", 0);
    save_and_restore(a, chunk, b);
    return fd;
}

/* The checkpoint's file (in a static buffer). */
static const char *ckpt_path(void)
{
    static char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/p.ckpt", top);
    return path;
}

/* a's checkpoint at the next multiple of CKPT_AT; its next system calls come after it. */
static void save(rv_proc *a, bool chunk)
{
    uint64_t at = (a->cpu.icount / CKPT_AT + 1) * CKPT_AT;
    ckpt_region r = chunk ? ckpt_chunk_region(at / CKPT_AT, CKPT_AT, 0)
                          : (ckpt_region){.simpoint = 1, .cluster = 0, .weight = 1};
    a->cpu.icount = at;
    ckpt_save(a, ckpt_path(), &r, 1);
    a->cpu.icount = at + 1;
}

static void restore(rv_proc *b)
{
    char err[256];
    rv_proc_options o = {0};
    ckpt_meta m;
    cr_assert_eq(ckpt_restore(b, ckpt_path(), &o, &m, err, sizeof err), 0, "%s", err);
    ckpt_meta_free(&m);
}

static void save_and_restore(rv_proc *a, bool chunk, rv_proc *b)
{
    save(a, chunk);
    restore(b);
}

Test(ckpt_apart, a_written_file_comes_back_as_it_was)
{
    rv_proc a, b;
    int64_t fd = wrote_db(&a, true, &b);
    host_write("db.dat", "the functional pass went on");
    cr_assert(b.os.apart.on);
    cr_assert_str_eq(guest_read(&b, fd), "before");
    guest_write(&b, fd, "chunk", 0);
    cr_assert_str_eq(guest_read(&b, fd), "chunke");
    cr_assert_str_eq(host_read("db.dat"), "the functional pass went on");
    /* opened again by its path: the same private copy */
    int64_t again = open_at(&b, "db.dat", G_RDONLY);
    cr_assert_geq(again, 3);
    cr_assert_str_eq(guest_read(&b, again), "chunke");
    /* closed, and deleted by the pass: still there for the run, which unlinks it */
    cr_assert_eq(CALL(&b, NR_close, (uint64_t)fd, 0, 0, 0), 0);
    cr_assert_eq(CALL(&b, NR_close, (uint64_t)again, 0, 0, 0), 0);
    cr_assert_eq(unlink("db.dat"), 0);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "db.dat", G_RDONLY)), "chunke");
    cr_assert_eq(CALL(&b, NR_unlinkat, (uint64_t)G_AT_FDCWD, slot(&b, 0, "db.dat"), 0, 0), 0);
    cr_assert_eq(open_at(&b, "db.dat", G_RDONLY), -ENOENT);
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

Test(ckpt_apart, files_opened_after_the_checkpoint_are_private_copies)
{
    rv_proc a, b;
    host_write("in.txt", "input");
    start(&a);
    save_and_restore(&a, true, &b);
    int64_t out = open_at(&b, "out.txt", G_WRONLY | G_CREAT | G_TRUNC);
    cr_assert_geq(out, 3);
    guest_write(&b, out, "result", 0);
    cr_assert_null(host_read("out.txt"), "the restored run created a host file");
    cr_assert_eq(CALL(&b, NR_close, (uint64_t)out, 0, 0, 0), 0);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "out.txt", G_RDONLY)), "result"); /* kept once closed */
    cr_assert_eq(guest_size(&b, "out.txt"), 6);
    int64_t in = open_at(&b, "in.txt", G_RDWR);
    cr_assert_str_eq(guest_read(&b, in), "input");
    guest_write(&b, in, "IN", 0);
    cr_assert_str_eq(guest_read(&b, in), "INput");
    cr_assert_str_eq(host_read("in.txt"), "input");
    cr_assert_eq(CALL(&b, NR_unlinkat, (uint64_t)G_AT_FDCWD, slot(&b, 0, "in.txt"), 0, 0), 0);
    cr_assert_str_eq(host_read("in.txt"), "input");
    cr_assert_eq(CALL(&b, NR_renameat2, (uint64_t)G_AT_FDCWD, slot(&b, 0, "out.txt"), (uint64_t)G_AT_FDCWD,
                      slot(&b, 1, "moved.txt")),
                 0);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "moved.txt", G_RDONLY)), "result");
    cr_assert_null(host_read("moved.txt"));
    cr_assert_eq(CALL(&b, NR_mkdirat, (uint64_t)G_AT_FDCWD, slot(&b, 0, "newdir"), 0755, 0), 0);
    struct stat st;
    cr_assert_neq(stat("newdir", &st), 0, "the restored run made a host directory");
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

Test(ckpt_apart, a_file_the_pass_creates_after_the_checkpoint_is_not_there)
{
    rv_proc a, b;
    host_write("early.txt", "early");
    start(&a);
    save_and_restore(&a, true, &b);
    guest_write(&a, open_at(&a, "late.txt", G_WRONLY | G_CREAT | G_EXCL), "written by the pass", 0);
    cr_assert_eq(open_at(&b, "late.txt", G_RDONLY), -ENOENT);
    cr_assert_eq(guest_size(&b, "late.txt"), -ENOENT);
    cr_assert_eq(CALL(&b, NR_faccessat, (uint64_t)G_AT_FDCWD, slot(&b, 0, "late.txt"), 0, 0), -ENOENT);
    cr_assert_eq(guest_size(&b, "early.txt"), 5);
    cr_assert_geq(open_at(&b, "late.txt", G_RDWR | G_CREAT | G_EXCL), 3); /* mkstemp's name is free */
    cr_assert_eq(open_at(&b, "early.txt", G_RDWR | G_CREAT | G_EXCL), -EEXIST);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "early.txt", G_RDONLY)), "early");
    cr_assert_str_eq(host_read("late.txt"), "written by the pass");
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

static int64_t rename_to(rv_proc *p, const char *from, const char *to)
{
    return CALL(p, NR_renameat2, (uint64_t)G_AT_FDCWD, slot(p, 0, from), (uint64_t)G_AT_FDCWD, slot(p, 1, to));
}

static int64_t unlink_at(rv_proc *p, const char *path)
{
    return CALL(p, NR_unlinkat, (uint64_t)G_AT_FDCWD, slot(p, 0, path), 0, 0);
}

/* tcc unlinks its output and writes it again; by the time a chunk from
 * before does so, the pass has replaced it (tcc_compile in the corpus). */
Test(ckpt_apart, what_the_pass_removes_or_replaces_later_is_there_as_it_was)
{
    rv_proc a, b, c;
    host_write("unit.o", "old object");
    host_write("log.txt", "old log");
    host_write("from.txt", "renamed");
    host_write("over.txt", "renamed over");
    start(&a);
    save_and_restore(&a, true, &b);
    cr_assert_eq(unlink_at(&a, "unit.o"), 0);
    guest_write(&a, open_at(&a, "unit.o", G_WRONLY | G_CREAT | G_TRUNC), "new object", 0);
    guest_write(&a, open_at(&a, "log.txt", G_WRONLY | G_TRUNC), "new", 0);
    cr_assert_eq(rename_to(&a, "from.txt", "over.txt"), 0);
    /* The chunk sees the files as they were at its checkpoint... */
    cr_assert_str_eq(guest_read(&b, open_at(&b, "unit.o", G_RDONLY)), "old object");
    cr_assert_eq(guest_size(&b, "log.txt"), 7);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "log.txt", G_RDONLY)), "old log");
    cr_assert_str_eq(guest_read(&b, open_at(&b, "from.txt", G_RDONLY)), "renamed");
    cr_assert_str_eq(guest_read(&b, open_at(&b, "over.txt", G_RDWR)), "renamed over");
    /* ...and changes them as the pass did, in copies of its own. */
    cr_assert_eq(unlink_at(&b, "unit.o"), 0);
    int64_t out = open_at(&b, "unit.o", G_WRONLY | G_CREAT | G_TRUNC);
    guest_write(&b, out, "chunk's object", 0);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "unit.o", G_RDONLY)), "chunk's object");
    cr_assert_str_eq(host_read("unit.o"), "new object");
    cr_assert_str_eq(host_read("log.txt"), "new");
    cr_assert_null(host_read("from.txt"));
    cr_assert_str_eq(host_read("over.txt"), "renamed");
    /* What the chunk removed is gone for it, what it renamed moved. */
    cr_assert_eq(unlink_at(&b, "log.txt"), 0);
    cr_assert_eq(open_at(&b, "log.txt", G_RDONLY), -ENOENT);
    cr_assert_eq(guest_size(&b, "log.txt"), -ENOENT);
    cr_assert_eq(guest_size(&b, "over.txt"), 12);
    cr_assert_eq(rename_to(&b, "from.txt", "over.txt"), 0);
    cr_assert_eq(open_at(&b, "from.txt", G_RDONLY), -ENOENT);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "over.txt", G_RDONLY)), "renamed");
    cr_assert_eq(guest_size(&b, "log.txt"), -ENOENT);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "log.txt", G_RDWR | G_CREAT)), ""); /* made anew */
    cr_assert_str_eq(host_read("log.txt"), "new");
    /* A chunk from a later checkpoint sees the pass's files. */
    save_and_restore(&a, true, &c);
    cr_assert_str_eq(guest_read(&c, open_at(&c, "unit.o", G_RDONLY)), "new object");
    cr_assert_str_eq(guest_read(&c, open_at(&c, "over.txt", G_RDONLY)), "renamed");
    cr_assert_eq(open_at(&c, "from.txt", G_RDONLY), -ENOENT);
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
    rv_proc_destroy(&c);
}

/* The pass is always further on than a chunk: a directory the chunk makes
 * (it only pretends to) the pass has made, it is there for the chunk from
 * then on, and the chunk's files in it are copies of its own. */
Test(ckpt_apart, a_directory_the_pass_made_since_holds_the_chunks_files)
{
    rv_proc a, b;
    start(&a);
    save_and_restore(&a, true, &b);
    cr_assert_eq(CALL(&a, NR_mkdirat, (uint64_t)G_AT_FDCWD, slot(&a, 0, "out"), 0755, 0), 0);
    guest_write(&a, open_at(&a, "out/f.txt", G_WRONLY | G_CREAT | G_TRUNC), "the pass's", 0);
    cr_assert_eq(guest_size(&b, "out"), -ENOENT);
    cr_assert_eq(CALL(&b, NR_mkdirat, (uint64_t)G_AT_FDCWD, slot(&b, 0, "out"), 0755, 0), 0);
    cr_assert_eq(CALL(&b, NR_mkdirat, (uint64_t)G_AT_FDCWD, slot(&b, 0, "out"), 0755, 0), -EEXIST);
    cr_assert_eq(CALL(&b, NR_faccessat, (uint64_t)G_AT_FDCWD, slot(&b, 0, "out"), 0, 0), 0);
    cr_assert_eq(open_at(&b, "out/f.txt", G_RDONLY), -ENOENT);
    int64_t fd = open_at(&b, "out/f.txt", G_WRONLY | G_CREAT | G_TRUNC);
    cr_assert_geq(fd, 3);
    guest_write(&b, fd, "the chunk's", 0);
    cr_assert_str_eq(guest_read(&b, open_at(&b, "out/f.txt", G_RDONLY)), "the chunk's");
    cr_assert_str_eq(host_read("out/f.txt"), "the pass's");
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

/* An output larger than CKPT_MAX_WRITTEN_CONTENTS does not travel: the
 * restored run writes a copy of the host's file as it is by then. */
Test(ckpt_apart, a_large_output_is_copied_from_the_host)
{
    rv_proc a, b;
    start(&a);
    int64_t fd = open_at(&a, "big.out", G_WRONLY | G_CREAT);
    cr_assert_eq(CALL(&a, NR_ftruncate, (uint64_t)fd, CKPT_MAX_WRITTEN_CONTENTS + 1, 0, 0), 0);
    save(&a, true);
    host_write("big.out", "later");
    restore(&b);
    guest_write(&b, fd, "L", 0);
    cr_assert_eq(guest_size(&b, "big.out"), 5);
    cr_assert_str_eq(host_read("big.out"), "later");
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

/* checkpoint's pass stops at its last point and puts the files back as it
 * found them; a region restored from one of its checkpoints is kept apart
 * too and sees the files as they were there. */
Test(ckpt_apart, a_region_sees_the_files_the_pass_put_back_as_they_were)
{
    rv_proc a, b;
    host_write("in.txt", "input");
    start(&a);
    int64_t tmp = open_at(&a, "tmp.txt", G_RDWR | G_CREAT | G_EXCL);
    guest_write(&a, tmp, "temporary", 0);
    int64_t out = open_at(&a, "out.txt", G_WRONLY | G_CREAT | G_TRUNC);
    guest_write(&a, out, "output", 0);
    cr_assert_eq(CALL(&a, NR_close, (uint64_t)out, 0, 0, 0), 0);
    guest_write(&a, open_at(&a, "in.txt", G_WRONLY | G_TRUNC), "rewritten", 0);
    save(&a, false);
    path_history_undo(a.os.history, a.cpu.icount);
    cr_assert_null(host_read("tmp.txt"));
    cr_assert_null(host_read("out.txt"));
    cr_assert_str_eq(host_read("in.txt"), "input");
    restore(&b);
    cr_assert(b.os.apart.on);
    cr_assert_str_eq(guest_read(&b, tmp), "temporary");
    cr_assert_str_eq(guest_read(&b, open_at(&b, "out.txt", G_RDONLY)), "output");
    cr_assert_str_eq(guest_read(&b, open_at(&b, "in.txt", G_RDONLY)), "rewritten");
    guest_write(&b, open_at(&b, "in.txt", G_WRONLY), "R", 0);
    cr_assert_str_eq(host_read("in.txt"), "input");
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

/* A pass without a file history (checkpoint --self-contained) leaves the
 * files to the host, as checkpoints did before. */
Test(ckpt_apart, a_checkpoint_without_history_leaves_the_files_to_the_host)
{
    rv_proc a, b;
    start(&a);
    path_recorder_close(a.os.history);
    a.os.history = NULL;
    int64_t fd = open_at(&a, "db.dat", G_RDWR | G_CREAT);
    guest_write(&a, fd, "before", 0);
    save_and_restore(&a, false, &b);
    cr_assert_not(b.os.apart.on);
    host_write("db.dat", "later");
    cr_assert_str_eq(guest_read(&b, fd), "later");
    guest_write(&b, fd, "L", 0);
    cr_assert_str_eq(host_read("db.dat"), "Later");
    rv_proc_destroy(&a);
    rv_proc_destroy(&b);
}

Test(ckpt_apart, a_bad_apart_entry_is_refused)
{
    char err[256];
    cr_assert_eq(ckpt_apart_check(NULL, err, sizeof err), 0);
    json_t *good = json_pack("{s:s}", "history", "files"), *none = json_object();
    json_t *outside = json_pack("{s:s}", "history", "../files"), *bad = json_pack("{s:i}", "history", 1);
    json_t *wrong = json_pack("[i]", 1);
    cr_assert_eq(ckpt_apart_check(good, err, sizeof err), 0);
    cr_assert_eq(ckpt_apart_check(none, err, sizeof err), 0);
    cr_assert_eq(ckpt_apart_check(outside, err, sizeof err), -1);
    cr_assert(strstr(err, "corrupted checkpoint"), "%s", err);
    cr_assert_eq(ckpt_apart_check(bad, err, sizeof err), -1);
    cr_assert_eq(ckpt_apart_check(wrong, err, sizeof err), -1);
    json_decref(good), json_decref(none), json_decref(outside), json_decref(bad), json_decref(wrong);
}
