/* temp_work: keeps its intermediate results in a temporary file (mkstemp in
 * its working directory, as byacc does), works, reads them back and
 * removes the file at its end, then writes its output over the last run's.
 * A run stopped part-way leaves the temporary file and a half-written
 * output; a later whole run's mkstemp, drawing the same names, would find
 * the file and take other instructions (tests/e2e/pipeline_temp_files.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
    char name[] = "tmpworkXXXXXX";
    int fd = mkstemp(name);
    if (fd < 0) return 1;
    FILE *out = fopen("temp_work.out", "w");
    if (!out) return 1;
    unsigned long acc = 1;
    for (int i = 0; i < 4000; i++) {
        for (int k = 0; k < 1000; k++) acc = acc * 6364136223846793005ul + (unsigned)k;
        if (write(fd, &acc, sizeof acc) != sizeof acc) return 1;
        if (i % 100 == 0) fprintf(out, "%d %lx\n", i, acc);
    }
    unsigned long v, sum = 0;
    for (off_t at = 0; pread(fd, &v, sizeof v, at) == sizeof v; at += sizeof v) sum ^= v;
    close(fd);
    if (unlink(name) != 0) return 1;
    fprintf(out, "sum %lx\n", sum);
    printf("%lx\n", sum);
    return fclose(out) == 0 ? 0 : 1;
}
