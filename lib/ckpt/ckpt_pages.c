#include "ckpt_pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "mem.h"
#include "util.h"

/* The store: MAGIC, then records [stored_len:u32][crc32 of the page:u32]
 * [the page, zlib-compressed], little-endian; a reference is a record's
 * offset. PREF: [name_len:u32][the store's file name][(address:u64,
 * offset:u64)...]. */
static const char MAGIC[8] = "RVPAGES\n";
enum { PAGE = GUEST_PAGE_SIZE, PAGE_ENTRY = 8 + PAGE, REF_ENTRY = 16, RECORD_HEAD = 8, NAME_MAX_LEN = 255 };

typedef struct slot {
    uint64_t key;               /* crc32 << 32 | adler32 */
    uint64_t offset;            /* 0: empty */
} slot;

struct ckpt_page_store {
    int fd;
    char *path, *name;
    uint64_t size;
    slot *slots;                /* by content, open addressing */
    size_t cap, n;
    /* The previous checkpoint's pages and their offsets: a page unchanged
     * since is found by one comparison, without hashing or reading back. */
    unsigned char *prev;
    uint64_t *prev_offsets;
    size_t nprev;
};

static uint32_t get32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const unsigned char *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }
static void put32(unsigned char *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> 8 * i); }
static void put64(unsigned char *p, uint64_t v) { put32(p, (uint32_t)v), put32(p + 4, (uint32_t)(v >> 32)); }

static uint32_t page_crc(const unsigned char *page) { return (uint32_t)crc32(0, page, PAGE); }

/* The page of the record at offset in a store of size bytes. 0, or -1 with
 * the reason. */
static int read_record(int fd, uint64_t offset, uint64_t size, unsigned char page[PAGE], char *err, size_t errlen)
{
    unsigned char head[RECORD_HEAD], data[PAGE + 1024];
    uLongf out = PAGE;
    if (size < RECORD_HEAD || offset < sizeof MAGIC || offset > size - RECORD_HEAD ||
        pread(fd, head, sizeof head, (off_t)offset) != (ssize_t)sizeof head) {
        snprintf(err, errlen, "a page reference (offset %llu) outside the store", (unsigned long long)offset);
        return -1;
    }
    uint32_t stored = get32(head);
    if (stored > compressBound(PAGE) || stored > size - offset - RECORD_HEAD ||
        pread(fd, data, stored, (off_t)(offset + RECORD_HEAD)) != (ssize_t)stored ||
        uncompress(page, &out, data, stored) != Z_OK || out != PAGE || page_crc(page) != get32(head + 4)) {
        snprintf(err, errlen, "the page at offset %llu is damaged", (unsigned long long)offset);
        return -1;
    }
    return 0;
}

ckpt_page_store *ckpt_page_store_create(const char *path)
{
    ckpt_page_store *s = calloc(1, sizeof *s);
    char *copy = strdup(path);
    if (!s || !copy || !(s->path = strdup(path)) || !(s->name = strdup(basename(copy)))) die("out of memory");
    free(copy);
    if (strlen(s->name) > NAME_MAX_LEN) die("%s: the page store's name is too long", path);
    s->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (s->fd < 0 || pwrite(s->fd, MAGIC, sizeof MAGIC, 0) != (ssize_t)sizeof MAGIC)
        die("cannot write the page store %s: %s", path, strerror(errno));
    s->size = sizeof MAGIC;
    s->cap = 1024;
    if (!(s->slots = calloc(s->cap, sizeof *s->slots))) die("out of memory");
    return s;
}

uint64_t ckpt_page_store_bytes(const ckpt_page_store *s) { return s->size; }
uint64_t ckpt_page_store_pages(const ckpt_page_store *s) { return s->n; }

void ckpt_page_store_close(ckpt_page_store *s)
{
    if (fsync(s->fd) != 0 || close(s->fd) != 0) die("cannot write the page store %s: %s", s->path, strerror(errno));
    free(s->slots);
    free(s->prev);
    free(s->prev_offsets);
    free(s->path);
    free(s->name);
    free(s);
}

static size_t slot_index(uint64_t key, size_t cap) { return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1); }

static void insert(ckpt_page_store *s, uint64_t key, uint64_t offset)
{
    if (2 * (s->n + 1) > s->cap) {
        slot *old = s->slots;
        size_t oldcap = s->cap;
        s->cap *= 2;
        if (!(s->slots = calloc(s->cap, sizeof *s->slots))) die("out of memory");
        s->n = 0;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].offset) insert(s, old[i].key, old[i].offset);
        free(old);
    }
    size_t i = slot_index(key, s->cap);
    while (s->slots[i].offset) i = (i + 1) & (s->cap - 1);
    s->slots[i] = (slot){key, offset};
    s->n++;
}

static uint64_t append(ckpt_page_store *s, const unsigned char *page, uint32_t crc)
{
    unsigned char rec[RECORD_HEAD + PAGE + 1024];
    uLongf stored = sizeof rec - RECORD_HEAD;
    if (compress2(rec + RECORD_HEAD, &stored, page, PAGE, 1) != Z_OK) die("cannot compress a page");
    put32(rec, (uint32_t)stored);
    put32(rec + 4, crc);
    size_t len = RECORD_HEAD + stored;
    if (pwrite(s->fd, rec, len, (off_t)s->size) != (ssize_t)len)
        die("cannot write the page store %s: %s", s->path, errno ? strerror(errno) : "short write");
    uint64_t offset = s->size;
    s->size += len;
    return offset;
}

/* The offset of a page with these contents, stored now if none is. A key
 * match is compared byte for byte (read back), so that no two pages are
 * ever taken for each other. */
static uint64_t store_page(ckpt_page_store *s, const unsigned char *page)
{
    uint32_t crc = page_crc(page);
    uint64_t key = (uint64_t)crc << 32 | (uint32_t)adler32(1, page, PAGE);
    unsigned char stored[PAGE];
    char err[128];
    for (size_t i = slot_index(key, s->cap); s->slots[i].offset; i = (i + 1) & (s->cap - 1))
        if (s->slots[i].key == key) {
            if (read_record(s->fd, s->slots[i].offset, s->size, stored, err, sizeof err))
                die("%s: %s", s->path, err);
            if (!memcmp(stored, page, PAGE)) return s->slots[i].offset;
        }
    uint64_t offset = append(s, page, crc);
    insert(s, key, offset);
    return offset;
}

unsigned char *ckpt_page_store_refs(ckpt_page_store *s, const unsigned char *pages, size_t pages_len, size_t *len)
{
    size_t n = pages_len / PAGE_ENTRY, namelen = strlen(s->name);
    *len = 4 + namelen + n * REF_ENTRY;
    unsigned char *out = malloc(*len);
    uint64_t *offsets = malloc((n ? n : 1) * sizeof *offsets);
    if (!out || !offsets) die("out of memory");
    put32(out, (uint32_t)namelen);
    memcpy(out + 4, s->name, namelen);
    /* Both lists are in address order (the memory map's). */
    for (size_t i = 0, j = 0; i < n; i++) {
        const unsigned char *e = pages + i * PAGE_ENTRY;
        uint64_t addr = get64(e);
        while (j < s->nprev && get64(s->prev + j * PAGE_ENTRY) < addr) j++;
        bool same = j < s->nprev && get64(s->prev + j * PAGE_ENTRY) == addr &&
                    !memcmp(s->prev + j * PAGE_ENTRY + 8, e + 8, PAGE);
        offsets[i] = same ? s->prev_offsets[j] : store_page(s, e + 8);
        put64(out + 4 + namelen + i * REF_ENTRY, addr);
        put64(out + 4 + namelen + i * REF_ENTRY + 8, offsets[i]);
    }
    free(s->prev);
    free(s->prev_offsets);
    if (!(s->prev = malloc(pages_len ? pages_len : 1))) die("out of memory");
    memcpy(s->prev, pages, pages_len);
    s->prev_offsets = offsets;
    s->nprev = n;
    return out;
}

/* The store PREF names: a plain file name, in the checkpoint's directory. */
static int open_store(const char *ckpt_path, const ckpt_section *pref, uint64_t *size, char *name, char *err,
                      size_t errlen)
{
    uint32_t namelen = pref->len >= 4 ? get32(pref->data) : UINT32_MAX;
    if (namelen == 0 || namelen > NAME_MAX_LEN || 4 + (size_t)namelen > pref->len ||
        (pref->len - 4 - namelen) % REF_ENTRY) {
        snprintf(err, errlen, "corrupted checkpoint: the PREF section is malformed");
        return -1;
    }
    memcpy(name, pref->data + 4, namelen);
    name[namelen] = 0;
    if (!ckpt_plain_name(name) || memchr(name, 0, namelen)) {
        snprintf(err, errlen, "corrupted checkpoint: the page store must be a file beside the checkpoint");
        return -1;
    }
    char *path = ckpt_beside(ckpt_path, name);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    unsigned char magic[sizeof MAGIC];
    if (fd < 0) snprintf(err, errlen, "page store %s: %s (it must stay beside the checkpoint)", path, strerror(errno));
    else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || pread(fd, magic, sizeof magic, 0) != (ssize_t)sizeof magic ||
             memcmp(magic, MAGIC, sizeof MAGIC))
        snprintf(err, errlen, "%s: not a page store", path), close(fd), fd = -1;
    else
        *size = (uint64_t)st.st_size;
    free(path);
    return fd;
}

int ckpt_page_store_resolve(const char *ckpt_path, const ckpt_section *pref, unsigned char **pages, size_t *len,
                            char *err, size_t errlen)
{
    char name[NAME_MAX_LEN + 1], why[256];
    uint64_t size = 0;
    int fd = open_store(ckpt_path, pref, &size, name, why, sizeof why);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", ckpt_path, why);
        return -1;
    }
    const unsigned char *refs = pref->data + 4 + strlen(name);
    size_t n = (pref->len - 4 - strlen(name)) / REF_ENTRY;
    unsigned char *out = malloc(n ? n * PAGE_ENTRY : 1);
    if (!out) die("out of memory");
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        memcpy(out + i * PAGE_ENTRY, refs + i * REF_ENTRY, 8);
        if ((rc = read_record(fd, get64(refs + i * REF_ENTRY + 8), size, out + i * PAGE_ENTRY + 8, why, sizeof why)))
            snprintf(err, errlen, "%s: page store %s: %s", ckpt_path, name, why);
    }
    close(fd);
    if (rc) free(out), out = NULL;
    *pages = out;
    *len = rc ? 0 : n * PAGE_ENTRY;
    return rc;
}
