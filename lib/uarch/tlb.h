/* Address translation timing: fully associative L1 I-TLB and D-TLB (LRU), a
 * shared direct-mapped L2 TLB and a fixed-latency page-table walker, over
 * 4 KiB pages. A hit in an L1 TLB costs nothing (it overlaps the cache
 * access); an L1 miss adds the L2 TLB latency, and an L2 miss the walk. */
#ifndef RV_UARCH_TLB_H
#define RV_UARCH_TLB_H

#include <stdbool.h>
#include <stdint.h>

#include "uarch/config.h"
#include "uarch/state.h"

/* A translation whose fill is still in flight in the L1 TLB (a second miss
 * to the page while its walk runs) waits for that fill and reports its
 * misses again; the stats count it as a hit. */
typedef struct tlb_result {
    uint64_t ready;   /* cycle the translation is known (now on an L1 hit) */
    bool l1_miss;
    bool l2_miss;     /* page walk (with no L2 TLB every L1 miss walks, without the L2 latency) */
} tlb_result;

/* Counted for timing and warming requests alike. l2_misses: page walks. */
typedef struct tlb_stats {
    uint64_t itlb_accesses, itlb_misses, dtlb_accesses, dtlb_misses, l2_misses;
} tlb_stats;

typedef struct tlbs tlbs;

enum { TLB_PAGE_SHIFT = 12 };

tlbs *tlbs_new(const uarch_config *c);
void tlbs_free(tlbs *t);

/* instr: the I-TLB, else the D-TLB. */
tlb_result tlbs_translate(tlbs *t, bool instr, uint64_t vaddr, uint64_t now);
/* Functional warming: the same replacement decisions, no timing. */
void tlbs_warm(tlbs *t, bool instr, uint64_t vaddr);
/* The same for n translations in order: page[i] an address in the page,
 * bit 0 set for the I-TLB, clear for the D-TLB (a warming thread's batch,
 * warm_thread.h's warm_page). */
void tlbs_warm_pages(tlbs *t, const uint64_t *page, int n);
/* n more warming translations of the page that the L1 TLB's last
 * translation (a warming one) was for: they hit its most recently used
 * entry, which changes only the access count. */
void tlbs_warm_repeated(tlbs *t, bool instr, uint64_t n);

/* Forget translations in flight: see memsys_quiesce. */
void tlbs_quiesce(tlbs *t);

const tlb_stats *tlbs_get_stats(const tlbs *t);
void tlbs_reset_stats(tlbs *t);

void tlbs_save(const tlbs *t, ustate *s);
bool tlbs_restore(tlbs *t, ustate *s);

#endif
