/* Source file and line of a code address, from the program's DWARF line
 * tables (elfutils' libdw). A program without them gives no lines. */
#ifndef RV_SRCLINE_H
#define RV_SRCLINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct srclines srclines;

/* NULL when the file cannot be read or has no DWARF information. */
srclines *srclines_open(const char *path);
void srclines_close(srclines *s);
/* "file.c:123" (the file's base name) into buf; false when unknown. */
int srclines_lookup(srclines *s, uint64_t pc, char *buf, size_t size);

/* The source file's path (a relative name joined to its compilation
 * directory) into path, and the line number; false when unknown. */
int srclines_where(srclines *s, uint64_t pc, char *path, size_t size, int *line);

#endif
