/* The text of source lines, for annotated listings: each file is read once,
 * when first asked for; a file that cannot be read is remembered as such. */
#ifndef SIM_SOURCE_TEXT_H
#define SIM_SOURCE_TEXT_H

#include <stdbool.h>

typedef struct source_file {
    char *path;
    char **lines;              /* NULL when the file could not be read */
    int nlines;
} source_file;

typedef struct source_text {
    source_file *files;
    int nfiles;
} source_text;

/* The file, read on first use (its lines NULL if unreadable). */
const source_file *source_file_get(source_text *t, const char *path);
/* Line `line` (1-based) without its newline, or NULL. */
const char *source_line(const source_file *f, int line);
void source_text_free(source_text *t);

#endif
