/* File locks, kept by the emulator itself: fcntl record locks (the
 * process's own, F_SETLK/F_SETLKW/F_GETLK, and open-file-description ones,
 * F_OFD_*) and flock. With one process, its POSIX locks never conflict with
 * each other; they do with the OFD locks of its other open file
 * descriptions, as flock locks of two descriptions do. Locks are per file
 * (device and inode), whatever mappings of the file exist. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys_internal.h"

enum { G_F_GETLK = 5, G_F_SETLK = 6, G_F_SETLKW = 7, G_F_OFD_GETLK = 36, G_F_OFD_SETLK = 37, G_F_OFD_SETLKW = 38,
       G_F_RDLCK = 0, G_F_WRLCK = 1, G_F_UNLCK = 2, G_LOCK_SH = 1, G_LOCK_EX = 2, G_LOCK_NB = 4, G_LOCK_UN = 8 };
static const uint64_t TO_EOF = UINT64_MAX;

/* struct flock on riscv64. */
struct guest_flock {
    int16_t type, whence;
    int32_t pad;
    int64_t start, len;
    int32_t pid, pad2;
};

static bool file_id(rv_file *f, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    if (fstat(f->host_fd, &st) != 0)
        return false;
    *dev = st.st_dev, *ino = st.st_ino;
    return true;
}

static bool overlaps(const rv_lock *l, uint64_t start, uint64_t end)
{
    return l->start <= end && start <= l->end;
}

/* The first lock of another owner that a lock of `type` over [start, end]
 * would conflict with, or NULL. */
static rv_lock *conflict(rv_os *os, const rv_lock *want)
{
    for (size_t i = 0; i < os->nlocks; i++) {
        rv_lock *l = &os->locks[i];
        if (l->dev == want->dev && l->ino == want->ino && l->flock == want->flock && l->owner != want->owner &&
            overlaps(l, want->start, want->end) && (l->type == G_F_WRLCK || want->type == G_F_WRLCK))
            return l;
    }
    return NULL;
}

void sys_lock_add(rv_os *os, const rv_lock *l)
{
    if (os->nlocks == os->cap_locks) {
        os->cap_locks = os->cap_locks ? 2 * os->cap_locks : 8;
        os->locks = realloc(os->locks, os->cap_locks * sizeof *os->locks);
        if (!os->locks)
            abort();
    }
    os->locks[os->nlocks++] = *l;
}

static bool same_owner(const rv_lock *a, const rv_lock *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->flock == b->flock && a->owner == b->owner;
}

/* Set (or, with G_F_UNLCK, clear) want's range for its owner: the owner's
 * locks over it are cut away, then the new one is merged with its
 * neighbours of the same type, as the kernel keeps them. */
static void apply(rv_os *os, rv_lock want)
{
    for (size_t i = 0; i < os->nlocks;) {
        rv_lock *l = &os->locks[i];
        if (!same_owner(l, &want) || !overlaps(l, want.start, want.end)) {
            i++;
            continue;
        }
        rv_lock old = *l;
        os->locks[i] = os->locks[--os->nlocks];
        if (old.start < want.start) {
            rv_lock head = old;
            head.end = want.start - 1;
            sys_lock_add(os, &head);
        }
        if (old.end > want.end) {
            rv_lock tail = old;
            tail.start = want.end + 1;
            sys_lock_add(os, &tail);
        }
    }
    if (want.type == G_F_UNLCK)
        return;
    for (size_t i = 0; i < os->nlocks;) {
        rv_lock *l = &os->locks[i];
        bool touches = (want.start > 0 && l->end == want.start - 1) || (want.end != TO_EOF && l->start == want.end + 1);
        if (same_owner(l, &want) && l->type == want.type && touches) {
            want.start = l->start < want.start ? l->start : want.start;
            want.end = l->end > want.end ? l->end : want.end;
            os->locks[i] = os->locks[--os->nlocks];
        } else {
            i++;
        }
    }
    sys_lock_add(os, &want);
}

/* The absolute range of a struct flock on f: 0 or -errno. */
static int64_t flock_range(rv_file *f, const struct guest_flock *fl, uint64_t *start, uint64_t *end)
{
    int64_t base = 0;
    struct stat st;
    switch (fl->whence) {
    case SEEK_SET: break;
    case SEEK_CUR: base = lseek(f->host_fd, 0, SEEK_CUR); break;
    case SEEK_END: base = fstat(f->host_fd, &st) == 0 ? st.st_size : -1; break;
    default: return -EINVAL;
    }
    if (base < 0)
        return -EINVAL;
    int64_t s = base + fl->start, e;
    if (fl->len > 0) {
        e = s + fl->len - 1;
    } else if (fl->len < 0) {
        e = s - 1;
        s += fl->len;
    } else {
        e = -1; /* to the end of the file, however far it grows */
    }
    if (s < 0)
        return -EINVAL;
    *start = (uint64_t)s, *end = fl->len == 0 ? TO_EOF : (uint64_t)e;
    return 0;
}

/* Wait for a conflicting lock to go: only a signal handler of the program
 * itself could release it. */
static int64_t wait_for_unlock(rv_proc *p, const char *call)
{
    return sig_wait(p, 0, UINT64_MAX, call) == SIG_WAIT_SIGNAL ? -RV_ERESTARTSYS : -EINTR;
}

int64_t sys_fcntl_lock(rv_proc *p, rv_file *f, int cmd, uint64_t addr)
{
    struct guest_flock fl;
    if (!mem_read(&p->mem, &fl, addr, sizeof fl))
        return -EFAULT;
    bool ofd = cmd >= G_F_OFD_GETLK;
    if (ofd && fl.pid != 0)
        return -EINVAL;
    if (fl.type != G_F_RDLCK && fl.type != G_F_WRLCK && fl.type != G_F_UNLCK)
        return -EINVAL;
    rv_lock want = {.owner = ofd ? f->ofd : 0, .type = (uint8_t)fl.type};
    int64_t r = flock_range(f, &fl, &want.start, &want.end);
    if (r)
        return r;
    if (!file_id(f, &want.dev, &want.ino))
        return sys_err();
    if (cmd == G_F_GETLK || cmd == G_F_OFD_GETLK) {
        if (fl.type == G_F_UNLCK)
            return -EINVAL;
        rv_lock *c = conflict(&p->os, &want);
        if (!c) {
            fl.type = G_F_UNLCK;
        } else {
            fl.type = c->type, fl.whence = SEEK_SET, fl.start = (int64_t)c->start;
            fl.len = c->end == TO_EOF ? 0 : (int64_t)(c->end - c->start + 1);
            fl.pid = c->owner ? -1 : GUEST_PID;
        }
        return mem_write(&p->mem, addr, &fl, sizeof fl) ? 0 : -EFAULT;
    }
    int acc = f->flags & O_ACCMODE;
    if ((fl.type == G_F_RDLCK && acc == O_WRONLY) || (fl.type == G_F_WRLCK && acc == O_RDONLY))
        return -EBADF;
    if (fl.type != G_F_UNLCK && conflict(&p->os, &want))
        return cmd == G_F_SETLKW || cmd == G_F_OFD_SETLKW ? wait_for_unlock(p, "fcntl(F_SETLKW)") : -EAGAIN;
    apply(&p->os, want);
    return 0;
}

SYS(flock)
{
    rv_file *f = sys_file(p, a[0]);
    if (!f)
        return -EBADF;
    int op = (int)a[1] & ~G_LOCK_NB;
    rv_lock want = {.owner = f->ofd, .flock = true, .start = 0, .end = TO_EOF};
    switch (op) {
    case G_LOCK_SH: want.type = G_F_RDLCK; break;
    case G_LOCK_EX: want.type = G_F_WRLCK; break;
    case G_LOCK_UN: want.type = G_F_UNLCK; break;
    default: return -EINVAL;
    }
    if (!file_id(f, &want.dev, &want.ino))
        return sys_err();
    if (want.type != G_F_UNLCK && conflict(&p->os, &want)) {
        rv_lock none = want;
        none.type = G_F_UNLCK; /* a conversion drops the old lock first */
        apply(&p->os, none);
        if (a[1] & G_LOCK_NB)
            return -EWOULDBLOCK;
        return wait_for_unlock(p, "flock");
    }
    apply(&p->os, want);
    return 0;
}

void sys_locks_close(rv_proc *p, int fd)
{
    rv_file *f = &p->os.files[fd];
    uint64_t dev, ino;
    if (!p->os.nlocks || !file_id(f, &dev, &ino))
        return;
    bool description_open = false; /* through another descriptor */
    for (int i = 0; i < RV_MAX_FDS; i++)
        description_open |= i != fd && p->os.files[i].host_fd >= 0 && p->os.files[i].ofd == f->ofd;
    for (size_t i = 0; i < p->os.nlocks;) {
        rv_lock *l = &p->os.locks[i];
        /* Closing any descriptor of a file drops the process's POSIX locks on it. */
        bool drop = l->dev == dev && l->ino == ino && (l->owner == 0 || (!description_open && l->owner == f->ofd));
        if (drop)
            p->os.locks[i] = p->os.locks[--p->os.nlocks];
        else
            i++;
    }
}
