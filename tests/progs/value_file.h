/* A value kept in a file of its own, read by opening the file anew and
 * written by creating it again, closed in between: the file_* programs'
 * feedback between a chunked run's functional pass and its chunks. */
#ifndef TEST_PROGS_VALUE_FILE_H
#define TEST_PROGS_VALUE_FILE_H

#include <fcntl.h>
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

/* 0, or 1 when v could not be written whole. */
static int write_value(const char *path, unsigned v)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ok = fd >= 0 && write(fd, &v, sizeof v) == sizeof v;
    return fd >= 0 && close(fd) == 0 && ok ? 0 : 1;
}

#endif
