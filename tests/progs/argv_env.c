/* argv_env: print argc, every argument (quoted, with its length), and
 * the environment variables whose names start with E2E_ (sorted), plus
 * getenv of a set and an unset name.  Other variables are counted only
 * as "some" / "none", since the host environment varies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    printf("argc=%d\n", argc);
    printf("argv[0] ends with argv_env: %s\n",
           strlen(argv[0]) >= 8 && strcmp(argv[0] + strlen(argv[0]) - 8, "argv_env") == 0
               ? "yes"
               : "no");
    for (int i = 1; i < argc; i++)
        printf("argv[%d] (%zu bytes) = [%s]\n", i, strlen(argv[i]), argv[i]);
    printf("argv[argc] is NULL: %s\n", argv[argc] == NULL ? "yes" : "no");

    char *mine[256];
    int n = 0;
    for (char **e = environ; *e && n < 256; e++)
        if (strncmp(*e, "E2E_", 4) == 0)
            mine[n++] = *e;
    qsort(mine, n, sizeof *mine, cmp);
    printf("E2E_ variables: %d\n", n);
    for (int i = 0; i < n; i++)
        printf("  %s\n", mine[i]);
    const char *v = getenv("E2E_ALPHA");
    printf("getenv(E2E_ALPHA) = %s\n", v ? v : "(null)");
    printf("getenv(E2E_UNSET_NAME) = %s\n", getenv("E2E_UNSET_NAME") ? "set" : "(null)");
    setenv("E2E_NEW", "added", 1);
    printf("after setenv: %s\n", getenv("E2E_NEW"));
    return 0;
}
