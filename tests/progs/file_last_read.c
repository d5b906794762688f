/* file_last_read: writes a value into a file and closes it, works, then
 * near its end reads the file again, works as long as it says, and writes
 * another value. The last chunk of a chunked full run is simulated once the
 * functional pass has ended: restored after the file was closed (no
 * checkpoint carries it), it reads the pass's last value and ends the program
 * after another number of instructions; there is no next chunk to check it
 * against, and sim must refuse to stitch it (tests/e2e/chunked_full.sh). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static unsigned read_value(void)
{
    unsigned v = 0;
    int fd = open("last.dat", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &v, sizeof v) != sizeof v) v = 0;
        close(fd);
    }
    return v;
}

static int write_value(unsigned v)
{
    int fd = open("last.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ok = fd >= 0 && write(fd, &v, sizeof v) == sizeof v;
    return fd >= 0 && close(fd) == 0 && ok ? 0 : 1;
}

int main(void)
{
    volatile unsigned sink = 0;
    if (write_value(1)) return 1;
    for (unsigned k = 0; k < 2100000; k++) sink += k;
    unsigned v = read_value();
    for (unsigned k = 0; k < 20000 * v; k++) sink += k;
    printf("%u\n", v);
    return write_value(v + 1);
}
