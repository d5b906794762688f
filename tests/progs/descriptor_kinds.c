/* descriptor_kinds FIFO: hold a descriptor of every kind a checkpoint keeps
 * (a pipe with bytes in it, the named FIFO FIFO, which must exist, with bytes
 * in it, a memfd, a directory, a record lock, a writable MAP_SHARED mapping
 * of shared.bin), spin long enough for a checkpoint (at 3M instructions),
 * then use them all and print what was read. The seed of the crafted
 * checkpoints of tests/e2e/hostile_input.sh and tests/fuzz. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: descriptor_kinds FIFO\n");
        return 2;
    }
    int shared = open("shared.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (shared < 0 || ftruncate(shared, 8192) != 0) {
        perror("shared.bin");
        return 1;
    }
    char *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, shared, 0);
    int pipe_fds[2];
    if (map == MAP_FAILED || pipe(pipe_fds) != 0) {
        perror("mmap or pipe");
        return 1;
    }
    write(pipe_fds[1], "pipedata", 8);
    int fifo_in = open(argv[1], O_RDONLY | O_NONBLOCK), fifo_out = open(argv[1], O_WRONLY);
    write(fifo_out, "fifodata", 8);
    int memfd = memfd_create("kinds", 0);
    write(memfd, "memfddata", 9);
    int dir = open(".", O_RDONLY | O_DIRECTORY);
    int locked = open("lock.bin", O_CREAT | O_RDWR, 0644);
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 10};
    fcntl(locked, F_SETLK, &lock);
    volatile unsigned long spin = 0;
    for (long i = 0; i < 1000000; i++)
        spin += (unsigned long)i;
    memcpy(map, "written through the mapping\n", 28);
    char got[32] = {0};
    int from_pipe = (int)read(pipe_fds[0], got, 8);
    write(fifo_out, "more", 4);
    int from_fifo = (int)read(fifo_in, got + 8, 12);
    lseek(memfd, 0, SEEK_SET);
    int from_memfd = (int)read(memfd, got + 20, 9);
    int via_dir = openat(dir, "via_dir.txt", O_CREAT | O_WRONLY, 0644);
    printf("%d %d %d %d [%.29s]\n", from_pipe, from_fifo, from_memfd, via_dir >= 0, got);
    return 0;
}
