#include "ckpt/ckpt.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ckpt/ckpt_fds.h"
#include "ckpt/ckpt_file.h"
#include "ckpt/ckpt_pages.h"
#include "ckpt/ckpt_task.h"
#include "code.h"
#include "page_residency.h"
#include "sys/sys_internal.h"
#include "util.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the CPU section is written in host order");

/* ------------------------------------------------------------- helpers */

bool ckpt_file_crc(const char *path, uint32_t *crc_out, uint64_t *size)
{
    /* Only a regular file has an end to read to: a FIFO or /dev/zero would hang. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return false;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return false;
    }
    bool ok = ckpt_fd_crc(fd, UINT64_MAX, crc_out, size);
    close(fd);
    return ok;
}

bool ckpt_fd_crc(int fd, uint64_t max_bytes, uint32_t *crc_out, uint64_t *size)
{
    unsigned char buf[1 << 16];
    uLong c = crc32(0L, Z_NULL, 0);
    uint64_t total = 0;
    ssize_t n;
    while ((n = pread(fd, buf, sizeof buf, (off_t)total)) > 0) {
        if ((total += (uint64_t)n) > max_bytes)
            return false;
        c = crc32(c, buf, (uInt)n);
    }
    *crc_out = (uint32_t)c;
    *size = total;
    return n == 0;
}

/* 64-bit values that may not fit jansson's signed integers travel as hex strings. */
json_t *json_u64(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
    return json_string(buf);
}

uint64_t get_u64(json_t *obj, const char *key, bool *ok)
{
    json_t *v = json_object_get(obj, key);
    if (json_is_integer(v))
        return (uint64_t)json_integer_value(v);
    if (json_is_string(v))
        return strtoull(json_string_value(v), NULL, 0);
    *ok = false;
    return 0;
}

static json_t *nul_list(const char *joined, size_t len)
{
    json_t *a = json_array();
    for (size_t i = 0; i < len; i += strlen(joined + i) + 1)
        json_array_append_new(a, json_string(joined + i));
    return a;
}

static void append_json_section(outfile *o, uint32_t tag, json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!text)
        die("cannot encode checkpoint metadata");
    ckpt_write_section(o, tag, text, strlen(text));
    free(text);
    json_decref(j);
}

/* ---------------------------------------------------------------- save */

json_t *ckpt_region_json(const ckpt_region *r)
{
    json_t *j = json_pack("{s:I, s:I, s:f, s:I, s:I, s:I}", "simpoint", (json_int_t)r->simpoint, "cluster",
                          (json_int_t)r->cluster, "weight", r->weight, "interval", (json_int_t)r->interval, "warmup",
                          (json_int_t)r->warmup, "start", (json_int_t)r->start);
    if (r->extra)
        json_object_set_new(j, "extra", json_true());
    if (r->cluster_size)
        json_object_set_new(j, "cluster_size", json_integer((json_int_t)r->cluster_size));
    return j;
}

json_t *ckpt_regions_json(const ckpt_region *regions, int nregions)
{
    json_t *a = json_array();
    for (int i = 0; i < nregions; i++) json_array_append_new(a, ckpt_region_json(&regions[i]));
    return a;
}

static json_t *meta_json(const rv_proc *p, const ckpt_region *regions, int nregions)
{
    uint32_t crc = 0;
    uint64_t size = 0;
    if (!ckpt_file_crc(p->os.exe_path, &crc, &size))
        die("cannot read %s to identify it in the checkpoint", p->os.exe_path);
    json_t *rs = ckpt_regions_json(regions, nregions);
    return json_pack("{s:s, s:s, s:I, s:I, s:o, s:o, s:I, s:I, s:o}", "format", "rvsample checkpoint", "program",
                     p->os.exe_path, "elf_crc32", (json_int_t)crc, "elf_size", (json_int_t)size, "argv",
                     nul_list(p->os.cmdline, p->os.cmdline_len), "env", nul_list(p->os.environ, p->os.environ_len),
                     "icount", (json_int_t)p->cpu.icount, "pc", (json_int_t)p->cpu.pc, "regions", rs);
}

/* The OS section; NULL with the reason when a descriptor could not be
 * restored (the checkpoint is refused when taken, not when used). "cwd" is
 * the host directory, "cwd_root" the one the guest knows as RV_GUEST_CWD. */
static json_t *os_json(const rv_proc *p, ckpt_blob *fd_data, bool apart, char *err, size_t errlen)
{
    const rv_os *os = &p->os;
    char cwd[PATH_MAX];
    if (sys_host_path(os->cwd_root, os->cwd, cwd, sizeof cwd)) {
        snprintf(err, errlen, "the working directory's path is too long");
        return NULL;
    }
    json_t *files = ckpt_fds_save(p, fd_data, apart, err, errlen);
    if (!files)
        return NULL;
    json_t *j = json_pack("{s:I, s:I, s:I, s:I, s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "brk_start",
                          (json_int_t)os->brk_start, "brk", (json_int_t)os->brk, "mmap_top", (json_int_t)os->mmap_top,
                          "stack_top", (json_int_t)os->stack_top, "cwd", cwd, "umask", (int)os->umask, "rng_state",
                          json_u64(os->rng_state), "slept_ns", json_u64(os->slept_ns), "tid_address",
                          json_u64(os->tid_address), "task", ckpt_task_json(p), "files", files, "locks",
                          ckpt_locks_save(os));
    if (os->cwd_root)
        json_object_set_new(j, "cwd_root", json_string(os->cwd_root));
    if (apart)
        json_object_set_new(j, "apart", ckpt_apart_save(os));
    return j;
}

/* A writable shared mapping's file changes as the program goes on: its
 * pages travel in the checkpoint, up to the end of the file (beyond it a
 * mapping has no pages), and restoring writes them and the size back.
 * Returns the number of bytes of the mapping the file covers, or 0. */
static uint64_t shared_extent(const rv_vma *v, uint64_t *file_size)
{
    struct stat st;
    *file_size = 0;
    if (v->kind != VMA_FILE_SHARED || !(v->prot & GP_W) || !v->path || stat(v->path, &st) != 0)
        return 0;
    *file_size = (uint64_t)st.st_size;
    if (*file_size <= v->file_offset)
        return 0;
    uint64_t covered = (*file_size - v->file_offset + GUEST_PAGE_SIZE - 1) & ~(uint64_t)(GUEST_PAGE_SIZE - 1);
    return covered < v->end - v->start ? covered : v->end - v->start;
}

static json_t *vmas_json(const rv_mem *m)
{
    json_t *a = json_array();
    for (size_t i = 0; i < m->nvmas; i++) {
        const rv_vma *v = &m->vmas[i];
        json_t *e = json_pack("{s:I, s:I, s:i, s:i, s:I}", "start", (json_int_t)v->start, "end", (json_int_t)v->end,
                              "prot", v->prot, "kind", v->kind, "offset", (json_int_t)v->file_offset);
        if (v->path)
            json_object_set_new(e, "path", json_string(v->path));
        if (v->label)
            json_object_set_new(e, "label", json_string(v->label));
        uint64_t file_size;
        if (shared_extent(v, &file_size))
            json_object_set_new(e, "file_size", json_u64(file_size));
        json_array_append_new(a, e);
    }
    return a;
}

static bool page_is_zero(const unsigned char *page)
{
    static const unsigned char zero[GUEST_PAGE_SIZE];
    return memcmp(page, zero, GUEST_PAGE_SIZE) == 0;
}

/* (address, contents) of every non-zero page not backed by a shared file. */
static unsigned char *pages_blob(const rv_mem *m, size_t *len)
{
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf)
        die("out of memory");
    page_residency touched;
    page_residency_open(&touched);
    for (size_t i = 0; i < m->nvmas; i++) {
        const rv_vma *v = &m->vmas[i];
        uint64_t file_size, end = v->end;
        if (v->kind == VMA_FILE_SHARED) /* only writable ones travel: the others are their file */
            end = v->start + shared_extent(v, &file_size);
        for (uint64_t a = v->start; a < end; a += GUEST_PAGE_SIZE) {
            const unsigned char *page = mem_host(m, a);
            if (v->kind != VMA_FILE_SHARED && (!page_may_hold_data(&touched, m, a) || page_is_zero(page)))
                continue;
            if (n + 8 + GUEST_PAGE_SIZE > cap) {
                cap *= 2;
                buf = realloc(buf, cap);
                if (!buf)
                    die("out of memory");
            }
            memcpy(buf + n, &a, 8);
            memcpy(buf + n + 8, page, GUEST_PAGE_SIZE);
            n += 8 + GUEST_PAGE_SIZE;
        }
    }
    page_residency_close(&touched);
    *len = n;
    return buf;
}

/* The CPU section: x0-x31, f0-f31, then the fields below, all 64-bit. */
enum { CPU_WORDS = 32 + 32 + 9 };

static void cpu_words(const rv_cpu *c, uint64_t w[CPU_WORDS])
{
    memcpy(w, c->x, 32 * 8);
    memcpy(w + 32, c->f, 32 * 8);
    uint64_t rest[9] = {c->pc, c->block_pc, c->icount, c->fflags, c->frm, c->reservation, c->reservation_value,
                        c->has_reservation, 0};
    memcpy(w + 64, rest, sizeof rest);
}

void ckpt_save(const rv_proc *p, const char *path, const ckpt_region *regions, int nregions)
{
    ckpt_save_warm(p, path, regions, nregions, NULL, 0);
}

void ckpt_save_warm(const rv_proc *p, const char *path, const ckpt_region *regions, int nregions, const void *warm,
                    size_t warm_len)
{
    ckpt_save_shared(p, path, regions, nregions, warm, warm_len, NULL);
}

void ckpt_save_shared(const rv_proc *p, const char *path, const ckpt_region *regions, int nregions, const void *warm,
                      size_t warm_len, ckpt_page_store *store)
{
    char err[512];
    ckpt_blob fd_data = {0};
    /* A pass that keeps a file history takes checkpoints restored apart from the host's files. */
    json_t *os = os_json(p, &fd_data, p->os.history != NULL, err, sizeof err);
    if (!os)
        die("no checkpoint can be taken at instruction %llu: %s", (unsigned long long)p->cpu.icount, err);
    outfile *o = outfile_open(path);
    ckpt_write_header(o, warm ? 7 : 6);
    append_json_section(o, CKPT_META, meta_json(p, regions, nregions));
    uint64_t w[CPU_WORDS];
    cpu_words(&p->cpu, w);
    ckpt_write_section(o, CKPT_CPU, w, sizeof w);
    append_json_section(o, CKPT_OS, os);
    ckpt_write_section(o, CKPT_FDATA, fd_data.data, fd_data.len);
    ckpt_blob_free(&fd_data);
    append_json_section(o, CKPT_VMAS, vmas_json(&p->mem));
    size_t len;
    unsigned char *pages = pages_blob(&p->mem, &len);
    if (store) {
        size_t nrefs;
        unsigned char *refs = ckpt_page_store_refs(store, pages, len, &nrefs);
        ckpt_write_section(o, CKPT_PAGE_REFS, refs, nrefs);
        free(refs);
    } else {
        ckpt_write_section(o, CKPT_PAGES, pages, len);
    }
    free(pages);
    if (warm) ckpt_write_section(o, CKPT_UARCH, warm, warm_len);
    outfile_commit(o);
}

int ckpt_read_warm(const char *path, void **data, size_t *len, char *err, size_t errlen)
{
    ckpt_section *s;
    int n;
    if (ckpt_read(path, &s, &n, err, errlen)) return -1;
    const ckpt_section *w = ckpt_find(s, n, CKPT_UARCH);
    if (!w) {
        snprintf(err, errlen, "%s: no warm micro-architectural state (take it with checkpoint --warm CONFIG)", path);
        ckpt_sections_free(s, n);
        return -1;
    }
    *data = malloc(w->len ? w->len : 1);
    if (!*data) die("out of memory");
    memcpy(*data, w->data, w->len);
    *len = w->len;
    ckpt_sections_free(s, n);
    return 0;
}

/* ------------------------------------------------------------- restore */

static json_t *parse_json_section(const ckpt_section *s, const char *path, const char *what, char *err, size_t errlen)
{
    json_error_t je;
    json_t *j = s ? json_loadb((const char *)s->data, s->len, 0, &je) : NULL;
    if (!j)
        snprintf(err, errlen, "%s: checkpoint has no valid %s section", path, what);
    return j;
}

static int meta_from_json(json_t *j, ckpt_meta *m, const char *path, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    bool ok = true;
    json_t *prog = json_object_get(j, "program"), *regions = json_object_get(j, "regions");
    m->elf_crc = (uint32_t)get_u64(j, "elf_crc32", &ok);
    m->elf_size = get_u64(j, "elf_size", &ok);
    m->icount = get_u64(j, "icount", &ok);
    m->pc = get_u64(j, "pc", &ok);
    if (!ok || !json_is_string(prog) || !json_is_array(regions)) {
        snprintf(err, errlen, "%s: checkpoint metadata incomplete", path);
        return -1;
    }
    m->program = strdup(json_string_value(prog));
    m->nregions = (int)json_array_size(regions);
    m->regions = calloc((size_t)m->nregions + 1, sizeof *m->regions);
    for (int i = 0; i < m->nregions; i++) {
        json_t *r = json_array_get(regions, (size_t)i);
        ckpt_region *cr = &m->regions[i];
        cr->simpoint = (long long)get_u64(r, "simpoint", &ok);
        cr->cluster = (long long)get_u64(r, "cluster", &ok);
        cr->weight = json_number_value(json_object_get(r, "weight"));
        cr->interval = get_u64(r, "interval", &ok);
        cr->warmup = get_u64(r, "warmup", &ok);
        cr->start = get_u64(r, "start", &ok);
        cr->extra = json_is_true(json_object_get(r, "extra"));
        bool optional = true; /* absent: 0, not known */
        cr->cluster_size = get_u64(r, "cluster_size", &optional);
    }
    return 0;
}

static bool all_strings(json_t *a)
{
    size_t i;
    json_t *v;
    if (!json_is_array(a))
        return false;
    json_array_foreach(a, i, v) if (!json_is_string(v)) return false;
    return true;
}

/* One entry of a saved memory map. */
typedef struct saved_vma {
    uint64_t start, end, offset;
    unsigned prot, kind;
    bool sized;         /* a writable shared mapping whose file's size travels */
    uint64_t file_size; /* that size */
    const char *path, *label;
} saved_vma;

/* The memory map (malloc'd array in *out): entries sorted and apart, as
 * saved. 0, or -1 with err. */
static int parse_vmas(json_t *vmas, saved_vma **out, size_t *n, char *err, size_t errlen)
{
    *n = json_array_size(vmas);
    saved_vma *list = calloc(*n + 1, sizeof *list);
    if (!list)
        die("out of memory");
    size_t i;
    json_t *v;
    json_array_foreach(vmas, i, v) {
        bool ok = true, sized = true;
        saved_vma *s = &list[i];
        *s = (saved_vma){.start = get_u64(v, "start", &ok), .end = get_u64(v, "end", &ok),
                         .offset = get_u64(v, "offset", &ok), .prot = (unsigned)get_u64(v, "prot", &ok),
                         .kind = (unsigned)get_u64(v, "kind", &ok), .file_size = get_u64(v, "file_size", &sized),
                         .path = json_string_value(json_object_get(v, "path")),
                         .label = json_string_value(json_object_get(v, "label"))};
        s->sized = sized && s->kind == VMA_FILE_SHARED && (s->prot & GP_W);
        if (!ok || s->end <= s->start || s->kind > VMA_FILE_SHARED || (i > 0 && s->start < list[i - 1].end)) {
            free(list);
            snprintf(err, errlen, "corrupted checkpoint: bad memory map entry %zu", i);
            return -1;
        }
    }
    *out = list;
    return 0;
}

/* The entry holding addr, or NULL (the entries are sorted). */
static const saved_vma *saved_vma_at(const saved_vma *list, size_t n, uint64_t addr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (addr < list[mid].start)
            hi = mid;
        else if (addr >= list[mid].end)
            lo = mid + 1;
        else
            return &list[mid];
    }
    return NULL;
}

/* Every saved page lies in a mapping that takes it: not a read-only shared
 * one (its file is its contents), and inside the saved size of a writable
 * shared one's file (past its end a page has no file behind it; writing it
 * would be a SIGBUS). Checked before anything on the host is touched. */
static int check_pages(const saved_vma *list, size_t n, const ckpt_section *pages, char *err, size_t errlen)
{
    for (size_t at = 0; pages && at + 8 + GUEST_PAGE_SIZE <= pages->len; at += 8 + GUEST_PAGE_SIZE) {
        uint64_t addr;
        memcpy(&addr, pages->data + at, 8);
        const saved_vma *v = saved_vma_at(list, n, addr);
        if (!v || (v->kind == VMA_FILE_SHARED && !(v->prot & GP_W)) || (addr & (GUEST_PAGE_SIZE - 1))) {
            snprintf(err, errlen, "corrupted checkpoint: page 0x%llx outside the memory map", (unsigned long long)addr);
            return -1;
        }
        if (v->kind == VMA_FILE_SHARED && (!v->sized || v->file_size <= v->offset ||
                                           addr - v->start >= v->file_size - v->offset)) {
            snprintf(err, errlen, "corrupted checkpoint: page 0x%llx of a shared mapping lies past the end of its file",
                     (unsigned long long)addr);
            return -1;
        }
    }
    return 0;
}

/* The memory map and the pages, as restoring will take them (--info too). */
static int check_memory(json_t *vmas, const ckpt_section *pages, char *err, size_t errlen)
{
    saved_vma *list;
    size_t n;
    if (parse_vmas(vmas, &list, &n, err, errlen))
        return -1;
    int rc = check_pages(list, n, pages, err, errlen);
    free(list);
    return rc;
}

/* Everything restoring relies on that can be checked without the host:
 * --info accepts exactly the checkpoints --run can use (short of the host's
 * files). META, OS and VMAS are parsed already. 0, or -1 with err. */
static int check_structure(const ckpt_section *secs, int n, json_t *mj, json_t *osj, json_t *vj, const char *path,
                           char *err, size_t errlen)
{
    const ckpt_section *cpu = ckpt_find(secs, n, CKPT_CPU), *pages = ckpt_find(secs, n, CKPT_PAGES);
    const ckpt_section *fd_data = ckpt_find(secs, n, CKPT_FDATA);
    char why[256];
    if (!cpu || cpu->len != CPU_WORDS * 8)
        snprintf(err, errlen, "%s: checkpoint has no valid CPU section", path);
    else if (pages && pages->len % (8 + GUEST_PAGE_SIZE))
        snprintf(err, errlen, "%s: corrupted checkpoint: the PAGE section is not whole pages", path);
    else if (!all_strings(json_object_get(mj, "argv")) || !json_array_size(json_object_get(mj, "argv")) ||
             !all_strings(json_object_get(mj, "env")))
        snprintf(err, errlen, "%s: corrupted checkpoint: argv (not empty) and env must be lists of strings", path);
    else if (!json_is_array(vj))
        snprintf(err, errlen, "%s: corrupted checkpoint: the memory map is not a list", path);
    else if (!json_is_object(osj) || !json_is_string(json_object_get(osj, "cwd")) ||
             (json_object_get(osj, "cwd_root") && !json_is_string(json_object_get(osj, "cwd_root"))))
        snprintf(err, errlen, "%s: corrupted checkpoint: incomplete OS state", path);
    else if (ckpt_fds_check(json_object_get(osj, "files"), fd_data ? fd_data->len : 0, why, sizeof why) ||
             ckpt_apart_check(json_object_get(osj, "apart"), why, sizeof why) || check_memory(vj, pages, why, sizeof why))
        snprintf(err, errlen, "%s: %s", path, why);
    else
        return 0;
    return -1;
}

int ckpt_read_meta(const char *path, ckpt_meta *meta, char *err, size_t errlen)
{
    ckpt_section *secs;
    int n;
    memset(meta, 0, sizeof *meta); /* callers free it whatever the outcome */
    if (ckpt_read(path, &secs, &n, err, errlen))
        return -1;
    json_t *j = parse_json_section(ckpt_find(secs, n, CKPT_META), path, "META", err, errlen);
    json_t *os = j ? parse_json_section(ckpt_find(secs, n, CKPT_OS), path, "OS", err, errlen) : NULL;
    json_t *vmas = os ? parse_json_section(ckpt_find(secs, n, CKPT_VMAS), path, "VMAS", err, errlen) : NULL;
    int rc = vmas && meta_from_json(j, meta, path, err, errlen) == 0 ? check_structure(secs, n, j, os, vmas, path, err, errlen) : -1;
    if (rc == 0) {
        const ckpt_section *pages = ckpt_find(secs, n, CKPT_PAGES);
        meta->pages = pages ? pages->len / (8 + GUEST_PAGE_SIZE) : 0;
        meta->vmas = json_array_size(vmas);
        meta->files = json_array_size(json_object_get(os, "files"));
    }
    json_decref(vmas);
    json_decref(os);
    json_decref(j);
    ckpt_sections_free(secs, n);
    return rc;
}

void ckpt_meta_free(ckpt_meta *meta)
{
    free(meta->program);
    free(meta->regions);
    memset(meta, 0, sizeof *meta);
}

/* The file of a shared mapping: a path from a checkpoint is untrusted, so
 * it must be a regular file, and writable only where the program may write. */
static int reopen_shared(rv_proc *p, const char *path, unsigned prot, char *err, size_t errlen)
{
    if (!path) {
        snprintf(err, errlen, "corrupted checkpoint: a shared mapping without its file");
        return -1;
    }
    if ((prot & GP_W) && sys_check_writable(p, p->os.cwd_fd, path)) {
        snprintf(err, errlen, "guest file %s (a shared mapping) is outside the directories it may write (see "
                 "--allow-write)", path);
        return -1;
    }
    bool writes = (prot & GP_W) && !p->os.apart.on; /* kept apart: a private copy is written */
    int fd = openat(p->os.cwd_fd, path, (writes ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (!writes)
        fd = sys_apart_as_then(p, p->os.cwd_fd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, fd);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        fd = -1, errno = EINVAL;
    }
    if (fd >= 0 && (prot & GP_W) && !writes) {
        int copy = sys_apart_copy(fd, O_RDWR);
        close(fd);
        fd = copy;
    }
    if (fd < 0)
        snprintf(err, errlen, "cannot map %s again (shared mapping): %s", path,
                 errno == EINVAL ? "not a regular file" : strerror(errno));
    return fd;
}

/* Lifts (or puts back) the host's protection of every mapping the saved
 * pages may be written to (mem_lift_protection): all but shared file
 * mappings the guest may not write, which take no saved pages. */
static void protect_restored(rv_mem *m, bool lift)
{
    for (size_t i = 0; i < m->nvmas; i++) {
        const rv_vma *v = &m->vmas[i];
        if (v->kind == VMA_FILE_SHARED && !(v->prot & GP_W))
            continue;
        (lift ? mem_lift_protection : mem_restore_protection)(m, v->start, v->end - v->start);
    }
}

/* Map one saved entry: a shared file mapping's file is reopened (and, when
 * the guest may write it, given its saved size back). */
static int map_saved(rv_proc *p, const saved_vma *v, char *err, size_t errlen)
{
    int fd = -1;
    if (v->kind == VMA_FILE_SHARED && (fd = reopen_shared(p, v->path, v->prot, err, errlen)) < 0)
        return -1;
    if (fd >= 0 && v->sized && ftruncate(fd, (off_t)v->file_size) != 0) {
        snprintf(err, errlen, "cannot give %s its size at the checkpoint again: %s", v->path, strerror(errno));
        close(fd);
        return -1;
    }
    int r = mem_map(&p->mem, v->start, v->end - v->start, v->prot, v->kind, fd, v->offset, v->path, v->label);
    if (fd >= 0)
        close(fd);
    if (r)
        snprintf(err, errlen, "cannot restore the mapping at 0x%llx: %s", (unsigned long long)v->start, strerror(-r));
    return r ? -1 : 0;
}

static int restore_memory(rv_proc *p, json_t *vmas, const ckpt_section *pages, char *err, size_t errlen)
{
    saved_vma *list;
    size_t n;
    if (parse_vmas(vmas, &list, &n, err, errlen))
        return -1;
    int rc = check_pages(list, n, pages, err, errlen);
    for (size_t i = 0; i < n && !rc; i++)
        rc = map_saved(p, &list[i], err, errlen);
    free(list);
    if (rc)
        return -1;
    protect_restored(&p->mem, true);
    for (size_t at = 0; pages && at + 8 + GUEST_PAGE_SIZE <= pages->len; at += 8 + GUEST_PAGE_SIZE) {
        uint64_t addr;
        memcpy(&addr, pages->data + at, 8);
        memcpy(mem_host(&p->mem, addr), pages->data + at + 8, GUEST_PAGE_SIZE);
    }
    protect_restored(&p->mem, false);
    return 0;
}

/* The working directory, and the directory the guest knows as RV_GUEST_CWD
 * (none in a checkpoint taken before there was one: that guest saw host
 * paths, and goes on seeing them). */
static int restore_cwd(rv_os *s, json_t *os, char *err, size_t errlen)
{
    const char *cwd = json_string_value(json_object_get(os, "cwd"));
    const char *root = json_string_value(json_object_get(os, "cwd_root"));
    char seen[PATH_MAX];
    int cwd_fd = cwd ? open(cwd, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    if (cwd_fd < 0) {
        snprintf(err, errlen, "the guest's working directory %s is gone", cwd ? cwd : "?");
        return -1;
    }
    if (sys_guest_path(root, cwd, seen, sizeof seen)) {
        close(cwd_fd);
        snprintf(err, errlen, "the guest's working directory %s has too long a name", cwd);
        return -1;
    }
    close(s->cwd_fd);
    free(s->cwd);
    free(s->cwd_root);
    s->cwd_fd = cwd_fd;
    s->cwd = strdup(seen);
    s->cwd_root = root ? strdup(root) : NULL;
    return 0;
}

static int restore_os(rv_proc *p, json_t *os, const ckpt_section *fd_data, char *err, size_t errlen)
{
    bool ok = true;
    rv_os *s = &p->os;
    s->brk_start = get_u64(os, "brk_start", &ok);
    s->brk = get_u64(os, "brk", &ok);
    s->mmap_top = get_u64(os, "mmap_top", &ok);
    s->stack_top = get_u64(os, "stack_top", &ok);
    s->umask = (unsigned)get_u64(os, "umask", &ok);
    s->rng_state = get_u64(os, "rng_state", &ok);
    s->slept_ns = get_u64(os, "slept_ns", &ok);
    s->tid_address = get_u64(os, "tid_address", &ok);
    if (!ok) {
        snprintf(err, errlen, "corrupted checkpoint: incomplete OS state");
        return -1;
    }
    if (ckpt_task_restore(p, json_object_get(os, "task"), json_object_get(os, "sigactions"), err, errlen))
        return -1;
    if (restore_cwd(s, os, err, errlen) || ckpt_locks_restore(s, json_object_get(os, "locks"), err, errlen))
        return -1;
    return ckpt_fds_restore(p, json_object_get(os, "files"), fd_data ? fd_data->data : NULL,
                            fd_data ? fd_data->len : 0, err, errlen);
}

/* argv/env strings from the META section, for rv_proc_prepare (check_structure
 * made sure they are strings). */
static char **string_list(json_t *a, int *n)
{
    *n = (int)json_array_size(a);
    char **v = calloc((size_t)*n + 1, sizeof *v);
    if (!v)
        die("out of memory");
    for (int i = 0; i < *n; i++)
        v[i] = (char *)json_string_value(json_array_get(a, (size_t)i));
    return v;
}

int ckpt_restore(rv_proc *p, const char *path, const rv_proc_options *o, ckpt_meta *meta, char *err, size_t errlen)
{
    ckpt_section *secs;
    int n, rc = -1;
    rv_proc_clear(p);
    memset(meta, 0, sizeof *meta);
    if (ckpt_read(path, &secs, &n, err, errlen))
        return -1;
    json_t *mj = parse_json_section(ckpt_find(secs, n, CKPT_META), path, "META", err, errlen);
    json_t *osj = parse_json_section(ckpt_find(secs, n, CKPT_OS), path, "OS", err, errlen);
    json_t *vj = parse_json_section(ckpt_find(secs, n, CKPT_VMAS), path, "VMAS", err, errlen);
    const ckpt_section *cpu = ckpt_find(secs, n, CKPT_CPU);
    char **argv = NULL, **envp = NULL;
    if (!mj || !osj || !vj || meta_from_json(mj, meta, path, err, errlen) ||
        check_structure(secs, n, mj, osj, vj, path, err, errlen))
        goto out;
    const char *exe = o->exe ? o->exe : meta->program;
    uint32_t crc;
    uint64_t size;
    if (!ckpt_file_crc(exe, &crc, &size)) {
        snprintf(err, errlen, "%s: cannot read the program %s: %s", path, exe, strerror(errno));
        goto out;
    }
    if (crc != meta->elf_crc || size != meta->elf_size) {
        snprintf(err, errlen, "%s was taken of a different program (%s: CRC %08x, %llu bytes; %s: CRC %08x, %llu bytes)",
                 path, meta->program, meta->elf_crc, (unsigned long long)meta->elf_size, exe, crc,
                 (unsigned long long)size);
        goto out;
    }
    int argc, envc;
    argv = string_list(json_object_get(mj, "argv"), &argc);
    envp = string_list(json_object_get(mj, "env"), &envc);
    rv_proc_options po = *o;
    po.exe = exe, po.argc = argc, po.argv = argv, po.envc = envc, po.envp = envp;
    if (rv_proc_prepare(p, &po, err, errlen))
        goto out;
    uint64_t w[CPU_WORDS];
    memcpy(w, cpu->data, sizeof w);
    /* Kept apart before the files and shared mappings are restored. */
    json_t *apart = json_object_get(osj, "apart");
    if ((o->host_files ? ckpt_host_files_restore(p, apart, path, w[66], err, errlen)
                       : ckpt_apart_restore(&p->os, apart, path, w[66], err, errlen)) ||
        restore_memory(p, vj, ckpt_find(secs, n, CKPT_PAGES), err, errlen) ||
        restore_os(p, osj, ckpt_find(secs, n, CKPT_FDATA), err, errlen))
        goto out;
    memcpy(p->cpu.x, w, 32 * 8);
    memcpy(p->cpu.f, w + 32, 32 * 8);
    p->cpu.pc = w[64], p->cpu.block_pc = w[65], p->cpu.icount = w[66];
    p->cpu.fflags = (uint32_t)w[67], p->cpu.frm = (uint32_t)w[68];
    p->cpu.reservation = w[69], p->cpu.reservation_value = w[70], p->cpu.has_reservation = w[71] != 0;
    p->cpu.x[RV_X_SINK] = 0;
    rc = 0;
out:
    free(argv);
    free(envp);
    json_decref(mj);
    json_decref(osj);
    json_decref(vj);
    ckpt_sections_free(secs, n);
    return rc;
}
