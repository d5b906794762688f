/* file_reread: opens a file anew to read a value each time round, works as
 * long as it says, and rewrites the file with a new value every 64 rounds,
 * closing it in between. A chunk of a chunked full run restored from a
 * checkpoint taken while the file is closed reads it before writing it:
 * no checkpoint carries a closed file, so the chunk reads what the
 * functional pass wrote since, and sim must refuse to stitch it
 * (tests/e2e/chunked_full.sh). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* The value the file holds (1 when it cannot be read). */
static unsigned read_value(void)
{
    unsigned v = 1;
    int fd = open("reread.dat", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &v, sizeof v) != sizeof v) v = 1;
        close(fd);
    }
    return v;
}

static int write_value(unsigned v)
{
    int fd = open("reread.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ok = fd >= 0 && write(fd, &v, sizeof v) == sizeof v;
    return fd >= 0 && close(fd) == 0 && ok ? 0 : 1;
}

int main(void)
{
    if (write_value(1)) return 1;
    volatile unsigned sink = 0;
    unsigned next = 1;
    for (int i = 0; i < 2000; i++) {
        unsigned v = read_value();
        for (unsigned k = 0; k < 500 + v % 1009; k++) sink += k ^ v;
        next = next * 2654435761u + v + (unsigned)i;
        if (i % 64 == 63 && write_value(next)) return 1;
    }
    printf("%u\n", next);
    return 0;
}
