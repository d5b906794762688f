/* Options every tool that runs a guest program shares (--env, --allow-write,
 * --syscall-enosys), and reporting how the guest ended. */
#ifndef RV_GUEST_CLI_H
#define RV_GUEST_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "loader.h"
#include "proc.h"

enum { GUEST_OPT_ENV = 0x1000, GUEST_OPT_ALLOW_WRITE, GUEST_OPT_SYSCALL_ENOSYS, GUEST_OPT_STRACE, GUEST_OPT_NO_JIT,
       GUEST_OPT_JIT_CHECK };

#define GUEST_LONG_OPTIONS                                                 \
    {"env", required_argument, NULL, GUEST_OPT_ENV},                       \
    {"allow-write", required_argument, NULL, GUEST_OPT_ALLOW_WRITE},       \
    {"syscall-enosys", no_argument, NULL, GUEST_OPT_SYSCALL_ENOSYS},      \
    {"strace", no_argument, NULL, GUEST_OPT_STRACE},                       \
    {"no-jit", no_argument, NULL, GUEST_OPT_NO_JIT},                       \
    {"jit-check", no_argument, NULL, GUEST_OPT_JIT_CHECK}

#define GUEST_OPTIONS_HELP                                                                          \
    "Guest options:\n"                                                                              \
    "  --env NAME=VALUE      add to the guest environment (empty by default); repeatable\n"         \
    "  --allow-write DIR     let the guest create/modify files under DIR too (default: only\n"      \
    "                        the current directory); repeatable\n"                                   \
    "  --syscall-enosys      unsupported system calls fail with ENOSYS instead of stopping\n"      \
    "  --strace              log every system call, its arguments and result on stderr\n"      \
    "  --no-jit              interpret guest code instead of translating it to host code\n"   \
    "                        (same results, slower; also RVSAMPLE_JIT=off)\n"                  \
    "  --jit-check           run every translated block on the interpreter too and stop at\n"  \
    "                        the first difference in registers or memory (debugging; also\n"  \
    "                        RVSAMPLE_JIT=check)\n"

typedef struct guest_args {
    char **env;
    int nenv;
    const char **write_dirs;
    int nwrite_dirs;
    bool syscall_enosys;
    bool strace;
    int exec_mode; /* enum rv_exec_mode + 1; 0: from RVSAMPLE_JIT, else translate */
} guest_args;

/* Handle one of the shared options; false if opt is not one of them. */
bool guest_cli_option(guest_args *g, int opt, const char *arg);
/* The options of a process these arguments describe (exe, argv and env are
 * the caller's to set). */
rv_proc_options guest_cli_proc_options(const guest_args *g);
/* Create the process for argv[0..argc) (argv[0] = the program); dies with a
 * one-line reason on failure. */
void guest_cli_start(rv_proc *p, rv_elf_info *info, const guest_args *g, int argc, char **argv);
/* One line on stderr when the guest died by a signal (message and status). */
void guest_cli_report_stop(const rv_proc *p);
/* Point the guest's stdout/stderr at FILE ("none": /dev/null); they still
 * look like pipes to it, as at the start, so the instruction stream is
 * unchanged. Returns the host fd to close at the end, or -1 when target is
 * NULL (nothing redirected). */
int guest_cli_redirect_output(rv_proc *p, const char *target);
void guest_cli_free(guest_args *g);

#endif
