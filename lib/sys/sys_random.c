/* The guest's randomness: one fixed stream (rng_state) gives AT_RANDOM,
 * getrandom and every read of /dev/random and /dev/urandom (and /dev/hwrng,
 * which root may open), and the kernel's files of random values in
 * /proc/sys/kernel/random read as fixed text or draw from it. Nothing random
 * the guest reads comes from the host, so a run retires the same
 * instructions every time and on every host, and a checkpoint, which keeps
 * rng_state, continues the stream where it was. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys_internal.h"

uint64_t rv_random_u64(rv_os *os)
{
    /* splitmix64 */
    uint64_t z = (os->rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void sys_random_fill(rv_os *os, void *dst, uint64_t len)
{
    for (uint64_t i = 0; i < len; i += 8) {
        uint64_t r = rv_random_u64(os);
        memcpy((uint8_t *)dst + i, &r, len - i < 8 ? len - i : 8);
    }
}

SYS(getrandom)
{
    uint64_t len = a[1];
    if (len && !mem_ok(&p->mem, a[0], len, GP_W))
        return -EFAULT;
    sys_random_fill(&p->os, mem_host(&p->mem, a[0]), len);
    return (int64_t)len;
}

bool sys_random_device(int host_fd, int flags)
{
    struct stat st;
    if ((flags & O_PATH) || (flags & O_ACCMODE) == O_WRONLY || fstat(host_fd, &st) != 0 || !S_ISCHR(st.st_mode))
        return false;
    unsigned maj = major(st.st_rdev), min = minor(st.st_rdev);
    return (maj == 1 && (min == 8 || min == 9)) || (maj == 10 && min == 183); /* (u)random, hwrng (root only) */
}

int64_t sys_random_read(rv_proc *p, void *dst, uint64_t len)
{
    enum { MAX_RW_COUNT = 0x7ffff000 }; /* what Linux moves in one read at most */
    if (len > MAX_RW_COUNT)
        len = MAX_RW_COUNT;
    sys_random_fill(&p->os, dst, len);
    return (int64_t)len;
}

/* A version 4 UUID from the stream, as the kernel writes one ("uuid"). */
static void random_uuid(rv_os *os, char out[37])
{
    uint8_t b[16];
    sys_random_fill(os, b, sizeof b);
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
    char *q = out;
    for (int i = 0; i < 16; i++)
        q += sprintf(q, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", b[i]);
}

/* The text the guest reads in one of those files, or false for another path. */
static bool random_file_text(rv_os *os, const char *host_path, char *text, size_t size)
{
    static const struct {
        const char *name, *text;
    } fixed[] = {
        {"boot_id", "5eed5eed-0000-4000-8000-000000000001"}, /* one boot, whatever the host's */
        {"entropy_avail", "256"},                            /* Linux 5.18 and later: always 256 */
        {"poolsize", "256"},
    };
    static const char dir[] = "/proc/sys/kernel/random/";
    if (strncmp(host_path, dir, sizeof dir - 1) != 0)
        return false;
    const char *name = host_path + sizeof dir - 1;
    if (strcmp(name, "uuid") == 0) {
        char uuid[37];
        random_uuid(os, uuid);
        snprintf(text, size, "%s\n", uuid);
        return true;
    }
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(name, fixed[i].name) == 0) {
            snprintf(text, size, "%s\n", fixed[i].text);
            return true;
        }
    return false;
}

int sys_random_file(rv_proc *p, int host_fd, const char *host_path)
{
    char text[64];
    if (!random_file_text(&p->os, host_path, text, sizeof text))
        return host_fd;
    close(host_fd);
    return sys_memory_file("rvsample-random", text, strlen(text));
}
