/* dirs: mkdir, chdir, getcwd (relative checks only), opendir/readdir
 * (names sorted before printing), rmdir and their error codes. */
#include <dirent.h>
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
    if (!ok)
        exit(1);
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list(const char *path)
{
    DIR *d = opendir(path);
    check(d != NULL, "opendir");
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64) {
        unsigned char type = e->d_type;
        if (type == DT_UNKNOWN) {                  /* some file systems */
            struct stat st;
            if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
        }
        char kind = type == DT_DIR ? 'd' : type == DT_REG ? 'f' : '?';
        names[n] = malloc(strlen(e->d_name) + 3);
        sprintf(names[n], "%c %s", kind, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    printf("%s has %d entries:", path, n);
    for (int i = 0; i < n; i++) {
        printf(" [%s]", names[i]);
        free(names[i]);
    }
    printf("\n");
}

int main(void)
{
    char top[4096], cwd[4096];
    check(getcwd(top, sizeof top) != NULL, "getcwd");
    check(top[0] == '/', "getcwd is absolute");

    check(mkdir("d_top", 0755) == 0, "mkdir d_top");
    check(mkdir("d_top", 0755) != 0 && errno == EEXIST, "mkdir again EEXIST");
    check(mkdir("d_top/sub1", 0755) == 0, "mkdir d_top/sub1");
    check(mkdir("d_top/sub2", 0700) == 0, "mkdir d_top/sub2");
    for (int i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "d_top/file%d", (i * 3) % 5);
        int fd = open(name, O_CREAT | O_WRONLY, 0644);
        check(fd >= 0, "create file");
        close(fd);
    }
    struct stat st;
    check(stat("d_top/sub1", &st) == 0 && S_ISDIR(st.st_mode), "stat S_ISDIR");
    list("d_top");

    check(chdir("d_top/sub1") == 0, "chdir d_top/sub1");
    check(getcwd(cwd, sizeof cwd) != NULL, "getcwd in sub1");
    size_t tl = strlen(top);
    check(strncmp(cwd, top, tl) == 0 && strcmp(cwd + tl, "/d_top/sub1") == 0,
          "cwd is top + /d_top/sub1");
    int fd = open("../file0", O_RDONLY);
    check(fd >= 0, "open ../file0 relative");
    close(fd);
    check(chdir("..") == 0, "chdir ..");
    getcwd(cwd, sizeof cwd);
    check(strcmp(cwd + tl, "/d_top") == 0, "cwd is top + /d_top");
    list(".");
    check(chdir("nonexistent") != 0 && errno == ENOENT, "chdir nonexistent ENOENT");
    check(chdir(top) == 0, "chdir back (absolute)");

    check(rmdir("d_top") != 0 && errno == ENOTEMPTY, "rmdir non-empty ENOTEMPTY");
    check(rmdir("d_top/file0") != 0 && errno == ENOTDIR, "rmdir file ENOTDIR");
    for (int i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "d_top/file%d", i);
        check(unlink(name) == 0, "unlink file");
    }
    check(rmdir("d_top/sub1") == 0 && rmdir("d_top/sub2") == 0, "rmdir subdirs");
    list("d_top");
    check(rmdir("d_top") == 0, "rmdir d_top");
    check(stat("d_top", &st) != 0 && errno == ENOENT, "d_top gone");
    return 0;
}
