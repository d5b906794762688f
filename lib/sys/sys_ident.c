/* Process attributes: process group and session, user and group ids,
 * resource limits, scheduling, prctl, and the calls about children (there
 * are none). An unprivileged process of uid/gid 1000 in its parent's
 * session, as a program started from a shell is. */
#include <sched.h>
#include <string.h>

#include "sys_internal.h"

enum { MAX_NICE = 19, MIN_NICE = -20, G_SCHED_OTHER = 0, G_SCHED_FIFO = 1, G_SCHED_RR = 2, G_SCHED_BATCH = 3,
       G_SCHED_IDLE = 5, G_SCHED_RESET_ON_FORK = 0x40000000, RLIMIT_NOFILE_ = 7 };

static bool is_self(uint64_t pid)
{
    return (int32_t)pid == 0 || (int32_t)pid == GUEST_PID;
}

/* ------------------------------------------------ groups and sessions */

SYS(getpgid)
{
    return is_self(a[0]) ? p->os.task.pgid : -ESRCH;
}

SYS(getsid)
{
    return is_self(a[0]) ? p->os.task.sid : -ESRCH;
}

SYS(setpgid)
{
    int32_t pgid = (int32_t)a[1];
    if (pgid < 0)
        return -EINVAL;
    if (!is_self(a[0]))
        return -ESRCH;
    if (p->os.task.sid == GUEST_PID)
        return -EPERM; /* a session leader stays in its group */
    if (pgid == 0)
        pgid = GUEST_PID;
    if (pgid != GUEST_PID && pgid != p->os.task.pgid)
        return -EPERM; /* no other group exists in its session */
    p->os.task.pgid = pgid;
    return 0;
}

SYS(setsid)
{
    (void)a;
    if (p->os.task.pgid == GUEST_PID)
        return -EPERM; /* a group leader cannot start a session */
    p->os.task.pgid = p->os.task.sid = GUEST_PID;
    return GUEST_PID;
}

/* ------------------------------------------------------- user and group */

SYS(getgroups)
{
    if ((int32_t)a[0] < 0)
        return -EINVAL;
    uint32_t group = GUEST_UID;
    if (a[0] == 0)
        return 1;
    return mem_write(&p->mem, a[1], &group, sizeof group) ? 1 : -EFAULT;
}

SYS(setgroups)
{
    (void)p, (void)a;
    return -EPERM;
}

/* getresuid/getresgid: real, effective and saved ids are all 1000. */
static int64_t three_ids(rv_proc *p, const uint64_t *a)
{
    uint32_t id = GUEST_UID;
    for (int i = 0; i < 3; i++)
        if (!mem_write(&p->mem, a[i], &id, sizeof id))
            return -EFAULT;
    return 0;
}

SYS(getresuid) { return three_ids(p, a); }
SYS(getresgid) { return three_ids(p, a); }

/* The set*id calls: an unprivileged process may "change" to the ids it has
 * (-1 leaves one alone). */
static int64_t same_ids(const uint64_t *a, int n)
{
    for (int i = 0; i < n; i++)
        if ((int32_t)a[i] != -1 && (uint32_t)a[i] != GUEST_UID)
            return -EPERM;
    return 0;
}

SYS(setuid) { (void)p; return (int32_t)a[0] == -1 ? -EINVAL : same_ids(a, 1); }
SYS(setgid) { (void)p; return (int32_t)a[0] == -1 ? -EINVAL : same_ids(a, 1); }
SYS(setreuid) { (void)p; return same_ids(a, 2); }
SYS(setregid) { (void)p; return same_ids(a, 2); }
SYS(setresuid) { (void)p; return same_ids(a, 3); }
SYS(setresgid) { (void)p; return same_ids(a, 3); }
/* setfsuid/setfsgid answer the previous id whatever they do. */
SYS(setfsuid) { (void)p, (void)a; return GUEST_UID; }
SYS(setfsgid) { (void)p, (void)a; return GUEST_UID; }

SYS(capget)
{
    enum { V1 = 0x19980330, V2 = 0x20071026, V3 = 0x20080522 };
    uint32_t header[2];
    if (!mem_read(&p->mem, header, a[0], sizeof header))
        return -EFAULT;
    if (header[0] != V1 && header[0] != V2 && header[0] != V3) {
        /* An unknown version: the header learns ours (a query with no data is not an error). */
        uint32_t v3 = V3;
        if (!mem_write(&p->mem, a[0], &v3, sizeof v3))
            return -EFAULT;
        return a[1] ? -EINVAL : 0;
    }
    if (!a[1])
        return 0;
    if ((int32_t)header[1] < 0)
        return -EINVAL;
    if (header[1] && !is_self(header[1]))
        return -ESRCH;
    uint32_t none[6] = {0}; /* effective, permitted, inheritable: no capability */
    return mem_write(&p->mem, a[1], none, header[0] == V1 ? 12 : 24) ? 0 : -EFAULT;
}

SYS(capset)
{
    (void)p, (void)a;
    return -EPERM;
}

/* ----------------------------------------------------------- limits */

SYS(prlimit64)
{
    rv_task *t = &p->os.task;
    if (!is_self(a[0]))
        return -ESRCH;
    if (a[1] >= RV_NLIMITS)
        return -EINVAL;
    uint64_t old[2] = {t->rlimit[a[1]][0], t->rlimit[a[1]][1]}, lim[2];
    if (a[2]) {
        if (!mem_read(&p->mem, lim, a[2], sizeof lim))
            return -EFAULT;
        if (lim[0] > lim[1])
            return -EINVAL;
        if (lim[1] > old[1])
            return -EPERM; /* only a privileged process raises a hard limit */
        if (a[1] == RLIMIT_NOFILE_ && lim[1] > RV_MAX_FDS)
            return -EPERM;
        t->rlimit[a[1]][0] = lim[0], t->rlimit[a[1]][1] = lim[1];
    }
    return a[3] && !mem_write(&p->mem, a[3], old, sizeof old) ? -EFAULT : 0;
}

SYS(getrlimit)
{
    uint64_t args[4] = {0, a[0], 0, a[1]};
    return sys_prlimit64(p, args);
}

SYS(setrlimit)
{
    uint64_t args[4] = {0, a[0], a[1], 0};
    return sys_prlimit64(p, args);
}

/* ------------------------------------------------------- scheduling */

enum { G_PRIO_PROCESS = 0, G_PRIO_PGRP = 1, G_PRIO_USER = 2 };

/* The process getpriority/setpriority name: only ourselves. */
static bool names_self(rv_proc *p, uint64_t which, uint64_t who)
{
    switch (which) {
    case G_PRIO_PROCESS: return is_self(who);
    case G_PRIO_PGRP: return (int32_t)who == 0 || (int32_t)who == p->os.task.pgid;
    default: return (int32_t)who == 0 || (uint32_t)who == GUEST_UID;
    }
}

SYS(getpriority)
{
    if (a[0] > G_PRIO_USER)
        return -EINVAL;
    return names_self(p, a[0], a[1]) ? 20 - p->os.task.nice : -ESRCH; /* the kernel's 40..1 form */
}

SYS(setpriority)
{
    if (a[0] > G_PRIO_USER)
        return -EINVAL;
    if (!names_self(p, a[0], a[1]))
        return -ESRCH;
    int32_t nice = (int32_t)a[2];
    nice = nice < MIN_NICE ? MIN_NICE : nice > MAX_NICE ? MAX_NICE : nice;
    if (nice < p->os.task.nice)
        return -EACCES; /* lowering it needs privilege */
    p->os.task.nice = nice;
    return 0;
}

SYS(sched_getscheduler)
{
    (void)p;
    return is_self(a[0]) ? G_SCHED_OTHER : (int32_t)a[0] < 0 ? -EINVAL : -ESRCH;
}

SYS(sched_getparam)
{
    if ((int32_t)a[0] < 0 || !a[1])
        return -EINVAL;
    if (!is_self(a[0]))
        return -ESRCH;
    int32_t priority = 0;
    return mem_write(&p->mem, a[1], &priority, sizeof priority) ? 0 : -EFAULT;
}

/* Only the normal policies with priority 0; real-time ones need privilege. */
static int64_t set_policy(rv_proc *p, uint64_t pid, int64_t policy, uint64_t param)
{
    int32_t priority;
    if ((int32_t)pid < 0 || !param)
        return -EINVAL;
    if (!mem_read(&p->mem, &priority, param, sizeof priority))
        return -EFAULT;
    if (!is_self(pid))
        return -ESRCH;
    policy &= ~(int64_t)G_SCHED_RESET_ON_FORK;
    bool normal = policy == G_SCHED_OTHER || policy == G_SCHED_BATCH || policy == G_SCHED_IDLE;
    if (policy < 0 || (!normal && policy != G_SCHED_FIFO && policy != G_SCHED_RR))
        return -EINVAL;
    if (normal ? priority != 0 : priority < 1 || priority > 99)
        return -EINVAL;
    return normal ? 0 : -EPERM;
}

SYS(sched_setscheduler) { return set_policy(p, a[0], (int32_t)a[1], a[2]); }
SYS(sched_setparam) { return set_policy(p, a[0], G_SCHED_OTHER, a[1]); }

SYS(sched_get_priority_max)
{
    (void)p;
    switch ((int32_t)a[0]) {
    case G_SCHED_FIFO: case G_SCHED_RR: return 99;
    case G_SCHED_OTHER: case G_SCHED_BATCH: case G_SCHED_IDLE: return 0;
    default: return -EINVAL;
    }
}

SYS(sched_get_priority_min)
{
    int64_t r = sys_sched_get_priority_max(p, a);
    return r > 0 ? 1 : r;
}

SYS(sched_rr_get_interval)
{
    if (!is_self(a[0]))
        return (int32_t)a[0] < 0 ? -EINVAL : -ESRCH;
    return sys_timespec_out(p, a[1], 0); /* SCHED_OTHER: no time slice to report */
}

SYS(sched_setaffinity)
{
    uint64_t mask = 0;
    if (!is_self(a[0]))
        return -ESRCH;
    if (a[1] && !mem_read(&p->mem, &mask, a[2], a[1] < 8 ? a[1] : 8))
        return -EFAULT;
    return mask & 1 ? 0 : -EINVAL; /* the one CPU must be in it */
}

SYS(getcpu)
{
    uint32_t zero = 0;
    if (a[0] && !mem_write(&p->mem, a[0], &zero, sizeof zero))
        return -EFAULT;
    return a[1] && !mem_write(&p->mem, a[1], &zero, sizeof zero) ? -EFAULT : 0;
}

/* ------------------------------------------------------------ prctl */

enum {
    PR_SET_PDEATHSIG_ = 1, PR_GET_PDEATHSIG_ = 2, PR_GET_DUMPABLE_ = 3, PR_SET_DUMPABLE_ = 4,
    PR_GET_KEEPCAPS_ = 7, PR_SET_KEEPCAPS_ = 8, PR_SET_NAME_ = 15, PR_GET_NAME_ = 16, PR_GET_SECCOMP_ = 21,
    PR_CAPBSET_READ_ = 23, PR_GET_TIMERSLACK_ = 30, PR_SET_TIMERSLACK_ = 29, PR_SET_CHILD_SUBREAPER_ = 36,
    PR_GET_CHILD_SUBREAPER_ = 37, PR_SET_NO_NEW_PRIVS_ = 38, PR_GET_NO_NEW_PRIVS_ = 39, PR_GET_TID_ADDRESS_ = 40,
    PR_SET_THP_DISABLE_ = 41, PR_GET_THP_DISABLE_ = 42, PR_CAP_LAST = 40,
};

static int64_t put_int(rv_proc *p, uint64_t addr, int32_t v)
{
    return mem_write(&p->mem, addr, &v, sizeof v) ? 0 : -EFAULT;
}

SYS(prctl)
{
    rv_task *t = &p->os.task;
    switch (a[0]) {
    case PR_SET_PDEATHSIG_:
        if (a[1] > RV_NSIG)
            return -EINVAL;
        t->pdeathsig = (int32_t)a[1];
        return 0;
    case PR_GET_PDEATHSIG_: return put_int(p, a[1], t->pdeathsig);
    case PR_GET_DUMPABLE_: return t->dumpable;
    case PR_SET_DUMPABLE_:
        if (a[1] > 1)
            return -EINVAL;
        t->dumpable = a[1] == 1;
        return 0;
    case PR_GET_KEEPCAPS_: return 0;
    case PR_SET_KEEPCAPS_: return a[1] > 1 ? -EINVAL : 0;
    case PR_SET_NAME_: {
        char name[16] = {0}; /* up to 15 bytes, or to the NUL */
        for (size_t i = 0; i < sizeof name - 1 && (i == 0 || name[i - 1]); i++)
            if (!mem_read(&p->mem, &name[i], a[1] + i, 1))
                return -EFAULT;
        memcpy(t->name, name, sizeof name);
        return 0;
    }
    case PR_GET_NAME_: return mem_write(&p->mem, a[1], t->name, sizeof t->name) ? 0 : -EFAULT;
    case PR_GET_SECCOMP_: return 0;
    case PR_CAPBSET_READ_: return a[1] <= PR_CAP_LAST ? 1 : -EINVAL;
    case PR_GET_TIMERSLACK_: return (int64_t)t->timerslack_ns;
    case PR_SET_TIMERSLACK_:
        t->timerslack_ns = a[1] ? a[1] : 50000;
        return 0;
    case PR_SET_CHILD_SUBREAPER_:
        t->child_subreaper = a[1] != 0;
        return 0;
    case PR_GET_CHILD_SUBREAPER_: return put_int(p, a[1], t->child_subreaper);
    case PR_SET_NO_NEW_PRIVS_:
        if (a[1] != 1 || a[2] || a[3] || a[4])
            return -EINVAL;
        t->no_new_privs = true;
        return 0;
    case PR_GET_NO_NEW_PRIVS_: return a[1] || a[2] || a[3] || a[4] ? -EINVAL : t->no_new_privs;
    case PR_GET_TID_ADDRESS_: return mem_write(&p->mem, a[1], &p->os.tid_address, 8) ? 0 : -EFAULT;
    case PR_SET_THP_DISABLE_: case PR_GET_THP_DISABLE_: return 0;
    default: return -EINVAL;
    }
}

SYS(personality)
{
    (void)p;
    return (uint32_t)a[0] == 0xffffffff || a[0] == 0 ? 0 : -EINVAL; /* PER_LINUX, and only it */
}

/* ------------------------------------------------------------ children */

SYS(wait4)
{
    (void)p, (void)a;
    return -ECHILD; /* a process of its own never has children here */
}

SYS(waitid)
{
    (void)p, (void)a;
    return -ECHILD;
}
