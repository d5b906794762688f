/* file_io: POSIX and stdio file operations in the current directory.
 * Prints one line per check; exits 1 on the first hard failure. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void check(int ok, const char *what)
{
    printf("%s: %s\n", what, ok ? "ok" : "FAILED");
    if (!ok) {
        printf("errno: %s\n", strerror(errno));
        exit(1);
    }
}

static off_t fsize(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 ? st.st_size : -1;
}

int main(void)
{
    char buf[256];
    const char *msg = "hello, file\n";

    /* create, write, read back */
    int fd = open("t_file.txt", O_CREAT | O_TRUNC | O_RDWR, 0644);
    check(fd >= 0, "open O_CREAT");
    check(write(fd, msg, strlen(msg)) == (ssize_t)strlen(msg), "write");
    check(fsize(fd) == 12, "fstat size 12");
    check(lseek(fd, 0, SEEK_SET) == 0, "lseek SEEK_SET");
    memset(buf, 0, sizeof buf);
    check(read(fd, buf, sizeof buf) == 12 && strcmp(buf, msg) == 0, "read back");
    check(read(fd, buf, sizeof buf) == 0, "read at EOF returns 0");

    /* pwrite/pread do not move the offset */
    check(pwrite(fd, "HELLO", 5, 0) == 5, "pwrite");
    check(lseek(fd, 0, SEEK_CUR) == 12, "offset unchanged by pwrite");
    memset(buf, 0, sizeof buf);
    check(pread(fd, buf, 5, 0) == 5 && memcmp(buf, "HELLO", 5) == 0, "pread");
    check(lseek(fd, -4, SEEK_END) == 8, "lseek SEEK_END");
    check(read(fd, buf, 4) == 4 && memcmp(buf, "ile\n", 4) == 0, "read after SEEK_END");

    /* sparse extension via lseek past EOF */
    check(lseek(fd, 100, SEEK_SET) == 100, "lseek past EOF");
    check(write(fd, "X", 1) == 1, "write at 100");
    check(fsize(fd) == 101, "fstat size 101");
    check(pread(fd, buf, 4, 50) == 4 && buf[0] == 0 && buf[3] == 0, "hole reads zeros");

    /* ftruncate shrink and grow */
    check(ftruncate(fd, 5) == 0 && fsize(fd) == 5, "ftruncate to 5");
    check(ftruncate(fd, 4096) == 0 && fsize(fd) == 4096, "ftruncate to 4096");
    check(close(fd) == 0, "close");

    /* O_APPEND */
    fd = open("t_file.txt", O_WRONLY | O_APPEND);
    check(fd >= 0, "open O_APPEND");
    lseek(fd, 0, SEEK_SET);
    check(write(fd, "tail", 4) == 4, "append write");
    check(fsize(fd) == 4100, "size after append 4100");
    close(fd);

    /* rename, stat, unlink */
    check(rename("t_file.txt", "t_renamed.txt") == 0, "rename");
    struct stat st;
    check(stat("t_file.txt", &st) != 0 && errno == ENOENT, "old name gone (ENOENT)");
    check(stat("t_renamed.txt", &st) == 0 && st.st_size == 4100, "stat new name size 4100");
    check(S_ISREG(st.st_mode), "S_ISREG");
    check(access("t_renamed.txt", R_OK | W_OK) == 0, "access R_OK|W_OK");
    check(unlink("t_renamed.txt") == 0, "unlink");
    check(open("t_renamed.txt", O_RDONLY) < 0 && errno == ENOENT, "open after unlink ENOENT");

    /* O_EXCL on an existing file */
    fd = open("t_excl", O_CREAT | O_EXCL | O_WRONLY, 0600);
    check(fd >= 0, "O_EXCL create");
    close(fd);
    check(open("t_excl", O_CREAT | O_EXCL | O_WRONLY, 0600) < 0 && errno == EEXIST,
          "O_EXCL again EEXIST");
    unlink("t_excl");

    /* dup and shared offsets */
    fd = open("t_dup", O_CREAT | O_TRUNC | O_RDWR, 0644);
    int fd2 = dup(fd);
    check(fd2 >= 0 && fd2 != fd, "dup");
    write(fd, "abc", 3);
    check(lseek(fd2, 0, SEEK_CUR) == 3, "dup shares offset");
    close(fd);
    close(fd2);
    unlink("t_dup");

    /* stdio */
    FILE *f = fopen("t_stdio.txt", "w");
    check(f != NULL, "fopen w");
    for (int i = 0; i < 100; i++)
        fprintf(f, "line %d: %d\n", i, i * i);
    check(fclose(f) == 0, "fclose");
    f = fopen("t_stdio.txt", "r");
    check(f != NULL, "fopen r");
    int lines = 0;
    long sum = 0;
    while (fgets(buf, sizeof buf, f)) {
        int a, b;
        if (sscanf(buf, "line %d: %d", &a, &b) == 2)
            sum += b;
        lines++;
    }
    printf("fgets lines: %d, sum: %ld\n", lines, sum);
    check(fseek(f, 0, SEEK_END) == 0, "fseek SEEK_END");
    printf("ftell at end: %ld\n", ftell(f));
    check(fseek(f, 10, SEEK_SET) == 0 && fgets(buf, sizeof buf, f) != NULL, "fseek 10 + fgets");
    printf("line at offset 10: %s", buf);
    rewind(f);
    check(fgetc(f) == 'l', "rewind + fgetc");
    fclose(f);
    f = fopen("t_stdio.txt", "a+");
    fputs("appended\n", f);
    fseek(f, -9, SEEK_END);
    check(fgets(buf, sizeof buf, f) && strcmp(buf, "appended\n") == 0, "a+ append and read");
    fclose(f);
    check(remove("t_stdio.txt") == 0, "remove");
    return 0;
}
