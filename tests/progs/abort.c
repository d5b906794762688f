/* abort: print a line, flush, then abort(): dies of SIGABRT, which a
 * shell reports as exit status 134. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    printf("about to abort\n");
    fflush(stdout);
    fprintf(stderr, "abort: calling abort()\n");
    abort();
}
