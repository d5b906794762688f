/* file_replace: file_reread's work, but each new value is saved into a new
 * file renamed over the old one, and the program unlinks the file and
 * creates it again at its end (as tcc does its output). A chunk of a chunked
 * full run restored while the file is closed reads it as it was at its
 * checkpoint, kept by the functional pass's file history once the pass has
 * replaced it, so the chunks stitch into the serial run exactly
 * (tests/e2e/chunked_full.sh). */
#include <stdio.h>

#include "value_file.h"

int main(void)
{
    if (replace_value("replace.dat", "replace.new", 1)) return 1;
    unsigned next = 1;
    for (int i = 0; i < 2000; i++) {
        next = work_round(read_value("replace.dat", 1), i, next);
        if (i % 64 == 63 && replace_value("replace.dat", "replace.new", next)) return 1;
    }
    if (unlink("replace.dat") != 0 || write_value("replace.dat", next)) return 1;
    printf("%u\n", next);
    return 0;
}
