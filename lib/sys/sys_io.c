/* File data beyond read and write: copies between descriptors, advice,
 * space allocation and syncing, and the SIGPIPE of a write to a pipe
 * nobody reads. All of these act on the host descriptor, whose checks give
 * the Linux errors (ESPIPE on a pipe, EBADF on a descriptor not open for
 * writing...). */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "sys_internal.h"

/* ------------------------------------------------------------- SIGPIPE */

static sigset_t only_sigpipe(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGPIPE);
    return s;
}

void sys_pipe_guard_begin(sigset_t *old)
{
    sigset_t s = only_sigpipe();
    pthread_sigmask(SIG_BLOCK, &s, old);
}

int64_t sys_pipe_guard_end(rv_proc *p, const sigset_t *old, int64_t result)
{
    if (result == -EPIPE) {
        /* The host raised SIGPIPE at this thread while it was blocked: take
         * it back, and give the guest its own. */
        sigset_t s = only_sigpipe();
        struct timespec now = {0, 0};
        while (sigtimedwait(&s, NULL, &now) == SIGPIPE)
            ;
        sig_send(p, SIGPIPE, NULL);
    }
    pthread_sigmask(SIG_SETMASK, old, NULL);
    return result;
}

/* -------------------------------------------------------------- copies */

/* A guest loff_t* argument in and out (addr 0: none). */
static bool offset_in(rv_proc *p, uint64_t addr, off_t *off)
{
    return !addr || mem_read(&p->mem, off, addr, sizeof *off);
}

static int64_t offset_out(rv_proc *p, uint64_t addr, off_t off, int64_t result)
{
    if (addr && result >= 0 && !mem_write(&p->mem, addr, &off, sizeof off))
        return -EFAULT;
    return result;
}

/* sendfile from /dev/(u)random: the guest's stream, not the host's, at
 * most 64 KiB a call (sendfile may move less than asked). */
static ssize_t random_sendfile(rv_proc *p, int out_fd, off_t *off, size_t count)
{
    unsigned char buf[1 << 16];
    size_t n = count < sizeof buf ? count : sizeof buf;
    sys_random_read(p, buf, n);
    ssize_t r = write(out_fd, buf, n);
    if (off && r > 0)
        *off += r;
    return r;
}

SYS(sendfile)
{
    rv_file *out = sys_file(p, a[0]), *in = sys_file(p, a[1]);
    off_t off;
    if (!out || !in)
        return -EBADF;
    if (!offset_in(p, a[2], &off))
        return -EFAULT;
    int64_t r = sys_wait_ready(p, out, POLLOUT, "sendfile");
    if (r)
        return r;
    sigset_t old;
    sys_pipe_guard_begin(&old);
    ssize_t sent = in->random ? random_sendfile(p, out->host_fd, a[2] ? &off : NULL, a[3])
                              : sendfile(out->host_fd, in->host_fd, a[2] ? &off : NULL, a[3]);
    r = sys_pipe_guard_end(p, &old, sys_ret(sent));
    return offset_out(p, a[2], off, r);
}

SYS(copy_file_range)
{
    rv_file *in = sys_file(p, a[0]), *out = sys_file(p, a[2]);
    off_t off_in, off_out;
    if (!in || !out)
        return -EBADF;
    if (!offset_in(p, a[1], &off_in) || !offset_in(p, a[3], &off_out))
        return -EFAULT;
    int64_t r = sys_ret(copy_file_range(in->host_fd, a[1] ? &off_in : NULL, out->host_fd, a[3] ? &off_out : NULL,
                                        a[4], (unsigned)a[5]));
    r = offset_out(p, a[1], off_in, r);
    return offset_out(p, a[3], off_out, r);
}

/* ------------------------------------------------- advice, space, sync */

SYS(fadvise64)
{
    rv_file *f = sys_file(p, a[0]);
    return f ? -posix_fadvise(f->host_fd, (off_t)a[1], (off_t)a[2], (int)a[3]) : -EBADF;
}

SYS(readahead)
{
    rv_file *f = sys_file(p, a[0]);
    return f ? sys_ret(readahead(f->host_fd, (off_t)a[1], a[2])) : -EBADF;
}

SYS(fallocate)
{
    rv_file *f = sys_file(p, a[0]);
    return f ? sys_ret(fallocate(f->host_fd, (int)a[1], (off_t)a[2], (off_t)a[3])) : -EBADF;
}

SYS(sync_file_range)
{
    rv_file *f = sys_file(p, a[0]);
    return f ? sys_ret(sync_file_range(f->host_fd, (off_t)a[1], (off_t)a[2], (unsigned)a[3])) : -EBADF;
}

SYS(sync)
{
    (void)p, (void)a;
    return 0; /* the host writes back in its own time; nothing the guest can see */
}

SYS(syncfs)
{
    return sys_file(p, a[0]) ? 0 : -EBADF;
}
