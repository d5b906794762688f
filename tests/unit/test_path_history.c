/* The functional pass's file history (lib/sys/path_history.c): what a path
 * was before the pass first changed it after a checkpoint, as a run
 * restored at an instruction sees it, kept files included; a record still
 * being written is not read. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_files.h"
#include "sys/path_history.h"

static char top[64];

static void enter_scratch(void) { scratch_enter(top, "test_path_history"); }
static void leave_scratch(void) { scratch_leave(top); }

TestSuite(path_history, .init = enter_scratch, .fini = leave_scratch);

/* TOP/name, in a static buffer per slot. */
static const char *abs_path(int slot, const char *name)
{
    static char buf[2][PATH_MAX];
    snprintf(buf[slot], PATH_MAX, "%s/%s", top, name);
    return buf[slot];
}

static path_view *view_at(uint64_t since)
{
    char err[256];
    path_view *v = path_history_open("h", since, err, sizeof err);
    cr_assert_not_null(v, "%s", err);
    return v;
}

Test(path_history, each_run_sees_the_paths_as_they_were_at_its_instruction)
{
    host_write("a.txt", "a at 0");
    path_recorder *r = path_history_create("h", false);
    /* Before the first checkpoint (at 100): a.txt created anew. */
    path_history_before(r, 10, AT_FDCWD, "b.txt", PATH_CREATE);
    host_write("b.txt", "b at 10");
    path_history_mark(r); /* the checkpoint at 100 */
    path_history_before(r, 150, AT_FDCWD, "a.txt", PATH_TRUNCATE);
    host_write("a.txt", "a at 150");
    path_history_before(r, 160, AT_FDCWD, "a.txt", PATH_TRUNCATE); /* not its first change since */
    host_write("a.txt", "a at 160");
    path_history_before(r, 170, AT_FDCWD, "b.txt", PATH_REMOVE);
    cr_assert_eq(unlink("b.txt"), 0);
    path_history_before(r, 180, AT_FDCWD, "b.txt", PATH_CREATE);
    host_write("b.txt", "b at 180");
    path_history_mark(r); /* the checkpoint at 200 */
    path_history_before(r, 250, AT_FDCWD, "a.txt", PATH_REMOVE);
    cr_assert_eq(unlink("a.txt"), 0);
    path_history_before(r, 260, AT_FDCWD, "d", PATH_CREATE);
    cr_assert_eq(mkdir("d", 0755), 0);
    path_history_before(r, 270, AT_FDCWD, "d", PATH_CREATE); /* there: nothing to record */

    char kept[PATH_MAX];
    path_view *at100 = view_at(100), *at200 = view_at(200), *at300 = view_at(300);
    cr_assert_eq(path_history_then(at100, abs_path(0, "a.txt"), kept), PATH_FILE);
    cr_assert_str_eq(host_read(kept), "a at 0");
    cr_assert_eq(path_history_then(at100, abs_path(0, "b.txt"), kept), PATH_FILE);
    cr_assert_str_eq(host_read(kept), "b at 10");
    cr_assert_eq(path_history_then(at100, abs_path(0, "d"), kept), PATH_ABSENT);
    cr_assert_eq(path_history_then(at200, abs_path(0, "a.txt"), kept), PATH_FILE);
    cr_assert_str_eq(host_read(kept), "a at 160");
    cr_assert_eq(path_history_then(at200, abs_path(0, "b.txt"), kept), PATH_AS_NOW);
    cr_assert_eq(path_history_then(at300, abs_path(0, "a.txt"), kept), PATH_AS_NOW);
    cr_assert_eq(path_history_then(at300, abs_path(0, "d"), kept), PATH_AS_NOW);
    /* The pass goes on after a view was opened: the view reads on. */
    path_history_mark(r); /* at 300 */
    path_history_before(r, 350, AT_FDCWD, "d", PATH_REMOVE);
    cr_assert_eq(path_history_then(at300, abs_path(0, "d"), kept), PATH_OTHER);
    path_view_close(at100), path_view_close(at200), path_view_close(at300);
    path_recorder_close(r);
    path_history_remove("h");
    cr_assert_neq(access("h", F_OK), 0);
}

Test(path_history, a_record_half_written_is_read_once_whole)
{
    path_recorder *r = path_history_create("h", false);
    path_history_before(r, 5, AT_FDCWD, "new.txt", PATH_CREATE);
    path_recorder_close(r);
    int fd = open("h/journal", O_RDWR);
    cr_assert_geq(fd, 0);
    off_t size = lseek(fd, 0, SEEK_END);
    char whole[PATH_MAX + 16];
    cr_assert_eq(pread(fd, whole, (size_t)size, 0), size);
    cr_assert_eq(ftruncate(fd, size - 3), 0);
    char kept[PATH_MAX];
    path_view *v = view_at(0);
    cr_assert_eq(path_history_then(v, abs_path(0, "new.txt"), kept), PATH_AS_NOW);
    cr_assert_eq(pwrite(fd, whole + size - 3, 3, size - 3), 3);
    cr_assert_eq(path_history_then(v, abs_path(0, "new.txt"), kept), PATH_ABSENT);
    close(fd);
    path_view_close(v);
}

Test(path_history, a_missing_history_is_an_error)
{
    char err[256];
    cr_assert_null(path_history_open("nowhere", 0, err, sizeof err));
    cr_assert(strstr(err, "cannot read the file history nowhere"), "%s", err);
}

static bool allow_all(void *ctx, const char *path)
{
    (void)ctx, (void)path;
    return true;
}

static bool allow_none(void *ctx, const char *path)
{
    (void)ctx, (void)path;
    return false;
}

/* checkpoint's pass stops part-way and puts back what it changed; a run
 * that goes on from a checkpoint on the host's files puts back what the
 * pass changed after it (the undoing included). */
Test(path_history, a_pass_undone_and_a_checkpoint_put_back)
{
    host_write("kept.txt", "original");
    host_write("gone.txt", "to be removed");
    path_recorder *r = path_history_create("h", false);
    path_history_before(r, 1, AT_FDCWD, "kept.txt", PATH_TRUNCATE);
    host_write("kept.txt", "rewritten");
    path_history_before(r, 2, AT_FDCWD, "gone.txt", PATH_REMOVE);
    cr_assert_eq(unlink("gone.txt"), 0);
    path_history_before(r, 3, AT_FDCWD, "d", PATH_CREATE);
    cr_assert_eq(mkdir("d", 0755), 0);
    path_history_before(r, 4, AT_FDCWD, "d/new.txt", PATH_CREATE);
    host_write("d/new.txt", "made");
    path_history_mark(r); /* a checkpoint at 10 */
    path_history_before(r, 20, AT_FDCWD, "kept.txt", PATH_TRUNCATE);
    host_write("kept.txt", "rewritten again");
    path_history_undo(r, 30);
    cr_assert_str_eq(host_read("kept.txt"), "original");
    cr_assert_str_eq(host_read("gone.txt"), "to be removed");
    cr_assert_null(host_read("d/new.txt"));
    cr_assert_eq(access("d", F_OK), 0, "a directory the pass made stays");
    path_recorder_close(r);

    char err[256];
    path_view *v = view_at(10);
    cr_assert_eq(path_history_put_back(v, allow_none, NULL, err, sizeof err), -1);
    cr_assert(strstr(err, "outside the directories the guest may write"), "%s", err);
    cr_assert_eq(path_history_put_back(v, allow_all, NULL, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(host_read("kept.txt"), "rewritten");
    cr_assert_null(host_read("gone.txt"));
    cr_assert_str_eq(host_read("d/new.txt"), "made");
    path_view_close(v);
}
