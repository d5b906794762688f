/* file_feedback: reads a value from a file, works as long as it says and
 * writes the next value back, many times: what it runs depends on what the
 * file held a moment before. A chunked full run whose chunks, simulated
 * while the functional pass runs, write the same file cannot reproduce it,
 * and must say so (tests/e2e/chunked_full.sh). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    int fd = open("feedback.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    unsigned v = 1;
    if (fd < 0 || pwrite(fd, &v, sizeof v, 0) != sizeof v) return 1;
    volatile unsigned sink = 0;
    for (int i = 0; i < 4000; i++) {
        if (pread(fd, &v, sizeof v, 0) != sizeof v) return 1;
        for (unsigned k = 0; k < 500 + v % 1009; k++) sink += k ^ v;
        v = v * 2654435761u + (unsigned)i;
        if (pwrite(fd, &v, sizeof v, 0) != sizeof v) return 1;
    }
    printf("%u\n", v);
    return close(fd);
}
