/* self_proc: the paths by which a program asks about itself describe the
 * guest: /proc/self/exe, cmdline, maps, cwd and fd links. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    printf("exe is this program: %s\n", strstr(buf, "self_proc") ? "yes" : "no");

    FILE *f = fopen("/proc/self/cmdline", "r");
    n = f ? (ssize_t)fread(buf, 1, sizeof buf, f) : -1;
    if (f)
        fclose(f);
    size_t expected = 0;
    for (int i = 0; i < argc; i++)
        expected += strlen(argv[i]) + 1;
    printf("cmdline matches argv: %s\n", n == (ssize_t)expected ? "yes" : "no");

    f = fopen("/proc/self/maps", "r");
    int lines = 0, stack = 0, exe = 0;
    while (f && fgets(buf, sizeof buf, f)) {
        lines++;
        stack |= strstr(buf, "[stack]") != NULL;
        exe |= strstr(buf, "self_proc") != NULL && strstr(buf, "r-xp") != NULL;
    }
    if (f)
        fclose(f);
    printf("maps: stack %s, executable text %s, several lines %s\n", stack ? "yes" : "no", exe ? "yes" : "no",
           lines > 2 ? "yes" : "no");

    char cwd[4096];
    n = readlink("/proc/self/cwd", buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    printf("cwd link matches getcwd: %s\n", getcwd(cwd, sizeof cwd) && strcmp(cwd, buf) == 0 ? "yes" : "no");

    int fd = open("self_proc_probe.txt", O_CREAT | O_WRONLY, 0644);
    snprintf(cwd, sizeof cwd, "/proc/self/fd/%d", fd);
    n = readlink(cwd, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    printf("fd link names the file: %s\n", strstr(buf, "self_proc_probe.txt") ? "yes" : "no");
    close(fd);
    unlink("self_proc_probe.txt");
    return 0;
}
