/* segfault: print a line, then store to address 16: dies of SIGSEGV,
 * which a shell reports as exit status 139. */
#include <stdio.h>

int main(void)
{
    printf("about to write to address 16\n");
    fflush(stdout);
    volatile int *p = (volatile int *)16;
    *p = 42;
    printf("still alive?!\n");
    return 0;
}
