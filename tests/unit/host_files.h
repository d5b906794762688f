/* Host files for the unit tests: a scratch directory a test runs in, and
 * small files written from a string and read back whole (up to 4 KiB) into
 * a static buffer. */
#ifndef TEST_HOST_FILES_H
#define TEST_HOST_FILES_H

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A new directory /tmp/NAME_XXXXXX (its path in top, 64 bytes), entered:
 * a suite's .init (tests run in processes of their own). */
static inline void scratch_enter(char *top, const char *name)
{
    cr_assert_lt(snprintf(top, 64, "/tmp/%s_XXXXXX", name), 64);
    cr_assert_not_null(mkdtemp(top));
    cr_assert_eq(chdir(top), 0);
}

/* The scratch directory top and what it holds removed: a suite's .fini. */
static inline void scratch_leave(const char *top)
{
    char cmd[PATH_MAX + 16];
    cr_assert_eq(system((snprintf(cmd, sizeof cmd, "rm -rf %s", top), cmd)), 0);
}

static inline void host_write(const char *path, const char *s)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(s, f);
    fclose(f);
}

/* What path holds, or NULL when it cannot be opened. */
static inline const char *host_read(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

#endif
