#include "source_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void read_lines(source_file *f)
{
    FILE *in = fopen(f->path, "r");
    if (!in) return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int cap_lines = 0;
    f->lines = NULL;
    while ((len = getline(&line, &cap, in)) >= 0) {
        if (len && line[len - 1] == '\n') line[len - 1] = 0;
        if (f->nlines == cap_lines &&
            !(f->lines = realloc(f->lines, (size_t)(cap_lines = cap_lines ? 2 * cap_lines : 256) * sizeof *f->lines)))
            die("out of memory");
        if (!(f->lines[f->nlines++] = strdup(line))) die("out of memory");
    }
    free(line);
    fclose(in);
    if (!f->lines && !(f->lines = calloc(1, sizeof *f->lines))) die("out of memory"); /* read, but empty */
}

const source_file *source_file_get(source_text *t, const char *path)
{
    for (int i = 0; i < t->nfiles; i++)
        if (!strcmp(t->files[i].path, path)) return &t->files[i];
    if (!(t->files = realloc(t->files, (size_t)(t->nfiles + 1) * sizeof *t->files))) die("out of memory");
    source_file *f = &t->files[t->nfiles++];
    *f = (source_file){.path = strdup(path)};
    if (!f->path) die("out of memory");
    read_lines(f);
    return f;
}

const char *source_line(const source_file *f, int line)
{
    return f->lines && line >= 1 && line <= f->nlines ? f->lines[line - 1] : NULL;
}

void source_text_free(source_text *t)
{
    for (int i = 0; i < t->nfiles; i++) {
        for (int k = 0; k < t->files[i].nlines; k++) free(t->files[i].lines[k]);
        free(t->files[i].lines);
        free(t->files[i].path);
    }
    free(t->files);
    *t = (source_text){0};
}
