/* Reading line-oriented text inputs with line numbers for error messages. */
#ifndef VD_TEXT_H
#define VD_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

typedef struct vd_lines {
    FILE *f;
    const char *path;
    char *buf;
    size_t cap;
    size_t lineno; /* of the line last returned, 1-based */
} vd_lines;

bool vd_lines_open(vd_lines *l, const char *path, vd_diag *d);
/* The next line without its line ending, or NULL at the end of the file. */
char *vd_lines_next(vd_lines *l);
void vd_lines_close(vd_lines *l);

/* True for empty lines, white space and '#' comments. */
bool vd_skippable(const char *line);
/* Split LINE in place at SEP (0: runs of blanks); returns the number of
 * fields, at most MAX (the last one keeps the rest of the line). */
size_t vd_split(char *line, char sep, char **fields, size_t max);

/* Strict numbers: every character consumed, no sign, no suffix. */
bool vd_parse_u64(const char *s, uint64_t *out);
bool vd_parse_long(const char *s, long *out);
/* A finite decimal number. */
bool vd_parse_real(const char *s, double *out);
/* "1%", "1" (both one percent) or "0.5%": the fraction (0.01, 0.01, 0.005). */
bool vd_parse_percent(const char *s, double *out);

/* The directory part of PATH ("." when it has none), and PATH resolved
 * against it when relative (a new string either way). */
char *vd_dirname(const char *path);
char *vd_resolve(const char *dir, const char *path);
/* The last component of PATH (a pointer into it). */
const char *vd_basename(const char *path);

#endif
