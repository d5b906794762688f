/* The bytes of a basic-block vector file, plain or gzip-compressed (detected
 * by the magic number; "-" is standard input). Unlike zlib's gzread, which
 * stops quietly at anything after a gzip member, data after the last member
 * is an error: a damaged or concatenated file must not pass as a shorter one. */
#ifndef SP_BB_SOURCE_H
#define SP_BB_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <zlib.h>

typedef struct bb_source {
    const char *path;
    FILE *f;
    bool gzip, member_done, eof;
    z_stream z;
    unsigned char *in; /* compressed input buffer */
} bb_source;

/* Dies with a one-line reason when the file cannot be opened. */
void bb_source_open(bb_source *s, const char *path);
/* Up to len bytes into buf; 0 at the end. Dies on read errors, corrupt or
 * truncated gzip data and data after the last gzip member. */
size_t bb_source_read(bb_source *s, void *buf, size_t len);
void bb_source_close(bb_source *s);

#endif
