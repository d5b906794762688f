/* Performance Signature Vectors (TEA, notes/tea.md §1.2): one bit per event
 * an instruction suffered, final when it commits. The first nine are the
 * paper's Table B.1; the rest explain cases those nine leave in Base. */
#ifndef SIM_PSV_H
#define SIM_PSV_H

#include <stddef.h>
#include <stdint.h>

/* E(id, name, meaning) */
#define PSV_EVENTS(E) \
    E(DR_L1, "DR-L1", "L1 instruction cache miss (first instruction of the fetch packet)") \
    E(DR_TLB, "DR-TLB", "L1 instruction TLB miss (first instruction of the fetch packet)") \
    E(DR_SQ, "DR-SQ", "store that could not dispatch: store queue full") \
    E(FL_MB, "FL-MB", "mispredicted branch or jump") \
    E(FL_EX, "FL-EX", "exception (ecall, ebreak)") \
    E(FL_MO, "FL-MO", "memory-ordering violation (the replayed load)") \
    E(ST_L1, "ST-L1", "load missed the L1 data cache") \
    E(ST_TLB, "ST-TLB", "load or store missed the L1 data TLB") \
    E(ST_LLC, "ST-LLC", "load missed the last-level cache") \
    E(FL_CSR, "FL-CSR", "flushing CSR access (fflags/frm/fcsr) or fence.i") \
    E(ST_LAT, "ST-LAT", "long-latency unit: integer or FP divide, square root") \
    E(ST_L2, "ST-L2", "load missed the L1 data cache and hit the L2") \
    E(ST_WALK, "ST-WALK", "the data TLB miss needed a page walk") \
    E(DR_BTB, "DR-BTB", "taken branch or jump missed in the BTB")

enum psv_event {
#define E(id, name, meaning) PSV_BIT_##id,
    PSV_EVENTS(E)
#undef E
    PSV_NEVENTS
};

#define PSV(id) ((uint16_t)(1u << PSV_BIT_##id))
enum {
    PSV_TEA = PSV(DR_L1) | PSV(DR_TLB) | PSV(DR_SQ) | PSV(FL_MB) | PSV(FL_EX) | PSV(FL_MO) | PSV(ST_L1) | PSV(ST_TLB) |
              PSV(ST_LLC),
    PSV_EXTRA = PSV(FL_CSR) | PSV(ST_LAT) | PSV(ST_L2) | PSV(ST_WALK) | PSV(DR_BTB),
    PSV_IBS = PSV(DR_L1) | PSV(DR_TLB) | PSV(FL_MB) | PSV(ST_L1) | PSV(ST_TLB) | PSV(ST_LLC),
    PSV_SPE = PSV(FL_MB) | PSV(FL_EX) | PSV(ST_L1) | PSV(ST_TLB) | PSV(ST_LLC),
    PSV_RIS = PSV(DR_L1) | PSV(DR_TLB) | PSV(DR_SQ) | PSV(FL_MB) | PSV(ST_L1) | PSV(ST_TLB) | PSV(ST_LLC),
};

extern const char *const psv_event_names[PSV_NEVENTS];
extern const char *const psv_event_meanings[PSV_NEVENTS];

/* "Base" or the event names joined by ", " (the paper's legend). */
char *psv_describe(uint16_t psv, char *buf, size_t size);
/* Parse a comma-separated list of event names, or "all"; 0 on success. */
int psv_parse(const char *list, uint16_t *mask);

#endif
