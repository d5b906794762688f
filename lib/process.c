#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "code.h"
#include "sys/path_history.h"
#include "loader.h"
#include "proc.h"
#include "util.h"

/* Seed of the guest-visible random stream (AT_RANDOM, getrandom). */
#define RV_RANDOM_SEED UINT64_C(0x5eed5eed5eed5eed)

static int add_write_root(rv_proc *p, const char *dir, char *err, size_t errlen)
{
    char *real = realpath(dir, NULL);
    if (!real) {
        snprintf(err, errlen, "--allow-write %s: %s", dir, strerror(errno));
        return -1;
    }
    char **roots = realloc(p->os.write_roots, (size_t)(p->os.nwrite_roots + 1) * sizeof *roots);
    if (!roots)
        abort();
    roots[p->os.nwrite_roots++] = real;
    p->os.write_roots = roots;
    return 0;
}

/* Join strings with NUL terminators, as /proc/<pid>/cmdline shows argv. */
static char *join_nul(int n, char *const *v, size_t *len)
{
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += strlen(v[i]) + 1;
    char *r = malloc(total + 1), *q = r;
    if (!r)
        abort();
    for (int i = 0; i < n; i++) {
        size_t k = strlen(v[i]) + 1;
        memcpy(q, v[i], k);
        q += k;
    }
    *len = total;
    return r;
}

/* The attributes a process started from a shell has; name: its program's. */
static void task_init(rv_task *t, const char *name)
{
    static const uint64_t inf = UINT64_MAX, limits[RV_NLIMITS][2] = {
        {inf, inf}, {inf, inf}, {inf, inf}, {RV_STACK_SIZE_LIMIT, inf}, /* CPU FSIZE DATA STACK */
        {0, inf}, {inf, inf}, {63704, 63704}, {RV_MAX_FDS, RV_MAX_FDS}, /* CORE RSS NPROC NOFILE */
        {UINT64_C(8) << 20, UINT64_C(8) << 20}, {inf, inf}, {inf, inf},  /* MEMLOCK AS LOCKS */
        {63704, 63704}, {819200, 819200}, {0, 0}, {0, 0}, {inf, inf},   /* SIGPENDING MSGQUEUE NICE RTPRIO RTTIME */
    };
    memset(t, 0, sizeof *t);
    t->pgid = t->sid = GUEST_PPID;
    memcpy(t->rlimit, limits, sizeof limits);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->dumpable = true;
    t->timerslack_ns = 50000;
}

/* The guest's argv: the caller's with argv[0] reduced to its last
 * component (malloc'd array of the caller's strings). */
static char **guest_argv(const rv_proc_options *o)
{
    char **v = malloc(((size_t)o->argc + 1) * sizeof *v);
    if (!v)
        die("out of memory");
    for (int i = 0; i < o->argc; i++)
        v[i] = o->argv[i];
    v[o->argc] = NULL;
    const char *slash = o->argc > 0 ? strrchr(o->argv[0], '/') : NULL;
    if (slash && slash[1])
        v[0] = (char *)slash + 1;
    return v;
}

static int init_os(rv_proc *p, const rv_proc_options *o, char *err, size_t errlen)
{
    rv_os *os = &p->os;
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) >= 0)
            os->files[fd] = (rv_file){.host_fd = fd, .flags = fd == 0 ? O_RDONLY : O_WRONLY, .is_std = true,
                                      .ofd = ++os->last_ofd};
    os->cwd_fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    os->cwd_root = getcwd(NULL, 0);
    os->cwd = strdup(RV_GUEST_CWD);
    if (os->cwd_fd < 0 || !os->cwd_root || !os->cwd) {
        snprintf(err, errlen, "cannot open the current directory: %s", strerror(errno));
        return -1;
    }
    if (add_write_root(p, ".", err, errlen))
        return -1;
    for (int i = 0; i < o->nwrite_dirs; i++)
        if (add_write_root(p, o->write_dirs[i], err, errlen))
            return -1;
    os->exe_path = realpath(o->exe, NULL);
    if (!os->exe_path) {
        snprintf(err, errlen, "%s: %s", o->exe, strerror(errno));
        return -1;
    }
    const char *name = strrchr(os->exe_path, '/') + 1;
    os->guest_exe = malloc(sizeof RV_GUEST_BIN + 1 + strlen(name));
    if (!os->guest_exe) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    sprintf(os->guest_exe, "%s/%s", RV_GUEST_BIN, name);
    char **argv = guest_argv(o);
    os->cmdline = join_nul(o->argc, argv, &os->cmdline_len);
    free(argv);
    os->environ = join_nul(o->envc, o->envp, &os->environ_len);
    os->rng_state = RV_RANDOM_SEED;
    os->umask = 022;
    task_init(&os->task, name);
    os->syscall_enosys = o->syscall_enosys;
    os->strace = o->strace;
    p->exec_mode = o->exec_mode;
    os->mmap_top = RV_MMAP_TOP;
    return 0;
}

void rv_proc_clear(rv_proc *p)
{
    memset(p, 0, sizeof *p);
    sig_init(&p->os.sig);
    p->os.cwd_fd = -1;
    for (int fd = 0; fd < RV_MAX_FDS; fd++)
        p->os.files[fd].host_fd = -1;
}

int rv_proc_prepare(rv_proc *p, const rv_proc_options *o, char *err, size_t errlen)
{
    rv_proc_clear(p);
    if (!mem_init(&p->mem)) {
        snprintf(err, errlen, "cannot reserve the guest address space: %s", strerror(errno));
        return -1;
    }
    p->code = code_new();
    return init_os(p, o, err, errlen);
}

int rv_proc_init(rv_proc *p, const rv_proc_options *o, rv_elf_info *info, char *err, size_t errlen)
{
    if (o->argc < 1) {
        rv_proc_clear(p);
        snprintf(err, errlen, "no program arguments (argv[0] is required)");
        return -1;
    }
    if (rv_proc_prepare(p, o, err, errlen) || elf_load(p, p->os.exe_path, info, err, errlen))
        return -1;
    p->os.brk_start = p->os.brk = info->end;
    char **argv = guest_argv(o);
    int rc = stack_setup(p, info, o->argc, argv, o->envc, o->envp, p->os.guest_exe, err, errlen);
    free(argv);
    return rc;
}

static void paths_free(rv_paths *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

void rv_proc_destroy(rv_proc *p)
{
    for (int fd = 0; fd < RV_MAX_FDS; fd++) {
        rv_file *f = &p->os.files[fd];
        if (f->host_fd >= 0 && (!f->is_std || f->owned))
            close(f->host_fd);
        free(f->path);
    }
    if (p->os.cwd_fd >= 0)
        close(p->os.cwd_fd);
    free(p->os.cwd);
    free(p->os.cwd_root);
    for (int i = 0; i < p->os.nwrite_roots; i++)
        free(p->os.write_roots[i]);
    free(p->os.write_roots);
    free(p->os.exe_path);
    free(p->os.guest_exe);
    free(p->os.locks);
    free(p->os.cmdline);
    free(p->os.environ);
    path_recorder_close(p->os.history);
    path_view_close(p->os.apart.history);
    paths_free(&p->os.apart.gone);
    paths_free(&p->os.apart.made);
    code_free(p->code);
    if (p->mem.base)
        mem_destroy(&p->mem);
    rv_proc_clear(p);
}
