/* file_last_read: writes a value into a file and closes it, works, then
 * near its end reads the file again, works as long as it says, and writes
 * another value. The last chunk of a chunked full run is simulated once the
 * functional pass has ended: restored after the file was closed (no
 * checkpoint carries it), it reads the pass's last value and ends the program
 * after another number of instructions; there is no next chunk to check it
 * against, and sim must refuse to stitch it (tests/e2e/chunked_full.sh). */
#include <stdio.h>

#include "value_file.h"

int main(void)
{
    volatile unsigned sink = 0;
    if (write_value("last.dat", 1)) return 1;
    for (unsigned k = 0; k < 2100000; k++) sink += k;
    unsigned v = read_value("last.dat", 0);
    for (unsigned k = 0; k < 20000 * v; k++) sink += k;
    printf("%u\n", v);
    return write_value("last.dat", v + 1);
}
