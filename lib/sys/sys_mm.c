/* Memory system calls: brk, mmap and friends. */
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys_internal.h"

#define PAGE_UP(a) (((a) + GUEST_PAGE_SIZE - 1) & ~(GUEST_PAGE_SIZE - 1))
#define PAGE_ALIGNED(a) (((a) & (GUEST_PAGE_SIZE - 1)) == 0)

enum {
    G_MAP_SHARED = 0x01, G_MAP_PRIVATE = 0x02, G_MAP_FIXED = 0x10, G_MAP_ANONYMOUS = 0x20,
    G_MAP_FIXED_NOREPLACE = 0x100000, G_MREMAP_MAYMOVE = 1, G_MREMAP_FIXED = 2, G_MADV_DONTNEED = 4,
};

SYS(brk)
{
    uint64_t want = a[0], cur = p->os.brk;
    if (want < p->os.brk_start || want >= GUEST_VA_SIZE)
        return (int64_t)cur;
    uint64_t old_top = PAGE_UP(cur), new_top = PAGE_UP(want);
    if (new_top > old_top) {
        if (!mem_range_free(&p->mem, old_top, new_top - old_top) ||
            mem_map(&p->mem, old_top, new_top - old_top, GP_R | GP_W, VMA_ANON, -1, 0, NULL, "[heap]"))
            return (int64_t)cur;
    } else if (new_top < old_top) {
        mem_unmap(&p->mem, new_top, old_top - new_top);
    }
    p->os.brk = want;
    return (int64_t)want;
}

/* Where a new mapping of len bytes goes; 0 if nowhere. */
static uint64_t place(rv_proc *p, uint64_t hint, uint64_t len)
{
    if (hint && PAGE_ALIGNED(hint) && mem_range_free(&p->mem, hint, len))
        return hint;
    return mem_find_free(&p->mem, len, p->os.mmap_top);
}

/* File mappings: private ones are copies (the file may change or be shorter
 * than the mapping without affecting the guest); shared ones are host
 * mappings of the file, so writes reach it, and past its end the guest gets
 * SIGBUS (mem_follow_files). */
static int map_file(rv_proc *p, uint64_t addr, uint64_t len, unsigned prot, bool shared, rv_file *f, uint64_t off)
{
    struct stat st;
    if (fstat(f->host_fd, &st) < 0)
        return -errno;
    if (!S_ISREG(st.st_mode))
        return -ENODEV;
    uint64_t file_len = (uint64_t)st.st_size > off ? (uint64_t)st.st_size - off : 0;
    if (!shared) {
        int r = mem_map(&p->mem, addr, len, prot, VMA_FILE_PRIVATE, -1, off, f->path, f->path);
        if (r)
            return r;
        uint64_t n = file_len < len ? file_len : len;
        if (!n)
            return 0;
        mem_lift_protection(&p->mem, addr, len);
        ssize_t got = pread(f->host_fd, mem_host(&p->mem, addr), n, (off_t)off);
        int e = errno;
        mem_restore_protection(&p->mem, addr, len);
        return got < 0 ? -e : 0;
    }
    return mem_map(&p->mem, addr, len, prot, VMA_FILE_SHARED, f->host_fd, off, f->path, f->path);
}

SYS(mmap)
{
    uint64_t hint = a[0], len = PAGE_UP(a[1]), off = a[5];
    unsigned prot = (unsigned)a[2] & (GP_R | GP_W | GP_X);
    int flags = (int)a[3];
    if (a[1] == 0 || len == 0 || !PAGE_ALIGNED(off) || !(flags & (G_MAP_SHARED | G_MAP_PRIVATE)))
        return -EINVAL;
    rv_file *f = NULL;
    if (!(flags & G_MAP_ANONYMOUS) && !(f = sys_file(p, a[4])))
        return -EBADF;
    uint64_t addr;
    if (flags & (G_MAP_FIXED | G_MAP_FIXED_NOREPLACE)) {
        if (!PAGE_ALIGNED(hint) || hint >= GUEST_VA_SIZE || len > GUEST_VA_SIZE - hint)
            return -EINVAL;
        if ((flags & G_MAP_FIXED_NOREPLACE) && !mem_range_free(&p->mem, hint, len))
            return -EEXIST;
        addr = hint;
    } else if (!(addr = place(p, hint, len))) {
        return -ENOMEM;
    }
    int r = f ? map_file(p, addr, len, prot, (flags & G_MAP_SHARED) != 0, f, off)
              : mem_map(&p->mem, addr, len, prot, VMA_ANON, -1, 0, NULL, NULL);
    return r ? r : (int64_t)addr;
}

SYS(munmap)
{
    if (!PAGE_ALIGNED(a[0]) || a[1] == 0)
        return -EINVAL;
    return mem_unmap(&p->mem, a[0], PAGE_UP(a[1]));
}

SYS(mprotect)
{
    if (!PAGE_ALIGNED(a[0]))
        return -EINVAL;
    if (a[1] == 0)
        return 0;
    return mem_protect(&p->mem, a[0], PAGE_UP(a[1]), (unsigned)a[2] & (GP_R | GP_W | GP_X));
}

SYS(mremap)
{
    uint64_t old_len = PAGE_UP(a[1]), new_len = PAGE_UP(a[2]);
    if (!PAGE_ALIGNED(a[0]) || new_len == 0 || (a[3] & G_MREMAP_FIXED))
        return -EINVAL;
    return mem_remap(&p->mem, a[0], old_len, new_len, (a[3] & G_MREMAP_MAYMOVE) != 0, p->os.mmap_top);
}

SYS(madvise)
{
    if (!PAGE_ALIGNED(a[0]))
        return -EINVAL;
    if (a[2] != G_MADV_DONTNEED)
        return 0; /* advice only */
    /* DONTNEED on private anonymous memory makes it read back as zeros. */
    uint64_t len = PAGE_UP(a[1]);
    for (uint64_t addr = a[0]; addr < a[0] + len; addr += GUEST_PAGE_SIZE) {
        const rv_vma *v = mem_find_vma(&p->mem, addr);
        if (!v)
            return -ENOMEM;
        if (v->kind == VMA_ANON) {
            mem_lift_protection(&p->mem, addr, GUEST_PAGE_SIZE);
            memset(mem_host(&p->mem, addr), 0, GUEST_PAGE_SIZE);
            mem_restore_protection(&p->mem, addr, GUEST_PAGE_SIZE);
        }
    }
    return 0;
}

SYS(msync)
{
    if (!PAGE_ALIGNED(a[0]))
        return -EINVAL;
    uint64_t len = PAGE_UP(a[1]);
    if (!mem_ok(&p->mem, a[0], len, 0) || !mem_find_vma(&p->mem, a[0]))
        return -ENOMEM;
    return msync(mem_host(&p->mem, a[0]), len, MS_SYNC) == 0 ? 0 : sys_err();
}
