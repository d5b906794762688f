#include "bb_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sp_alloc.h"
#include "util.h"

#define IN_CHUNK (1u << 18)

static size_t fill(bb_source *s)
{
    size_t n = fread(s->in, 1, IN_CHUNK, s->f);
    if (n == 0 && ferror(s->f))
        die("%s: read error: %s", s->path, strerror(errno));
    s->z.next_in = s->in;
    s->z.avail_in = (uInt)n;
    return n;
}

void bb_source_open(bb_source *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!s->f)
        die("cannot open %s: %s", path, strerror(errno));
    s->in = sp_malloc(IN_CHUNK + 1); /* + 1: next_member may put back one byte */
    fill(s);
    s->gzip = s->z.avail_in >= 2 && s->in[0] == 0x1f && s->in[1] == 0x8b;
    if (s->gzip && inflateInit2(&s->z, 15 + 16) != Z_OK) /* gzip wrapper only */
        die("%s: cannot initialise zlib", path);
}

/* Past the end of a member: another member may follow (gzip allows
 * concatenation), nothing else may. */
static bool next_member(bb_source *s)
{
    if (s->z.avail_in == 0 && fill(s) == 0)
        return false;
    if (s->z.avail_in < 2 && s->z.next_in[0] == 0x1f) { /* the magic split across reads */
        unsigned char first = s->z.next_in[0];
        fill(s);
        if (s->z.avail_in == 0 || s->z.next_in[0] != 0x8b)
            die("%s: data after the end of the gzip stream", s->path);
        memmove(s->in + 1, s->in, s->z.avail_in);
        s->in[0] = first;
        s->z.next_in = s->in;
        s->z.avail_in++;
    }
    if (s->z.next_in[0] != 0x1f || s->z.avail_in < 2 || s->z.next_in[1] != 0x8b)
        die("%s: data after the end of the gzip stream", s->path);
    inflateReset(&s->z);
    s->member_done = false;
    return true;
}

static size_t read_gzip(bb_source *s, unsigned char *buf, size_t len)
{
    s->z.next_out = buf;
    s->z.avail_out = (uInt)len;
    while (s->z.avail_out == len && !s->eof) {
        if (s->member_done && !next_member(s)) {
            s->eof = true;
            break;
        }
        if (s->z.avail_in == 0 && fill(s) == 0)
            die("%s: truncated or corrupt gzip data: unexpected end of file", s->path);
        int r = inflate(&s->z, Z_NO_FLUSH);
        if (r == Z_STREAM_END)
            s->member_done = true;
        else if (r != Z_OK && r != Z_BUF_ERROR)
            die("%s: truncated or corrupt gzip data: %s", s->path, s->z.msg ? s->z.msg : zError(r));
    }
    return len - s->z.avail_out;
}

size_t bb_source_read(bb_source *s, void *buf, size_t len)
{
    if (len > (1u << 30))
        len = 1u << 30;
    if (s->gzip)
        return read_gzip(s, buf, len);
    /* Plain text: first what the magic-number check buffered, then the file. */
    size_t n = 0;
    if (s->z.avail_in) {
        n = len < s->z.avail_in ? len : s->z.avail_in;
        memcpy(buf, s->z.next_in, n);
        s->z.next_in += n;
        s->z.avail_in -= (uInt)n;
        return n;
    }
    n = fread(buf, 1, len, s->f);
    if (n == 0 && ferror(s->f))
        die("%s: read error: %s", s->path, strerror(errno));
    return n;
}

void bb_source_close(bb_source *s)
{
    if (s->gzip)
        inflateEnd(&s->z);
    if (s->f && s->f != stdin)
        fclose(s->f);
    free(s->in);
    memset(s, 0, sizeof *s);
}
