/* hostile_modes MODE: a guest that does one hostile thing, for the fuzzing
 * harness (tests/fuzz/fuzz.py, target guest_modes): whatever it does, the
 * tool running it must end cleanly, with the guest's fate or its own one-line
 * error, and leave no temporaries. Modes: misamo mislr jumpnull jumpkernel
 * jumpodd fork clone execve smc signest stackrec brk manyfds bigseek
 * mmaphuge shmprotect. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long hits;

static void raise_again(int sig)
{
    volatile char pad[256];
    pad[0] = 1;
    hits += pad[0];
    raise(sig);
}

static int stack_recursion(int depth)
{
    volatile char frame[4096];
    frame[0] = (char)depth;
    return stack_recursion(depth + 1) + frame[0];
}

static int call_at(uintptr_t address)
{
    return ((int (*)(void))address)();
}

static int self_modifying(void)
{
    uint32_t *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    long sum = 0;
    for (int i = 0; i < 20000; i++) {
        code[0] = 0x00000513u | ((uint32_t)(i % 2048) << 20); /* addi a0, zero, i % 2048 */
        code[1] = 0x00008067u;                                 /* ret */
        __asm__ volatile("fence.i" ::: "memory");
        sum += ((long (*)(void))code)();
    }
    printf("sum %ld\n", sum);
    return 0;
}

int main(int argc, char **argv)
{
    static char buf[64];
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "misamo")) {
        uint32_t old;
        __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(old) : "r"(buf + 1), "r"(1) : "memory");
        return (int)old;
    }
    if (!strcmp(mode, "mislr")) {
        uint64_t v;
        __asm__ volatile("lr.d %0, (%1)" : "=r"(v) : "r"(buf + 4) : "memory");
        return (int)v;
    }
    if (!strcmp(mode, "jumpnull"))
        return call_at(0);
    if (!strcmp(mode, "jumpkernel"))
        return call_at(0xffffffff80000000u);
    if (!strcmp(mode, "jumpodd"))
        return call_at((uintptr_t)main + 1);
    if (!strcmp(mode, "fork")) {
        pid_t child = fork();
        if (child == 0)
            _exit(7);
        int status;
        waitpid(child, &status, 0);
        return 0;
    }
    if (!strcmp(mode, "clone"))
        return (int)syscall(SYS_clone, 0x00010000 | 0x100, 0, 0, 0, 0);
    if (!strcmp(mode, "execve")) {
        char *args[] = {"/bin/sh", "-c", "echo escaped > escaped.txt", NULL};
        execve("/bin/sh", args, NULL);
        return 3;
    }
    if (!strcmp(mode, "smc"))
        return self_modifying();
    if (!strcmp(mode, "signest")) {
        struct sigaction sa = {.sa_handler = raise_again, .sa_flags = SA_NODEFER};
        sigaction(SIGUSR1, &sa, NULL);
        raise(SIGUSR1);
        return 0;
    }
    if (!strcmp(mode, "stackrec"))
        return stack_recursion(0);
    if (!strcmp(mode, "brk")) {
        long n = 0;
        while (n < 100000 && sbrk(1 << 30) != (void *)-1)
            n++;
        printf("brk GiB %ld\n", n);
        return 0;
    }
    if (!strcmp(mode, "manyfds")) {
        int n = 0;
        while (open(".", O_RDONLY) >= 0)
            n++;
        printf("fds %d\n", n);
        return 0;
    }
    if (!strcmp(mode, "bigseek")) {
        int fd = open("sparse.out", O_CREAT | O_WRONLY | O_TRUNC, 0644);
        off_t at = lseek(fd, (off_t)1 << 62, SEEK_SET);
        printf("lseek %lld write %zd\n", (long long)at, write(fd, "x", 1));
        return 0;
    }
    if (!strcmp(mode, "mmaphuge")) {
        size_t total = 0;
        for (int i = 0; i < 100000; i++) {
            char *p = mmap(NULL, (size_t)1 << 40, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p == MAP_FAILED)
                break;
            p[(size_t)i * 4096 % (1 << 30)] = 1;
            total += (size_t)1 << 40;
        }
        printf("mapped %zu GiB\n", total >> 30);
        return 0;
    }
    if (!strcmp(mode, "shmprotect")) { /* write access to a read-only shared mapping */
        int fd = open("ro.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
        ftruncate(fd, 4096);
        close(fd);
        fd = open("ro.bin", O_RDONLY);
        char *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
        int r = mprotect(p, 4096, PROT_READ | PROT_WRITE);
        printf("mprotect %d\n", r);
        if (r == 0)
            p[0] = 'W';
        return 0;
    }
    fprintf(stderr, "hostile_modes: unknown mode '%s'\n", mode);
    return 2;
}
