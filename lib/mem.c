#include "mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NPAGES (GUEST_VA_SIZE >> GUEST_PAGE_SHIFT)

static void *reserve(uint64_t size)
{
    void *p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

bool mem_init(rv_mem *m)
{
    memset(m, 0, sizeof *m);
    m->base = reserve(GUEST_VA_SIZE);
    if (!m->base)
        return false;
    m->perm = mmap(NULL, NPAGES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m->perm == MAP_FAILED) {
        munmap(m->base, GUEST_VA_SIZE);
        return false;
    }
    m->readable_iff_mapped = true;
    return true;
}

static void free_vma(rv_vma *v)
{
    free(v->path);
    free(v->label);
    if (v->host_fd >= 0)
        close(v->host_fd);
}

void mem_destroy(rv_mem *m)
{
    for (size_t i = 0; i < m->nvmas; i++)
        free_vma(&m->vmas[i]);
    free(m->vmas);
    munmap(m->perm, NPAGES);
    munmap(m->base, GUEST_VA_SIZE);
    memset(m, 0, sizeof *m);
}

static bool aligned_range(uint64_t addr, uint64_t len)
{
    return (addr & (GUEST_PAGE_SIZE - 1)) == 0 && (len & (GUEST_PAGE_SIZE - 1)) == 0 && len > 0 &&
           addr < GUEST_VA_SIZE && len <= GUEST_VA_SIZE - addr;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* After every change of the mappings (set_perm): rv_mem.readable_iff_mapped. */
static void note_readability(rv_mem *m)
{
    bool all = true;
    for (size_t i = 0; i < m->nvmas && all; i++)
        all = m->vmas[i].prot & (GP_R | GP_W); /* as set_perm reads PROT_WRITE */
    if (m->readable_iff_mapped && !all)
        m->code_changes++;
    m->readable_iff_mapped = all;
}

/* The host's protection of a mapped guest page: readable, and writable
 * exactly when the guest may write it, so that translated stores can leave
 * their check to the host (jit/host_fault.c). Unmapped pages are PROT_NONE. */
static int host_prot_of(unsigned prot)
{
    if (prot & GP_PAST_EOF)
        return PROT_NONE;
    return prot & GP_W ? PROT_READ | PROT_WRITE : PROT_READ;
}

/* mapped: [addr, addr+len) is mapped (else the host's pages are PROT_NONE
 * already). */
static void set_perm(rv_mem *m, uint64_t addr, uint64_t len, unsigned prot, bool mapped)
{
    /* RISC-V has no write-only pages: Linux maps PROT_WRITE as read-write. */
    if (prot & GP_W)
        prot |= GP_R;
    memset(m->perm + (addr >> GUEST_PAGE_SHIFT), (int)prot, len >> GUEST_PAGE_SHIFT);
    if (mapped && mprotect(m->base + addr, len, host_prot_of(prot)) != 0)
        abort(); /* the range is one the host mapped for us */
    note_readability(m);
}

/* The pages [addr, addr+len) touches. */
static void page_span(uint64_t addr, uint64_t len, uint64_t *first, uint64_t *end)
{
    *first = addr & ~(uint64_t)(GUEST_PAGE_SIZE - 1);
    *end = (addr + len + GUEST_PAGE_SIZE - 1) & ~(uint64_t)(GUEST_PAGE_SIZE - 1);
}

void mem_lift_protection(rv_mem *m, uint64_t addr, uint64_t len)
{
    uint64_t first, end;
    page_span(addr, len, &first, &end);
    if (mprotect(m->base + first, end - first, PROT_READ | PROT_WRITE) != 0)
        abort();
}

void mem_restore_protection(rv_mem *m, uint64_t addr, uint64_t len)
{
    uint64_t first, end;
    page_span(addr, len, &first, &end);
    for (uint64_t a = first, run; a < end; a = run) { /* runs of pages the guest protects alike */
        uint8_t prot = m->perm[a >> GUEST_PAGE_SHIFT];
        for (run = a + GUEST_PAGE_SIZE; run < end && m->perm[run >> GUEST_PAGE_SHIFT] == prot;)
            run += GUEST_PAGE_SIZE;
        if (mprotect(m->base + a, run - a, host_prot_of(prot)) != 0)
            abort();
    }
}

static void insert_vma(rv_mem *m, size_t at, const rv_vma *v)
{
    if (m->nvmas == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 16;
        m->vmas = realloc(m->vmas, m->cap * sizeof *m->vmas);
        if (!m->vmas)
            abort();
    }
    memmove(&m->vmas[at + 1], &m->vmas[at], (m->nvmas - at) * sizeof *m->vmas);
    m->vmas[at] = *v;
    m->nvmas++;
}

static void remove_vma(rv_mem *m, size_t at)
{
    free_vma(&m->vmas[at]);
    memmove(&m->vmas[at], &m->vmas[at + 1], (m->nvmas - at - 1) * sizeof *m->vmas);
    m->nvmas--;
}

/* Split mappings so that addr is a boundary (no VMA straddles it). */
static void split_at(rv_mem *m, uint64_t addr)
{
    for (size_t i = 0; i < m->nvmas; i++) {
        rv_vma *v = &m->vmas[i];
        if (v->start < addr && addr < v->end) {
            rv_vma tail = *v;
            tail.path = dup_or_null(v->path);
            tail.label = dup_or_null(v->label);
            tail.host_fd = v->host_fd < 0 ? -1 : fcntl(v->host_fd, F_DUPFD_CLOEXEC, 3);
            v->backed_end = tail.backed_end = 0;
            if (tail.kind != VMA_ANON)
                tail.file_offset += addr - v->start;
            tail.start = addr;
            v->end = addr;
            insert_vma(m, i + 1, &tail);
            return;
        }
    }
}

/* Drop the bookkeeping of [addr, addr+len); noting whether code went away. */
static void forget_range(rv_mem *m, uint64_t addr, uint64_t len)
{
    split_at(m, addr);
    split_at(m, addr + len);
    for (size_t i = 0; i < m->nvmas;) {
        rv_vma *v = &m->vmas[i];
        if (v->start >= addr && v->end <= addr + len) {
            if (v->prot & GP_X)
                m->code_changes++;
            remove_vma(m, i);
        } else {
            i++;
        }
    }
}

static bool same_string(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Merge neighbours that are one mapping in all but name (as Linux merges
 * VMAs), so that per-page operations do not fragment the map. */
static void coalesce(rv_mem *m)
{
    for (size_t i = 1; i < m->nvmas;) {
        rv_vma *a = &m->vmas[i - 1], *b = &m->vmas[i];
        bool contiguous_file = a->kind == VMA_ANON || b->file_offset == a->file_offset + (a->end - a->start);
        if (a->end == b->start && a->prot == b->prot && a->kind == b->kind && contiguous_file &&
            same_string(a->path, b->path) && same_string(a->label, b->label)) {
            a->end = b->end;
            a->backed_end = 0;
            remove_vma(m, i);
        } else {
            i++;
        }
    }
}

static size_t insertion_point(const rv_mem *m, uint64_t addr)
{
    size_t i = 0;
    while (i < m->nvmas && m->vmas[i].start < addr)
        i++;
    return i;
}

int mem_map(rv_mem *m, uint64_t addr, uint64_t len, unsigned prot, enum vma_kind kind, int host_fd,
            uint64_t offset, const char *path, const char *label)
{
    if (!aligned_range(addr, len))
        return -EINVAL;
    int host_prot = PROT_READ | PROT_WRITE, flags = MAP_FIXED | MAP_NORESERVE;
    if (kind == VMA_FILE_SHARED) {
        flags |= MAP_SHARED;
        int fl = fcntl(host_fd, F_GETFL);
        if (fl < 0)
            return -EBADF;
        if ((fl & O_ACCMODE) == O_RDONLY) {
            if (prot & GP_W)
                return -EACCES;
            host_prot = PROT_READ;
        }
    } else {
        flags |= MAP_PRIVATE;
    }
    if (host_fd < 0) /* anonymous, or a private file copy filled by the caller */
        flags |= MAP_ANONYMOUS;
    void *p = mmap(m->base + addr, len, host_prot, flags, host_fd, host_fd < 0 ? 0 : (off_t)offset);
    if (p == MAP_FAILED)
        return -errno;
    forget_range(m, addr, len);
    rv_vma v = {.start = addr, .end = addr + len, .prot = (uint8_t)prot, .kind = (uint8_t)kind,
                .file_offset = offset, .path = dup_or_null(path), .label = dup_or_null(label),
                .host_fd = kind == VMA_FILE_SHARED ? fcntl(host_fd, F_DUPFD_CLOEXEC, 3) : -1};
    insert_vma(m, insertion_point(m, addr), &v);
    coalesce(m);
    set_perm(m, addr, len, prot, true);
    mem_follow_files(m);
    if (prot & GP_X)
        m->code_changes++;
    return 0;
}

/* The end of the pages of v its file covers now (v->end when unknown: a
 * descriptor that cannot be looked at is taken to cover the mapping). */
static uint64_t file_backed_end(const rv_vma *v)
{
    struct stat st;
    if (fstat(v->host_fd, &st) != 0)
        return v->end;
    uint64_t size = (uint64_t)st.st_size, covered = 0;
    if (size > v->file_offset)
        covered = (size - v->file_offset + GUEST_PAGE_SIZE - 1) & ~(GUEST_PAGE_SIZE - 1);
    return covered < v->end - v->start ? v->start + covered : v->end;
}

void mem_follow_files(rv_mem *m)
{
    for (size_t i = 0; i < m->nvmas; i++) {
        rv_vma *v = &m->vmas[i];
        if (v->host_fd < 0)
            continue;
        uint64_t backed = file_backed_end(v);
        if (backed == v->backed_end)
            continue;
        set_perm(m, v->start, backed - v->start, v->prot, true);
        set_perm(m, backed, v->end - backed, GP_PAST_EOF, true);
        v->backed_end = backed;
        if (v->prot & GP_X)
            m->code_changes++;
    }
}

int mem_unmap(rv_mem *m, uint64_t addr, uint64_t len)
{
    if (!aligned_range(addr, len))
        return -EINVAL;
    void *p = mmap(m->base + addr, len, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -errno;
    forget_range(m, addr, len);
    set_perm(m, addr, len, 0, false);
    return 0;
}

int mem_protect(rv_mem *m, uint64_t addr, uint64_t len, unsigned prot)
{
    if (!aligned_range(addr, len))
        return -EINVAL;
    /* Check the whole range before changing anything, so that a refusal
     * leaves the mappings and the page permissions as they were.
     * Linux: ENOMEM if any page in the range is unmapped. */
    for (uint64_t a = addr; a < addr + len;) {
        const rv_vma *v = mem_find_vma(m, a);
        if (!v)
            return -ENOMEM;
        if (v->kind == VMA_FILE_SHARED && (prot & GP_W) && !(v->prot & GP_W))
            return -EACCES; /* conservative: the host view may be read-only */
        a = v->end;
    }
    split_at(m, addr);
    split_at(m, addr + len);
    for (size_t i = 0; i < m->nvmas; i++) {
        rv_vma *v = &m->vmas[i];
        if (v->start >= addr && v->end <= addr + len) {
            if ((v->prot | prot) & GP_X)
                m->code_changes++;
            v->prot = (uint8_t)prot;
            v->backed_end = 0;
        }
    }
    coalesce(m);
    set_perm(m, addr, len, prot, true);
    mem_follow_files(m); /* pages past the end of a file stay out of reach */
    return 0;
}

const rv_vma *mem_find_vma(const rv_mem *m, uint64_t addr)
{
    for (size_t i = 0; i < m->nvmas; i++)
        if (m->vmas[i].start <= addr && addr < m->vmas[i].end)
            return &m->vmas[i];
    return NULL;
}

bool mem_range_free(const rv_mem *m, uint64_t addr, uint64_t len)
{
    if (addr >= GUEST_VA_SIZE || len > GUEST_VA_SIZE - addr)
        return false;
    for (size_t i = 0; i < m->nvmas; i++)
        if (m->vmas[i].start < addr + len && addr < m->vmas[i].end)
            return false;
    return true;
}

uint64_t mem_find_free(const rv_mem *m, uint64_t len, uint64_t top)
{
    /* Walk the gaps from the top down, like Linux's top-down mmap layout. */
    uint64_t hi = top;
    for (size_t i = m->nvmas; i-- > 0;) {
        const rv_vma *v = &m->vmas[i];
        if (v->start >= hi)
            continue;
        if (v->end <= hi && hi - v->end >= len)
            return hi - len;
        hi = v->start < hi ? v->start : hi;
    }
    return hi >= len + GUEST_PAGE_SIZE * 16 ? hi - len : 0;
}

int64_t mem_remap(rv_mem *m, uint64_t old_addr, uint64_t old_len, uint64_t new_len, bool may_move,
                  uint64_t hint_top)
{
    const rv_vma *v = mem_find_vma(m, old_addr);
    if (!v || v->kind != VMA_ANON || old_addr + old_len > v->end || !aligned_range(old_addr, old_len) ||
        !aligned_range(old_addr, new_len))
        return -EINVAL;
    unsigned prot = v->prot;
    char label[64] = "";
    if (v->label)
        snprintf(label, sizeof label, "%s", v->label);
    const char *lbl = *label ? label : NULL;
    if (new_len <= old_len) {
        if (new_len < old_len)
            mem_unmap(m, old_addr + new_len, old_len - new_len);
        return (int64_t)old_addr;
    }
    if (mem_range_free(m, old_addr + old_len, new_len - old_len)) {
        int r = mem_map(m, old_addr + old_len, new_len - old_len, prot, VMA_ANON, -1, 0, NULL, lbl);
        return r ? r : (int64_t)old_addr;
    }
    if (!may_move)
        return -ENOMEM;
    uint64_t dst = mem_find_free(m, new_len, hint_top);
    if (!dst)
        return -ENOMEM;
    /* The host moves the pages without copying; the hole it leaves is reserved
     * again. If the host refuses (range made of several host mappings), copy. */
    void *p = mremap(m->base + old_addr, old_len, new_len, MREMAP_MAYMOVE | MREMAP_FIXED, m->base + dst);
    if (p != MAP_FAILED) {
        mmap(m->base + old_addr, old_len, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        forget_range(m, old_addr, old_len);
        set_perm(m, old_addr, old_len, 0, false);
        rv_vma nv = {.start = dst, .end = dst + new_len, .prot = (uint8_t)prot, .kind = VMA_ANON,
                     .label = dup_or_null(lbl), .host_fd = -1};
        insert_vma(m, insertion_point(m, dst), &nv);
        set_perm(m, dst, new_len, prot, true);
        return (int64_t)dst;
    }
    int r = mem_map(m, dst, new_len, prot, VMA_ANON, -1, 0, NULL, lbl);
    if (r)
        return r;
    mem_lift_protection(m, dst, old_len);
    memcpy(m->base + dst, m->base + old_addr, old_len);
    mem_restore_protection(m, dst, old_len);
    mem_unmap(m, old_addr, old_len);
    return (int64_t)dst;
}

bool mem_read(const rv_mem *m, void *dst, uint64_t addr, uint64_t len)
{
    if (!mem_ok(m, addr, len, GP_R))
        return false;
    memcpy(dst, m->base + addr, len);
    return true;
}

bool mem_write(rv_mem *m, uint64_t addr, const void *src, uint64_t len)
{
    if (!mem_ok(m, addr, len, GP_W))
        return false;
    memcpy(m->base + addr, src, len);
    return true;
}

bool mem_read_string(const rv_mem *m, uint64_t addr, char *buf, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        if (!mem_ok_small(m, addr + i, 1, GP_R))
            return false;
        buf[i] = (char)m->base[addr + i];
        if (!buf[i])
            return true;
    }
    return false;
}
