/* Guest memory: the whole Sv39 user address space (256 GiB) is one host
 * reservation, so guest address a lives at base + a; a byte per 4 KiB page
 * holds the guest's permissions and every access is checked against it.
 * The mapping list (VMAs) records what each range is, for munmap/mprotect,
 * /proc/self/maps and checkpoints. */
#ifndef RV_MEM_H
#define RV_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GUEST_PAGE_SHIFT 12
#define GUEST_PAGE_SIZE (UINT64_C(1) << GUEST_PAGE_SHIFT)
#define GUEST_VA_SIZE (UINT64_C(1) << 38)

/* Guest permission bits, the same values as Linux PROT_*; GP_PAST_EOF
 * marks a page of a shared file mapping past the end of its file, which
 * neither the guest (SIGBUS, as on Linux) nor the host may touch. */
enum { GP_R = 1, GP_W = 2, GP_X = 4, GP_PAST_EOF = 8 };

enum vma_kind { VMA_ANON, VMA_FILE_PRIVATE, VMA_FILE_SHARED };

typedef struct rv_vma {
    uint64_t start, end; /* page aligned, end exclusive */
    uint8_t prot;
    uint8_t kind;        /* enum vma_kind */
    uint64_t file_offset;
    char *path;          /* backing file (host path) for file mappings, else NULL */
    char *label;         /* "[heap]", "[stack]", ELF path..., for maps; may be NULL */
    int host_fd;         /* a shared file mapping's file (its own descriptor), else -1 */
    uint64_t backed_end; /* shared: where the pages the file covers ended when last
                            looked at (mem_follow_files); 0 when not known */
} rv_vma;

typedef struct rv_mem {
    uint8_t *base;      /* host address of guest address 0 */
    uint8_t *perm;      /* GUEST_VA_SIZE >> GUEST_PAGE_SHIFT bytes */
    rv_vma *vmas;       /* sorted by start, non-overlapping */
    size_t nvmas, cap;
    uint64_t code_changes; /* bumped when executable memory may have changed */
    /* Every mapped page is readable (but GP_PAST_EOF pages, which the host
     * does not map readable either). The host maps every guest mapping and
     * nothing else, so it then faults exactly where a guest load would, and
     * translated code may leave the check of loads to it (jit/host_fault.c).
     * Becoming false counts as a code change: the translations go. */
    bool readable_iff_mapped;
} rv_mem;

/* The host protects the guest's pages as the guest does (readable if
 * mapped, writable if the guest may write). The emulator's own writes where
 * the guest may not write (a private file mapping's contents, the signal
 * trampoline, restored pages, pages madvise drops) go between these two;
 * the pages the range touches must be mapped. */
void mem_lift_protection(rv_mem *m, uint64_t addr, uint64_t len);
void mem_restore_protection(rv_mem *m, uint64_t addr, uint64_t len);

/* Reserve the address space. Returns false (errno set) if the host refuses. */
bool mem_init(rv_mem *m);
void mem_destroy(rv_mem *m);

/* Map [addr, addr+len) (page aligned) replacing whatever was there.
 * host_fd < 0: zero pages (anonymous, or a private copy of a file that the
 * caller fills); otherwise a host mapping of that file. Returns 0 or -errno. */
int mem_map(rv_mem *m, uint64_t addr, uint64_t len, unsigned prot, enum vma_kind kind, int host_fd,
            uint64_t offset, const char *path, const char *label);
int mem_unmap(rv_mem *m, uint64_t addr, uint64_t len);
/* A shared file mapping reaches as far as its file does now: pages past the
 * end become GP_PAST_EOF (and PROT_NONE on the host, which would otherwise
 * take the SIGBUS), pages the file grew over become accessible again. Run
 * after anything that may change a file's size (the system calls). */
void mem_follow_files(rv_mem *m);
int mem_protect(rv_mem *m, uint64_t addr, uint64_t len, unsigned prot);
/* Move/resize a mapping (mremap semantics for MREMAP_MAYMOVE). */
int64_t mem_remap(rv_mem *m, uint64_t old_addr, uint64_t old_len, uint64_t new_len, bool may_move,
                  uint64_t hint_top);
/* Highest free page-aligned range of len bytes below top; 0 if none. */
uint64_t mem_find_free(const rv_mem *m, uint64_t len, uint64_t top);
/* The mapping containing addr, or NULL. */
const rv_vma *mem_find_vma(const rv_mem *m, uint64_t addr);
bool mem_range_free(const rv_mem *m, uint64_t addr, uint64_t len);

/* True when every byte of [addr, addr+size) is mapped with all of prot. */
static inline bool mem_ok(const rv_mem *m, uint64_t addr, uint64_t size, unsigned prot)
{
    if (addr >= GUEST_VA_SIZE || size > GUEST_VA_SIZE - addr)
        return false;
    if (size == 0)
        return true;
    uint64_t first = addr >> GUEST_PAGE_SHIFT, last = (addr + size - 1) >> GUEST_PAGE_SHIFT;
    for (uint64_t pg = first; pg <= last; pg++)
        if ((m->perm[pg] & prot) != prot)
            return false;
    return true;
}

/* An access of at most 8 bytes at addr lies inside the guest space when
 * addr is below this (translated code keeps it in a host register). */
#define GUEST_SMALL_LIMIT (GUEST_VA_SIZE - 8)

static inline bool mem_small_in_bounds(uint64_t addr)
{
    return addr < GUEST_SMALL_LIMIT;
}

/* Fast check for an access of 1, 2, 4 or 8 bytes: an aligned one (nearly
 * all) lies in one page. */
static inline bool mem_ok_small(const rv_mem *m, uint64_t addr, unsigned size, unsigned prot)
{
    if (!mem_small_in_bounds(addr))
        return false;
    if (__builtin_expect((addr & (size - 1)) == 0, 1))
        return m->perm[addr >> GUEST_PAGE_SHIFT] & prot;
    return (m->perm[addr >> GUEST_PAGE_SHIFT] & prot) && (m->perm[(addr + size - 1) >> GUEST_PAGE_SHIFT] & prot);
}

static inline void *mem_host(const rv_mem *m, uint64_t addr) { return m->base + addr; }

/* Copies between guest and host for the system-call layer; they check the
 * guest permissions and return false (nothing partial is reported) on a fault. */
bool mem_read(const rv_mem *m, void *dst, uint64_t addr, uint64_t len);
bool mem_write(rv_mem *m, uint64_t addr, const void *src, uint64_t len);
/* Read a NUL-terminated guest string into buf; false if unmapped or longer than size-1. */
bool mem_read_string(const rv_mem *m, uint64_t addr, char *buf, size_t size);

#endif
