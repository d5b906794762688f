/* A value kept in a file of its own, read by opening the file anew and
 * written over in place or replaced by a new file, closed in between: the
 * file_* programs' feedback between a chunked run's functional pass and its
 * chunks. The functional pass's file history keeps a file it replaces (or
 * truncates) for the chunks restored before, not what it writes in place. */
#ifndef TEST_PROGS_VALUE_FILE_H
#define TEST_PROGS_VALUE_FILE_H

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* The value the file at path holds (otherwise when it cannot be read). */
static unsigned read_value(const char *path, unsigned otherwise)
{
    unsigned v = otherwise;
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &v, sizeof v) != sizeof v) v = otherwise;
        close(fd);
    }
    return v;
}

/* v written over the file's first bytes, in place. 0, or 1 when it could not be written whole. */
static int write_value(const char *path, unsigned v)
{
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    int ok = fd >= 0 && write(fd, &v, sizeof v) == sizeof v;
    return fd >= 0 && close(fd) == 0 && ok ? 0 : 1;
}

/* v written into a new file renamed over the old one, as careful programs
 * save. 0, or 1 when it could not be. */
static int replace_value(const char *path, const char *temporary, unsigned v)
{
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ok = fd >= 0 && write(fd, &v, sizeof v) == sizeof v;
    return fd >= 0 && close(fd) == 0 && ok && rename(temporary, path) == 0 ? 0 : 1;
}

/* Round i of file_reread's and file_replace's work on the value v read:
 * as long as v says; the value to write next. */
static unsigned work_round(unsigned v, int i, unsigned next)
{
    volatile unsigned sink = 0;
    for (unsigned k = 0; k < 500 + v % 1009; k++) sink += k ^ v;
    return next * 2654435761u + v + (unsigned)i;
}

#endif
