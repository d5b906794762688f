/* isatty: with stdout redirected to a file or pipe, isatty(1) is 0.
 * isatty(-1) is 0 as well (EBADF). */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    printf("isatty(1) = %d\n", isatty(1));
    printf("isatty(-1) = %d\n", isatty(-1));
    return 0;
}
