#include "guest_cli.h"

#include <stdlib.h>
#include <string.h>
#include <fcntl.h>

#include "util.h"

static void *grow(void *array, int n, size_t elem)
{
    void *r = realloc(array, (size_t)(n + 1) * elem);
    if (!r)
        die("out of memory");
    return r;
}

bool guest_cli_option(guest_args *g, int opt, const char *arg)
{
    switch (opt) {
    case GUEST_OPT_ENV:
        if (!strchr(arg, '=') || arg[0] == '=')
            die("--env expects NAME=VALUE, got '%s'", arg);
        g->env = grow(g->env, g->nenv, sizeof *g->env);
        g->env[g->nenv++] = (char *)arg;
        return true;
    case GUEST_OPT_ALLOW_WRITE:
        g->write_dirs = grow(g->write_dirs, g->nwrite_dirs, sizeof *g->write_dirs);
        g->write_dirs[g->nwrite_dirs++] = arg;
        return true;
    case GUEST_OPT_SYSCALL_ENOSYS:
        g->syscall_enosys = true;
        return true;
    case GUEST_OPT_STRACE:
        g->strace = true;
        return true;
    case GUEST_OPT_NO_JIT:
        g->exec_mode = RV_EXEC_INTERPRET + 1;
        return true;
    case GUEST_OPT_JIT_CHECK:
        g->exec_mode = RV_EXEC_CHECK + 1;
        return true;
    default:
        return false;
    }
}

/* The execution mode RVSAMPLE_JIT asks for (on, off, check), so that whole
 * test suites can run on either path. */
static enum rv_exec_mode exec_mode_from_env(void)
{
    const char *v = getenv("RVSAMPLE_JIT");
    if (!v || !*v || strcmp(v, "on") == 0)
        return RV_EXEC_TRANSLATE;
    if (strcmp(v, "off") == 0)
        return RV_EXEC_INTERPRET;
    if (strcmp(v, "check") == 0)
        return RV_EXEC_CHECK;
    die("RVSAMPLE_JIT must be on, off or check, not '%s'", v);
}

rv_proc_options guest_cli_proc_options(const guest_args *g)
{
    return (rv_proc_options){.write_dirs = g->write_dirs, .nwrite_dirs = g->nwrite_dirs,
                             .syscall_enosys = g->syscall_enosys, .strace = g->strace,
                             .exec_mode = g->exec_mode ? (enum rv_exec_mode)(g->exec_mode - 1)
                                                       : exec_mode_from_env()};
}

void guest_cli_start(rv_proc *p, rv_elf_info *info, const guest_args *g, int argc, char **argv)
{
    rv_proc_options o = guest_cli_proc_options(g);
    o.exe = argv[0], o.argc = argc, o.argv = argv, o.envc = g->nenv, o.envp = g->env;
    char err[512];
    if (rv_proc_init(p, &o, info, err, sizeof err) != 0) {
        rv_proc_destroy(p);
        die("%s", err);
    }
}

void guest_cli_report_stop(const rv_proc *p)
{
    if (p->stop == RV_STOP_SIGNAL)
        fprintf(stderr, "%s: guest %s (exit status %d)\n", util_progname, p->message, p->exit_status);
}

void guest_cli_free(guest_args *g)
{
    free(g->env);
    free(g->write_dirs);
    memset(g, 0, sizeof *g);
}

int guest_cli_redirect_output(rv_proc *p, const char *target)
{
    if (!target)
        return -1;
    const char *path = strcmp(target, "none") == 0 ? "/dev/null" : target;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        die("--guest-output %s: cannot open", target);
    for (int gfd = 1; gfd <= 2; gfd++)
        if (p->os.files[gfd].host_fd >= 0 && p->os.files[gfd].is_std)
            p->os.files[gfd].host_fd = fd;
    return fd;
}
