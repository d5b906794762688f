/* urandom_stream: randomness read from /dev/urandom and /dev/random (read,
 * pread, readv, a dup) steers how much work each round does, as a hash seed
 * would; /proc/sys/kernel/random/uuid and boot_id are read too. With no
 * argument it prints only what holds on any system (qemu compares it);
 * with "values" it prints the values and the work they made, which the
 * emulator's fixed stream keeps the same from run to run and stage to stage
 * (tests/e2e/guest_determinism.sh). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <unistd.h>

enum { ROUNDS = 24 };

/* Work in proportion to v: the instruction count follows the value. */
static unsigned long work(unsigned v)
{
    volatile unsigned long x = v;
    for (unsigned i = 0; i < (v & 0x3ff) * 8; i++)
        x = x * 6364136223846793005UL + i;
    return x;
}

/* 16 bits from fd, by one of the ways a program reads a device. */
static unsigned draw(int fd, int how)
{
    unsigned char b[2] = {0, 0};
    struct iovec iov[2] = {{b, 1}, {b + 1, 1}};
    ssize_t n = how == 0 ? read(fd, b, 2) : how == 1 ? pread(fd, b, 2, 0) : readv(fd, iov, 2);
    return n == 2 ? (unsigned)b[0] | (unsigned)b[1] << 8 : 0x10000;
}

/* A kernel file holding a UUID: is it one (36 characters, dashes in place)? */
static int read_uuid(const char *path, char out[37])
{
    memset(out, 0, 37);
    int fd = open(path, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, out, 36) : -1;
    if (fd >= 0)
        close(fd);
    return n == 36 && out[8] == '-' && out[13] == '-' && out[18] == '-' && out[23] == '-';
}

int main(int argc, char **argv)
{
    int values = argc > 1 && strcmp(argv[1], "values") == 0;
    int u = open("/dev/urandom", O_RDONLY), r = open("/dev/random", O_RDONLY);
    int copy = dup(u);
    if (u < 0 || r < 0 || copy < 0) {
        printf("cannot open the random devices\n");
        return 1;
    }
    unsigned long sum = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int fd = round % 3 == 0 ? u : round % 3 == 1 ? r : copy;
        unsigned v = draw(fd, round % 3);
        unsigned g = 0;
        if (round % 4 == 0 && getrandom(&g, sizeof g, 0) != sizeof g)
            g = ~0u;
        if (v > 0xffff) {
            printf("round %d: short read\n", round);
            return 1;
        }
        sum += work(v ^ (g & 0xffff));
        if (values)
            printf("round %d: %04x %08x sum %lu\n", round, v, g, sum);
        else
            printf("round %d: read 2 bytes\n", round);
        fflush(stdout);
    }
    char uuid[37], boot[37];
    int uuid_ok = read_uuid("/proc/sys/kernel/random/uuid", uuid);
    int boot_ok = read_uuid("/proc/sys/kernel/random/boot_id", boot);
    printf("uuid is a UUID: %s, boot_id is a UUID: %s\n", uuid_ok ? "yes" : "no", boot_ok ? "yes" : "no");
    if (values)
        printf("uuid %s boot_id %s\n", uuid, boot);
    sum += work((unsigned)uuid[0] << 4);
    return sum == 0; /* the sum is never 0: exit status 0 */
}
