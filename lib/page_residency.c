#include "page_residency.h"

#include <fcntl.h>
#include <unistd.h>

/* pagemap entry bits (Documentation/admin-guide/mm/pagemap.rst) */
#define PM_PRESENT (UINT64_C(1) << 63)
#define PM_SWAPPED (UINT64_C(1) << 62)

void page_residency_open(page_residency *r)
{
    r->first = r->n = 0;
    /* one host page per guest page, or the entries would not be per page */
    r->fd = sysconf(_SC_PAGESIZE) == (long)GUEST_PAGE_SIZE ? open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC) : -1;
}

void page_residency_close(page_residency *r)
{
    if (r->fd >= 0) close(r->fd);
    r->fd = -1;
}

bool page_may_hold_data(page_residency *r, const rv_mem *m, uint64_t addr)
{
    if (r->fd < 0) return true;
    uint64_t page = (uint64_t)(uintptr_t)mem_host(m, addr) / GUEST_PAGE_SIZE;
    if (page - r->first >= r->n) {
        ssize_t got = pread(r->fd, r->entry, sizeof r->entry, (off_t)(page * sizeof *r->entry));
        if (got < (ssize_t)sizeof *r->entry) return true; /* an error: no claim */
        r->first = page;
        r->n = (uint64_t)got / sizeof *r->entry;
    }
    return (r->entry[page - r->first] & (PM_PRESENT | PM_SWAPPED)) != 0;
}
