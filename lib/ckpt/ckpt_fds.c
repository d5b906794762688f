#include "ckpt/ckpt_fds.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "ckpt/ckpt.h"
#include "ckpt/ckpt_file.h"
#include "ckpt/ckpt_task.h"
#include "util.h"
#include "sys/path_history.h"
#include "sys/sys_internal.h"

/* File status flags a descriptor keeps besides its access mode. */
enum { STATUS_FLAGS = O_APPEND | O_NONBLOCK };

/* Character devices that mean the same on every Linux host. */
static const struct {
    const char *path;
    unsigned major, minor;
} devices[] = {
    {"/dev/null", 1, 3}, {"/dev/zero", 1, 5}, {"/dev/full", 1, 7}, {"/dev/random", 1, 8}, {"/dev/urandom", 1, 9},
};

static const char *device_path(dev_t rdev)
{
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
        if (major(rdev) == devices[i].major && minor(rdev) == devices[i].minor)
            return devices[i].path;
    return NULL;
}

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* ----------------------------------------------------------------- blob */

bool ckpt_blob_append(ckpt_blob *b, const void *data, size_t len)
{
    if (len > CKPT_MAX_FD_DATA - b->len)
        return false;
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->len + len)
            cap *= 2;
        unsigned char *grown = realloc(b->data, cap);
        if (!grown)
            return false;
        b->data = grown, b->cap = cap;
    }
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    return true;
}

void ckpt_blob_free(ckpt_blob *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* "data": [offset, length] of what was appended since start. */
static void set_data(json_t *e, size_t start, size_t end)
{
    json_object_set_new(e, "data", json_pack("[I, I]", (json_int_t)start, (json_int_t)(end - start)));
}

/* Append what fd reads from offset `from` to its end (pread: the file
 * position is left alone). 0, or -errno. */
static int append_file(int fd, off_t from, ckpt_blob *b)
{
    unsigned char buf[1 << 16];
    for (;;) {
        ssize_t n = pread(fd, buf, sizeof buf, from);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            return 0;
        if (!ckpt_blob_append(b, buf, (size_t)n))
            return -EFBIG;
        from += n;
    }
}

/* The bytes waiting in a pipe, copied without consuming them: tee() into a
 * scratch pipe of the same capacity, then read that. 0, or -errno. */
static int append_pipe(int read_fd, ckpt_blob *b)
{
    int avail = 0;
    if (ioctl(read_fd, FIONREAD, &avail) < 0)
        return -errno;
    if (avail == 0)
        return 0;
    int scratch[2];
    if (pipe2(scratch, O_CLOEXEC | O_NONBLOCK) < 0)
        return -errno;
    int rc = 0, size = fcntl(read_fd, F_GETPIPE_SZ);
    if (size > 0 && fcntl(scratch[1], F_SETPIPE_SZ, size) < 0)
        rc = -errno;
    ssize_t n = rc ? -1 : tee(read_fd, scratch[1], (size_t)avail, SPLICE_F_NONBLOCK);
    if (!rc && n != avail)
        rc = n < 0 ? -errno : -EIO;
    unsigned char buf[1 << 16];
    for (ssize_t left = rc ? 0 : n; left > 0;) {
        ssize_t got = read(scratch[0], buf, sizeof buf);
        if (got <= 0) {
            rc = -EIO;
            break;
        }
        if (!ckpt_blob_append(b, buf, (size_t)got)) {
            rc = -EFBIG;
            break;
        }
        left -= got;
    }
    close(scratch[0]);
    close(scratch[1]);
    return rc;
}

/* ----------------------------------------------------------- the spool */

static bool same_description(int a, int b)
{
    if (a == b)
        return true;
    pid_t pid = getpid();
    return syscall(SYS_kcmp, pid, pid, KCMP_FILE, a, b) == 0;
}

/* Copy fd to its end into out; 0, or -errno (-EFBIG past the limit). */
static int drain(int fd, int out)
{
    unsigned char buf[1 << 16];
    uint64_t total = 0;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EAGAIN) { /* the guest made it non-blocking */
            struct pollfd pf = {fd, POLLIN, 0};
            poll(&pf, 1, -1);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            return 0;
        if ((total += (uint64_t)n) > CKPT_MAX_FD_DATA)
            return -EFBIG;
        if (write(out, buf, (size_t)n) != n)
            return errno ? -errno : -EIO;
    }
}

int ckpt_fds_spool_stdin(rv_proc *p, char *err, size_t errlen)
{
    rv_file *in = &p->os.files[0];
    struct stat st;
    if (in->host_fd < 0 || !in->is_std || in->spooled || fstat(in->host_fd, &st) != 0 ||
        !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
        return 0;
    int spool = memfd_create("rvsample-stdin", MFD_CLOEXEC);
    int rc = spool < 0 ? -errno : drain(in->host_fd, spool);
    if (rc) {
        if (spool >= 0)
            close(spool);
        if (rc == -EFBIG)
            return fail(err, errlen, "standard input is a pipe holding more than %llu MiB: give it as a file (< FILE)",
                        (unsigned long long)(CKPT_MAX_FD_DATA >> 20));
        return fail(err, errlen, "cannot read standard input to its end: %s", strerror(-rc));
    }
    lseek(spool, 0, SEEK_SET);
    /* Copies of stdin the program made share its position: they read on in the spool too. */
    for (int fd = 1; fd < RV_MAX_FDS; fd++) {
        rv_file *f = &p->os.files[fd];
        if (f->host_fd >= 0 && !f->is_std && same_description(f->host_fd, in->host_fd)) {
            int copy = fcntl(spool, F_DUPFD_CLOEXEC, 3);
            if (copy < 0)
                return fail(err, errlen, "cannot duplicate the standard-input spool: %s", strerror(errno));
            close(f->host_fd);
            f->host_fd = copy;
        }
    }
    in->host_fd = spool;
    in->spooled = in->owned = true;
    return 0;
}

/* ---------------------------------------------------------------- save */

/* Files the program reads and writes are checked up to this size. */
enum { MAX_CHECKED_FILE = 64 << 20 };

static bool file_crc(int fd, uint32_t *out)
{
    uint64_t size;
    return ckpt_fd_crc(fd, MAX_CHECKED_FILE, out, &size);
}

static int refuse(char *err, size_t errlen, int fd, const rv_file *f, const char *why)
{
    return fail(err, errlen, "guest fd %d (%s) cannot be checkpointed: %s", fd, f->path ? f->path : "no path", why);
}

static int describe_std(const rv_file *f, int fd, const struct stat *st, json_t *e, ckpt_blob *b, char *err,
                        size_t errlen)
{
    json_object_set_new(e, "kind", json_string("std"));
    if (fd != 0)
        return 0;
    off_t off = lseek(f->host_fd, 0, SEEK_CUR);
    if (f->spooled) { /* what the program has not read yet */
        size_t start = b->len;
        int rc = off < 0 ? -errno : append_file(f->host_fd, off, b);
        if (rc)
            return fail(err, errlen, "guest fd 0 (standard input): cannot keep what is left to read: %s",
                        rc == -EFBIG ? "too large" : strerror(-rc));
        set_data(e, start, b->len);
    } else if (S_ISREG(st->st_mode)) { /* the restoring run's stdin resumes here */
        json_object_set_new(e, "offset", json_integer(off < 0 ? 0 : off));
    } else if (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode)) {
        return refuse(err, errlen, fd, f, "standard input is a pipe that was not read ahead (internal error)");
    }
    return 0;
}

/* A file the program writes, carried by its contents too ("data": a run
 * restored from the checkpoint writes a private copy of it as it was then,
 * whatever the host's file holds by then), when it is small enough and the
 * checkpoint has room. */
static bool carry_contents(const rv_file *f, const struct stat *st, json_t *e, ckpt_blob *b)
{
    int mode = f->flags & O_ACCMODE;
    if (mode == O_RDONLY ||
        (uint64_t)st->st_size > (mode == O_WRONLY ? CKPT_MAX_WRITTEN_CONTENTS : CKPT_MAX_FILE_CONTENTS))
        return false;
    size_t start = b->len;
    if (append_file(f->host_fd, 0, b)) {
        b->len = start; /* too large after all: by path alone */
        return false;
    }
    set_data(e, start, b->len);
    return true;
}

/* A regular file or directory: by path while the path still names it,
 * otherwise (regular files only) by contents. */
static int describe_named(const rv_file *f, int fd, const struct stat *st, bool carry, json_t *e, ckpt_blob *b,
                          char *err, size_t errlen)
{
    struct stat named;
    bool by_path = f->path && stat(f->path, &named) == 0 && named.st_dev == st->st_dev && named.st_ino == st->st_ino;
    off_t off = lseek(f->host_fd, 0, SEEK_CUR); /* the getdents position for a directory */
    json_object_set_new(e, "offset", json_integer(off < 0 ? 0 : off));
    if (S_ISDIR(st->st_mode)) {
        if (!by_path)
            return refuse(err, errlen, fd, f, "the directory was removed or moved since it was opened");
        json_object_set_new(e, "kind", json_string("dir"));
        return 0;
    }
    if (by_path) {
        json_object_set_new(e, "kind", json_string("file"));
        /* the file its locks name (ckpt_locks_save), whatever file the restoring run reopens */
        json_object_set_new(e, "dev", json_u64(st->st_dev));
        json_object_set_new(e, "ino", json_u64(st->st_ino));
        if (carry && carry_contents(f, st, e, b))
            return 0;
        uint32_t crc;
        if ((f->flags & O_ACCMODE) == O_RDWR && file_crc(f->host_fd, &crc)) /* what it reads back, it wrote */
            json_object_set_new(e, "contents", json_pack("{s:I, s:I}", "size", (json_int_t)st->st_size, "crc32",
                                                         (json_int_t)crc));
        return 0;
    }
    size_t start = b->len;
    int rc = append_file(f->host_fd, 0, b);
    if (rc == -EFBIG)
        return refuse(err, errlen, fd, f, "no path names it any more and it holds too much data to carry");
    if (rc)
        return refuse(err, errlen, fd, f, "no path names it any more and it cannot be read");
    json_object_set_new(e, "kind", json_string("data"));
    set_data(e, start, b->len);
    return 0;
}

/* Does a descriptor below fd read from the same pipe or FIFO? (Then that
 * one carries the bytes in it.) */
/* The lowest descriptor below `below` on the pipe or FIFO st describes
 * (one that reads it, or either end), or -1. */
static int lower_fd_on_pipe(const rv_proc *p, int below, const struct stat *st, bool readers_only)
{
    for (int g = 0; g < below; g++) {
        const rv_file *o = &p->os.files[g];
        struct stat ost;
        if (o->host_fd >= 0 && !o->is_std && fstat(o->host_fd, &ost) == 0 && S_ISFIFO(ost.st_mode) &&
            ost.st_ino == st->st_ino && ost.st_dev == st->st_dev &&
            (!readers_only || (fcntl(o->host_fd, F_GETFL) & O_ACCMODE) != O_WRONLY))
            return g;
    }
    return -1;
}

static bool earlier_reader(const rv_proc *p, int fd, const struct stat *st)
{
    return lower_fd_on_pipe(p, fd, st, true) >= 0;
}

/* The bytes waiting in a pipe or FIFO that fd reads, unless a lower
 * descriptor carries them. */
static int describe_contents(const rv_proc *p, const rv_file *f, int fd, const struct stat *st, json_t *e,
                             ckpt_blob *b, char *err, size_t errlen)
{
    if (earlier_reader(p, fd, st))
        return 0;
    size_t start = b->len;
    int rc = append_pipe(f->host_fd, b);
    if (rc)
        return refuse(err, errlen, fd, f, rc == -EFBIG ? "too much data" : "the bytes in the pipe cannot be copied");
    if (b->len > start)
        set_data(e, start, b->len);
    return 0;
}

static int describe_pipe(const rv_proc *p, const rv_file *f, int fd, const struct stat *st, int status, json_t *e,
                         ckpt_blob *b, char *err, size_t errlen)
{
    bool reader = (status & O_ACCMODE) == O_RDONLY;
    json_object_set_new(e, "kind", json_string("pipe"));
    /* The pipe's id: its lowest descriptor, the same for both ends and from
     * run to run (its host inode number is not). */
    int first = lower_fd_on_pipe(p, fd, st, false);
    json_object_set_new(e, "pipe", json_integer(first >= 0 ? first : fd));
    json_object_set_new(e, "end", json_string(reader ? "r" : "w"));
    json_object_set_new(e, "size", json_integer(fcntl(f->host_fd, F_GETPIPE_SZ)));
    return reader ? describe_contents(p, f, fd, st, e, b, err, errlen) : 0;
}

/* A named FIFO: reopened by its path, the bytes in it carried as a pipe's. */
static int describe_fifo(const rv_proc *p, const rv_file *f, int fd, const struct stat *st, int status, json_t *e,
                         ckpt_blob *b, char *err, size_t errlen)
{
    struct stat named;
    if (stat(f->path, &named) != 0 || named.st_dev != st->st_dev || named.st_ino != st->st_ino)
        return refuse(err, errlen, fd, f, "the named FIFO was removed or replaced since it was opened");
    json_object_set_new(e, "kind", json_string("fifo"));
    return (status & O_ACCMODE) != O_WRONLY ? describe_contents(p, f, fd, st, e, b, err, errlen) : 0;
}

static int describe(const rv_proc *p, int fd, bool carry, json_t *e, ckpt_blob *b, char *err, size_t errlen)
{
    const rv_file *f = &p->os.files[fd];
    struct stat st;
    int status = fcntl(f->host_fd, F_GETFL);
    if (status < 0 || fstat(f->host_fd, &st) != 0)
        return refuse(err, errlen, fd, f, strerror(errno));
    json_object_set_new(e, "status", json_integer(status & STATUS_FLAGS));
    if (f->is_std)
        return describe_std(f, fd, &st, e, b, err, errlen);
    for (int g = 0; g < fd; g++) /* dup, dup2, F_DUPFD: one open file description */
        if (p->os.files[g].host_fd >= 0 && same_description(p->os.files[g].host_fd, f->host_fd)) {
            json_object_set_new(e, "same_as", json_integer(g));
            return 0;
        }
    if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
        return describe_named(f, fd, &st, carry, e, b, err, errlen);
    if (S_ISCHR(st.st_mode)) {
        const char *dev = device_path(st.st_rdev);
        if (!dev)
            return refuse(err, errlen, fd, f, "only /dev/null, /dev/zero, /dev/full, /dev/random and /dev/urandom "
                                              "among devices can be reopened");
        json_object_set_new(e, "kind", json_string("dev"));
        json_object_set_new(e, "path", json_string(dev));
        return 0;
    }
    if (S_ISFIFO(st.st_mode))
        return (f->path ? describe_fifo : describe_pipe)(p, f, fd, &st, status, e, b, err, errlen);
    return refuse(err, errlen, fd, f,
                  S_ISSOCK(st.st_mode)   ? "sockets are not supported"
                  : S_ISBLK(st.st_mode)  ? "block devices are not supported"
                                         : "descriptors of this kind (eventfd, epoll, timerfd...) are not supported");
}

json_t *ckpt_fds_save(const rv_proc *p, ckpt_blob *blob, bool carry_written, char *err, size_t errlen)
{
    json_t *list = json_array();
    for (int fd = 0; fd < RV_MAX_FDS; fd++) {
        const rv_file *f = &p->os.files[fd];
        if (f->host_fd < 0)
            continue;
        json_t *e = json_pack("{s:i, s:i, s:I}", "fd", fd, "flags", f->flags, "ofd", (json_int_t)f->ofd);
        if (f->path)
            json_object_set_new(e, "path", json_string(f->path));
        if (describe(p, fd, carry_written, e, blob, err, errlen)) {
            json_decref(e);
            json_decref(list);
            return NULL;
        }
        json_array_append_new(list, e);
    }
    return list;
}

/* --------------------------------------------------------------- check */

/* An entry's kind; checkpoints older than the kinds said "std" or "regular". */
static const char *kind_of(json_t *e)
{
    json_t *k = json_object_get(e, "kind");
    if (json_is_string(k))
        return json_string_value(k);
    if (json_object_get(e, "same_as"))
        return "same";
    if (json_is_true(json_object_get(e, "std")))
        return "std";
    return json_is_true(json_object_get(e, "regular")) ? "file" : "unknown";
}

static bool int_member(json_t *e, const char *key, json_int_t lo, json_int_t hi, json_int_t *out)
{
    json_t *v = json_object_get(e, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = json_integer_value(v);
    return true;
}

/* "data" as (offset, length) inside the blob; absent: (0, 0). */
static bool data_range(json_t *e, size_t blob_len, size_t *off, size_t *len)
{
    json_t *d = json_object_get(e, "data");
    *off = *len = 0;
    if (!d)
        return true;
    json_t *a = json_array_get(d, 0), *b = json_array_get(d, 1);
    if (json_array_size(d) != 2 || !json_is_integer(a) || !json_is_integer(b) || json_integer_value(a) < 0 ||
        json_integer_value(b) < 0 || (uint64_t)json_integer_value(a) > blob_len ||
        (uint64_t)json_integer_value(b) > blob_len - (uint64_t)json_integer_value(a))
        return false;
    *off = (size_t)json_integer_value(a);
    *len = (size_t)json_integer_value(b);
    return true;
}

static bool entry_ok(json_t *e, size_t blob_len, const bool *listed, json_int_t fd)
{
    json_int_t v;
    size_t off, len;
    const char *kind = kind_of(e);
    if (!int_member(e, "flags", INT32_MIN, INT32_MAX, &v) || !data_range(e, blob_len, &off, &len))
        return false;
    if (json_object_get(e, "offset") && !int_member(e, "offset", 0, INT64_MAX, &v))
        return false;
    if (json_object_get(e, "ofd") && !int_member(e, "ofd", 0, INT64_MAX, &v))
        return false;
    if (json_object_get(e, "path") && !json_is_string(json_object_get(e, "path")))
        return false;
    if (strcmp(kind, "same") == 0)
        return int_member(e, "same_as", 0, fd - 1, &v) && listed[v];
    if (strcmp(kind, "file") == 0 || strcmp(kind, "dir") == 0 || strcmp(kind, "dev") == 0 ||
        strcmp(kind, "fifo") == 0)
        return json_is_string(json_object_get(e, "path"));
    if (strcmp(kind, "pipe") == 0) {
        const char *end = json_string_value(json_object_get(e, "end"));
        return int_member(e, "pipe", 0, INT64_MAX, &v) && int_member(e, "size", 4096, 1 << 30, &v) && end &&
               (strcmp(end, "r") == 0 || (strcmp(end, "w") == 0 && len == 0)) && len <= (size_t)v;
    }
    if (strcmp(kind, "std") == 0)
        return fd <= 2 && (len == 0 || fd == 0);
    return strcmp(kind, "data") == 0;
}

static bool same_member(json_t *a, json_t *b, const char *key)
{
    return json_equal(json_object_get(a, key), json_object_get(b, key));
}

static bool holds_data(json_t *e)
{
    size_t off, len;
    return data_range(e, SIZE_MAX, &off, &len) && len > 0;
}

/* Restoring creates a pipe with the capacity its first entry declares and
 * writes its bytes into it, blocking: every entry of one pipe must declare
 * the same capacity, and one at most carry bytes (entry_ok: no more than
 * that capacity), as when saved. */
static bool pipes_consistent(json_t *files)
{
    size_t i, j;
    json_t *a, *b;
    json_array_foreach(files, i, a) {
        if (strcmp(kind_of(a), "pipe") != 0)
            continue;
        json_array_foreach(files, j, b) {
            if (j > i && strcmp(kind_of(b), "pipe") == 0 && same_member(a, b, "pipe") &&
                (!same_member(a, b, "size") || (holds_data(a) && holds_data(b))))
                return false;
        }
    }
    return true;
}

int ckpt_fds_check(json_t *files, size_t blob_len, char *err, size_t errlen)
{
    if (!json_is_array(files))
        return fail(err, errlen, "corrupted checkpoint: no list of open files");
    bool listed[RV_MAX_FDS] = {false};
    json_int_t prev = -1;
    size_t i;
    json_t *e;
    json_array_foreach(files, i, e) {
        json_int_t fd;
        if (!json_is_object(e) || !int_member(e, "fd", prev + 1, RV_MAX_FDS - 1, &fd) ||
            !entry_ok(e, blob_len, listed, fd))
            return fail(err, errlen, "corrupted checkpoint: bad open-file entry %zu", i);
        listed[fd] = true;
        prev = fd;
    }
    if (!pipes_consistent(files))
        return fail(err, errlen, "corrupted checkpoint: the entries of a pipe disagree on its size or its bytes");
    return 0;
}

/* ------------------------------------------------------------- restore */

/* The pipes being re-created: both ends, until every descriptor is back. */
typedef struct pipe_table {
    struct {
        json_int_t id;
        int end[2];
    } p[RV_MAX_FDS];
    int n;
} pipe_table;

/* A host fd for the entry's end of its pipe (created on first sight), and
 * the write end in *writer for refilling it. -1 with err on failure. */
static int pipe_end(pipe_table *t, json_t *e, int *writer, char *err, size_t errlen)
{
    json_int_t id = json_integer_value(json_object_get(e, "pipe"));
    int i = 0;
    while (i < t->n && t->p[i].id != id)
        i++;
    if (i == t->n) {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) < 0)
            return fail(err, errlen, "cannot create a pipe: %s", strerror(errno));
        int size = (int)json_integer_value(json_object_get(e, "size"));
        if (size > fcntl(fds[0], F_GETPIPE_SZ) && fcntl(fds[0], F_SETPIPE_SZ, size) < 0) {
            close(fds[0]), close(fds[1]);
            return fail(err, errlen, "cannot give a pipe its %d bytes of capacity again: %s", size, strerror(errno));
        }
        t->p[t->n].id = id;
        t->p[t->n].end[0] = fds[0], t->p[t->n].end[1] = fds[1];
        t->n++;
    }
    bool reader = strcmp(json_string_value(json_object_get(e, "end")), "r") == 0;
    *writer = t->p[i].end[1];
    int fd = fcntl(t->p[i].end[reader ? 0 : 1], F_DUPFD_CLOEXEC, 3);
    return fd >= 0 ? fd : fail(err, errlen, "cannot duplicate a pipe end: %s", strerror(errno));
}

static void pipes_close(pipe_table *t)
{
    for (int i = 0; i < t->n; i++)
        close(t->p[i].end[0]), close(t->p[i].end[1]);
    t->n = 0;
}

/* A private file holding bytes (a file known by contents, unread stdin). */
static int memory_file(const unsigned char *data, size_t len, off_t offset)
{
    int fd = sys_memory_file("rvsample-restored", data, len);
    if (fd >= 0)
        lseek(fd, offset, SEEK_SET);
    return fd;
}

/* The kind the reopened host fd must have, checked after opening: a path
 * from a checkpoint may name something else now (a FIFO would block). */
static int reopen(rv_proc *p, const char *kind, const char *path, int flags, char *err, size_t errlen)
{
    if ((flags & O_ACCMODE) != O_RDONLY && sys_check_writable(p, p->os.cwd_fd, path))
        return fail(err, errlen, "guest file %s is outside the directories it may write (see --allow-write)", path);
    bool dir = strcmp(kind, "dir") == 0, dev = strcmp(kind, "dev") == 0;
    int how = dir ? O_RDONLY | O_DIRECTORY | (flags & O_PATH)
                  : (flags & ~(O_CREAT | O_TRUNC | O_EXCL | O_TMPFILE | O_CLOEXEC)) | O_NOCTTY;
    int fd = openat(p->os.cwd_fd, path, how | O_NONBLOCK | O_CLOEXEC); /* where the check looked */
    if (!dir && !dev)
        fd = sys_apart_as_then(p, p->os.cwd_fd, path, how | O_NONBLOCK | O_CLOEXEC, fd);
    if (fd < 0)
        return fail(err, errlen, "cannot reopen the guest's %s %s: %s", dir ? "directory" : dev ? "device" : "file",
                    path, strerror(errno));
    struct stat st;
    bool same_kind = fstat(fd, &st) == 0 && (dir   ? S_ISDIR(st.st_mode)
                                             : dev ? S_ISCHR(st.st_mode) && device_path(st.st_rdev) &&
                                                         strcmp(device_path(st.st_rdev), path) == 0
                                                   : S_ISREG(st.st_mode));
    if (!same_kind) {
        close(fd);
        return fail(err, errlen, "%s is no longer the %s the checkpoint names", path,
                    dir ? "directory" : dev ? "device" : "regular file");
    }
    return fd;
}

/* A named FIFO again, with the bytes it held. Opening it for writing, or
 * putting bytes back, writes to whatever process reads it: only a FIFO under
 * the writable directories, whatever access mode the entry claims. A second
 * descriptor keeps the FIFO open while the guest's is opened (without
 * blocking) and refilled. */
static int reopen_fifo(rv_proc *p, const char *path, int flags, const unsigned char *data, size_t len, char *err,
                       size_t errlen)
{
    bool writes = (flags & O_ACCMODE) != O_RDONLY || len > 0;
    if (writes && sys_check_writable(p, p->os.cwd_fd, path))
        return fail(err, errlen, "guest FIFO %s is outside the directories it may write (see --allow-write)", path);
    int keep = openat(p->os.cwd_fd, path, (writes ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (keep < 0 || fstat(keep, &st) != 0 || !S_ISFIFO(st.st_mode)) {
        if (keep >= 0)
            close(keep);
        return fail(err, errlen, "%s is no longer the named FIFO the checkpoint names", path);
    }
    int fd = -1;
    if (len && fcntl(keep, F_GETPIPE_SZ) < (int)len)
        fcntl(keep, F_SETPIPE_SZ, (int)len);
    if (!len || write(keep, data, len) == (ssize_t)len)
        fd = sys_reopen_fd(keep, (flags & O_ACCMODE) | O_NONBLOCK);
    int saved = errno;
    close(keep);
    return fd >= 0 ? fd : fail(err, errlen, "cannot reopen the guest's FIFO %s: %s", path, strerror(saved));
}

/* A file the program reads and writes is reopened as it is now, not as it
 * was at the checkpoint: say so when it has changed since, as the run from
 * the checkpoint may then differ from the original. */
static void check_unchanged(int fd, const char *path, json_t *contents)
{
    struct stat st;
    uint32_t crc;
    if (!contents || fstat(fd, &st) != 0)
        return;
    json_int_t size = json_integer_value(json_object_get(contents, "size"));
    json_int_t was = json_integer_value(json_object_get(contents, "crc32"));
    if (st.st_size != size || !file_crc(fd, &crc) || crc != (uint32_t)was)
        warn("guest file %s has changed since the checkpoint was taken (%lld bytes then, %lld now): the run from "
             "it may differ from the original", path, (long long)size, (long long)st.st_size);
}

/* host at offset, or -1 (host closed) with errno. */
static int at_offset(int host, off_t offset)
{
    return host < 0 || lseek(host, offset, SEEK_SET) == offset ? host : sys_close_then(host, -1);
}

/* A file carried by its contents: a private copy as it was at the
 * checkpoint (sys_apart_file: a run kept apart reopens it by its path), at
 * its offset. */
static int carried_file(int fd, const char *path, int flags, const unsigned char *data, size_t len, off_t offset,
                        char *err, size_t errlen)
{
    int host = at_offset(sys_apart_file(data, len, flags), offset);
    if (host < 0)
        fail(err, errlen, "cannot restore guest fd %d (%s) from its contents: %s", fd, path, strerror(errno));
    return host;
}

/* A run on the host's files (checkpoint --run) of a checkpoint that carries
 * a file the program writes: the host's file holds the contents again, and
 * is reopened, at its offset. */
static int written_back(rv_proc *p, int fd, const char *path, int flags, const unsigned char *data, size_t len,
                        off_t offset, char *err, size_t errlen)
{
    int out = openat(p->os.cwd_fd, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0644);
    bool ok = out >= 0 && write(out, data, len) == (ssize_t)len;
    if (out >= 0) close(out);
    if (!ok)
        return fail(err, errlen, "cannot write guest fd %d's file %s back: %s", fd, path, strerror(errno));
    int host = reopen(p, "file", path, flags, err, errlen);
    if (host >= 0 && lseek(host, offset, SEEK_SET) != offset) {
        close(host);
        return fail(err, errlen, "cannot return to position %lld in %s", (long long)offset, path);
    }
    return host;
}

/* In a run kept apart from the host's files, a file the program writes
 * that the checkpoint could not carry: a private copy of the host's file as
 * it is now (read, never written), at its offset. */
static int copied_file(rv_proc *p, int fd, const char *path, int flags, off_t offset, char *err, size_t errlen)
{
    int in = reopen(p, "file", path, (flags & ~O_ACCMODE) | O_RDONLY, err, errlen);
    if (in < 0)
        return -1;
    int host = at_offset(sys_apart_copy(in, flags), offset);
    if (host < 0)
        fail(err, errlen, "cannot copy guest fd %d's file %s: %s", fd, path, strerror(errno));
    close(in);
    return host;
}

/* Replace guest fd's entry (the restoring run's standard streams included). */
static void install(rv_proc *p, int fd, rv_file f)
{
    rv_file *old = &p->os.files[fd];
    if (old->host_fd >= 0 && (!old->is_std || old->owned))
        close(old->host_fd);
    free(old->path);
    *old = f;
}

static int restore_std(rv_proc *p, int fd, json_t *e, const unsigned char *blob, char *err, size_t errlen)
{
    size_t off, len;
    data_range(e, SIZE_MAX, &off, &len);
    json_t *data = json_object_get(e, "data");
    struct stat st;
    if (data) { /* a piped stdin: what was left to read */
        int spool = memory_file(blob + off, len, 0);
        if (spool < 0)
            return fail(err, errlen, "cannot restore the unread standard input: %s", strerror(errno));
        install(p, 0, (rv_file){.host_fd = spool, .flags = (int)json_integer_value(json_object_get(e, "flags")),
                                 .is_std = true, .spooled = true, .owned = true, .ofd = p->os.files[0].ofd});
    } else if (fd == 0 && json_object_get(e, "offset") && p->os.files[0].is_std &&
               fstat(p->os.files[0].host_fd, &st) == 0 && S_ISREG(st.st_mode)) {
        /* The file again, with an offset of its own: regions restored side
         * by side (sim -j) must not move each other's position. */
        int own = sys_reopen_fd(p->os.files[0].host_fd, O_RDONLY);
        off_t at = (off_t)json_integer_value(json_object_get(e, "offset"));
        if (own < 0 || lseek(own, at, SEEK_SET) != at) {
            if (own >= 0)
                close(own);
            return fail(err, errlen, "cannot reopen the standard input file at offset %lld: %s", (long long)at,
                        strerror(errno));
        }
        rv_file *in = &p->os.files[0];
        install(p, 0, (rv_file){.host_fd = own, .flags = in->flags, .is_std = true, .owned = true, .ofd = in->ofd});
    }
    return 0;
}

static int restore_one(rv_proc *p, json_t *e, const unsigned char *blob, pipe_table *pipes, char *err, size_t errlen)
{
    int fd = (int)json_integer_value(json_object_get(e, "fd"));
    int flags = (int)json_integer_value(json_object_get(e, "flags"));
    const char *kind = kind_of(e), *path = json_string_value(json_object_get(e, "path"));
    off_t offset = (off_t)json_integer_value(json_object_get(e, "offset"));
    size_t off, len;
    data_range(e, SIZE_MAX, &off, &len);
    if (strcmp(kind, "std") == 0)
        return restore_std(p, fd, e, blob, err, errlen);
    int host;
    if (strcmp(kind, "same") == 0) {
        const rv_file *first = &p->os.files[json_integer_value(json_object_get(e, "same_as"))];
        if (first->host_fd < 0) /* a standard stream the restoring run lacks */
            return fail(err, errlen, "guest fd %d shares a standard stream this run does not have", fd);
        host = fcntl(first->host_fd, F_DUPFD_CLOEXEC, 3);
    } else if (strcmp(kind, "pipe") == 0) {
        int writer = -1;
        host = pipe_end(pipes, e, &writer, err, errlen);
        if (host >= 0 && len && write(writer, blob + off, len) != (ssize_t)len) {
            close(host);
            return fail(err, errlen, "cannot refill the pipe of guest fd %d", fd);
        }
    } else if (strcmp(kind, "data") == 0) {
        host = memory_file(blob + off, len, offset);
    } else if (strcmp(kind, "fifo") == 0) {
        host = reopen_fifo(p, path, flags, blob + off, len, err, errlen);
    } else if (strcmp(kind, "file") == 0 && (flags & O_ACCMODE) != O_RDONLY && path &&
               sys_check_writable(p, p->os.cwd_fd, path)) { /* kept apart or not: the program writes it */
        return fail(err, errlen, "guest file %s is outside the directories it may write (see --allow-write)", path);
    } else if (strcmp(kind, "file") == 0 && json_object_get(e, "data") && !p->os.apart.on) {
        host = written_back(p, fd, path, flags, blob + off, len, offset, err, errlen);
    } else if (strcmp(kind, "file") == 0 && json_object_get(e, "data")) {
        host = carried_file(fd, path, flags, blob + off, len, offset, err, errlen);
    } else if (strcmp(kind, "file") == 0 && p->os.apart.on && (flags & O_ACCMODE) != O_RDONLY) {
        host = copied_file(p, fd, path, flags, offset, err, errlen);
    } else {
        host = reopen(p, kind, path, flags, err, errlen);
        if (host >= 0 && strcmp(kind, "dev") != 0 && !(flags & O_PATH) && lseek(host, offset, SEEK_SET) != offset) {
            close(host);
            return fail(err, errlen, "cannot return to position %lld in %s", (long long)offset, path);
        }
        if (host >= 0)
            check_unchanged(host, path, json_object_get(e, "contents"));
    }
    if (host < 0) /* the others gave their reason */
        return strcmp(kind, "same") == 0 || strcmp(kind, "data") == 0
                   ? fail(err, errlen, "cannot restore guest fd %d: %s", fd, strerror(errno))
                   : -1;
    json_t *status = json_object_get(e, "status");
    if (status && strcmp(kind, "same") != 0)
        fcntl(host, F_SETFL, (int)json_integer_value(status) & STATUS_FLAGS);
    json_t *ofd = json_object_get(e, "ofd");
    uint64_t description = strcmp(kind, "same") == 0
                               ? p->os.files[json_integer_value(json_object_get(e, "same_as"))].ofd
                           : json_is_integer(ofd) ? (uint64_t)json_integer_value(ofd)
                                                  : ++p->os.last_ofd;
    install(p, fd, (rv_file){.host_fd = host, .flags = flags, .path = path ? strdup(path) : NULL,
                             .random = sys_random_device(host, flags), .ofd = description});
    return 0;
}

/* The restored run's file for entry e may be another than the one the
 * checkpoint's locks name (a private copy, a file put back): they follow
 * it. */
static void locks_follow(rv_proc *p, json_t *e)
{
    bool ok = true;
    uint64_t dev = get_u64(e, "dev", &ok), ino = get_u64(e, "ino", &ok);
    const rv_file *f = &p->os.files[json_integer_value(json_object_get(e, "fd"))];
    struct stat st;
    if (!ok || f->host_fd < 0 || fstat(f->host_fd, &st) != 0 || (st.st_dev == dev && st.st_ino == ino))
        return;
    for (size_t i = 0; i < p->os.nlocks; i++)
        if (p->os.locks[i].dev == dev && p->os.locks[i].ino == ino)
            p->os.locks[i].dev = st.st_dev, p->os.locks[i].ino = st.st_ino;
}

int ckpt_fds_restore(rv_proc *p, json_t *files, const unsigned char *blob, size_t blob_len, char *err,
                     size_t errlen)
{
    if (ckpt_fds_check(files, blob_len, err, errlen))
        return -1;
    bool listed[RV_MAX_FDS] = {false};
    size_t i;
    json_t *e;
    json_array_foreach(files, i, e) listed[json_integer_value(json_object_get(e, "fd"))] = true;
    for (int fd = 0; fd < 3; fd++) /* standard streams the program had closed stay closed */
        if (!listed[fd] && p->os.files[fd].host_fd >= 0)
            install(p, fd, (rv_file){.host_fd = -1});
    pipe_table *pipes = calloc(1, sizeof *pipes);
    if (!pipes)
        return fail(err, errlen, "out of memory");
    int rc = 0;
    json_array_foreach(files, i, e) {
        if ((rc = restore_one(p, e, blob, pipes, err, errlen)))
            break;
    }
    pipes_close(pipes);
    free(pipes);
    if (!rc)
        json_array_foreach(files, i, e) locks_follow(p, e);
    return rc;
}

/* --------------------------------------------------------------- apart */

json_t *ckpt_apart_save(const rv_os *os)
{
    json_t *j = json_object();
    if (os->history) {
        const char *dir = path_recorder_dir(os->history), *slash = strrchr(dir, '/');
        json_object_set_new(j, "history", json_string(slash ? slash + 1 : dir));
        path_history_mark(os->history); /* this checkpoint's chunk sees what comes next */
    }
    return j;
}

/* The history's name: a name in the checkpoint's directory, or NULL. */
static const char *history_name(json_t *apart)
{
    const char *name = json_string_value(json_object_get(apart, "history"));
    return name && ckpt_plain_name(name) ? name : NULL;
}

int ckpt_apart_check(json_t *apart, char *err, size_t errlen)
{
    if (apart && (!json_is_object(apart) || (json_object_get(apart, "history") && !history_name(apart))))
        return fail(err, errlen, "corrupted checkpoint: bad \"apart\" entry of the OS state");
    return 0;
}

static bool writable(void *p, const char *path) { return sys_check_writable(p, AT_FDCWD, path) == 0; }

int ckpt_host_files_restore(rv_proc *p, json_t *apart, const char *ckpt_path, uint64_t since, char *err,
                            size_t errlen)
{
    if (ckpt_apart_restore(&p->os, apart, ckpt_path, since, err, errlen))
        return -1;
    path_view *v = p->os.apart.history;
    int rc = v ? path_history_put_back(v, writable, p, err, errlen) : 0;
    path_view_close(v);
    p->os.apart.history = NULL;
    p->os.apart.on = false;
    return rc;
}

int ckpt_apart_restore(rv_os *os, json_t *apart, const char *ckpt_path, uint64_t since, char *err, size_t errlen)
{
    os->apart.on = apart != NULL;
    const char *name = apart ? history_name(apart) : NULL;
    if (!name) return 0;
    char *dir = ckpt_beside(ckpt_path, name);
    /* A checkpoint copied away from its history: the host's paths as they are. */
    struct stat st;
    bool there = stat(dir, &st) == 0;
    if (there)
        os->apart.history = path_history_open(dir, since, err, errlen);
    free(dir);
    return !there || os->apart.history ? 0 : -1;
}

/* --------------------------------------------------------------- locks */

json_t *ckpt_locks_save(const rv_os *os)
{
    json_t *list = json_array();
    for (size_t i = 0; i < os->nlocks; i++) {
        const rv_lock *l = &os->locks[i];
        json_array_append_new(list, json_pack("{s:o, s:o, s:o, s:o, s:o, s:i, s:b}", "dev", json_u64(l->dev), "ino",
                                              json_u64(l->ino), "owner", json_u64(l->owner), "start",
                                              json_u64(l->start), "end", json_u64(l->end), "type", l->type, "flock",
                                              l->flock));
    }
    return json_pack("{s:o, s:o}", "last_ofd", json_u64(os->last_ofd), "held", list);
}

int ckpt_locks_restore(rv_os *os, json_t *j, char *err, size_t errlen)
{
    if (!j) /* taken before locks were kept */
        return 0;
    bool ok = true;
    os->last_ofd = get_u64(j, "last_ofd", &ok);
    json_t *held = json_object_get(j, "held"), *e;
    size_t i;
    if (!ok || !json_is_array(held))
        return fail(err, errlen, "corrupted checkpoint: bad list of file locks");
    json_array_foreach(held, i, e) {
        rv_lock l = {.dev = get_u64(e, "dev", &ok), .ino = get_u64(e, "ino", &ok), .owner = get_u64(e, "owner", &ok),
                     .start = get_u64(e, "start", &ok), .end = get_u64(e, "end", &ok),
                     .type = (uint8_t)get_u64(e, "type", &ok), .flock = json_is_true(json_object_get(e, "flock"))};
        if (!ok || l.start > l.end || l.type > 1)
            return fail(err, errlen, "corrupted checkpoint: bad file lock %zu", i);
        sys_lock_add(os, &l);
    }
    return 0;
}
