/* getrandom: print only the byte counts returned, never the bytes. */
#include <stdio.h>
#include <sys/random.h>

int main(void)
{
    unsigned char buf[256];
    printf("getrandom 16: %zd\n", getrandom(buf, 16, 0));
    printf("getrandom 256: %zd\n", getrandom(buf, 256, 0));
    printf("getrandom 32 GRND_NONBLOCK: %zd\n", getrandom(buf, 32, GRND_NONBLOCK));
    printf("getrandom 0: %zd\n", getrandom(buf, 0, 0));
    int nonzero = 0;
    getrandom(buf, 256, 0);
    for (int i = 0; i < 256; i++)
        nonzero |= buf[i];
    printf("some bytes non-zero: %s\n", nonzero ? "yes" : "no");
    return 0;
}
