/* A guest process for a unit test: PROGRAM with at most one argument, run
 * in an execution mode, its standard output thrown away. */
#ifndef TEST_QUIET_GUEST_H
#define TEST_QUIET_GUEST_H

#include <criterion/criterion.h>
#include <fcntl.h>

#include "loader.h"

static inline void start_quiet_guest(rv_proc *p, const char *program, const char *arg, enum rv_exec_mode mode)
{
    char *argv[] = {(char *)program, (char *)arg};
    rv_proc_options o = {.exe = program, .argc = arg ? 2 : 1, .argv = argv, .exec_mode = mode};
    rv_elf_info info;
    char err[256];
    cr_assert_eq(rv_proc_init(p, &o, &info, err, sizeof err), 0, "%s", err);
    p->os.files[1].host_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    p->os.files[1].is_std = false;
}

#endif
