/* mmap_file: map a file MAP_PRIVATE and MAP_SHARED; writes through the
 * shared mapping reach the file (read back with read(2) after msync and
 * munmap), private writes do not; anonymous mappings; munmap. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *yes(int c)
{
    return c ? "yes" : "no";
}

int main(void)
{
    const size_t len = 3 * 4096 + 100;
    int fd = open("t_mmap.bin", O_CREAT | O_TRUNC | O_RDWR, 0644);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    char *data = malloc(len);
    for (size_t i = 0; i < len; i++)
        data[i] = (char)('a' + i % 26);
    if (write(fd, data, len) != (ssize_t)len) {
        perror("write");
        return 1;
    }

    /* private mapping: sees file contents, writes stay private */
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    printf("mmap private: %s\n", yes(p != MAP_FAILED));
    printf("private mapping matches file: %s\n", yes(memcmp(p, data, len) == 0));
    printf("bytes past EOF in last page are zero: %s\n", yes(p[len] == 0 && p[4 * 4096 - 1] == 0));
    p[0] = 'X';
    p[5000] = 'Y';
    printf("munmap private: %s\n", yes(munmap(p, len) == 0));
    char buf[16];
    pread(fd, buf, 1, 0);
    printf("private write not in file: %s\n", yes(buf[0] == 'a'));

    /* shared mapping: writes reach the file */
    char *s = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    printf("mmap shared: %s\n", yes(s != MAP_FAILED));
    memcpy(s + 10, "SHARED", 6);
    memcpy(s + 8192, "PAGE3", 5);
    printf("msync: %s\n", yes(msync(s, len, MS_SYNC) == 0));
    printf("munmap shared: %s\n", yes(munmap(s, len) == 0));
    char *back = malloc(len);
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, back, len);
    printf("read back %zd bytes\n", got);
    printf("shared write at 10 in file: %s\n", yes(memcmp(back + 10, "SHARED", 6) == 0));
    printf("shared write at 8192 in file: %s\n", yes(memcmp(back + 8192, "PAGE3", 5) == 0));
    printf("rest unchanged: %s\n",
           yes(memcmp(back, data, 10) == 0 && memcmp(back + 16, data + 16, 8192 - 16) == 0 &&
               memcmp(back + 8197, data + 8197, len - 8197) == 0));

    /* mapping at an offset, read-only */
    char *o = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 8192);
    printf("mmap offset 8192: %s, starts with PAGE3: %s\n", yes(o != MAP_FAILED),
           yes(o != MAP_FAILED && memcmp(o, "PAGE3", 5) == 0));
    munmap(o, 4096);

    /* file changes written with write(2) are visible in a shared mapping */
    s = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    pwrite(fd, "W", 1, 20);
    printf("pwrite visible through shared mapping: %s\n", yes(s[20] == 'W'));
    munmap(s, 4096);
    close(fd);

    /* anonymous mappings are zeroed; partial munmap */
    size_t alen = 64 * 4096;
    unsigned char *a = mmap(NULL, alen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int zero = 1;
    for (size_t i = 0; i < alen; i += 512)
        if (a[i])
            zero = 0;
    printf("anonymous mapping zeroed: %s\n", yes(zero));
    memset(a, 1, alen);
    printf("munmap middle pages: %s\n", yes(munmap(a + 16 * 4096, 16 * 4096) == 0));
    printf("pages around the hole still usable: %s\n", yes(a[0] == 1 && a[alen - 1] == 1));
    munmap(a, alen);
    printf("unlink: %s\n", yes(unlink("t_mmap.bin") == 0));
    return 0;
}
