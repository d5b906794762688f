#include "distinct_outputs.h"

#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

/* What a path resolves to: an existing regular file, a file not made yet
 * (its canonical path), standard output, or something that may be shared. */
typedef struct output_identity {
    enum { ID_SHAREABLE, ID_STDOUT, ID_FILE, ID_NEW_PATH } kind;
    dev_t dev;
    ino_t ino;
    char *canonical;
} output_identity;

/* PATH's directory resolved, then its last component; NULL when the
 * directory does not exist (the output fails on its own then). */
static char *canonical_new_path(const char *path)
{
    char *dir_copy = strdup(path), *base_copy = strdup(path);
    if (!dir_copy || !base_copy) die("out of memory");
    char *dir = realpath(dirname(dir_copy), NULL), *result = NULL;
    const char *base = basename(base_copy);
    if (dir) {
        size_t len = strlen(dir) + strlen(base) + 2;
        result = malloc(len);
        if (!result) die("out of memory");
        snprintf(result, len, "%s/%s", dir, base);
    }
    free(dir);
    free(dir_copy);
    free(base_copy);
    return result;
}

static output_identity identify(const char *path)
{
    output_identity id = {.kind = ID_SHAREABLE};
    struct stat st;
    if (!strcmp(path, "-")) {
        id.kind = ID_STDOUT;
    } else if (stat(path, &st) == 0) {
        if (S_ISREG(st.st_mode)) id.kind = ID_FILE, id.dev = st.st_dev, id.ino = st.st_ino;
    } else if ((id.canonical = canonical_new_path(path))) {
        id.kind = ID_NEW_PATH;
    }
    return id;
}

static bool same_output(const output_identity *a, const output_identity *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case ID_STDOUT: return true;
    case ID_FILE: return a->dev == b->dev && a->ino == b->ino;
    case ID_NEW_PATH: return !strcmp(a->canonical, b->canonical);
    default: return false;
    }
}

void outputs_distinct(const named_output *outs, size_t n)
{
    output_identity *ids = calloc(n ? n : 1, sizeof *ids);
    if (!ids) die("out of memory");
    for (size_t i = 0; i < n; i++) {
        if (!outs[i].path) continue;
        ids[i] = identify(outs[i].path);
        for (size_t j = 0; j < i; j++)
            if (outs[j].path && same_output(&ids[j], &ids[i]))
                die("%s and %s name the same file, '%s': give each output its own", outs[j].option, outs[i].option,
                    outs[i].path);
    }
    for (size_t i = 0; i < n; i++) free(ids[i].canonical);
    free(ids);
}
