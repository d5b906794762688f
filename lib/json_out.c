#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "util.h"

void json_write_file(const char *path, json_t *value)
{
    char *text = json_dumps(value, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    if (!text)
        die("cannot encode JSON for %s", path);
    if (strcmp(path, "-") == 0) {
        fputs(text, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    } else {
        outfile *o = outfile_open(path);
        outfile_write(o, text, strlen(text));
        outfile_write(o, "\n", 1);
        outfile_commit(o);
    }
    free(text);
}
