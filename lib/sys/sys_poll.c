/* Waiting for descriptors: ppoll, pselect6 (poll, select and pause in
 * glibc), and the blocking of reads and writes on pipes and FIFOs.
 *
 * Readiness comes from the host. While the guest waits, two things can
 * change it: the outside world, and signals from the guest's timers, which
 * the deterministic clock runs to (lib/sig/sig.c). The guest's standard
 * streams are its input and output: waiting for them takes no guest time,
 * so that a run does not depend on how fast its input arrives. FIFOs and
 * devices the program opened by path get data only from the outside too,
 * but a wait on them with a timeout, or with a timer armed, lasts until
 * that time on the guest's clock: the outside world is taken to send
 * nothing meanwhile. A pipe the program created changes only if the
 * program itself writes or reads it, which it cannot do while it waits. */
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "sys_internal.h"

enum { MAX_POLL_FDS = 4096, FD_SET_BITS = 1024 };

enum source { SOURCE_NONE, SOURCE_GUEST, SOURCE_OUTSIDE, SOURCE_STREAM };

/* Who can change a descriptor's readiness: nobody (regular files and
 * directories are always ready), the guest (its own pipes), the outside
 * world (FIFOs, devices, sockets opened by path), or the guest's streams. */
static enum source source_of(const rv_file *f)
{
    struct stat st;
    if (f->is_std)
        return SOURCE_STREAM;
    if (fstat(f->host_fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode)))
        return SOURCE_NONE;
    return f->path ? SOURCE_OUTSIDE : SOURCE_GUEST;
}

/* Host readiness of n guest descriptors (fds[i].fd guest numbers in, host
 * revents out). With may_block, when nothing is ready, it waits on the host
 * for the standard streams, or for the outside world if no signal can come.
 * Returns how many are ready, or -errno. */
static int64_t poll_now(rv_proc *p, struct pollfd *fds, size_t n, bool may_block)
{
    struct pollfd *host = malloc((n ? n : 1) * sizeof *host);
    if (!host)
        return -ENOMEM;
    bool stream = false, outside = false;
    for (size_t i = 0; i < n; i++) {
        rv_file *f = fds[i].fd < 0 ? NULL : sys_file(p, (uint64_t)fds[i].fd);
        host[i] = (struct pollfd){f ? f->host_fd : -1, fds[i].events, 0};
        enum source src = f ? source_of(f) : SOURCE_NONE;
        stream |= src == SOURCE_STREAM, outside |= src == SOURCE_OUTSIDE;
    }
    int ready = poll(host, (nfds_t)n, 0);
    if (ready == 0 && may_block && (stream || (outside && !sig_may_arrive(p, 0))))
        ready = poll(host, (nfds_t)n, -1);
    for (size_t i = 0; i < n; i++) {
        bool bad = fds[i].fd >= 0 && !sys_file(p, (uint64_t)fds[i].fd);
        fds[i].revents = bad ? POLLNVAL : host[i].revents;
        ready += bad;
    }
    free(host);
    return ready < 0 ? sys_err() : ready;
}

/* The common part of ppoll and pselect6: readiness now, else a wait for a
 * signal until the deadline under the call's signal mask. */
static int64_t wait_fds(rv_proc *p, struct pollfd *fds, size_t n, uint64_t deadline, const uint64_t *mask,
                        const char *call)
{
    bool may_wait = deadline > sys_now_ns(p);
    int64_t r = poll_now(p, fds, n, may_wait && deadline == UINT64_MAX);
    return r != 0 || !may_wait ? r : sys_wait_with_mask(p, mask, deadline, call);
}

/* The timeout argument (a timespec, NULL: none) as a deadline. */
static int64_t timeout_in(rv_proc *p, uint64_t addr, uint64_t *deadline)
{
    *deadline = UINT64_MAX;
    return addr ? sys_deadline(p, addr, deadline) : 0;
}

/* Linux writes the time left back to the timeout. */
static void timeout_out(rv_proc *p, uint64_t addr, uint64_t deadline)
{
    uint64_t now = sys_now_ns(p);
    if (addr)
        sys_timespec_out(p, addr, deadline > now ? deadline - now : 0);
}

static int64_t mask_in(rv_proc *p, uint64_t addr, uint64_t size, uint64_t *mask, const uint64_t **use)
{
    *use = NULL;
    if (!addr)
        return 0;
    if (size != 8)
        return -EINVAL;
    if (!mem_read(&p->mem, mask, addr, 8))
        return -EFAULT;
    *use = mask;
    return 0;
}

SYS(ppoll)
{
    uint64_t n = a[1], deadline, mask;
    const uint64_t *use;
    if (n > MAX_POLL_FDS)
        return -EINVAL;
    int64_t r = timeout_in(p, a[2], &deadline);
    if (r || (r = mask_in(p, a[3], a[4], &mask, &use)))
        return r;
    struct pollfd *fds = malloc((n ? n : 1) * sizeof *fds); /* the same layout as the guest's */
    if (!fds)
        return -ENOMEM;
    if (n && !mem_read(&p->mem, fds, a[0], n * sizeof *fds)) {
        free(fds);
        return -EFAULT;
    }
    r = wait_fds(p, fds, n, deadline, use, "ppoll");
    if (r >= 0 && n && !mem_write(&p->mem, a[0], fds, n * sizeof *fds))
        r = -EFAULT;
    free(fds);
    timeout_out(p, a[2], deadline);
    return r;
}

/* pselect6's three fd_sets as poll requests and back. */
static const short select_events[3] = {POLLIN, POLLOUT, POLLPRI};
static const short select_ready[3] = {POLLIN | POLLHUP | POLLERR, POLLOUT | POLLERR, POLLPRI};

SYS(pselect6)
{
    int64_t nfds = (int32_t)a[0];
    if (nfds < 0)
        return -EINVAL;
    if (nfds > FD_SET_BITS)
        nfds = FD_SET_BITS;
    uint64_t sets[3][FD_SET_BITS / 64] = {{0}}, words = ((uint64_t)nfds + 63) / 64, deadline, mask, sigarg[2] = {0, 0};
    const uint64_t *use = NULL;
    for (int k = 0; k < 3; k++)
        if (a[1 + k] && !mem_read(&p->mem, sets[k], a[1 + k], words * 8))
            return -EFAULT;
    int64_t r = timeout_in(p, a[4], &deadline);
    if (r)
        return r;
    if (a[5] && !mem_read(&p->mem, sigarg, a[5], sizeof sigarg))
        return -EFAULT;
    if ((r = mask_in(p, sigarg[0], sigarg[1], &mask, &use)))
        return r;
    struct pollfd fds[FD_SET_BITS];
    size_t n = 0;
    for (int64_t fd = 0; fd < nfds; fd++) {
        short ev = 0;
        for (int k = 0; k < 3; k++)
            if (sets[k][fd / 64] >> (fd % 64) & 1)
                ev |= select_events[k];
        if (!ev)
            continue;
        if (!sys_file(p, (uint64_t)fd))
            return -EBADF;
        fds[n++] = (struct pollfd){(int)fd, ev, 0};
    }
    r = wait_fds(p, fds, n, deadline, use, "pselect6");
    timeout_out(p, a[4], deadline);
    if (r < 0)
        return r;
    uint64_t out[3][FD_SET_BITS / 64] = {{0}};
    int64_t count = 0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            if ((fds[i].events & select_events[k]) && (fds[i].revents & select_ready[k])) {
                out[k][fds[i].fd / 64] |= UINT64_C(1) << (fds[i].fd % 64);
                count++;
            }
    for (int k = 0; k < 3; k++)
        if (a[1 + k] && !mem_write(&p->mem, a[1 + k], out[k], words * 8))
            return -EFAULT;
    return count;
}

int64_t sys_wait_ready(rv_proc *p, rv_file *f, short events, const char *call)
{
    enum source src = source_of(f);
    if (src == SOURCE_NONE || src == SOURCE_STREAM || (fcntl(f->host_fd, F_GETFL) & O_NONBLOCK))
        return 0;
    struct pollfd pfd = {f->host_fd, events, 0};
    if (poll(&pfd, 1, 0) != 0)
        return 0;
    /* The outside world may end the wait when no signal can: the host blocks. */
    if (src == SOURCE_OUTSIDE && !sig_may_arrive(p, 0))
        return 0;
    return sig_wait(p, 0, UINT64_MAX, call) == SIG_WAIT_SIGNAL ? -RV_ERESTARTSYS : -EINTR;
}
