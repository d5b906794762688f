/* Commit-state accounting: every cycle is exactly one of Computing, Stalled,
 * Flushed or Drained (notes/tip.md §1), charged in whole cycles to one
 * cycle-stack component and, in exact fixed-point units of 1/U cycle
 * (U = lcm(1..commit width)), to the dynamic instruction(s) responsible. */
#ifndef SIM_ACCOUNT_H
#define SIM_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"


/* Cycle-stack components, in the order of sim/RESULTS.md. */
#define STACK_KEYS(K) \
    K(COMPUTING, computing, ST_COMPUTING) \
    K(STALLED_ALU, stalled_alu, ST_STALLED) \
    K(STALLED_LONG_ALU, stalled_long_alu, ST_STALLED) \
    K(STALLED_FP, stalled_fp, ST_STALLED) \
    K(STALLED_LOAD_L1, stalled_load_l1, ST_STALLED) \
    K(STALLED_LOAD_L2, stalled_load_l2, ST_STALLED) \
    K(STALLED_LOAD_LLC, stalled_load_llc, ST_STALLED) \
    K(STALLED_LOAD_DRAM, stalled_load_dram, ST_STALLED) \
    K(STALLED_STORE, stalled_store, ST_STALLED) \
    K(STALLED_TLB, stalled_tlb, ST_STALLED) \
    K(STALLED_SERIAL, stalled_serial, ST_STALLED) \
    K(FLUSHED_MISPREDICT, flushed_mispredict, ST_FLUSHED) \
    K(FLUSHED_CSR, flushed_csr, ST_FLUSHED) \
    K(FLUSHED_EXCEPTION, flushed_exception, ST_FLUSHED) \
    K(FLUSHED_ORDERING, flushed_ordering, ST_FLUSHED) \
    K(DRAINED_ICACHE, drained_icache, ST_DRAINED) \
    K(DRAINED_ITLB, drained_itlb, ST_DRAINED) \
    K(DRAINED_STORE_QUEUE, drained_store_queue, ST_DRAINED) \
    K(DRAINED_BUBBLE, drained_bubble, ST_DRAINED)

enum stack_key {
#define K(id, name, state) STK_##id,
    STACK_KEYS(K)
#undef K
    STK_COUNT
};

extern const char *const stack_key_names[STK_COUNT];
extern const uint8_t stack_key_state[STK_COUNT];

/* Events, counted when the instruction they belong to commits (so that the
 * counts of an instruction range do not depend on what follows it). */
#define EVENT_KEYS(E) \
    E(BRANCHES, branches) \
    E(BRANCH_MISPREDICTS, branch_mispredicts) \
    E(COND_BRANCHES, cond_branches) \
    E(COND_MISPREDICTS, cond_mispredicts) \
    E(BTB_MISSES, btb_misses) \
    E(RETURNS, returns) \
    E(RETURN_MISPREDICTS, return_mispredicts) \
    E(WRONG_PATH_FETCHED, wrong_path_fetched) \
    E(WRONG_PATH_ISSUED, wrong_path_issued) \
    E(LOADS, loads) \
    E(STORES, stores) \
    E(L1I_MISSES, l1i_misses) \
    E(L1D_MISSES, l1d_misses) \
    E(L2_MISSES, l2_misses) \
    E(LLC_MISSES, llc_misses) \
    E(ITLB_MISSES, itlb_misses) \
    E(DTLB_MISSES, dtlb_misses) \
    E(L2TLB_MISSES, l2tlb_misses) \
    E(FLUSHES_CSR, flushes_csr) \
    E(FLUSHES_EXCEPTION, flushes_exception) \
    E(ORDERING_VIOLATIONS, ordering_violations) \
    E(STORE_FORWARDS, store_forwards)

enum event_key {
#define E(id, name) EV_##id,
    EVENT_KEYS(E)
#undef E
    EV_COUNT
};
extern const char *const event_key_names[EV_COUNT];

/* Totals over a stretch of execution; differences of two snapshots give an
 * interval's figures. */
typedef struct counters {
    uint64_t instructions, cycles;
    uint64_t stack[STK_COUNT];
    uint64_t events[EV_COUNT];
} counters;

void counters_sub(counters *out, const counters *a, const counters *b); /* a - b */
void counters_add(counters *acc, const counters *x);
uint64_t counters_stack_sum(const counters *c);

#endif
