#include "ckpt/ckpt_file.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ckpt/ckpt_pages.h"
#include "util.h"

static const char MAGIC[8] = {'R', 'V', 'C', 'K', 'P', 'T', '\r', '\n'}; /* \r\n catches text-mode mangling */

/* On disk, little-endian: magic[8] version:u32 nsections:u32 header_crc:u32,
 * then per section: tag:u32 raw_len:u64 stored_len:u64 crc:u32 (of the stored
 * bytes) head_crc:u32 (of the 24 bytes before it), then the stored bytes. */
enum { HEADER_BYTES = 20, SECTION_HEAD_BYTES = 28 };

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static uint32_t crc(const void *data, size_t len)
{
    uLong c = crc32(0L, Z_NULL, 0);
    const unsigned char *p = data;
    while (len > 0) { /* crc32 takes a uInt length */
        uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;
        c = crc32(c, p, chunk);
        p += chunk;
        len -= chunk;
    }
    return (uint32_t)c;
}

void ckpt_write_header(outfile *o, uint32_t nsections)
{
    unsigned char h[HEADER_BYTES];
    memcpy(h, MAGIC, 8);
    put32(h + 8, CKPT_VERSION);
    put32(h + 12, nsections);
    put32(h + 16, crc(h, 16));
    outfile_write(o, h, sizeof h);
}

void ckpt_write_section(outfile *o, uint32_t tag, const void *data, size_t len)
{
    uLongf stored = compressBound((uLong)len);
    unsigned char *buf = malloc(stored ? stored : 1);
    if (!buf)
        die("out of memory compressing a checkpoint section");
    /* Memory pages are most of a checkpoint and compress nearly as well at
     * level 1, several times faster; small metadata gets level 6. (Even the
     * 0.6 MiB of pages of a small program's start took 30 ms at level 6,
     * most of a checkpoint's time there.) */
    int level = len > (64u << 10) ? 1 : 6;
    if (compress2(buf, &stored, data, (uLong)len, level) != Z_OK)
        die("cannot compress a checkpoint section");
    unsigned char h[SECTION_HEAD_BYTES];
    put32(h, tag);
    put64(h + 4, len);
    put64(h + 12, stored);
    put32(h + 20, crc(buf, stored));
    put32(h + 24, crc(h, 24));
    outfile_write(o, h, sizeof h);
    outfile_write(o, buf, stored);
    free(buf);
}

static int fail(char *err, size_t errlen, const char *path, const char *what)
{
    snprintf(err, errlen, "%s: %s", path, what);
    return -1;
}

static void tag_name(uint32_t tag, char out[5])
{
    for (int i = 0; i < 4; i++)
        out[i] = (char)(tag >> (8 * i));
    out[4] = '\0';
}

/* Pages kept in the run's page store (PREF) become the PAGE section every
 * reader takes. */
static int resolve_page_refs(const char *path, ckpt_section *secs, int n, char *err, size_t errlen)
{
    ckpt_section *refs = NULL;
    for (int i = 0; i < n; i++)
        if (secs[i].tag == CKPT_PAGE_REFS) refs = &secs[i];
    if (!refs) return 0;
    if (ckpt_find(secs, n, CKPT_PAGES)) return fail(err, errlen, path, "corrupted checkpoint (both PAGE and PREF)");
    unsigned char *pages;
    size_t len;
    if (ckpt_page_store_resolve(path, refs, &pages, &len, err, errlen)) return -1;
    free(refs->data);
    *refs = (ckpt_section){CKPT_PAGES, pages, len};
    return 0;
}

int ckpt_read(const char *path, ckpt_section **sections, int *count, char *err, size_t errlen)
{
    *sections = NULL;
    *count = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    unsigned char h[HEADER_BYTES];
    int rc = 0;
    if (fread(h, 1, sizeof h, f) != sizeof h || memcmp(h, MAGIC, 8) != 0) {
        rc = fail(err, errlen, path, "not a checkpoint file (bad magic number)");
    } else if (get32(h + 16) != crc(h, 16)) {
        rc = fail(err, errlen, path, "corrupted checkpoint (header CRC mismatch)");
    } else if (get32(h + 8) != CKPT_VERSION) {
        snprintf(err, errlen, "%s: checkpoint format version %u, this build reads version %u", path, get32(h + 8),
                 CKPT_VERSION);
        rc = -1;
    }
    uint32_t n = rc ? 0 : get32(h + 12);
    if (!rc && n > 64)
        rc = fail(err, errlen, path, "corrupted checkpoint (implausible section count)");
    ckpt_section *secs = rc ? NULL : calloc(n ? n : 1, sizeof *secs);
    for (uint32_t i = 0; !rc && i < n; i++) {
        unsigned char sh[SECTION_HEAD_BYTES];
        if (fread(sh, 1, sizeof sh, f) != sizeof sh) {
            rc = fail(err, errlen, path, "truncated checkpoint");
            break;
        }
        if (get32(sh + 24) != crc(sh, 24)) {
            rc = fail(err, errlen, path, "corrupted checkpoint (section header CRC mismatch)");
            break;
        }
        uint64_t raw = get64(sh + 4), stored = get64(sh + 12);
        char name[5];
        tag_name(get32(sh), name);
        unsigned char *buf = stored <= (UINT64_C(1) << 40) ? malloc(stored ? stored : 1) : NULL;
        unsigned char *out = raw <= (UINT64_C(1) << 40) ? malloc(raw ? raw : 1) : NULL;
        if (!buf || !out) {
            free(buf), free(out);
            rc = fail(err, errlen, path, "corrupted checkpoint (implausible section size)");
            break;
        }
        if (fread(buf, 1, stored, f) != stored) {
            free(buf), free(out);
            rc = fail(err, errlen, path, "truncated checkpoint");
            break;
        }
        uLongf got = (uLongf)raw;
        if (get32(sh + 20) != crc(buf, stored) || uncompress(out, &got, buf, (uLong)stored) != Z_OK || got != raw) {
            free(buf), free(out);
            snprintf(err, errlen, "%s: corrupted checkpoint (section %s fails its CRC check)", path, name);
            rc = -1;
            break;
        }
        free(buf);
        secs[i] = (ckpt_section){get32(sh), out, raw};
        *count = (int)i + 1;
    }
    if (!rc && fgetc(f) != EOF)
        rc = fail(err, errlen, path, "corrupted checkpoint (data after the last section)");
    fclose(f);
    if (!rc) rc = resolve_page_refs(path, secs, *count, err, errlen);
    if (rc) {
        ckpt_sections_free(secs, *count);
        *count = 0;
        return -1;
    }
    *sections = secs;
    return 0;
}

const ckpt_section *ckpt_find(const ckpt_section *sections, int count, uint32_t tag)
{
    for (int i = 0; i < count; i++)
        if (sections[i].tag == tag)
            return &sections[i];
    return NULL;
}

bool ckpt_plain_name(const char *name)
{
    return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

char *ckpt_beside(const char *ckpt_path, const char *name)
{
    char *copy = strdup(ckpt_path), *path = NULL;
    if (!copy || asprintf(&path, "%s/%s", dirname(copy), name) < 0) die("out of memory");
    free(copy);
    return path;
}

void ckpt_sections_free(ckpt_section *sections, int count)
{
    for (int i = 0; i < count; i++)
        free(sections[i].data);
    free(sections);
}
