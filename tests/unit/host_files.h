/* Small host files for the unit tests: written from a string, read back
 * whole (up to 4 KiB) into a static buffer. */
#ifndef TEST_HOST_FILES_H
#define TEST_HOST_FILES_H

#include <criterion/criterion.h>
#include <stdio.h>

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
