/* file_reread: opens a file anew to read a value each time round, works as
 * long as it says, and rewrites the file with a new value every 64 rounds,
 * closing it in between. A chunk of a chunked full run restored from a
 * checkpoint taken while the file is closed reads it before writing it:
 * no checkpoint carries a closed file, so the chunk reads what the
 * functional pass wrote since, and sim must refuse to stitch it
 * (tests/e2e/chunked_full.sh). */
#include <stdio.h>

#include "value_file.h"

int main(void)
{
    if (write_value("reread.dat", 1)) return 1;
    unsigned next = 1;
    for (int i = 0; i < 2000; i++) {
        next = work_round(read_value("reread.dat", 1), i, next);
        if (i % 64 == 63 && write_value("reread.dat", next)) return 1;
    }
    printf("%u\n", next);
    return 0;
}
