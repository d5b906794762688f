/* The golden Per-Instruction Cycle Stacks (TEA, notes/tea.md §2): every
 * cycle and every dynamic instruction, attributed as the golden TIP
 * attribution does, keyed by (pc, final PSV). The consumer of the core's
 * attribution probe: the core holds Stalled and Drained cycles on the
 * instruction they belong to until it commits, so they carry its final PSV.
 * Also gathers the paper's diagnostics: how many event-carrying
 * instructions carry several events, and how long the stalls are that carry
 * none. */
#ifndef SIM_PICS_H
#define SIM_PICS_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/probe.h"
#include "profile.h"

enum { PICS_STALL_BUCKETS = 4096 };

typedef struct pics_golden {
    uint32_t units;
    bool started;
    cost_table table;              /* pics_key(pc, psv) -> units by state, commits */
    /* Instructions that stalled at the ROB head with no event (of the
     * paper's nine), by stall length in whole cycles; the last bucket holds
     * longer ones. */
    uint64_t no_event_stalls[PICS_STALL_BUCKETS + 1];
} pics_golden;

void pics_init(pics_golden *g, uint32_t units);
/* Attribution from here on counts (the core's attribution restarts too). */
void pics_begin(pics_golden *g);
attribution_fn pics_attribute;
void pics_free(pics_golden *g);

/* The p-th percentile (0..1) of no-event stall lengths, in cycles; 0 when none. */
double pics_no_event_stall_percentile(const uint64_t hist[PICS_STALL_BUCKETS + 1], double p);

#endif
