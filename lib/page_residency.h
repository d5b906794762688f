/* Which guest pages the host has never given memory to. A guest mapping
 * that is not a host file mapping (every kind but VMA_FILE_SHARED) is
 * private anonymous host memory, and a page of it that is neither present
 * nor swapped out (/proc/self/pagemap) has never been touched: it reads as
 * zeros without being read. A checkpoint skips such pages instead of
 * faulting each in to compare it with zeros, which for a program's untouched
 * stack and reserved heap cost more than the rest of writing the checkpoint. */
#ifndef RV_PAGE_RESIDENCY_H
#define RV_PAGE_RESIDENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "mem.h"

enum { RESIDENCY_WINDOW = 512 }; /* pages looked up at a time */

typedef struct page_residency {
    int fd;                      /* /proc/self/pagemap; -1: the host cannot tell */
    uint64_t first, n;           /* host page numbers [first, first + n) are in entry[] */
    uint64_t entry[RESIDENCY_WINDOW];
} page_residency;

void page_residency_open(page_residency *r);
void page_residency_close(page_residency *r);

/* False only if guest page addr of m, in a mapping that is not a host file
 * mapping, has never been touched (so it holds zeros); true whenever the
 * host cannot tell. Cheapest for addresses in increasing order. */
bool page_may_hold_data(page_residency *r, const rv_mem *m, uint64_t addr);

#endif
