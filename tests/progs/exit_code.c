/* exit_code N: print N to stdout and exit with status N (0..255).
 * With a second argument "_exit", use _exit() (no stdio flush, so the
 * unflushed line is lost when stdout is not a terminal). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int flushed;
static void at_exit_handler(void)
{
    printf("atexit handler ran\n");
    flushed = 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: exit_code N [_exit]\n");
        return 2;
    }
    int n = atoi(argv[1]);
    atexit(at_exit_handler);
    printf("exiting with %d\n", n);
    if (argc > 2 && strcmp(argv[2], "_exit") == 0)
        _exit(n);
    exit(n);
}
